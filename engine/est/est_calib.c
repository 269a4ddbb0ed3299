/* SPDX-License-Identifier: GPL-2.0-or-later */
/* est_calib.c: the 12-test calibration of docs/est.md §4, step by step. */
#include "engine/est/est_calib.h"

#include <string.h>

int est_calib_max_for(uint64_t min_est_ns)
{
	if (min_est_ns == 0)
		return EST_CALC_DEFAULT_MAX;
	if (EST_CALC_GOAL_NS >= min_est_ns)
		return (int)(EST_CALC_GOAL_NS / min_est_ns);
	return 1;
}

bool est_calc_limits(const struct est_calib_io *io, int cache_factor, struct est_calib_result *r)
{
	int loops = 1;
	uint64_t min_est = 0;
	int max = EST_CALC_DEFAULT_MAX;

	memset(r, 0, sizeof(*r));
	for (int ntest = 0; ntest < EST_CALC_TESTS; ntest++) {
		if (ntest % EST_CALC_PAUSE_EVERY == 0 && !io->pause(io->ctx, EST_CALC_PAUSE_NS))
			goto stop;

		io->pass(io->ctx); /* put the stats in cache */
		uint64_t t1 = io->now_ns(io->ctx);
		for (int i = loops * cache_factor; i > 0; i--)
			io->pass(io->ctx);
		uint64_t t2 = io->now_ns(io->ctx);
		if (io->stretch) {
			/* A slow emulated CPU makes the same passes take longer. */
			io->stretch(io->ctx, t2 - t1);
			t2 = io->now_ns(io->ctx);
		}
		r->tests = ntest + 1;
		if (io->stopped(io->ctx))
			goto stop;

		uint64_t diff = t2 - t1;
		r->diff_ns = diff;
		if (diff <= EST_CALC_MIN_DIFF_NS) {
			loops *= 2; /* clock too coarse for this few passes */
			continue;
		}
		if (diff >= EST_CALC_MAX_DIFF_NS)
			continue;
		r->valid++;
		uint64_t val = diff / (uint64_t)loops;
		if (!min_est || val < min_est) {
			min_est = val;
			max = est_calib_max_for(min_est);
		}
	}
	r->chain_max = max;
	r->min_est_ns = min_est;
	r->loops = loops;
	return true;
stop:
	r->chain_max = max;
	r->min_est_ns = min_est;
	r->loops = loops;
	r->aborted = true;
	return false;
}
