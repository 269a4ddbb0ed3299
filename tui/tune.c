/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tune.c: the live tuner's state machine: each step's value set, read back, settled and
 * measured over a window of snapshots; the cheapest in budget kept (docs/experiments.md). */
#include "tui/tune.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pmd_cost.h"
#include "tui/pass.h"
#include "tui/pass_cost.h"

/* The window's packets from counters, not from the snapshots' rates: a rate is the last
 * interval's, a total minus the window's first total counts every packet once. The engine
 * keeps the generator's totals; a live host only the PMDs' own (rx = offered to them). */
static void tune_totals(const struct snapshot *s, uint64_t *offered, uint64_t *dropped,
			uint64_t *forwarded, double *cpu_pct)
{
	const struct pmd_snap *p = &s->pmd;
	uint64_t rx = 0, drops = 0;
	double cpu = 0;
	for (int i = 0; i < p->nthreads && i < PMD_SNAP_MAX; i++) {
		rx += p->threads[i].rx_packets;
		drops += p->threads[i].rx_drops + p->threads[i].tx_drops;
		cpu += p->threads[i].no_rate ? 0 : p->threads[i].cpu_pct;
	}
	if (p->generated > 0) {
		*offered = p->generated;
		*dropped = p->dropped;
		*forwarded = p->forwarded;
	} else {
		*offered = rx + drops;
		*dropped = drops;
		*forwarded = rx;
	}
	*cpu_pct = cpu;
}

static void tune_base(struct tune *t, const struct snapshot *s)
{
	double cpu;
	tune_totals(s, &t->base_offered, &t->base_dropped, &t->base_forwarded, &cpu);
	t->cpu_s = t->stolen_s = t->thread_s = 0;
}

/* Cheaper: CPU per packet when both windows forwarded packets, else CPU% (a host with no
 * traffic costs what its PMDs burn). */
static bool tune_cheaper(const struct tune_step *a, const struct tune_step *b)
{
	if (a->cpu_ns_pkt >= 0 && b->cpu_ns_pkt >= 0)
		return a->cpu_ns_pkt < b->cpu_ns_pkt;
	return a->cpu_pct < b->cpu_pct;
}

/* The end of a walk: the best marked and put in force (when it is not already). */
static bool tune_finish(struct tune *t, int64_t in_force, int64_t *set)
{
	char buf[KNOB_VALUE_MAX];
	t->state = TUNE_DONE;
	if (t->best_i < 0) {
		snprintf(t->why, sizeof(t->why), "no step within the budget: %s kept",
			 knob_format(t->conf.knob, t->start_value, buf, sizeof(buf)));
		*set = t->start_value;
		return in_force != t->start_value;
	}
	t->steps[t->best_i].verdict = TUNE_V_BEST;
	snprintf(t->why, sizeof(t->why), "ended on the best: %s",
		 knob_format(t->conf.knob, t->best, buf, sizeof(buf)));
	*set = t->best;
	return in_force != t->best;
}

static bool tune_fail(struct tune *t, const char *why, int64_t *set)
{
	char buf[KNOB_VALUE_MAX];
	t->steps[t->cur].verdict = TUNE_V_FAILED;
	t->state = TUNE_FAILED;
	snprintf(t->why, sizeof(t->why), "%s: %s put back", why,
		 knob_format(t->conf.knob, t->start_value, buf, sizeof(buf)));
	*set = t->start_value;
	return true;
}

static bool tune_next(struct tune *t, int64_t *set)
{
	if (++t->cur == t->conf.nsteps) {
		t->cur--; /* cur stays a step's index */
		return tune_finish(t, t->last_good, set);
	}
	t->state = TUNE_WAIT;
	t->wait_left = TUNE_READBACK_SAMPLES;
	t->steps[t->cur].stored = t->steps[t->cur].value;
	*set = t->steps[t->cur].value;
	return true;
}

void tune_start(struct tune *t, const struct tune_conf *conf, int64_t start, int64_t *set)
{
	memset(t, 0, sizeof(*t));
	t->conf = *conf;
	if (t->conf.nsteps > TUNE_MAX_STEPS)
		t->conf.nsteps = TUNE_MAX_STEPS;
	for (size_t i = 0; i < t->conf.nsteps; i++)
		t->steps[i] = (struct tune_step){.value = conf->steps[i],
						 .stored = conf->steps[i],
						 .cpu_ns_pkt = -1,
						 .host_took_pct = -1,
						 .verdict = TUNE_V_PENDING};
	t->start_value = t->last_good = t->best = start;
	t->best_i = -1;
	*set = start;
	if (t->conf.nsteps == 0) { /* nothing to try: the value stays */
		t->state = TUNE_DONE;
		snprintf(t->why, sizeof(t->why), "no steps to try");
		return;
	}
	t->state = TUNE_WAIT;
	t->wait_left = TUNE_READBACK_SAMPLES;
	*set = t->steps[0].value;
}

