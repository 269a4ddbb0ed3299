/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hist_log2.h: a log2 histogram of nanoseconds with 8 linear sub-buckets per power of two
 * (HdrHistogram's layout at 3 bits): the bucket function is shared by the eBPF sleep probe
 * (backends/host/bpf/sleep_probe.bpf.c) and user space, so it is plain C without libc. */
#ifndef TT_HIST_LOG2_H
#define TT_HIST_LOG2_H

#ifndef __bpf__
#include <stdint.h>
typedef uint64_t hist_log2_u64;
#else
typedef __u64 hist_log2_u64;
#endif

/* Sub-buckets per power of two: 2^3 = 8, so a bucket is at most 1/8 of its lower bound wide
 * (at 50 us overshoot, 4.1 us; below 8 ns every value has its own bucket). */
#define HIST_LOG2_SUB_BITS 3
#define HIST_LOG2_SUB (1u << HIST_LOG2_SUB_BITS)
/* Values up to 2^36 ns (68 s) have their bucket; larger ones go in the last. */
#define HIST_LOG2_MAX_MSB 36
#define HIST_LOG2_BUCKETS ((HIST_LOG2_MAX_MSB - HIST_LOG2_SUB_BITS + 2) * HIST_LOG2_SUB)

/* Index of the highest set bit (v > 0), without loops (the BPF verifier's taste). */
static inline unsigned hist_log2_msb(hist_log2_u64 v)
{
	unsigned r = 0;
	if (v >> 32) {
		v >>= 32;
		r += 32;
	}
	if (v >> 16) {
		v >>= 16;
		r += 16;
	}
	if (v >> 8) {
		v >>= 8;
		r += 8;
	}
	if (v >> 4) {
		v >>= 4;
		r += 4;
	}
	if (v >> 2) {
		v >>= 2;
		r += 2;
	}
	if (v >> 1)
		r += 1;
	return r;
}

/* The bucket of v: v itself below 8; else 8 per power of two, by the next 3 bits. */
static inline unsigned hist_log2_bucket(hist_log2_u64 v)
{
	if (v < HIST_LOG2_SUB)
		return (unsigned)v;
	unsigned m = hist_log2_msb(v);
	if (m > HIST_LOG2_MAX_MSB)
		return HIST_LOG2_BUCKETS - 1;
	return (m - HIST_LOG2_SUB_BITS + 1) * HIST_LOG2_SUB +
	       (unsigned)((v >> (m - HIST_LOG2_SUB_BITS)) & (HIST_LOG2_SUB - 1));
}

#ifndef __bpf__
#include <stddef.h>
/* Lowest value of bucket b, and one past its highest (hi of the last is UINT64_MAX). */
uint64_t hist_log2_lo(unsigned b);
uint64_t hist_log2_hi(unsigned b);
/*
 * Quantile q (0..1) of counts[n] (n <= HIST_LOG2_BUCKETS), in the values' unit: the bucket
 * holding rank ceil(q * total) (nearest rank), interpolated linearly within it as if its
 * samples were spread evenly over [lo, hi). 0 when empty. Pure.
 */
double hist_log2_quantile(const uint64_t *counts, unsigned n, double q);
#endif

#endif
