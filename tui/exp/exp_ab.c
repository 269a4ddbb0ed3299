/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exp_ab.c: A/B passes: alternate a knob's values live over N passes, as the seeds did. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/xalloc.h"
#include "tui/exp/chart_cairo.h"
#include "tui/exp/exp_check.h"
#include "tui/pass_cost.h"
#include "tui/exp/exp_metric.h"
#include "tui/exp/exp_stats.h"
#include "tui/exp/exp_diag.h"
#include "tui/exp/experiment.h"
#include "tui/sig.h"
#include "tui/snapjson.h"

#define AB_MAX_METRICS 16
#define AB_MAX_PASSES 1000

/* Metrics when none are named: what each seed compared. */
static const char *const ab_default_blk[] = {"blk.iops", "blk.lat_us.p99", "blk.ipis_per_s", NULL};
static const char *const ab_default_pmd[] = {"pmd.drop_pct", "pmd.threads[*].cpu_pct",
					     "pmd.threads[avg].sleep_iter_pct", NULL};
static const char *const ab_default_est[] = {"est.tick_ns.avg", "est.cpu_pct", "est.chain_max",
					     NULL};

static const char *const *ab_defaults(enum subsys owner)
{
	switch (owner) {
	case SUBSYS_BLK:
		return ab_default_blk;
	case SUBSYS_PMD:
		return ab_default_pmd;
	default:
		return ab_default_est;
	}
}

/* A knob value as the snapshot's "knobs" object writes it: a number for an integer knob,
 * true/false for a switch, the name for a choice. */
static json_t *ab_value_json(int id, const char *text)
{
	int64_t v = 0;
	char err[256];
	knob_parse(id, text, &v, err, sizeof(err));
	switch (knob_table[id].type) {
	case KNOB_INT:
		return json_integer((json_int_t)v);
	case KNOB_BOOL:
		return json_boolean(v != 0);
	default:
		return json_string(text);
	}
}

/* One arm as it ran: which value, in which pass, set when (CLOCK_REALTIME seconds). */
struct ab_arm {
	size_t value, pass;
	double set_s;
	double lost_kicks; /* blk.lost_kicks at its window's end (the fault's own count) */
};

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

struct ab_pic {
	const char *knob;
	const char *const *metrics;
	size_t nmetrics, nvalues, done;
	const char *const *values;
	const struct exp_summary *sums; /* [metric][value] */
	const struct exp_summary *took; /* [value]: host took */
};

