/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exp_ab.c: A/B passes: alternate a knob's values live over N passes, as the seeds did. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/xalloc.h"
#include "tui/exp/exp_check.h"
#include "tui/pass_cost.h"
#include "tui/exp/exp_metric.h"
#include "tui/exp/exp_diag.h"
#include "tui/exp/exp_ab.h"
#include "tui/exp/experiment.h"
#include "tui/pass.h"
#include "tui/sig.h"
#include "tui/snapjson.h"

#define AB_MAX_PASSES 1000

/* A knob's subsystem's defaults: the scenario, and the metrics when none are named (what each
 * seed compared); the last row for any other. */
static const struct ab_default {
	enum subsys owner;
	const char *scenario, *metrics[4];
} ab_defaults[] = {
    {SUBSYS_BLK, "blk-steer", {"blk.iops", "blk.lat_us.p99", "blk.ipis_per_s", NULL}},
    {SUBSYS_PMD,
     "pmd-light",
     {"pmd.drop_pct", "pmd.threads[*].cpu_pct", "pmd.threads[avg].sleep_iter_pct", NULL}},
    {SUBSYS_EST, "default", {"est.tick_ns.avg", "est.cpu_pct", "est.chain_max", NULL}},
};

static const struct ab_default *ab_default_of(enum subsys owner)
{
	size_t i = 0;
	while (i + 1 < sizeof(ab_defaults) / sizeof(ab_defaults[0]) &&
	       ab_defaults[i].owner != owner)
		i++;
	return &ab_defaults[i];
}

static double ab_now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The arm running at time t: the last one set at or before it (the first when t is
 * earlier: the engine started at the first value). */
static const struct ab_arm *ab_arm_at(const struct ab_arm *arms, size_t n, double t)
{
	const struct ab_arm *a = &arms[0];
	for (size_t i = 0; i < n; i++)
		if (arms[i].set_s <= t)
			a = &arms[i];
	return a;
}

/*
 * The arm during which the hang in snap (a window's JSON) began. The watchdog's event dates
 * it (exp_hang_since): the thread's last beat was up to a quarter of engine.watchdog_ms
 * before the start it gives (it checks four times a period), so the middle of that span is
 * taken. A fault's own count and a section's "hung" flag are sharper and are read first
 * (ab_hang_arm's comments). A stall seen only by the progress check has no date yet: the watchdog
 * is waited for, up to 1.5 periods, so a stall that began late in one arm and showed in the next is
 * still its own arm's.
 */
static const struct ab_arm *ab_hang_arm(struct source *src, json_t *snap, const struct ab_arm *arms,
					size_t narms)
{
	double since, wd_ms = 2000, lk = 0;
	char more[256];
	const struct ab_arm *cur = &arms[narms - 1], *prev = narms >= 2 ? &arms[narms - 2] : NULL;
	/* The lost-kick fault counts the requests it left behind: a hang shows at most one
	 * window late (the next window completes nothing), so it is this arm's when the
	 * count rose in it, the previous arm's when it rose there only. */
	if (exp_metric(snap, "blk.lost_kicks", &lk) == 0) {
		double before = prev ? prev->lost_kicks : 0;
		double before2 = narms >= 3 ? arms[narms - 3].lost_kicks : 0;
		if (lk > before)
			return cur;
		if (prev && before > before2)
			return prev;
	}
	/* A section hung over the whole window: the arm it showed in. */
	if (exp_hung_flag(snap, more, sizeof(more)))
		return cur;
	exp_metric(snap, "knobs.engine.watchdog_ms", &wd_ms);
	if (exp_metric(snap, "hang_since_s", &since) != 0) {
		json_t *w = exp_window(src, 0, wd_ms * 1.5 / 1000.0, more, sizeof(more));
		int got = exp_metric(w, "hang_since_s", &since);
		json_decref(w);
		if (got != 0)
			return &arms[narms - 1]; /* no date: the arm it showed in */
	}
	return ab_arm_at(arms, narms, since - wd_ms / 8000.0);
}

/* What the host took of an arm's window, %: the PMDs' stolen time (pass_cost.h) for a pmd
 * knob, else the run-queue delay averaged over the knob's subsystem's threads. */
static double ab_host_took(json_t *snap, enum subsys owner)
{
	double v = 0, sum = 0;
	size_t n = 0, i;
	json_t *t;
	if (owner == SUBSYS_PMD && exp_metric(snap, "pass.host_took_pct", &v) == 0)
		return v;
	json_array_foreach (json_object_get(snap, "threads"), i, t) {
		const char *sub = json_string_value(json_object_get(t, "subsystem"));
		json_t *rq = json_object_get(t, "runq_delay_pct");
		if (sub && strcmp(sub, subsys_name(owner)) == 0 && json_is_number(rq)) {
			sum += json_number_value(rq);
			n++;
		}
	}
	return n ? sum / (double)n : 0;
}

/* Every metric must lead to a number in a snapshot of the running source: a misspelt
 * path would otherwise print a t-test of zeros. */
