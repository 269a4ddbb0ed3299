/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blk_stats.c: latency histogram and its interval quantiles (blk_stats.h). */
#include "engine/blk/blk_stats.h"

#include <stddef.h>

unsigned blk_hist_index(uint64_t ns)
{
	const unsigned sub = 1u << BLK_HIST_SUB_BITS;

	if (ns < sub)
		return (unsigned)ns;
	unsigned e = 63u - (unsigned)__builtin_clzll(ns); /* >= BLK_HIST_SUB_BITS */
	if (e >= BLK_HIST_MAX_LOG2)
		return BLK_HIST_BUCKETS - 1;
	unsigned idx = ((e - BLK_HIST_SUB_BITS + 1) << BLK_HIST_SUB_BITS) |
		       (unsigned)((ns >> (e - BLK_HIST_SUB_BITS)) & (sub - 1));
	return idx < BLK_HIST_BUCKETS ? idx : BLK_HIST_BUCKETS - 1;
}

/* Width of bucket idx in ns: 1 in the exact range, 2^(e - SUB_BITS) in octave e. */
static uint64_t blk_hist_bucket_width_ns(unsigned idx)
{
	if (idx < (1u << BLK_HIST_SUB_BITS))
		return 1;
	unsigned e = (idx >> BLK_HIST_SUB_BITS) + BLK_HIST_SUB_BITS - 1;
	return 1ull << (e - BLK_HIST_SUB_BITS);
}

uint64_t blk_hist_bucket_lo_ns(unsigned idx)
{
	const unsigned sub = 1u << BLK_HIST_SUB_BITS;

	if (idx < sub)
		return idx;
	unsigned e = (idx >> BLK_HIST_SUB_BITS) + BLK_HIST_SUB_BITS - 1;
	return (1ull << e) + (uint64_t)(idx & (sub - 1)) * blk_hist_bucket_width_ns(idx);
}

uint64_t blk_hist_bucket_mid_ns(unsigned idx)
{
	return blk_hist_bucket_lo_ns(idx) + blk_hist_bucket_width_ns(idx) / 2;
}

void blk_hist_add(struct blk_hist *h, uint64_t ns)
{
	atomic_fetch_add_explicit(&h->b[blk_hist_index(ns)], 1, memory_order_relaxed);
}

void blk_hist_read(struct blk_hist *h, struct blk_hist_copy *cur)
{
	for (unsigned i = 0; i < BLK_HIST_BUCKETS; i++)
		cur->b[i] = atomic_load_explicit(&h->b[i], memory_order_relaxed);
}

uint64_t blk_hist_quantile_ns(const struct blk_hist_copy *cur, const struct blk_hist_copy *prev,
			      double q, uint64_t *n)
{
	uint64_t total = 0, seen = 0;

	for (unsigned i = 0; i < BLK_HIST_BUCKETS; i++)
		total += cur->b[i] - (prev ? prev->b[i] : 0);
	if (n)
		*n = total;
	if (total == 0)
		return 0;
	/* The smallest bucket whose cumulative count reaches ceil(q * total). */
	uint64_t rank = (uint64_t)(q * (double)total);
	if ((double)rank < q * (double)total)
		rank++;
	if (rank == 0)
		rank = 1;
	for (unsigned i = 0; i < BLK_HIST_BUCKETS; i++) {
		seen += cur->b[i] - (prev ? prev->b[i] : 0);
		if (seen >= rank)
			return blk_hist_bucket_mid_ns(i);
	}
	return blk_hist_bucket_mid_ns(BLK_HIST_BUCKETS - 1);
}
