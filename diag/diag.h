/* SPDX-License-Identifier: GPL-2.0-or-later */
/* diag.h: the diagnosis layer: rules that read snapshots and say what they see (docs/diag.md). */
#ifndef TT_DIAG_H
#define TT_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/snap_diag.h"
#include "core/snapshot.h"

/* A finding starting or clearing at the last diag_eval (for the event log). */
struct diag_change {
	const char *id;
	bool started; /* else cleared */
	char text[EVENT_TEXT_MAX];
};

/* Hysteresis of one rule: consecutive samples with and without its condition. */
struct diag_rule_state {
	int hits, clean;
	int undecided; /* consecutive samples the rule could not judge (diag_finding.undecided) */
	uint64_t decided_wall_ns; /* the last sample it judged */
	bool active;
	uint64_t first_seq, first_wall_ns; /* the first sample of the current run of hits */
	struct diag_finding held; /* the finding as last seen while its condition held */
	int change; /* last eval: +1 started, -1 cleared, 0 none */
};

/* What diag_eval remembers between samples; one per source (per host with --remote). */
struct diag_state {
	int nrules;
	struct diag_rule_state rule[DIAG_MAX_FINDINGS];
};

void diag_init(struct diag_state *st);
/*
 * Evaluate every rule on snap (the next sample of the source st follows) and write
 * the active findings to out (at most max), most severe first; returns how many.
 * Pure apart from st: the same snapshots in the same order give the same findings.
 */
int diag_eval(struct diag_state *st, const struct snapshot *snap, struct diag_finding *out,
	      int max);
/*
 * Every rule once on snap, a snapshot whose deltas span a whole measurement window (an
 * experiment's pass): no hysteresis, since the window is already seconds of samples in one.
 * The findings go to out (at most max), most severe first, since = snap; returns how many.
 */
int diag_eval_window(const struct snapshot *snap, struct diag_finding *out, int max);
/* The findings that started or cleared at the last diag_eval; returns how many. */
int diag_changes(const struct diag_state *st, struct diag_change *out, int max);

/* "info", "warning", "critical". */
const char *diag_severity_name(enum diag_severity s);
/* Every rule's id, for the exporter's gauge and the docs (NULL past the end). */
const char *diag_rule_id(int i);
int diag_rule_count(void);
/* Rule i is active in st (after the last diag_eval). */
bool diag_rule_active(const struct diag_state *st, int i);

#endif
