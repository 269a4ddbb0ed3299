/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snap_diag.h: the diagnoses a snapshot carries: the findings of the rules (diag/diag.h computes
 * them, tui/after.c attaches them once per sample) that JSON, the exporter and the console read. */
#ifndef TT_SNAP_DIAG_H
#define TT_SNAP_DIAG_H

#include <stdbool.h>
#include <stdint.h>

#include "core/event.h"

enum diag_severity { DIAG_INFO, DIAG_WARNING, DIAG_CRITICAL };

#define DIAG_MAX_EVIDENCE 8
#define DIAG_CONCLUSION_MAX 320
#define DIAG_FIX_MAX 64
#define DIAG_MAX_FINDINGS 16 /* at most one finding per rule */
/* Samples in a row a rule may leave undecided before they count as clean. */
#define DIAG_MAX_UNDECIDED 2

/* One figure a finding rests on, with its value and unit. */
struct diag_evidence {
	char figure[48]; /* a JSON path of the snapshot, or a derived name
			    ("pmd.threads[1].ring_fill_us") */
	double value;
	const char *unit; /* static */
};

struct diag_finding {
	const char *id; /* "pmd.sleep_outlasts_ring", static */
	enum diag_severity severity;
	uint64_t since_seq; /* seq of the first of the consecutive samples that raised it */
	uint64_t since_wall_ns; /* that sample's CLOCK_REALTIME */
	int nevidence;
	struct diag_evidence evidence[DIAG_MAX_EVIDENCE];
	char conclusion[DIAG_CONCLUSION_MAX]; /* one sentence */
	char fix[DIAG_FIX_MAX]; /* a knob assignment ("pmd.timer_slack_ns=1000"), "" for none */
	/* Set by a rule that returns false because this sample cannot say either way (a
	 * thread that did not run in the interval): the hysteresis neither counts nor resets
	 * it, at most DIAG_MAX_UNDECIDED samples in a row. Not part of the output. */
	bool undecided;
};

/* The snapshot's diagnoses. A source never sets them (source_sample clears evaluated): only the
 * front end's after-sample step does, so a snapshot nobody diagnosed has none, and JSON then
 * writes no "diagnoses" (an experiment's window, a console's history line). */
struct snap_diag {
	bool evaluated;
	int n;
	struct diag_finding f[DIAG_MAX_FINDINGS]; /* the active findings, most severe first */
	/* Findings that started or cleared at this sample: the "diag" events. They replace the
	 * diag events a recording or a far agent carried (docs/diag.md "JSON"). */
	int nchanges;
	char change[DIAG_MAX_FINDINGS][EVENT_TEXT_MAX];
};

#endif
