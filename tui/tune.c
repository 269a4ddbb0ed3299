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
/* A step as a candidate of the trade-off: the max sleep's ladder sleeps above 0, every other
 * knob's steps run with the max sleep in force (ranked alike on that). */
static struct pass_cost_cand tune_cand(const struct tune_step *st)
{
	return (struct pass_cost_cand){.usable = true,
				       .sleeps = st->knob != K_PMD_MAXSLEEP_US || st->stored > 0,
				       .drop_pct = st->drop_pct,
				       .ns_per_pkt = st->cpu_ns_pkt,
				       .share_pct = st->cpu_pct};
}

/* The trade-off's one ranking (tui/pass_cost.h): a sleeping step before busy polling, then
 * CPU per packet, then CPU share; so the max sleep ends above 0 whenever a sleep held. */
static bool tune_cheaper(const struct tune_step *a, const struct tune_step *b)
{
	struct pass_cost_cand ca = tune_cand(a), cb = tune_cand(b);
	return pass_cost_better(&ca, &cb);
}

static const char *tune_fmt(enum knob_id k, int64_t v, char *buf)
{
	return knob_format(k, v, buf, KNOB_VALUE_MAX);
}

static void tune_put(struct tune_puts *o, enum knob_id k, int64_t v)
{
	if (o->n < sizeof(o->p) / sizeof(o->p[0]))
		o->p[o->n++] = (struct tune_put){.knob = k, .value = v};
}

const struct tune_step *tune_current(const struct tune *t)
{
	return t->nsteps ? &t->steps[t->nsteps - 1] : NULL;
}

static struct tune_step *tune_cur(struct tune *t)
{
	return (struct tune_step *)tune_current(t);
}

/* The start values of every ladder begun, back in force (a stop, a failure). "50" for the
 * one knob of a one-ladder run, else "pmd.timer_slack_ns=50000, pmd.maxsleep_us=50". */
static void tune_put_starts(struct tune *t, const char *what, struct tune_puts *out)
{
	char list[TUNE_WHY_MAX] = "", buf[KNOB_VALUE_MAX];
	size_t n = t->lad < t->nladders ? t->lad + 1 : t->nladders, len = 0;
	for (size_t i = 0; i < n; i++) {
		const struct tune_ladder *l = &t->ladders[i];
		tune_put(out, l->knob, l->start);
		len += (size_t)snprintf(
		    list + len, len < sizeof(list) ? sizeof(list) - len : 0, "%s%s%s%s",
		    i ? ", " : "", t->nladders > 1 ? knob_table[l->knob].name : "",
		    t->nladders > 1 ? "=" : "", tune_fmt(l->knob, l->start, buf));
	}
	snprintf(t->why, sizeof(t->why), "%s: %s put back", what, list);
}

static bool tune_fail(struct tune *t, const char *why, struct tune_puts *out)
{
	struct tune_step *st = tune_cur(t);
	if (st) {
		st->verdict = TUNE_V_FAILED;
		snprintf(st->why, sizeof(st->why), "%s", why);
	}
	t->state = TUNE_FAILED;
	tune_put_starts(t, why, out);
	return true;
}

/* The ladder's next rung into the trace and in force. */
static bool tune_step_begin(struct tune *t, struct tune_puts *out)
{
	struct tune_ladder *l = &t->ladders[t->lad];
	int64_t v = l->rungs[l->next++];
	if (t->nsteps == sizeof(t->steps) / sizeof(t->steps[0]))
		return tune_fail(t, "too many steps", out);
	t->steps[t->nsteps++] = (struct tune_step){.knob = l->knob,
						   .value = v,
						   .stored = v,
						   .cpu_ns_pkt = -1,
						   .host_took_pct = -1,
						   .verdict = TUNE_V_PENDING};
	t->state = TUNE_WAIT;
	t->wait_left = TUNE_READBACK_SAMPLES;
	tune_put(out, l->knob, v);
	return true;
}

