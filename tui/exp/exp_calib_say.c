/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exp_calib_say.c: the conclusions `experiment calib` prints (exp_calib_say.h). */
#include "tui/exp/exp_calib_say.h"

#include <math.h>
#include <stdio.h>

bool calib_say_spread(const int *sorted, size_t n, char *buf, size_t len)
{
	if (n == 0) {
		snprintf(buf, len, "no calibration");
		return false;
	}
	double med = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
	double lo = med > 0 ? 100.0 * (med - sorted[0]) / med : 0,
	       hi = med > 0 ? 100.0 * (sorted[n - 1] - med) / med : 0;
	double pct = fmax(lo, hi);
	bool stable = pct <= CALIB_STABLE_PCT;
	snprintf(
	    buf, len,
	    "chain_max %d to %d over %zu calibration%s, within %.0f%% of the median %g: %s",
	    sorted[0], sorted[n - 1], n, n == 1 ? "" : "s", pct, med,
	    n < 2 ? "one run says nothing of the spread"
	    : stable
		? "stable"
		: "unstable (the IPVS thread's 12 tests with 20 ms gaps kept theirs within 20%)");
	return stable && n >= 2;
}

void calib_say_ticks(double avg_ns, double max_ns, double visits, double per_est_ns, double cpu_ns,
		     char *buf, size_t len)
{
	double n = avg_ns > 0 && per_est_ns > 0 ? round(visits * per_est_ns / avg_ns) : -1;
	int k;
	if (n < 0 || !isfinite(n))
		k = snprintf(buf, len, "tick time avg %.0f us, max %.0f us", avg_ns / 1e3,
			     max_ns / 1e3);
	else
		k = snprintf(
		    buf, len, "tick time avg %.0f us, max %.0f us over %.0f tick%s with work%s",
		    avg_ns / 1e3, max_ns / 1e3, n, n == 1 ? "" : "s",
		    n <= 1 ? " (one row of estimators, which comes round once per 2 s: avg "
			     "is max)"
			   : "");
	if (k < 0 || (size_t)k >= len || cpu_ns <= 0 || per_est_ns <= 0 ||
	    cpu_ns >= per_est_ns * 0.75)
		return;
	snprintf(buf + k, len - (size_t)k,
		 ", by the clock: the est kthreads ran %.0f%% of it (%.0f ns of CPU per estimator "
		 "against %.0f), the host held them the rest",
		 100.0 * cpu_ns / per_est_ns, cpu_ns, per_est_ns);
}

void calib_say_why(const struct calib_said *g, const struct calib_said *ref, char *buf, size_t len)
{
	buf[0] = '\0';
	if (g == ref || g->chain_median <= 0 || ref->chain_median <= g->chain_median)
		return;
	int n = snprintf(buf, len,
			 "%s: chain_max %g against %s's %g (%.1fx lower): each estimator measured "
			 "%.1fx slower (%.0f ns against %.0f)",
			 g->governor, g->chain_median, ref->governor, ref->chain_median,
			 ref->chain_median / g->chain_median,
			 ref->single_min_ns > 0 ? g->single_min_ns / ref->single_min_ns : 0,
			 g->single_min_ns, ref->single_min_ns);
	if (n < 0 || (size_t)n >= len)
		return;
	if (g->mhz > 0 && ref->mhz > 0 && g->mhz < ref->mhz * 0.95)
		snprintf(buf + n, len - (size_t)n,
			 ", the CPU at %.0f MHz against %.0f: the calibration is a burst of 12 "
			 "short tests that %s does not ramp the frequency up for, so it sizes the "
			 "chains for a slow CPU",
			 g->mhz, ref->mhz, g->governor);
	else
		snprintf(buf + n, len - (size_t)n,
			 ": the calibration ran on a slower CPU than %s's", ref->governor);
}
