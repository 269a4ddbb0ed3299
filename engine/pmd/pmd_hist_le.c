/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pmd_hist_le.c: sleep overshoot totals as the cumulative buckets Prometheus histograms need. */
#include "engine/pmd/pmd_hist_le.h"

void pmd_hist_le_fill(const uint64_t *hist, unsigned nbuckets, struct pmd_thread_snap *t)
{
	static const uint64_t le_us[PMD_SNAP_OVERSHOOT_NLE] = PMD_SNAP_OVERSHOOT_LE_US;
	uint64_t seen = 0;
	double sum_us = 0;
	unsigned j = 0;

	/* Bucket b holds [b, b + 1) us, so it is under bound B exactly when b + 1 <= B. */
	for (unsigned b = 0; b < nbuckets; b++) {
		while (j < PMD_SNAP_OVERSHOOT_NLE && b + 1 > le_us[j])
			t->overshoot_le[j++] = seen;
		seen += hist[b];
		sum_us += (double)hist[b] * ((double)b + 0.5);
	}
	while (j < PMD_SNAP_OVERSHOOT_NLE)
		t->overshoot_le[j++] = seen;
	t->overshoot_count = seen;
	t->overshoot_sum_us = sum_us;
}