static int ab_check_metrics(struct source *src, const char *const *metrics, size_t n)
{
	char err[768];
	struct snapshot *snap = snapshot_new();
	source_sample(src, snap);
	json_t *j = snapjson_build(snap);
	snapshot_free(snap);
	int rc = 0;
	for (size_t m = 0; m < n && rc == 0; m++) {
		if (exp_metric_check(j, metrics[m], err, sizeof(err)) != 0) {
			fprintf(stderr, "tunetop: experiment ab: --metric %s\n", err);
			rc = 2;
		}
	}
	json_decref(j);
	return rc;
}

static int ab_parse(struct ab *ab, int argc, char **argv)
{
	long passes = 10;
	const struct exp_opt opts[] = {
	    EXP_TEXT("--knob", "KNOB", &ab->knob), EXP_TEXT("--values", "A,B[,...]", &ab->list),
	    EXP_COUNT("--passes", "N", &passes, 2, AB_MAX_PASSES),
	    EXP_MANY("--metric", "PATH", ab->metrics, &ab->nmetrics, AB_MAX_METRICS,
		     "tunetop: experiment ab: at most %d metrics\n"),
	    EXP_REAL("--host-took-limit", "PCT", &ab->limit, 0, 100)};
	int rc = exp_opts_parse("ab", opts, sizeof(opts) / sizeof(opts[0]), argc, argv, NULL, NULL);
	ab->passes = (size_t)passes;
	return rc;
}

/* The knob and its values checked, the defaults filled in: 0 or 2 (usage). */
static int ab_check_args(struct ab *ab)
{
	const char *list = ab->list;
	ab->id = ab->knob ? knob_find(ab->knob) : -1;
	if (ab->id < 0 || !list) {
		bool bad = ab->knob && ab->id < 0;
		fprintf(stderr,
			"tunetop: experiment ab: needs --knob KNOB (see --list-knobs) and "
			"--values A,B[,...]%s%s%s\n",
			bad ? " ('" : "", bad ? ab->knob : "", bad ? "' is not a knob)" : "");
		return 2;
	}
	ab->nvalues = exp_parse_list("ab", "--values", list, ab->id, &ab->values_copy, ab->values,
				     EXP_MAX_LIST);
	if (ab->nvalues == 0)
		return 2;
	if (ab->nvalues < 2) {
		fprintf(stderr, "tunetop: experiment ab: --values needs at least two values\n");
		return 2;
	}
	const struct ab_default *d = ab_default_of(knob_table[ab->id].owner);
	if (ab->nmetrics == 0)
		for (const char *const *m = d->metrics; *m; m++)
			ab->metrics[ab->nmetrics++] = *m;
	if (!ab->c.scenario)
		ab->c.scenario = d->scenario;
	return 0;
}

static void ab_alloc(struct ab *ab)
{
	size_t nm = ab->nmetrics, nv = ab->nvalues, p = ab->passes;
	ab->samples = xcalloc(nm * nv * p, sizeof(double));
	ab->aside_samples = xcalloc(nm * nv * 2 * p, sizeof(double));
	for (size_t k = 0; k < nm * nv * 2 * p; k++)
		ab->aside_samples[k] = NAN;
	ab->took = xcalloc(nv * p, sizeof(double));
	ab->pend = xcalloc(nm * nv, sizeof(double));
	ab->pend_took = xcalloc(nv, sizeof(double));
	ab->pend_snap = xcalloc(nv, sizeof(json_t *));
	ab->missing = xcalloc(nm, sizeof(bool));
	ab->found = xcalloc(nv, sizeof(*ab->found));
	ab->arms = xcalloc(2 * p * nv, sizeof(*ab->arms));
}

static void ab_free(struct ab *ab)
{
	for (size_t v = 0; ab->pend_snap && v < ab->nvalues; v++)
		json_decref(ab->pend_snap[v]);
	free(ab->samples);
	free(ab->aside_samples);
	free(ab->took);
	free(ab->pend);
	free(ab->pend_took);
	free(ab->pend_snap);
	free(ab->missing);
	free(ab->found);
	free(ab->arms);
	free(ab->values_copy);
}

/* The runner's window of value v: the knob set, a window measured, its figures kept apart
 * until the round is judged (tui/pass.h). */
