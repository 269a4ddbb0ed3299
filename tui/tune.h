/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tune.h: the live tuner: a knob stepped on a running source, fed one snapshot at a time
 * (docs/experiments.md "The live tuner"). Curses-free and I/O-free: the caller samples
 * and puts the values in force, so the console, the experiment and the tests drive it alike. */
#ifndef TT_TUNE_H
#define TT_TUNE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/knob.h"
#include "core/snapshot.h"

#define TUNE_MAX_STEPS 32
/* Samples left out after a value is read back in force (the PMDs adapt their sleep, rings
 * refill); the first sample that shows the value only says it was in force at its end. */
#define TUNE_SETTLE_SAMPLES 1
/* Samples waited for the value to show in a snapshot before the step is given up: a source
 * that never reads it back cannot be measured under it. */
#define TUNE_READBACK_SAMPLES 20
/* A step's windows set aside at most: one the host took more than PASS_HOST_TOOK_LIMIT_PCT of
 * is measured again, once (tui/pass.h's rule); the second stands, with its host took. */
#define TUNE_ASIDE_MAX 1
/* A timer slack this fine lets a PMD sleep as long as it asks (the seed's fix, docs/pmd.md). */
#define TUNE_FINE_SLACK_NS 1000

enum tune_state {
	TUNE_OFF,
	TUNE_WAIT, /* the step's value set, not yet seen in a snapshot */
	TUNE_SETTLE, /* seen; TUNE_SETTLE_SAMPLES left out */
	TUNE_MEASURE, /* the window is being measured */
	TUNE_FINAL, /* rolled back to the last good value; the best is put next */
	TUNE_DONE, /* ended on the best (or the start value when none was in budget) */
	TUNE_ABORTED, /* stopped: the start value put back */
	TUNE_FAILED, /* a step could not be set or read back: the start value put back */
};

enum tune_verdict {
	TUNE_V_PENDING, /* not measured (yet) */
	TUNE_V_OK, /* within the budget */
	TUNE_V_OVER, /* broke the budget: the last good value was put back at once */
	TUNE_V_BEST, /* within the budget and the cheapest: where the tuner ended */
	TUNE_V_ABORTED, /* the run was stopped during this step */
	TUNE_V_FAILED, /* the value was refused or never read back */
};

struct tune_step {
	int64_t value; /* asked */
	int64_t stored; /* read back in force */
	double secs; /* measured window */
	uint64_t offered, dropped, forwarded; /* packets in the window (counter deltas) */
	double drop_pct; /* dropped / offered */
	double cpu_pct; /* the PMDs' CPU over the window, % of one core */
	double cpu_ns_pkt; /* PMD CPU time per forwarded packet; < 0 when none was forwarded */
	double host_took_pct; /* what the host took of the PMDs' window, %; < 0 unknown */
	int set_aside; /* windows of this step set aside before the one measured (pass.h's rule) */
	enum tune_verdict verdict;
};

struct tune_conf {
	enum knob_id knob;
	double budget_drop_pct; /* a window with more drops than this breaks the budget */
	double window_s; /* measured per step */
	int64_t steps[TUNE_MAX_STEPS];
	size_t nsteps;
};

struct tune {
	struct tune_conf conf;
	enum tune_state state;
	int64_t start_value, last_good, best;
	int best_i; /* index of the best step, -1 none */
	size_t cur; /* the step measured */
	struct tune_step steps[TUNE_MAX_STEPS];
	int wait_left; /* samples left in TUNE_WAIT / TUNE_SETTLE */
	int no_pmd; /* samples in a row without the PMD section */
	uint64_t base_offered, base_dropped, base_forwarded; /* totals at the window's start */
	double cpu_s; /* PMD CPU seconds in the window */
	double stolen_s, thread_s; /* the PMDs' time the host took, and their time, in it */
	char why[160]; /* how it ended ("ended on the best: 200") */
	char hint[200]; /* when the budget broke on pmd.maxsleep_us with a coarse timer slack: try
			 * the slack first (docs/pmd.md), else "" */
};

/* The start of a run: knob values of conf, start the value in force now. *set is the first
 * value to put in force (the caller calls tune_applied() with its answer). */
void tune_start(struct tune *t, const struct tune_conf *conf, int64_t start, int64_t *set);
/* The answer to the last value set: rc 0 and the value stored, or rc != 0 (refused): the
 * run fails and *set (returns true) is the start value to put back. */
bool tune_applied(struct tune *t, int rc, int64_t stored, int64_t *set);
/* One snapshot more. True when *set must be put in force now (the next step, the last good
 * value after a broken budget, the best at the end). */
bool tune_feed(struct tune *t, const struct snapshot *s, int64_t *set);
/* Stop (Esc): true with *set = the start value when a run was under way. */
bool tune_abort(struct tune *t, int64_t *set);
bool tune_running(const struct tune *t);
/* Steps taken: the trace's rows are steps[0 .. tune_nsteps_done). */
size_t tune_nsteps_done(const struct tune *t);

/* The knob's valid values to step through, lowest first: its allowed list, its choices, or
 * for a range min then a doubling ladder from max/200 to max (pmd.maxsleep_us: 0, 50, 100,
 * 200, ... 6400, 10000). Returns the count (at most max). */
size_t tune_default_steps(enum knob_id id, int64_t *out, size_t max);
/* "drop=0.1%" (or "drop=0.1") into *pct: 0, or KNOB_ERR_USAGE with a message. */
int tune_parse_budget(const char *text, double *pct, char *err, size_t errlen);
const char *tune_verdict_name(enum tune_verdict v);
const char *tune_state_name(enum tune_state s);

#endif