bool tune_applied(struct tune *t, int rc, int64_t stored, int64_t *set)
{
	if (t->state != TUNE_WAIT)
		return false; /* the answer to a rollback or the final value: nothing to measure */
	if (rc != 0)
		return tune_fail(t, "the step was refused", set);
	t->steps[t->cur].stored = stored;
	return false;
}

bool tune_running(const struct tune *t)
{
	return t->state >= TUNE_WAIT && t->state <= TUNE_FINAL;
}

size_t tune_nsteps_done(const struct tune *t)
{
	size_t n = 0;
	while (n < t->conf.nsteps && t->steps[n].verdict != TUNE_V_PENDING)
		n++;
	return n;
}

bool tune_abort(struct tune *t, int64_t *set)
{
	char buf[KNOB_VALUE_MAX];
	if (!tune_running(t))
		return false;
	if (t->state != TUNE_FINAL && t->steps[t->cur].verdict == TUNE_V_PENDING)
		t->steps[t->cur].verdict = TUNE_V_ABORTED;
	t->state = TUNE_ABORTED;
	snprintf(t->why, sizeof(t->why), "stopped: %s put back",
		 knob_format(t->conf.knob, t->start_value, buf, sizeof(buf)));
	*set = t->start_value;
	return true;
}

/* The window so far: its figures into the step; true when the budget is broken already. A
 * window that has dropped more than the budget of what it will be offered by its end (at
 * the rate so far) breaks it whatever comes after: "the moment", not a window later. */
static bool tune_measure(struct tune *t, struct tune_step *st, const struct snapshot *s)
{
	uint64_t off, drop, fwd;
	double cpu;
	tune_totals(s, &off, &drop, &fwd, &cpu);
	if (off < t->base_offered || drop < t->base_dropped || fwd < t->base_forwarded) {
		/* Counters went back (PMDs restarted): the window starts again from here. */
		tune_base(t, s);
		st->secs = 0;
		return false;
	}
	st->secs += s->interval_s;
	t->cpu_s += cpu / 100.0 * s->interval_s;
	st->offered = off - t->base_offered;
	st->dropped = drop - t->base_dropped;
	st->forwarded = fwd - t->base_forwarded;
	st->drop_pct = st->offered ? 100.0 * (double)st->dropped / (double)st->offered : 0;
	st->cpu_pct = st->secs > 0 ? 100.0 * t->cpu_s / st->secs : 0;
	st->cpu_ns_pkt = pmd_cost_ns_per(t->cpu_s * 1e9, (double)st->forwarded);
	for (int i = 0; i < s->pmd.nthreads && i < PMD_SNAP_MAX; i++) {
		t->stolen_s += fmax(s->pmd.threads[i].stolen_pct, 0) / 100.0 * s->interval_s;
		t->thread_s += s->interval_s;
	}
	st->host_took_pct = pmd_cost_took_pct(t->stolen_s, t->thread_s);
	if (st->secs <= 0 || !st->offered)
		return false;
	double projected = (double)st->offered * fmax(1.0, t->conf.window_s / st->secs);
	return 100.0 * (double)st->dropped > t->conf.budget_drop_pct * projected;
}

/* The budget broke while the tuner stepped the PMDs' maximum sleep: with a coarse timer slack
 * every sleep overshoots by about the slack and the ring overflows whatever the maximum (docs/
 * pmd.md), so the cheaper fix is the slack, before busy polling. Said, not stepped: the tuner
 * steps one knob. */
static void tune_slack_hint(struct tune *t, const struct snapshot *s)
{
	int64_t slack = s->knobs[K_PMD_TIMER_SLACK_NS];
	t->hint[0] = '\0';
	if (t->conf.knob != K_PMD_MAXSLEEP_US || s->knob_absent[K_PMD_TIMER_SLACK_NS] ||
	    slack <= TUNE_FINE_SLACK_NS)
		return;
	snprintf(t->hint, sizeof(t->hint),
		 "the PMDs sleep with a timer slack of %lld ns, so each sleep overshoots by about "
		 "that: try pmd.timer_slack_ns=%d before busy polling",
		 (long long)slack, TUNE_FINE_SLACK_NS);
}

