/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blk_stats.h: completion latency histogram (p50/p99/p99.9) shared by every completing thread. */
#ifndef TT_BLK_STATS_H
#define TT_BLK_STATS_H

#include <stdatomic.h>
#include <stdint.h>

/*
 * HDR-style log-linear buckets over nanoseconds: 2^BLK_HIST_SUB_BITS linear
 * sub-buckets per power of two, exact below 2^BLK_HIST_SUB_BITS ns, up to
 * 2^BLK_HIST_MAX_LOG2 ns (18 minutes). With 128 sub-buckets a bucket is at most
 * 1/128 (0.78%) of its lower bound wide, so the midpoint a quantile reports is
 * within 0.4% of every sample in it: fine enough to tell a steering change of
 * a few microseconds at 1 ms apart, over the whole 1 us .. 1 s range. (It had
 * 8 sub-buckets, 12.5% wide: every p50 near 2 ms read 2031.616 us whatever
 * rq_affinity was.) 4352 buckets, 34 KiB.
 *
 * Several threads complete requests (blk-irq directly, every submitter in its
 * softirq), so each add is a relaxed fetch_add: each bucket stands alone and
 * the sampler only needs counts that are eventually right and never go down.
 */
#define BLK_HIST_SUB_BITS 7
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
uint64_t blk_hist_bucket_lo_ns(unsigned idx); /* smallest value of a bucket */
uint64_t blk_hist_bucket_mid_ns(unsigned idx); /* representative value of a bucket */
void blk_hist_add(struct blk_hist *h, uint64_t ns);
/* Copy the live counts into cur (relaxed loads). */
void blk_hist_read(struct blk_hist *h, struct blk_hist_copy *cur);
/*
 * The q-quantile (0 < q <= 1) of the interval cur - prev, in ns: the midpoint of
 * the bucket holding the ceil(q * n)-th smallest sample (nearest rank, as fio's
 * clat percentiles); 0 when the interval is empty. Returns the number of
 * samples in *n if n is non-NULL.
 */
uint64_t blk_hist_quantile_ns(const struct blk_hist_copy *cur, const struct blk_hist_copy *prev,
			      double q, uint64_t *n);

#endif
