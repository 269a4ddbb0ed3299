/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pass.h: the pass runner: arms (the settings compared) times passes (windows of each),
 * interleaved so that a spell of host load falls on every arm, a window the host took too much
 * of set aside and run again up to a stated bound, and a hang kept apart from both. Every
 * "set a knob, settle, measure a window, judge" loop calls it: the experiments ab, sweep and
 * calib (tui/exp/) run it whole (pass_run), the console's `o` steps it a snapshot at a time
 * (pass_next, pass_add), and the live tuner (tui/tune.c) applies its set-aside rule
 * (docs/experiments.md "Passes"). Curses-free and I/O-free: the caller measures a window through
 * ops->measure, so a test drives it with a scripted source and no clock at all. */
#ifndef TT_PASS_H
#define TT_PASS_H

#include <stdbool.h>
#include <stddef.h>

/* How the arms' windows are interleaved and judged. */
enum pass_order {
	/* Round after round every arm once (A B A B ...); a round in which the host took more
	 * than the limit of any arm's window is set aside whole and run again: the arms of a kept
	 * pass always ran side by side (experiment ab). */
	PASS_ROUNDS,
	/* Round-robin over the arms still short of passes, each window judged alone: an arm's
	 * set-aside window is rerun in a later round, beside the others' (experiment sweep). */
	PASS_EACH,
};

struct pass_conf {
	size_t narms;
	size_t passes; /* undisturbed passes wanted of each arm */
	size_t max_tries; /* windows of an arm at most (its passes and reruns); 0: 2 x passes */
	double took_limit_pct; /* the set-aside rule's limit (pass_set_aside) */
	enum pass_order order;
	bool hang_stops; /* a hang ends the run: one source serves every arm (ab) */
};

/* What a measured window says of itself. */
struct pass_obs {
	double took_pct; /* what the host took of the window, %; NAN: unknown (never set aside) */
	bool hung; /* a subsystem hung in it: neither kept nor set aside */
	bool void_; /* the window measured nothing (stopped): not counted at all */
};

enum pass_verdict {
	PASS_KEPT, /* counted */
	PASS_ASIDE, /* the host took too much of it, or of its round: run again */
	PASS_HUNG, /* a hang: left out, and the arm has one pass fewer to run */
};

/* One window in the order it ran: the JSON's pass_log. */
struct pass_log {
	size_t arm;
	size_t pass; /* the arm's kept passes before it (ab numbers its log by them) */
	double took_pct; /* NAN: unknown */
	bool over; /* this window itself was over the limit */
	enum pass_verdict verdict;
};

struct pass_tally {
	size_t kept, aside, hung, tries;
	size_t over; /* windows over the limit (in PASS_ROUNDS an arm's own, not its round's) */
};

struct pass_ops {
	/* Measure a window of arm: set its value, settle, measure, fill obs. Returns 0, or an
	 * exit status that ends the run. */
	int (*measure)(void *ctx, size_t arm, struct pass_obs *obs);
	/* The verdict on arm's last window; slot is its index among the arm's windows of that
	 * verdict (kept: 0 .. passes - 1). In PASS_ROUNDS the arms of a round are judged after
	 * the round; windows of a round a hang or stop ended are not judged. */
	void (*judge)(void *ctx, size_t arm, enum pass_verdict v, size_t slot);
	bool (*stop)(void *ctx); /* asked before each window: true ends the run (a signal) */
	void (*progress)(void *ctx, size_t windows, size_t most); /* may be NULL */
};

struct pass_run {
	struct pass_conf conf;
	struct pass_tally *arm; /* [narms] */
	struct pass_log *log; /* [nlog], in the order the windows ran */
	size_t nlog, cap;
	size_t rounds; /* rounds begun */
	size_t cursor; /* the arm pass_next considers next, in this round */
	size_t round_first; /* PASS_ROUNDS: the round's first window in log */
	bool round_any; /* PASS_EACH: this round measured a window */
	bool over; /* the run is over: pass_next gives no arm */
	size_t hang_arm; /* with hang: the arm whose window hung first */
	bool hang, stopped;
	int rc; /* what measure returned to end the run, else 0 */
};

/* The set-aside rule, the one place it is written: the host took more than limit_pct % of
 * the window. A window whose host took is unknown (NAN) is never set aside. */
bool pass_set_aside(double took_pct, double limit_pct);
/* Step by step, for a caller that cannot wait (the console's `o`, fed a snapshot at a time):
 * pass_begin, then while pass_next gives an arm, measure a window of it and pass_add what it
 * said (ops->judge is called from pass_add; measure and stop are not used). pass_run is that
 * loop for a caller that can. Free r with pass_run_free either way. */
void pass_begin(struct pass_run *r, const struct pass_conf *conf);
bool pass_next(struct pass_run *r, size_t *arm);
void pass_add(struct pass_run *r, size_t arm, const struct pass_obs *obs,
	      const struct pass_ops *ops, void *ctx);
/* Run the passes: r is filled (free it with pass_run_free). Returns r->rc. */
int pass_run(struct pass_run *r, const struct pass_conf *conf, const struct pass_ops *ops,
	     void *ctx);
void pass_run_free(struct pass_run *r);
/* Windows set aside in all. */
size_t pass_aside_total(const struct pass_run *r);

#endif