/* Why the ladder kept its value, into l->why and its best step's. */
static void tune_ladder_why(struct tune *t, struct tune_ladder *l)
{
	char a[KNOB_VALUE_MAX], b[KNOB_VALUE_MAX], c[KNOB_VALUE_MAX], cost[48];
	if (l->best_i < 0) {
		bool refused = l->fix_of && tune_cur(t)->verdict == TUNE_V_FAILED;
		snprintf(l->why, sizeof(l->why), "%s%s%s: %s kept", l->fix_of ? "the fix of " : "",
			 l->fix_of ? l->fix_of : "",
			 refused     ? " was refused by the source"
			 : l->fix_of ? " broke the budget, no step within the budget"
				     : "no step within the budget",
			 tune_fmt(l->knob, l->start, a));
		return;
	}
	struct tune_step *best = &t->steps[l->best_i];
	best->verdict = TUNE_V_BEST;
	if (best->cpu_ns_pkt >= 0)
		snprintf(cost, sizeof(cost), "%.0f ns/pkt", best->cpu_ns_pkt);
	else
		snprintf(cost, sizeof(cost), "%.1f%% CPU", best->cpu_pct);
	snprintf(best->why, sizeof(best->why), "the cheapest within the budget: %s, drop %.3f%%",
		 cost, best->drop_pct);
	if (l->fix_of)
		snprintf(l->why, sizeof(l->why),
			 "ended on the fix of %s: %s (within the budget: drop %.3f%%, %s)",
			 l->fix_of, tune_fmt(l->knob, l->best, a), best->drop_pct, cost);
	else if (l->broke_i >= 0)
		snprintf(l->why, sizeof(l->why),
			 "budget broken at %s: rolled back to %s, ended on the best: %s (%s)",
			 tune_fmt(l->knob, t->steps[l->broke_i].value, a),
			 tune_fmt(l->knob, l->broke_to, b), tune_fmt(l->knob, l->best, c), cost);
	else
		snprintf(l->why, sizeof(l->why), "ended on the best: %s (%s)",
			 tune_fmt(l->knob, l->best, a), cost);
}

/* The end of the run: one ladder's why, or each knob's value and a word of its why (the
 * ladders keep the whole of each). */
static void tune_done(struct tune *t)
{
	char v[KNOB_VALUE_MAX], b[KNOB_VALUE_MAX];
	size_t len = (size_t)snprintf(t->why, sizeof(t->why), "%s",
				      t->nladders > 1 ? "ended on " : t->ladders[0].why);
	t->state = TUNE_DONE;
	for (size_t i = 0; t->nladders > 1 && i < t->nladders && len < sizeof(t->why); i++) {
		const struct tune_ladder *l = &t->ladders[i];
		bool kept = l->best_i >= 0, broke = kept && l->broke_i >= 0;
		len += (size_t)snprintf(
		    t->why + len, sizeof(t->why) - len, "%s%s=%s (%s%s%s%s)", i ? ", " : "",
		    knob_table[l->knob].name, tune_fmt(l->knob, kept ? l->best : l->start, v),
		    !kept	? "none within the budget"
		    : l->fix_of ? "the fix of "
				: "the best",
		    kept && l->fix_of ? l->fix_of : "", broke ? "; broken at " : "",
		    broke ? tune_fmt(l->knob, t->steps[l->broke_i].value, b) : "");
	}
}

/* The fix was kept: its step measured the next ladder's knob at its start value, within the
 * budget. That value is the ladder's last good and first best, and only the rungs beyond it
 * (the default ladder's cheaper ones, docs/experiments.md "The live tuner") are left to try. */
static void tune_from_fix(struct tune_ladder *next, int fix_i)
{
	size_t n = 0;
	next->best_i = fix_i;
	for (size_t i = 0; i < next->nrungs; i++)
		if (next->rungs[i] > next->start)
			next->rungs[n++] = next->rungs[i];
	next->nrungs = n;
}

/* A fix that broke the budget alone, at the end of the ladder after it: kept when a value of
 * that ladder held with it, else its start value put back. */