/* One panel per metric, a MIN/AVG/MAX bar per value. */
static int ab_draw(const char *path, bool svg, void *arg, char *err, size_t errlen)
{
	const struct ab_pic *ap = arg;
	struct chart_panel *pn = xcalloc(ap->nmetrics, sizeof(*pn));
	struct chart_bar *bars = xcalloc(ap->nmetrics * ap->nvalues, sizeof(*bars));
	char title[160];
	for (size_t m = 0; m < ap->nmetrics; m++) {
		for (size_t v = 0; v < ap->nvalues; v++) {
			const struct exp_summary *s = &ap->sums[m * ap->nvalues + v];
			struct chart_bar *b = &bars[m * ap->nvalues + v];
			snprintf(b->label, sizeof(b->label), "%s = %s, host %.0f%%", ap->knob,
				 ap->values[v], ap->took[v].median);
			b->lo = s->min;
			b->mid = s->avg;
			b->hi = s->max;
		}
		snprintf(pn[m].title, sizeof(pn[m].title), "%s: bar AVG, whisker MIN to MAX",
			 ap->metrics[m]);
		pn[m].bars = &bars[m * ap->nvalues];
		pn[m].nbars = ap->nvalues;
	}
	snprintf(title, sizeof(title), "A/B passes of %s (%zu passes)", ap->knob, ap->done);
	int rc = chart_cairo_bars(path, svg, title, pn, ap->nmetrics, err, errlen);
	free(bars);
	free(pn);
	return rc;
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

/* What a metric's table is drawn from: the run's knob, values and kept passes. */
struct ab_table {
	const struct exp_common *c;
	const char *knob;
	int id;
	const char *const *values;
	size_t nvalues, passes, done;
};

/* A summary as JSON: its figures, or nulls when the arm had no usable pass (never zeros). */
static json_t *ab_summary_json(const struct ab_table *t, size_t v, const struct exp_summary *s)
{
	json_t *o = json_pack("{s:o, s:i}", "value", ab_value_json(t->id, t->values[v]), "passes",
			      (int)s->n);
	const char *names[] = {"min", "avg", "max", "dev", "median"};
	const double figs[] = {s->min, s->avg, s->max, s->dev, s->median};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		json_object_set_new(o, names[i], s->n ? json_real(figs[i]) : json_null());
	return o;
}

/* One metric: its MIN/AVG/MAX/Dev table over the kept passes (an arm without a usable pass
 * says so) and Welch's test of each value against the first; the table is left out when quiet
 * (no pass kept). sum[v] is filled for every value. Returns the metric's JSON. */
static json_t *ab_metric(const struct ab_table *t, const char *metric, bool missing,
			 const double *samples, struct exp_summary *sum, bool quiet)
{
	json_t *jv = json_array(), *tests = json_array();
	bool text = !t->c->json && !quiet;
	if (text)
		printf("\n%s%s (%zu passes of %.1f s)\n%-12s %12s %12s %12s %12s\n", metric,
		       missing ? " [not in the snapshot: is its subsystem running?]" : "", t->done,
		       t->c->seconds, t->knob, "MIN", "AVG", "MAX", "Dev");
	for (size_t v = 0; v < t->nvalues; v++) {
		char a[32], b[32], cc[32], d[32];
		exp_summarize_finite(&samples[v * t->passes], t->done, &sum[v]);
		exp_fmt(a, sizeof(a), sum[v].min);
		exp_fmt(b, sizeof(b), sum[v].avg);
		exp_fmt(cc, sizeof(cc), sum[v].max);
		exp_fmt(d, sizeof(d), sum[v].dev);
		if (text && sum[v].n)
			printf("%-12s %12s %12s %12s %12s\n", t->values[v], a, b, cc, d);
		else if (text)
			printf("%-12s %12s\n", t->values[v], "no usable pass (no number in any)");
		json_array_append_new(jv, ab_summary_json(t, v, &sum[v]));
	}
	for (size_t v = 1; v < t->nvalues; v++) {
		double tt, df, pv;
		if (exp_welch(&sum[0], &sum[v], &tt, &df, &pv) != 0)
			continue;
		if (text)
			printf("  %s vs %s: Welch t=%.2f df=%.1f p=%.3g -> %s at 5%%\n",
			       t->values[0], t->values[v], tt, df, pv,
			       pv < 0.05 ? "significant" : "not significant");
		json_array_append_new(tests, json_pack("{s:o, s:o, s:f, s:f, s:f, s:b}", "a",
						       ab_value_json(t->id, t->values[0]), "b",
						       ab_value_json(t->id, t->values[v]), "t",
						       isfinite(tt) ? tt : 1e300, "df", df, "p", pv,
						       "significant", pv < 0.05));
	}
	return json_pack("{s:s, s:b, s:o, s:o}", "metric", metric, "present", !missing, "values",
			 jv, "welch", tests);
}

/*
 * Can the run conclude? Not when no pass was kept (every one set aside) or an arm has no
 * usable pass for a metric (its figure null or absent in every window). Then why says so and
 * each metric's partial ranking is printed (from the set-aside windows when no pass was kept:
 * aside[metric][value][2 x passes], NAN where none) and put in *jrank. Returns 1 when
 * inconclusive.
 */
static int ab_inconclusive(const struct ab_table *t, const char *const *metrics, size_t nmetrics,
			   const struct exp_summary *sums, const double *aside, double limit,
			   char *why, size_t len, json_t **jrank)
{
	struct exp_summary *rs = xcalloc(t->nvalues, sizeof(*rs));
	size_t off = 0;
	bool none = t->done == 0;
	if (none)
		off =
		    (size_t)snprintf(why, len,
				     "every pass was set aside: the host took more than %g%% of a "
				     "window (--host-took-limit); the ranking below is from the "
				     "set-aside windows, not a result",
				     limit);
	for (size_t m = 0; m < nmetrics; m++) {
		for (size_t v = 0; v < t->nvalues; v++)
			if (none)
				exp_summarize_finite(&aside[(m * t->nvalues + v) * 2 * t->passes],
						     2 * t->passes, &rs[v]);
			else
				rs[v] = sums[m * t->nvalues + v];
		char rank[512];
		size_t usable = exp_rank_text(rs, t->values, t->nvalues, rank, sizeof(rank));
		if (!none && usable == t->nvalues)
			continue;
		if (!none)
			off += (size_t)snprintf(why + off, off < len ? len - off : 0,
						"%s%s: an arm has no usable pass (its figure null "
						"or absent in every window)",
						off ? "; " : "", metrics[m]);
		if (!*jrank)
			*jrank = json_array();
		json_array_append_new(*jrank,
				      json_pack("{s:s, s:s, s:s}", "metric", metrics[m], "by",
						"avg, highest first", "ranking", rank));
	}
	free(rs);
	if (why[0] && !t->c->json) {
		size_t i;
		json_t *r;
		printf("\ninconclusive: %s\n", why);
		json_array_foreach (*jrank, i, r)
			printf("partial ranking of %s by AVG, highest first: %s\n",
			       json_string_value(json_object_get(r, "metric")),
			       json_string_value(json_object_get(r, "ranking")));
	}
	return why[0] != 0;
}

static const char *ab_default_scenario(enum subsys owner)
{
	switch (owner) {
	case SUBSYS_BLK:
		return "blk-steer";
	case SUBSYS_PMD:
		return "pmd-light";
	default:
		return "default";
	}
}

int exp_ab_run(const struct exp_common *c0, int argc, char **argv)
{
	struct exp_common c = *c0;
	const char *knob = NULL, *values_list = NULL;
	const char *metrics[AB_MAX_METRICS], *values[EXP_MAX_LIST];
	size_t nmetrics = 0, nvalues, hang_value = 0, hang_pass = 0;
	double limit = PASS_HOST_TOOK_LIMIT_PCT;
	long passes_l = 10;
	char *values_copy, err[512], hang[256] = "";
	int rc = 0;

	for (int i = 0; i < argc; i++) {
		if (i + 1 < argc && strcmp(argv[i], "--knob") == 0) {
			knob = argv[++i];
		} else if (i + 1 < argc && strcmp(argv[i], "--values") == 0) {
			values_list = argv[++i];
		} else if (i + 1 < argc && strcmp(argv[i], "--passes") == 0) {
			if (exp_parse_count("--passes", argv[++i], 2, AB_MAX_PASSES, &passes_l))
				return 2;
		} else if (i + 1 < argc && strcmp(argv[i], "--host-took-limit") == 0) {
			if (exp_parse_double("--host-took-limit", argv[++i], 0, 100, &limit))
				return 2;
		} else if (i + 1 < argc && strcmp(argv[i], "--metric") == 0) {
			if (nmetrics == AB_MAX_METRICS) {
				fprintf(stderr, "tunetop: experiment ab: at most %d metrics\n",
					AB_MAX_METRICS);
				return 2;
			}
			metrics[nmetrics++] = argv[++i];
		} else {
			fprintf(stderr,
				"tunetop: experiment ab: unknown option '%s' (valid: --knob KNOB, "
				"--values "
				"A,B[,...], --passes N, --metric PATH, --host-took-limit PCT and "
				"the common "
				"options)\n",
				argv[i]);
			return 2;
		}
	}
	int id = knob ? knob_find(knob) : -1;
	if (id < 0 || !values_list) {
		fprintf(stderr,
			"tunetop: experiment ab: needs --knob KNOB (see --list-knobs) and "
			"--values A,B[,...]%s%s%s\n",
			knob && id < 0 ? " ('" : "", knob && id < 0 ? knob : "",
			knob && id < 0 ? "' is not a knob)" : "");
		return 2;
	}
	nvalues =
	    exp_parse_list("ab", "--values", values_list, id, &values_copy, values, EXP_MAX_LIST);
	if (nvalues == 0)
		return 2;
	if (nvalues < 2) {
		fprintf(stderr, "tunetop: experiment ab: --values needs at least two values\n");
		free(values_copy);
		return 2;
	}
	if (nmetrics == 0)
		for (const char *const *d = ab_defaults(knob_table[id].owner); *d; d++)
			metrics[nmetrics++] = *d;
	if (!c.scenario)
		c.scenario = ab_default_scenario(knob_table[id].owner);
	size_t passes = (size_t)passes_l;
	bool tty = isatty(STDERR_FILENO) == 1;

	/* The engine starts at the first value: the time before the first pass is then that
	 * value's, so a hang that began then is its own (not the scenario's value's). */
	char first_set[256];
	const char *extra[1] = {first_set};
	snprintf(first_set, sizeof(first_set), "%s=%s", knob, values[0]);
	struct source *src = exp_source(&c, extra, 1, err, sizeof(err), &rc);
	if (!src) {
		fprintf(stderr, "tunetop: experiment ab: %s\n", err);
		free(values_copy);
		return rc;
	}
	if ((rc = ab_check_metrics(src, metrics, nmetrics)) != 0) {
		source_close(src);
		free(values_copy);
		return rc;
	}
	/* samples[metric][value][pass] */
	double *samples = xcalloc(nmetrics * nvalues * passes, sizeof(double));
	/* [metric][value][set-aside pass]: NAN where none */
	double *aside_samples = xcalloc(nmetrics * nvalues * 2 * passes, sizeof(double));
	for (size_t k = 0; k < nmetrics * nvalues * 2 * passes; k++)
		aside_samples[k] = NAN;
	double *took = xcalloc(nvalues * passes, sizeof(double)); /* [value][pass] */
	bool *missing = xcalloc(nmetrics, sizeof(bool));
	struct exp_findings *found = xcalloc(nvalues, sizeof(*found)); /* per value */
	size_t *aside = xcalloc(nvalues, sizeof(*aside));
	size_t done = 0, attempts = 0, narms = 0;
	struct ab_arm *arms = xcalloc(2 * passes * nvalues, sizeof(*arms));
	json_t *jlog = json_array();
	json_t **pass_snaps = xcalloc(nvalues, sizeof(*pass_snaps));
	/* A B A B ...: every pass runs each value once, so host load falls on all of them. A
	 * pass where the host took more than the limit of any arm is set aside and run again,
	 * at most passes times in all. */
	while (done < passes && attempts < 2 * passes && rc == 0 && !sig_quit) {
		bool flagged = false;
		attempts++;
		for (size_t v = 0; v < nvalues && rc == 0; v++) {
			if (source_knob_set_text(src, id, values[v], err, sizeof(err)) != 0) {
				fprintf(stderr, "tunetop: experiment ab: %s\n", err);
				rc = 1;
				break;
			}
			struct ab_arm *arm = &arms[narms++];
			*arm = (struct ab_arm){.value = v, .pass = done, .set_s = ab_now_s()};
			json_t *snap = exp_window(src, c.warmup, c.seconds, hang, sizeof(hang));
			exp_metric(snap, "blk.lost_kicks", &arm->lost_kicks);
			double t = ab_host_took(snap, knob_table[id].owner);
			took[v * passes + done] = t;
			bool over = t > limit;
			json_array_append_new(
			    jlog,
			    json_pack("{s:i, s:o, s:f, s:b, s:b}", "pass", (int)done + 1, "value",
				      ab_value_json(id, values[v]), "host_took_pct", t, "set_aside",
				      over && !hang[0], "hung", hang[0] != 0));
			if (hang[0]) {
				/* One engine serves every pass and a hung subsystem stays hung:
				 * stop. The hang is the arm's during which it began, which the
				 * watchdog's event dates; a hang seen later is often an earlier
				 * arm's. */
				const struct ab_arm *h = ab_hang_arm(src, snap, arms, narms);
				hang_value = h->value;
				hang_pass = h->pass;
				fprintf(stderr, "\ntunetop: experiment ab: pass %zu, %s = %s: %s\n",
					h->pass + 1, knob, values[h->value], hang);
				json_decref(snap);
				rc = 1;
				break;
			}
			if (over) {
				aside[v]++;
				flagged = true;
			}
			for (size_t m = 0; m < nmetrics; m++) {
				double x = NAN; /* no number: left out, never a 0 */
				if (exp_metric(snap, metrics[m], &x) < 0)
					missing[m] = true;
				samples[(m * nvalues + v) * passes + done] = x;
			}
			pass_snaps[v] = snap; /* its findings count once the pass is kept */
		}
		for (size_t v = 0; v < nvalues; v++) {
			if (pass_snaps[v] && rc == 0 && !flagged)
				exp_findings_add(&found[v], pass_snaps[v]);
			json_decref(pass_snaps[v]);
			pass_snaps[v] = NULL;
		}
		if (rc != 0 || sig_quit)
			break;
		if (flagged) {
			/* Kept apart for a partial ranking should no pass be kept. */
			for (size_t k = 0; k < nmetrics * nvalues; k++)
				aside_samples[k * 2 * passes + attempts - 1 - done] =
				    samples[k * passes + done];
			continue; /* the pass is run again: its slots are overwritten */
		}
		done++;
		if (!c.json) {
			/* On a terminal one line counts up; in a log, a line a pass. */
			fprintf(stderr, tty ? "\rpass %zu/%zu" : "pass %zu/%zu\n", done, passes);
			fflush(stderr);
		}
	}
	/* A hang that began in an earlier pass spoils the passes from it on. */
	if (hang[0] && hang_pass < done)
		done = hang_pass;
	if (!c.json && tty)
		fprintf(stderr, "\n");
	if (!hang[0] && !sig_quit && done < passes)
		fprintf(stderr,
			"tunetop: experiment ab: %zu of %zu passes kept: the host took more than "
			"%g%% of the others (--host-took-limit)\n",
			done, passes, limit);
	free(arms);
	free(pass_snaps);
	source_close(src);

	/* What the host took of each value's kept windows, and how many were set aside. */
	json_t *jarms = json_array();
	struct exp_summary *took_sum = xcalloc(nvalues, sizeof(*took_sum));
	if (!c.json && done)
		printf("host took (%% of the window, medians; a window over %g%% set aside and its "
		       "pass run again)\n%-12s %12s %12s\n",
		       limit, knob, "host_took%", "set_aside");
	for (size_t v = 0; v < nvalues; v++) {
		exp_summarize(&took[v * passes], done, &took_sum[v]);
		if (!c.json && done)
			printf("%-12s %12.1f %12zu\n", values[v], took_sum[v].median, aside[v]);
		json_array_append_new(jarms,
				      json_pack("{s:o, s:f, s:i}", "value",
						ab_value_json(id, values[v]), "host_took_pct",
						took_sum[v].median, "set_aside", (int)aside[v]));
	}
	json_t *jm = json_array();
	struct exp_summary *sums = xcalloc(nmetrics * nvalues, sizeof(*sums));
	struct ab_table tab = {&c, knob, id, values, nvalues, passes, done};
	for (size_t m = 0; m < nmetrics && (rc == 0 || (hang[0] && done)); m++)
		json_array_append_new(jm, ab_metric(&tab, metrics[m], missing[m],
						    &samples[m * nvalues * passes],
						    &sums[m * nvalues], done == 0));
	json_t *jrank = NULL;
	char why[512] = "";
	if (rc == 0 && !sig_quit &&
	    ab_inconclusive(&tab, metrics, nmetrics, sums, aside_samples, limit, why, sizeof(why),
			    &jrank)) {
		fprintf(stderr, "tunetop: experiment ab: inconclusive: %s\n", why);
		rc = 1;
	}
	/* What the rules said of each value's passes: a hang or a fault named on its own arm. */
	json_t *jd = json_array();
	for (size_t v = 0; v < nvalues && done; v++) {
		char text[1024];
		exp_findings_text(&found[v], done, text, sizeof(text));
		if (!c.json && text[0])
			printf("%s %s: %s\n", knob, values[v], text);
		json_array_append_new(jd,
				      json_pack("{s:o, s:o}", "value", ab_value_json(id, values[v]),
						"diagnoses", exp_findings_json(&found[v])));
	}
	free(found);
	if (rc == 0 || hang[0]) { /* an inconclusive run draws no bars of zeros */
		struct ab_pic ap = {knob, metrics, nmetrics, nvalues, done, values, sums, took_sum};
		if (done && exp_pictures(&c, "ab", ab_draw, &ap) != 0 && rc == 0)
			rc = 1;
	}
	free(sums);
	if (c.json && (rc == 0 || hang[0] || why[0])) {
		json_t *o = json_pack("{s:s, s:s, s:s, s:i, s:f, s:o}", "experiment", "ab", "knob",
				      knob, "scenario", c.scenario, "passes", (int)done, "seconds",
				      c.seconds, "metrics", jm);
		json_object_set_new(o, "ok", json_boolean(!hang[0] && !why[0]));
		json_object_set_new(o, "inconclusive", why[0] ? json_string(why) : json_null());
		json_object_set_new(o, "ranking", jrank ? jrank : json_null());
		json_object_set_new(o, "hang", hang[0] ? json_string(hang) : json_null());
		json_object_set_new(o, "diagnoses", jd);
		json_object_set_new(o, "host_took_limit_pct", json_real(limit));
		json_object_set_new(o, "arms", jarms);
		json_object_set_new(o, "pass_log", jlog);
		json_object_set_new(o, "hang_value",
				    hang[0] ? ab_value_json(id, values[hang_value]) : json_null());
		json_object_set_new(o, "hang_pass",
				    hang[0] ? json_integer((json_int_t)hang_pass + 1)
					    : json_null());
		json_dumpf(o, stdout, JSON_COMPACT | JSON_REAL_PRECISION(10));
		printf("\n");
		json_decref(o);
	} else {
		json_decref(jm);
		json_decref(jd);
		json_decref(jarms);
		json_decref(jlog);
		json_decref(jrank);
	}
	free(took_sum);
	free(took);
	free(aside);
	free(samples);
	free(aside_samples);
	free(missing);
	free(values_copy);
	return rc;
}
