/* SPDX-License-Identifier: GPL-2.0-or-later */
/* est_ewma.h: the kernel's fixed-point rate estimator (docs/est.md §3). */
#ifndef TT_EST_EWMA_H
#define TT_EST_EWMA_H

#include <stdint.h>

/* The five counters of struct ip_vs_cpu_stats, in this order everywhere. */
enum est_stat { EST_CONNS, EST_INPKTS, EST_OUTPKTS, EST_INBYTES, EST_OUTBYTES, EST_NSTATS };

/*
 * Scales of §3: cps and pps are kept x2^10 and bps x2^5; one estimation runs
 * every 2 s, so the difference is shifted by one less (9 and 4). The EWMA
 * weight is 2^-2 (avg = 3/4 avg + 1/4 rate).
 */
#define EST_PKT_SHIFT_IN 9
#define EST_PKT_SHIFT_OUT 10
#define EST_BYTE_SHIFT_IN 4
#define EST_BYTE_SHIFT_OUT 5
#define EST_EWMA_WEIGHT_SHIFT 2

struct est_ewma {
	uint64_t kstats[EST_NSTATS]; /* the last summed totals */
	uint64_t last[EST_NSTATS]; /* last_conns ... last_outbytes */
	uint64_t est[EST_NSTATS]; /* cps, inpps, outpps, inbps, outbps (scaled) */
};

/* One 2-second estimation with the new totals (u64 wrap-around, signed diff). */
void est_ewma_update(struct est_ewma *e, const uint64_t sum[EST_NSTATS]);
/* ip_vs_read_estimator(): decoded rates with the read-side rounding. */
void est_ewma_read(const struct est_ewma *e, uint64_t rate[EST_NSTATS]);
/* ip_vs_zero_estimator(): rates 0, the current totals become the zero point. */
void est_ewma_zero(struct est_ewma *e, const uint64_t sum[EST_NSTATS]);

#endif