static void tune_fix_resolve(struct tune *t, struct tune_ladder *l, const struct tune_ladder *next,
			     struct tune_puts *out)
{
	char a[KNOB_VALUE_MAX], b[KNOB_VALUE_MAX];
	if (!l->pending)
		return;
	l->pending = false;
	if (l->broke_i < 0) /* the step that broke the budget: a pending fix has one */
		return;
	const struct tune_step *st = &t->steps[l->broke_i];
	if (next->best_i < 0) {
		tune_put(out, l->knob, l->start);
		snprintf(l->why, sizeof(l->why),
			 "the fix of %s broke the budget and no %s held with it: %s kept",
			 l->fix_of, knob_table[next->knob].name, tune_fmt(l->knob, l->start, a));
		return;
	}
	l->best_i = l->broke_i;
	l->best = st->stored;
	l->broke_i = -1;
	snprintf(l->why, sizeof(l->why),
		 "kept the fix of %s: %s; with %s=%s within the budget (alone it dropped %.3f%%)",
		 l->fix_of, tune_fmt(l->knob, l->best, a), knob_table[next->knob].name,
		 tune_fmt(next->knob, next->best, b), st->drop_pct);
}

/* The ladder ends: its best in force (when it is not already), then the next ladder. */
static bool tune_ladder_end(struct tune *t, struct tune_puts *out)
{
	struct tune_ladder *l = &t->ladders[t->lad];
	int64_t keep = l->best_i >= 0 ? l->best : l->start;
	tune_ladder_why(t, l);
	if (keep != l->last_good)
		tune_put(out, l->knob, keep);
	if (++t->lad < t->nladders) {
		if (l->best_i >= 0)
			tune_from_fix(&t->ladders[t->lad], l->best_i);
		if (t->ladders[t->lad].nrungs > 0)
			return tune_step_begin(t, out);
	}
	t->lad = t->nladders - 1;
	for (size_t i = 0; i + 1 < t->nladders; i++)
		tune_fix_resolve(t, &t->ladders[i], &t->ladders[i + 1], out);
	tune_done(t);
	return out->n > 0;
}

/* After a step is judged (or its rollback is in force): the next rung, unless the ladder is
 * through or crossed from what holds to what breaks. A rung over the budget ends the ladder
 * only after one of its rungs held: a ladder may start where the budget breaks and reach
 * where it holds (the slack's 50000 -> 10000 -> 1000). */
static bool tune_advance(struct tune *t, struct tune_puts *out)
{
	struct tune_ladder *l = &t->ladders[t->lad];
	bool crossed = tune_cur(t)->verdict == TUNE_V_OVER && l->best_i >= 0;
	if (l->next < l->nrungs && !crossed)
		return tune_step_begin(t, out);
	return tune_ladder_end(t, out);
}

/* The fix of the first active diagnosis that names another knob than the ladder's, as a
 * one-rung ladder before it; true when one was planned. */
static bool tune_plan_fix(struct tune *t, const struct snapshot *s)
{
	struct diag_finding f[DIAG_MAX_FINDINGS];
	char err[128];
	int n = (t->conf.diagnose ? t->conf.diagnose : diag_eval_window)(s, f, DIAG_MAX_FINDINGS);
	for (int i = 0; i < n; i++) {
		enum knob_id k;
		int64_t v;
		if (!f[i].fix[0] ||
		    knob_parse_assignment(f[i].fix, &k, &v, err, sizeof(err)) != 0 ||
		    k == t->conf.knob || s->knob_absent[k] || v == s->knobs[k])
			continue;
		t->ladders[1] = t->ladders[0];
		t->ladders[0] = (struct tune_ladder){.knob = k,
						     .rungs = {v},
						     .nrungs = 1,
						     .start = s->knobs[k],
						     .last_good = s->knobs[k],
						     .best = s->knobs[k],
						     .best_i = -1,
						     .broke_i = -1,
						     .fix_of = f[i].id};
		t->nladders = 2;
		return true;
	}
	return false;
}

