/* SPDX-License-Identifier: GPL-2.0-or-later */
/* est_calib.h: chain_max calibration, ip_vs_est_calc_limits() (docs/est.md §4). */
#ifndef TT_EST_CALIB_H
#define TT_EST_CALIB_H

#include <stdbool.h>
#include <stdint.h>

#define EST_CALC_TESTS 12 /* §4: tests run */
#define EST_CALC_PAUSE_EVERY 4 /* §4: a pause before tests 0, 4 and 8 */
#define EST_CALC_PAUSE_NS 20000000ULL /* §4: HZ/50 = 20 ms for cpufreq to ramp up */
#define EST_CALC_GOAL_NS 95000ULL /* §4: 95 us per chain */
#define EST_CALC_DEFAULT_MAX 8 /* §4: chain_max when no test was valid */
#define EST_CALC_MIN_DIFF_NS 1000ULL /* §4: at or under 1 us, double loops */
#define EST_CALC_MAX_DIFF_NS 1000000000ULL /* §4: at or over 1 s, skip the test */

/*
 * The timing and work the calibration uses, injectable so unit tests can feed
 * it exact timings. pass() estimates the calc chain once; pause() sleeps and
 * returns false when the thread was stopped; stopped() checks after a test;
 * stretch() (may be NULL) stretches measured work on a slow emulated CPU.
 */
struct est_calib_io {
	void *ctx;
	uint64_t (*now_ns)(void *ctx);
	void (*pass)(void *ctx);
	bool (*pause)(void *ctx, uint64_t ns);
	bool (*stopped)(void *ctx);
	void (*stretch)(void *ctx, uint64_t work_ns);
};

struct est_calib_result {
	int chain_max; /* max: 8 when no test was valid */
	uint64_t min_est_ns; /* best diff/loops (4 passes over the cached estimator) */
	uint64_t diff_ns; /* raw ns of the last test run */
	int loops; /* final loops multiplier */
	int tests; /* tests run (12 unless aborted) */
	int valid; /* tests that gave a value */
	bool aborted;
};

/* 95000 / min_est, or 1 when min_est exceeds the goal. */
int est_calib_max_for(uint64_t min_est_ns);
/* Run the 12 tests; returns false when aborted (r is filled either way). */
bool est_calc_limits(const struct est_calib_io *io, int cache_factor, struct est_calib_result *r);

#endif
