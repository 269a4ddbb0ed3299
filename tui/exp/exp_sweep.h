/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exp_sweep.h: what exp_sweep.c (the run) hands exp_sweep_report.c (the results). */
#ifndef TT_EXP_SWEEP_H
#define TT_EXP_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tui/exp/exp_diag.h"
#include "tui/exp/exp_stats.h"
#include "tui/exp/experiment.h"
#include "tui/pass.h"

#define SWEEP_MAX_PASSES 100
#define SWEEP_DEFAULT_PASSES 3
/* "Zero drop" for cheapest_zero_drop: every pass under this drop%. A rounding floor, not a
 * goal (docs/pmd.md: drops come in whole packets over ~10^5 a second); the answer is the
 * cheapest setting within --drop-budget. */
#define SWEEP_ZERO_DROP_PCT 0.01

#define SWEEP_NCOLS 10
#define SWEEP_COL_DROP 1
#define SWEEP_COL_CPU 3
#define SWEEP_COL_NSPKT 7
#define SWEEP_COL_SHARE 8
#define SWEEP_COL_TOOK 9

struct sweep_col {
	const char *title;
	const char *path;
	/* When non-NULL: above 0, the figure of that pass is a lower bound (it fell in a
	 * histogram's open top bucket: sleep_overshoot_us.p99_at_least in docs/json.md). */
	const char *at_least;
};
/* The columns of the seed's tables, in order (exp_sweep_report.c). */
extern const struct sweep_col exp_sweep_cols[SWEEP_NCOLS];

struct sweep_point {
	int64_t ms, slack, rate; /* rate -1: the scenario's */
	double rate_v;
	size_t ok, failed;
	size_t set_aside; /* passes the host took more than the limit of */
	double aside_took[2 * SWEEP_MAX_PASSES]; /* their host took % */
	bool have[SWEEP_NCOLS];
	bool at_least[SWEEP_NCOLS]; /* a kept pass's figure was a lower bound: so is the median */
	double v[SWEEP_NCOLS][SWEEP_MAX_PASSES];
	struct exp_summary sum[SWEEP_NCOLS];
	char hang[256]; /* the first hang seen at this point */
	struct exp_findings diag; /* what the rules said of its passes */
};

/* One run: its options, its points, the window waiting for its verdict. */
struct sweep {
	struct exp_common c;
	struct sweep_point *pts;
	size_t npts, passes;
	double budget, limit;
	json_t *snap; /* the last window, until judged */
	double took; /* its host took, NAN unknown */
	bool tty, many_rates;
	size_t best; /* the answer, npts when none: the picture marks it */
	json_t *result; /* the result (exp_sweep_report.c): its rows label the picture */
};

/* The results: the tables or the JSON, the picture, and the hangs; returns the status. */
int exp_sweep_report(struct sweep *sw, const struct pass_run *r, size_t nrate);

#endif