void tune_start(struct tune *t, const struct tune_conf *conf, const struct snapshot *s,
		struct tune_puts *out)
{
	memset(t, 0, sizeof(*t));
	out->n = 0;
	t->conf = *conf;
	if (t->conf.nsteps > TUNE_MAX_STEPS)
		t->conf.nsteps = TUNE_MAX_STEPS;
	struct tune_ladder *l = &t->ladders[0];
	*l = (struct tune_ladder){
	    .knob = conf->knob, .nrungs = t->conf.nsteps, .best_i = -1, .broke_i = -1};
	memcpy(l->rungs, conf->steps, t->conf.nsteps * sizeof(l->rungs[0]));
	l->start = l->last_good = l->best = s->knobs[conf->knob];
	t->nladders = 1;
	if (conf->fix_first) {
		t->state = TUNE_DIAGNOSE;
		t->wait_left = TUNE_DIAG_SAMPLES;
		return;
	}
	if (l->nrungs == 0) { /* nothing to try: the value stays */
		t->state = TUNE_DONE;
		snprintf(t->why, sizeof(t->why), "no steps to try");
		return;
	}
	tune_step_begin(t, out);
}

bool tune_applied(struct tune *t, int rc, int64_t stored, struct tune_puts *out)
{
	out->n = 0;
	if (t->state != TUNE_WAIT)
		return false; /* the answer to a rollback or a best: nothing to measure */
	struct tune_step *st = tune_cur(t);
	if (rc != 0 && t->ladders[t->lad].fix_of) {
		/* The source takes no such fix (a host without the right to set it): the fix is
		 * not the run's to try, the ladder after it is. */
		st->verdict = TUNE_V_FAILED;
		snprintf(st->why, sizeof(st->why), "refused by the source: the fix is skipped");
		return tune_ladder_end(t, out);
	}
	if (rc != 0)
		return tune_fail(t, "the step was refused", out);
	st->stored = stored;
	return false;
}

bool tune_running(const struct tune *t)
{
	return t->state >= TUNE_DIAGNOSE && t->state <= TUNE_ROLLBACK;
}

size_t tune_nsteps_done(const struct tune *t)
{
	size_t n = t->nsteps;
	return n && t->steps[n - 1].verdict == TUNE_V_PENDING ? n - 1 : n;
}

size_t tune_nplanned(const struct tune *t)
{
	size_t n = 0;
	for (size_t i = 0; i < t->nladders; i++)
		n += t->ladders[i].nrungs;
	return n;
}

