/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exp_ab.h: what exp_ab.c (the run) hands exp_ab_report.c (the results): the run as it went. */
#ifndef TT_EXP_AB_H
#define TT_EXP_AB_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "tui/exp/exp_diag.h"
#include "tui/exp/exp_stats.h"
#include "tui/exp/experiment.h"
#include "tui/pass.h"

#define AB_MAX_METRICS 16

/* One arm as it ran: which value, in which pass, set when (CLOCK_REALTIME seconds). */
struct ab_arm {
	size_t value, pass;
	double set_s;
	double lost_kicks; /* blk.lost_kicks at its window's end (the fault's own count) */
};

/* One run: its options, its source, and what its windows measured. */
struct ab {
	struct exp_common c;
	const char *knob, *list; /* --knob, --values */
	int id;
	const char *metrics[AB_MAX_METRICS], *values[EXP_MAX_LIST];
	size_t nmetrics, nvalues, passes;
	char *values_copy;
	double limit;
	struct source *src;
	double *samples; /* [metric][value][kept pass] */
	double *aside_samples; /* [metric][value][set-aside round]: NAN where none */
	double *took; /* [value][kept pass] */
	double *pend; /* [metric][value]: the round's figures until it is judged */
	double *pend_took; /* [value] */
	json_t **pend_snap; /* [value]: its findings count once the pass is kept */
	bool *missing; /* [metric] */
	struct exp_findings *found; /* [value] */
	struct ab_arm *arms;
	const struct exp_summary *sums, *took_sum; /* the report's: [metric][value], [value] */
	size_t narms, hang_value, hang_pass, done;
	char hang[256];
	bool tty;
};

/* The results of the kept passes: the tables (or the JSON), the verdict (inconclusive: 1) and
 * the pictures. rc is the run's status so far; returns the experiment's. */
int exp_ab_report(struct ab *ab, const struct pass_run *r, int rc);

#endif
