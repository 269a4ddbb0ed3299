/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blk_hist_le.c: completion latency totals as the cumulative buckets Prometheus histograms need. */
#include "engine/blk/blk_hist_le.h"

void blk_hist_le_fill(const struct blk_hist_copy *cur, struct blk_snap *b)
{
	static const uint64_t le_ns[BLK_SNAP_LAT_NLE] = BLK_SNAP_LAT_LE_NS;
	uint64_t seen = 0;
	double sum_ns = 0;
	unsigned j = 0;

	/* A bucket counts under bound B when it starts below B; the next bucket's lower
	 * edge is its end, so one that straddles B is left out (HDR: within 0.8%). */
	for (unsigned i = 0; i < BLK_HIST_BUCKETS; i++) {
		uint64_t hi = i + 1 < BLK_HIST_BUCKETS ? blk_hist_bucket_lo_ns(i + 1) : UINT64_MAX;
		while (j < BLK_SNAP_LAT_NLE && hi > le_ns[j])
			b->lat_le[j++] = seen;
		seen += cur->b[i];
		sum_ns += (double)cur->b[i] * (double)blk_hist_bucket_mid_ns(i);
	}
	while (j < BLK_SNAP_LAT_NLE)
		b->lat_le[j++] = seen;
	b->lat_count = seen;
	b->lat_sum_ns = sum_ns;
}