bool tune_abort(struct tune *t, struct tune_puts *out)
{
	out->n = 0;
	if (!tune_running(t))
		return false;
	struct tune_step *st = tune_cur(t);
	if (st && st->verdict == TUNE_V_PENDING) {
		st->verdict = TUNE_V_ABORTED;
		snprintf(st->why, sizeof(st->why), "stopped");
	}
	t->state = TUNE_ABORTED;
	tune_put_starts(t, "stopped", out);
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

/* The step's window so far judged: over the budget (the last good value back at once), done
 * within it, set aside (the host took it), or not yet through. */
static bool tune_judge(struct tune *t, struct tune_step *st, const struct snapshot *s,
		       struct tune_puts *out)
{
	struct tune_ladder *l = &t->ladders[t->lad];
	char a[KNOB_VALUE_MAX];
	bool broken = tune_measure(t, st, s), through = st->secs >= t->conf.window_s;
	bool host = pass_set_aside(st->host_took_pct, PASS_HOST_TOOK_LIMIT_PCT);
	/* A window the host took more than the limit of so far measured the host: judged at
	 * its end, not the moment its drops break the budget. */
	if (!through && (!broken || host))
		return false;
	if (through && host && st->set_aside < TUNE_ASIDE_MAX) {
		/* The host took the window, not the step: measured again from here. */
		st->set_aside++;
		st->secs = 0;
		tune_base(t, s);
		return false;
	}
	if (broken && l->fix_of && t->lad + 1 < t->nladders) {
		/* The fix alone broke the budget at the next knob's start value. The start it would
		 * go back to is what the diagnosis found broken: the next ladder runs with the fix
		 * in force, from its first (safest) rung at once, and decides whether it stays. */
		st->verdict = TUNE_V_OVER;
		snprintf(
		    st->why, sizeof(st->why),
		    "drop %.3f%% over the budget %g%% after %.2f s: kept while %s's ladder runs",
		    st->drop_pct, t->conf.budget_drop_pct, st->secs,
		    knob_table[t->ladders[t->lad + 1].knob].name);
		l->pending = true;
		l->broke_i = (int)(st - t->steps);
		t->lad++;
		return tune_step_begin(t, out);
	}
	if (broken) {
		st->verdict = TUNE_V_OVER;
		snprintf(st->why, sizeof(st->why),
			 "drop %.3f%% over the budget %g%% after %.2f s: %s put back", st->drop_pct,
			 t->conf.budget_drop_pct, st->secs, tune_fmt(l->knob, l->last_good, a));
		l->broke_i = (int)(st - t->steps);
		l->broke_to = l->last_good;
		t->state = TUNE_ROLLBACK;
		tune_put(out, l->knob, l->last_good);
		return true;
	}
	st->verdict = TUNE_V_OK;
	snprintf(st->why, sizeof(st->why), "drop %.3f%% within the budget %g%%", st->drop_pct,
		 t->conf.budget_drop_pct);
	l->last_good = st->stored;
	if (l->best_i < 0 || tune_cheaper(st, &t->steps[l->best_i])) {
		l->best_i = (int)(st - t->steps);
		l->best = st->stored;
	}
	return tune_advance(t, out);
}

/* Waiting for the value in force, then settling (the sample that shows it and
 * TUNE_SETTLE_SAMPLES more are left out; the window's counters start at the last). False
 * when the value never showed. */
static bool tune_wait(struct tune *t, const struct tune_step *st, const struct snapshot *s)
{
	if (t->state == TUNE_WAIT) {
		if (s->knobs[st->knob] != st->stored)
			return --t->wait_left > 0;
		t->state = TUNE_SETTLE;
		t->wait_left = TUNE_SETTLE_SAMPLES + 1;
	}
	if (--t->wait_left <= 0) {
		t->state = TUNE_MEASURE;
		tune_base(t, s);
	}
	return true;
}

bool tune_feed(struct tune *t, const struct snapshot *s, struct tune_puts *out)
{
	out->n = 0;
	if (!tune_running(t))
		return false;
	if (t->state == TUNE_ROLLBACK) /* the last good value is in force: on along the ladder */
		return tune_advance(t, out);
	if (!s->has_pmd) {
		/* A sample without the PMD section (a read of OVS that timed out on a busy host)
		 * is not measured: the window goes on with the next, whose counter deltas span the
		 * gap. Gone for as long as a read-back may take, the PMDs are gone. */
		if (++t->no_pmd >= TUNE_READBACK_SAMPLES)
			return tune_fail(t, "no PMD in the snapshot", out);
		return false;
	}
	t->no_pmd = 0;
	if (t->state == TUNE_DIAGNOSE) {
		if (!tune_plan_fix(t, s) && --t->wait_left > 0)
			return false;
		if (t->ladders[0].nrungs == 0) {
			t->state = TUNE_DONE;
			snprintf(t->why, sizeof(t->why), "no steps to try");
			return false;
		}
		return tune_step_begin(t, out);
	}
	struct tune_step *st = tune_cur(t);
	if (t->state == TUNE_WAIT || t->state == TUNE_SETTLE) {
		if (!tune_wait(t, st, s))
			return tune_fail(t, "the step's value never showed in force", out);
		return false;
	}
	return tune_judge(t, st, s, out);
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
	static const char *const names[] = {"off",	"diagnosing", "waiting",
					    "settling", "measuring",  "rolling back",
					    "done",	"stopped",    "failed"};
	return names[s];
}