static int ab_measure(void *ctx, size_t v, struct pass_obs *obs)
{
	struct ab *ab = ctx;
	char err[512];
	if (source_knob_set_text(ab->src, ab->id, ab->values[v], err, sizeof(err)) != 0) {
		fprintf(stderr, "tunetop: experiment ab: %s\n", err);
		return 1;
	}
	struct ab_arm *arm = &ab->arms[ab->narms++];
	*arm = (struct ab_arm){.value = v, .pass = ab->done, .set_s = ab_now_s()};
	json_t *snap = exp_window(ab->src, ab->c.warmup, ab->c.seconds, ab->hang, sizeof(ab->hang));
	exp_metric(snap, "blk.lost_kicks", &arm->lost_kicks);
	obs->took_pct = ab->pend_took[v] = ab_host_took(snap, knob_table[ab->id].owner);
	obs->hung = ab->hang[0] != 0;
	if (obs->hung) {
		/* One engine serves every pass and a hung subsystem stays hung: the run stops.
		 * The hang is the arm's during which it began, which the watchdog's event
		 * dates; a hang seen later is often an earlier arm's. */
		const struct ab_arm *h = ab_hang_arm(ab->src, snap, ab->arms, ab->narms);
		ab->hang_value = h->value;
		ab->hang_pass = h->pass;
		fprintf(stderr, "\ntunetop: experiment ab: pass %zu, %s = %s: %s\n", h->pass + 1,
			ab->knob, ab->values[h->value], ab->hang);
		json_decref(snap);
		return 0;
	}
	for (size_t m = 0; m < ab->nmetrics; m++) {
		double x = NAN; /* no number: left out, never a 0 */
		if (exp_metric(snap, ab->metrics[m], &x) < 0)
			ab->missing[m] = true;
		ab->pend[m * ab->nvalues + v] = x;
	}
	json_decref(ab->pend_snap[v]);
	ab->pend_snap[v] = snap;
	return 0;
}

/* The round's verdict on value v's window: kept in its pass's slot, or set aside (kept apart
 * for a partial ranking should no pass be kept). */
static void ab_judge(void *ctx, size_t v, enum pass_verdict verdict, size_t slot)
{
	struct ab *ab = ctx;
	size_t nv = ab->nvalues, p = ab->passes;
	for (size_t m = 0; m < ab->nmetrics && verdict != PASS_HUNG; m++) {
		double x = ab->pend[m * nv + v];
		if (verdict == PASS_KEPT)
			ab->samples[(m * nv + v) * p + slot] = x;
		else
			ab->aside_samples[(m * nv + v) * 2 * p + slot] = x;
	}
	if (verdict == PASS_KEPT) {
		ab->took[v * p + slot] = ab->pend_took[v];
		exp_findings_add(&ab->found[v], ab->pend_snap[v]);
	}
	json_decref(ab->pend_snap[v]);
	ab->pend_snap[v] = NULL;
	if (verdict == PASS_KEPT && v == nv - 1) {
		ab->done = slot + 1;
		/* On a terminal one line counts up; in a log, a line a pass. */
		if (!ab->c.json) {
			fprintf(stderr, ab->tty ? "\rpass %zu/%zu" : "pass %zu/%zu\n", ab->done, p);
			fflush(stderr);
		}
	}
}

int exp_ab_run(const struct exp_common *c0, int argc, char **argv)
{
	struct ab ab = {.c = *c0, .limit = PASS_HOST_TOOK_LIMIT_PCT};
	char err[512], first_set[256];
	const char *extra[1] = {first_set};
	int rc = ab_parse(&ab, argc, argv);
	if (rc == 0)
		rc = ab_check_args(&ab);
	if (rc != 0) {
		free(ab.values_copy);
		return rc;
	}
	ab.tty = isatty(STDERR_FILENO) == 1;
	/* The engine starts at the first value: the time before the first pass is then that
	 * value's, so a hang that began then is its own (not the scenario's value's). */
	snprintf(first_set, sizeof(first_set), "%s=%s", ab.knob, ab.values[0]);
	ab.src = exp_source(&ab.c, NULL, extra, 1, err, sizeof(err), &rc);
	if (!ab.src)
		fprintf(stderr, "tunetop: experiment ab: %s\n", err);
	else
		rc = ab_check_metrics(ab.src, ab.metrics, ab.nmetrics);
	if (rc != 0) {
		if (ab.src)
			source_close(ab.src);
		free(ab.values_copy);
		return rc;
	}
	ab_alloc(&ab);
	/* A B A B ...: every pass runs each value once, so host load falls on all of them; a
	 * round the host took more than the limit of any window of is set aside whole and run
	 * again, at most passes times (tui/pass.h). */
	struct pass_conf pc = {.narms = ab.nvalues,
			       .passes = ab.passes,
			       .took_limit_pct = ab.limit,
			       .order = PASS_ROUNDS,
			       .hang_stops = true};
	struct pass_run r;
	static const struct pass_ops ops = {ab_measure, ab_judge, exp_stopped, NULL};
	rc = pass_run(&r, &pc, &ops, &ab);
	if (r.hang)
		rc = 1;
	/* A hang that began in an earlier pass spoils the passes from it on. */
	if (ab.hang[0] && ab.hang_pass < ab.done)
		ab.done = ab.hang_pass;
	if (!ab.c.json && ab.tty)
		fprintf(stderr, "\n");
	if (!ab.hang[0] && !sig_quit && ab.done < ab.passes)
		fprintf(stderr,
			"tunetop: experiment ab: %zu of %zu passes kept: the host took more than "
			"%g%% of the others (--host-took-limit)\n",
			ab.done, ab.passes, ab.limit);
	source_close(ab.src);
	rc = exp_ab_report(&ab, &r, rc);
	pass_run_free(&r);
	ab_free(&ab);
	return rc;
}
