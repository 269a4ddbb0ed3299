/* blk_stats.h: completion latency histogram (p50/p99/p99.9) shared by every completing thread. */
#ifndef TT_BLK_STATS_H
#define TT_BLK_STATS_H

#include <stdatomic.h>
#include <stdint.h>

/*
 * Log-linear buckets over nanoseconds: 8 sub-buckets per power of two (at most
 * 12.5% wide), exact below 8 ns, up to 2^40 ns (18 minutes). Any thread that
 * completes a request adds to it with a relaxed fetch_add: each bucket stands
 * alone and the sampler only needs a count that is eventually right.
 */
#define BLK_HIST_SUB_BITS 3
#define BLK_HIST_MAX_LOG2 40
#define BLK_HIST_BUCKETS ((BLK_HIST_MAX_LOG2 - BLK_HIST_SUB_BITS + 1) << BLK_HIST_SUB_BITS)

struct blk_hist {
	_Atomic uint64_t b[BLK_HIST_BUCKETS];
};

/* A plain copy the sampler keeps to subtract. */
struct blk_hist_copy {
	uint64_t b[BLK_HIST_BUCKETS];
};

unsigned blk_hist_index(uint64_t ns);
uint64_t blk_hist_bucket_mid_ns(unsigned idx); /* representative value of a bucket */
void blk_hist_add(struct blk_hist *h, uint64_t ns);
/* Copy the live counts into cur (relaxed loads). */
void blk_hist_read(struct blk_hist *h, struct blk_hist_copy *cur);
/*
 * The q-quantile (0 < q <= 1) of the interval cur - prev, in ns; 0 when the
 * interval is empty. Returns the number of samples in *n if n is non-NULL.
 */
uint64_t blk_hist_quantile_ns(const struct blk_hist_copy *cur, const struct blk_hist_copy *prev,
			      double q, uint64_t *n);

#endif
