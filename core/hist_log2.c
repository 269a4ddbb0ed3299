/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hist_log2.c: bucket bounds and quantiles of the log2 (8 sub-bucket) histogram. */
#include "core/hist_log2.h"

#include <math.h>

uint64_t hist_log2_lo(unsigned b)
{
	if (b < HIST_LOG2_SUB)
		return b;
	unsigned m = b / HIST_LOG2_SUB + HIST_LOG2_SUB_BITS - 1; /* its power of two */
	return (uint64_t)(HIST_LOG2_SUB + b % HIST_LOG2_SUB) << (m - HIST_LOG2_SUB_BITS);
}

uint64_t hist_log2_hi(unsigned b)
{
	if (b + 1 >= HIST_LOG2_BUCKETS)
		return UINT64_MAX;
	return hist_log2_lo(b + 1);
}

double hist_log2_quantile(const uint64_t *counts, unsigned n, double q)
{
	uint64_t total = 0, seen = 0;
	if (n > HIST_LOG2_BUCKETS)
		n = HIST_LOG2_BUCKETS;
	for (unsigned i = 0; i < n; i++)
		total += counts[i];
	if (total == 0)
		return 0;
	if (q < 0)
		q = 0;
	if (q > 1)
		q = 1;
	/* Nearest rank, as pmd_hist_percentile(): the epsilon keeps 0.99 * 100 at 99. */
	uint64_t want = (uint64_t)ceil(q * (double)total - 1e-9);
	if (want == 0)
		want = 1;
	for (unsigned i = 0; i < n; i++) {
		if (seen + counts[i] < want) {
			seen += counts[i];
			continue;
		}
		double lo = (double)hist_log2_lo(i);
		if (i + 1 >= HIST_LOG2_BUCKETS)
			return lo; /* open-ended: its lower bound is all that is known */
		double w = (double)(hist_log2_hi(i) - hist_log2_lo(i));
		/* The want-th of the bucket's counts[i] samples, at the middle of its share. */
		return lo + w * ((double)(want - seen) - 0.5) / (double)counts[i];
	}
	return (double)hist_log2_lo(n - 1);
}
