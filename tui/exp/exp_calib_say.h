/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exp_calib_say.h: what `experiment calib` concludes from its runs, in the IPVS thread's terms
 * (docs/est.md §7, docs/conclusions.md I1 and I6): how far the calibrations spread, why one
 * governor's chain_max is lower than another's, and how many ticks its tick figures span. */
#ifndef TT_EXP_CALIB_SAY_H
#define TT_EXP_CALIB_SAY_H

#include <stdbool.h>
#include <stddef.h>

/* Calibrations within this much of their median are stable: the thread's 12 tests with three
 * 20 ms gaps gave 30-something on 64 CPUs, never below 30 (docs/est.md §7). */
#define CALIB_STABLE_PCT 20.0

/* One governor's result as the verdicts read it. */
struct calib_said {
	const char *governor;
	double chain_median, single_min_ns,
	    mhz; /* mhz: at the calibrations, median; <= 0 unknown */
};

/* The spread of n chain_max values sorted ascending: "chain_max 41 to 43 over 10 calibrations,
 * within 2% of the median 42: stable" (or "unstable"); true when stable. */
bool calib_say_spread(const int *sorted, size_t n, char *buf, size_t len);
/* How many ticks the tick figures span: the window's visits x per-estimator time / the average
 * tick ("over 1 tick with work: one row of estimators, which comes round once per 2 s"); and,
 * when the est kthreads' CPU per estimator visited (cpu_ns, <= 0 unknown) is under 3/4 of the
 * clock's, that the host held them the rest: the tick time is then the host's, not chain_max's. */
void calib_say_ticks(double avg_ns, double max_ns, double visits, double per_est_ns, double cpu_ns,
		     char *buf, size_t len);
/* Why g's chain_max is lower than ref's (the one with the highest): "" when it is not lower. */
void calib_say_why(const struct calib_said *g, const struct calib_said *ref, char *buf, size_t len);

#endif