bool tune_feed(struct tune *t, const struct snapshot *s, int64_t *set)
{
	struct tune_step *st = &t->steps[t->cur];
	char a[KNOB_VALUE_MAX], b[KNOB_VALUE_MAX];
	if (!tune_running(t))
		return false;
	if (t->state == TUNE_FINAL) {
		/* The rollback is in force: end on the best, which is the last good value unless
		 * an earlier step was cheaper. */
		char c[KNOB_VALUE_MAX];
		bool put = tune_finish(t, t->last_good, set);
		if (t->best_i >= 0)
			snprintf(t->why, sizeof(t->why),
				 "budget broken at %s: rolled back to %s, ended on the best: %s",
				 knob_format(t->conf.knob, st->value, a, sizeof(a)),
				 knob_format(t->conf.knob, t->last_good, b, sizeof(b)),
				 knob_format(t->conf.knob, t->best, c, sizeof(c)));
		return put;
	}
	if (!s->has_pmd) {
		/* A sample without the PMD section (a read of OVS that timed out on a busy host)
		 * is not measured: the window goes on with the next, whose counter deltas span the
		 * gap. Gone for as long as a read-back may take, the PMDs are gone. */
		if (++t->no_pmd >= TUNE_READBACK_SAMPLES)
			return tune_fail(t, "no PMD in the snapshot", set);
		return false;
	}
	t->no_pmd = 0;
	switch (t->state) {
	case TUNE_WAIT:
		if (s->knobs[t->conf.knob] == st->stored) {
			t->state = TUNE_SETTLE;
			t->wait_left = TUNE_SETTLE_SAMPLES;
			if (t->wait_left == 0) {
				t->state = TUNE_MEASURE;
				tune_base(t, s);
			}
		} else if (--t->wait_left <= 0) {
			return tune_fail(t, "the step's value never showed in force", set);
		}
		return false;
	case TUNE_SETTLE:
		if (--t->wait_left <= 0) {
			t->state = TUNE_MEASURE;
			tune_base(t, s);
		}
		return false;
	default: /* TUNE_MEASURE */
		break;
	}
	bool broken = tune_measure(t, st, s);
	if (broken) {
		tune_slack_hint(t, s);
		st->verdict = TUNE_V_OVER;
		t->state = TUNE_FINAL;
		snprintf(t->why, sizeof(t->why), "budget broken at %s: rolled back to %s",
			 knob_format(t->conf.knob, st->value, a, sizeof(a)),
			 knob_format(t->conf.knob, t->last_good, b, sizeof(b)));
		*set = t->last_good;
		return true;
	}
	if (st->secs < t->conf.window_s)
		return false;
	if (st->set_aside < TUNE_ASIDE_MAX &&
	    pass_set_aside(st->host_took_pct, PASS_HOST_TOOK_LIMIT_PCT)) {
		/* The host took the window, not the step: measured again from here. */
		st->set_aside++;
		st->secs = 0;
		tune_base(t, s);
		return false;
	}
	st->verdict = TUNE_V_OK;
	t->last_good = st->stored;
	if (t->best_i < 0 || tune_cheaper(st, &t->steps[t->best_i])) {
		t->best_i = (int)t->cur;
		t->best = st->stored;
	}
	return tune_next(t, set);
}

size_t tune_default_steps(enum knob_id id, int64_t *out, size_t max)
{
	const struct knob_def *d = &knob_table[id];
	size_t n = 0;
	if (d->allowed) {
		for (const int64_t *v = d->allowed; *v != -1 && n < max; v++)
			out[n++] = *v;
		return n;
	}
	if (d->type != KNOB_INT) {
		for (int64_t v = d->min; v <= d->max && n < max; v++)
			out[n++] = v;
		return n;
	}
	int64_t step = d->step > 1 ? d->step : 1;
	out[n++] = d->min;
	int64_t v = d->max / 200 > d->min ? d->max / 200 : d->min * 2;
	if (v < step)
		v = step;
	for (; v < d->max && n + 1 < max; v *= 2) {
		int64_t r = d->min + (v - d->min) / step * step;
		if (r > out[n - 1])
			out[n++] = r;
	}
	if (n < max && out[n - 1] != d->max)
		out[n++] = d->max;
	return n;
}

int tune_parse_budget(const char *text, double *pct, char *err, size_t errlen)
{
	const char *p = text;
	char *end;
	if (strncmp(p, "drop=", 5) != 0) {
		snprintf(err, errlen, "budget '%s' is not valid (valid: drop=PCT, e.g. drop=0.1%%)",
			 text);
		return KNOB_ERR_USAGE;
	}
	p += 5;
	errno = 0;
	double v = strtod(p, &end);
	if (end != p && *end == '%')
		end++;
	if (errno || end == p || *end || !isfinite(v) || v < 0 || v > 100) {
		snprintf(err, errlen,
			 "budget '%s' is not valid (valid: drop=PCT with PCT from 0 to 100, e.g. "
			 "drop=0.1%%)",
			 text);
		return KNOB_ERR_USAGE;
	}
	*pct = v;
	return 0;
}

const char *tune_verdict_name(enum tune_verdict v)
{
	static const char *const names[] = {"pending", "ok", "over", "best", "aborted", "failed"};
	return names[v];
}

const char *tune_state_name(enum tune_state s)
{
	static const char *const names[] = {"off",	    "waiting", "settling", "measuring",
					    "rolling back", "done",    "stopped",  "failed"};
	return names[s];
}
