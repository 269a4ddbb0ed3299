/* SPDX-License-Identifier: GPL-2.0-or-later */
/* est_ewma.c: fixed-point EWMA of docs/est.md §3, bit for bit. */
#include "engine/est/est_ewma.h"

static int est_ewma_shift_in(int i)
{
	return i >= EST_INBYTES ? EST_BYTE_SHIFT_IN : EST_PKT_SHIFT_IN;
}

void est_ewma_update(struct est_ewma *e, const uint64_t sum[EST_NSTATS])
{
	for (int i = 0; i < EST_NSTATS; i++) {
		uint64_t rate = (sum[i] - e->last[i]) << est_ewma_shift_in(i);
		e->kstats[i] = sum[i];
		e->last[i] = sum[i];
		/* (s64) difference, arithmetic shift: gcc and clang shift signed values
		 * arithmetically, as the kernel relies on. */
		e->est[i] +=
		    (uint64_t)(((int64_t)rate - (int64_t)e->est[i]) >> EST_EWMA_WEIGHT_SHIFT);
	}
}

void est_ewma_read(const struct est_ewma *e, uint64_t rate[EST_NSTATS])
{
	for (int i = 0; i < EST_NSTATS; i++) {
		if (i >= EST_INBYTES)
			rate[i] = (e->est[i] + 0xF) >> EST_BYTE_SHIFT_OUT;
		else
			rate[i] = (e->est[i] + 0x1FF) >> EST_PKT_SHIFT_OUT;
	}
}

void est_ewma_zero(struct est_ewma *e, const uint64_t sum[EST_NSTATS])
{
	for (int i = 0; i < EST_NSTATS; i++) {
		e->kstats[i] = sum[i];
		e->last[i] = sum[i];
		e->est[i] = 0;
	}
}
