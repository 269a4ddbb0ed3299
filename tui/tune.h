/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tune.h: the live tuner: knobs stepped on a running source, fed one snapshot at a time
 * (docs/experiments.md "The live tuner"). Curses-free and I/O-free: the caller samples
 * and puts the values in force, so the console, the experiment and the tests drive it alike. */
#ifndef TT_TUNE_H
#define TT_TUNE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/knob.h"
#include "core/snapshot.h"
#include "diag/diag.h"

#define TUNE_MAX_STEPS 32
/* Knobs one run steps, one ladder each: the diagnosis's fix, then the ladder's knob. */
#define TUNE_MAX_KNOBS 2
/* Samples left out after a value is read back in force (the PMDs adapt their sleep, rings
 * refill); the first sample that shows the value only says it was in force at its end. */
#define TUNE_SETTLE_SAMPLES 1
/* Samples waited for the value to show in a snapshot before the step is given up: a source
 * that never reads it back cannot be measured under it. */
#define TUNE_READBACK_SAMPLES 20
/* Samples of running PMDs the diagnosis looks at before the run (the first with a fix wins):
 * a rule may leave a sample undecided (a PMD that did not run in it on a busy host). */
#define TUNE_DIAG_SAMPLES 5
/* A step's windows set aside at most: one the host took more than PASS_HOST_TOOK_LIMIT_PCT of
 * is measured again, once (tui/pass.h's rule); the second stands, with its host took. */
#define TUNE_ASIDE_MAX 1
#define TUNE_WHY_MAX 160

enum tune_state {
	TUNE_OFF,
	TUNE_DIAGNOSE, /* the diagnosis looks at the running source for a fix to try first */
	TUNE_WAIT, /* the step's value set, not yet seen in a snapshot */
	TUNE_SETTLE, /* seen; TUNE_SETTLE_SAMPLES left out */
	TUNE_MEASURE, /* the window is being measured */
	TUNE_ROLLBACK, /* the budget broke: the last good value put back; the ladder goes on */
	TUNE_DONE, /* each knob ended on its best (or its start value when none was in budget) */
	TUNE_ABORTED, /* stopped: the start values put back */
	TUNE_FAILED, /* a step could not be set or read back: the start values put back */
};

enum tune_verdict {
	TUNE_V_PENDING, /* not measured (yet) */
	TUNE_V_OK, /* within the budget */
	TUNE_V_OVER, /* broke the budget: the last good value was put back at once */
	TUNE_V_BEST, /* within the budget and the cheapest of its knob: where that knob ended */
	TUNE_V_ABORTED, /* the run was stopped during this step */
	TUNE_V_FAILED, /* the value was refused or never read back */
};

/* One value the caller puts in force. */
struct tune_put {
	enum knob_id knob;
	int64_t value;
};

/* What the caller puts in force after a call, in order (none: n 0). */
struct tune_puts {
	size_t n;
	struct tune_put p[TUNE_MAX_KNOBS + 1];
};

struct tune_step {
	enum knob_id knob;
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
	char why[TUNE_WHY_MAX]; /* the verdict's reason ("drop 0.26% over the budget 0.1%") */
};

/* One knob's ladder: its rungs, where it started and what it kept, and why. */
struct tune_ladder {
	enum knob_id knob;
	int64_t rungs[TUNE_MAX_STEPS];
	size_t nrungs, next; /* rungs tried so far */
	int64_t start, last_good, best;
	int best_i; /* the trace's index of the best step, -1 none */
	int broke_i; /* the trace's index of the last step that broke the budget, -1 none */
	int64_t broke_to; /* the value put back then */
	const char *fix_of; /* the diagnosis whose fix this ladder is, else NULL */
	bool pending; /* the fix broke the budget alone: kept while the next ladder runs, and at
		       * the end only when a value of that ladder held with it */
	char why[TUNE_WHY_MAX]; /* why it kept its value ("the cheapest within the budget") */
};

/* A diagnosis of one snapshot (diag_eval_window's shape); tests script their own. */
typedef int (*tune_diagnose_fn)(const struct snapshot *s, struct diag_finding *out, int max);

struct tune_conf {
	enum knob_id knob; /* the ladder's knob */
	double budget_drop_pct; /* a window with more drops than this breaks the budget */
	double window_s; /* measured per step */
	int64_t steps[TUNE_MAX_STEPS];
	size_t nsteps;
	/* Before the ladder, the active diagnosis's fix on another knob is tried (docs/diag.md:
	 * pmd.sleep_outlasts_ring -> pmd.timer_slack_ns=1000); the ladder runs with it kept
	 * when it is within the budget. diagnose: NULL for diag_eval_window. */
	bool fix_first;
	tune_diagnose_fn diagnose;
};

struct tune {
	struct tune_conf conf;
	enum tune_state state;
	struct tune_ladder ladders[TUNE_MAX_KNOBS];
	size_t nladders, lad; /* the ladder being walked */
	struct tune_step
	    steps[TUNE_MAX_STEPS + TUNE_MAX_KNOBS]; /* the trace: steps tried, in order */
	size_t nsteps;
	int wait_left; /* samples left in TUNE_DIAGNOSE / TUNE_WAIT / TUNE_SETTLE */
	int no_pmd; /* samples in a row without the PMD section */
	uint64_t base_offered, base_dropped, base_forwarded; /* totals at the window's start */
	double cpu_s; /* PMD CPU seconds in the window */
	double stolen_s, thread_s; /* the PMDs' time the host took, and their time, in it */
	char why[TUNE_WHY_MAX * TUNE_MAX_KNOBS]; /* how it ended ("ended on the best: 200") */
};

/* The start of a run on the values in force in s (knobs[]). out: the first values to put
 * (none while the diagnosis looks); the caller calls tune_applied() with each answer. */
void tune_start(struct tune *t, const struct tune_conf *conf, const struct snapshot *s,
		struct tune_puts *out);
/* The answer to a step's value: rc 0 and the value stored, or rc != 0 (refused): the run fails
 * and out (returns true) holds the start values to put back; a refused fix of the diagnosis is
 * skipped instead, and out holds the next ladder's first step. */
bool tune_applied(struct tune *t, int rc, int64_t stored, struct tune_puts *out);
/* One snapshot more. True when out must be put in force now (the next step, the last good
 * value after a broken budget, a knob's best at the end of its ladder). */
bool tune_feed(struct tune *t, const struct snapshot *s, struct tune_puts *out);
/* Stop (Esc): true with out = the start values when a run was under way. */
bool tune_abort(struct tune *t, struct tune_puts *out);
bool tune_running(const struct tune *t);
/* Steps measured (or given up): the trace's rows are steps[0 .. tune_nsteps_done). */
size_t tune_nsteps_done(const struct tune *t);
/* Steps the run plans in all (known once the diagnosis has looked). */
size_t tune_nplanned(const struct tune *t);
/* The step under way (or the last one), NULL before the first. */
const struct tune_step *tune_current(const struct tune *t);

/* The knob's valid values to step through, lowest first: its allowed list, its choices, or
 * for a range min then a doubling ladder from max/200 to max (pmd.maxsleep_us: 0, 50, 100,
 * 200, ... 6400, 10000). Returns the count (at most max). */
size_t tune_default_steps(enum knob_id id, int64_t *out, size_t max);
/* "drop=0.1%" (or "drop=0.1") into *pct: 0, or KNOB_ERR_USAGE with a message. */
int tune_parse_budget(const char *text, double *pct, char *err, size_t errlen);
const char *tune_verdict_name(enum tune_verdict v);
const char *tune_state_name(enum tune_state s);

#endif
