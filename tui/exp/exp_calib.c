/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exp_calib.c: calibration stability: recalibrate N times per governor (docs/est.md §7). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/governor.h"
#include "core/xalloc.h"
#include "tui/exp/chart_cairo.h"
#include "tui/exp/exp_calib_say.h"
#include "tui/exp/exp_metric.h"
#include "tui/exp/exp_result.h"
#include "tui/exp/exp_stats.h"
#include "tui/exp/experiment.h"
#include "tui/pass.h"
#include "tui/sig.h"
#include "tui/snapjson.h"

#define CALIB_MAX_RUNS 1000
#define CALIB_MIN_SETTLE_S 2.2 /* > the initial delay, 49 ticks of 40 ms */
#define CALIB_MIN_WINDOW_S 2.5 /* > one 2 s period, so every row comes round */
#define CALIB_WAIT_S 20.0 /* one calibration takes >= 60 ms; give a loaded machine room */
/* The possible CPUs of the IPVS estimator thread's measurements (core/scenario.c, est-ipvs). */
#define CALIB_IPVS_CPUS 128

/* Wait until the calibration count passes `after`; returns the snapshot JSON or NULL. */
static json_t *calib_wait(struct source *src, double after)
{
	struct snapshot *snap = snapshot_new();
	uint64_t end = clock_mono_ns() + (uint64_t)(CALIB_WAIT_S * 1e9);
	json_t *j = NULL;

	while (!sig_quit && clock_mono_ns() < end) {
		clock_sleep_ns(20 * NS_PER_MS);
		source_sample(src, snap);
		j = snapjson_build(snap);
		double count = 0;
		if (exp_metric(j, "est.calibration.count", &count) == 0 && count > after)
			break;
		json_decref(j);
		j = NULL;
	}
	snapshot_free(snap);
	return j;
}

static int calib_int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* A chain_max histogram per governor (from the result's "histogram"s), over the same categories
 * (every value seen under any governor), so the governors read against each other. */
static int calib_draw(const char *path, bool svg, void *arg, char *err, size_t errlen)
{
	json_t *jg = arg, *g, *x;
	int vals[CALIB_MAX_RUNS * 4];
	size_t nv = 0, i, ng = json_array_size(jg);
	const char *key;
	json_array_foreach (jg, i, g) {
		json_object_foreach (json_object_get(g, "histogram"), key, x) {
			size_t j = 0;
			while (j < nv && vals[j] != atoi(key))
				j++;
			if (j == nv && nv < sizeof(vals) / sizeof(vals[0]))
				vals[nv++] = atoi(key);
		}
	}
	qsort(vals, nv, sizeof(int), calib_int_cmp); /* ascending: a histogram's x axis */
	struct chart_panel *pn = xcalloc(ng + 1, sizeof(*pn));
	struct chart_bar *bars = xcalloc((ng + 1) * (nv + 1), sizeof(*bars));
	json_array_foreach (jg, i, g) {
		for (size_t j = 0; j < nv; j++) {
			struct chart_bar *b = &bars[i * nv + j];
			snprintf(b->label, sizeof(b->label), "%d", vals[j]);
			b->lo = b->mid = b->hi = (double)json_integer_value(
			    json_object_get(json_object_get(g, "histogram"), b->label));
		}
		snprintf(pn[i].title, sizeof(pn[i].title),
			 "%s: calibrations per chain_max (%zu runs), tick avg %.0f us",
			 json_string_value(json_object_get(g, "governor")),
			 json_array_size(json_object_get(g, "chain_max")),
			 json_number_value(json_object_get(g, "tick_ns_avg")) / 1000);
		pn[i].bars = &bars[i * nv];
		pn[i].nbars = nv;
		pn[i].counts = true;
	}
	int rc = chart_cairo_bars(path, svg, "chain_max chosen by calibration, per governor", pn,
				  ng, err, errlen);
	free(bars);
	free(pn);
	return rc;
}

/* Does the scenario run est at all? (A calibration never comes otherwise.) */
static bool calib_has_est(struct source *src)
{
	struct snapshot *snap = snapshot_new();
	source_sample(src, snap);
	bool has = snap->has_est;
	snapshot_free(snap);
	return has;
}

/* What one governor's runs gave: the result both the text and the JSON are written from. */
struct calib_gov {
	const char *name;
	int *chain; /* [runs]: chain_max of each calibration seen */
	double *single; /* [runs]: single_est_ns of each */
	double *mhz; /* [runs]: the frequency of CPU 0 (est-k:0's) in the sample after each */
	size_t got;
	/* The window after the last run. */
	double tick_avg, tick_max, cpu, per_kt, ests, max_kt, cm_last, est_cpus, visits, per_est;
	double
	    kt_cpu_ns; /* the est kthreads' CPU per estimator visited in the window, -1 unknown */
	double want; /* the estimators asked about: --count, else the scenario's */
	long kt_need; /* kthreads they take; -1 unknown */
	bool measured; /* the source ran est: the figures above are its */
};

static int calib_parse(int argc, char **argv, const char **gov_list, long *runs, long *count)
{
	const struct exp_opt opts[] = {EXP_TEXT("--governors", "LIST", gov_list),
				       EXP_COUNT("--runs", "N", runs, 1, CALIB_MAX_RUNS),
				       EXP_COUNT("--count", "N", count, 1, 100000000)};
	return exp_opts_parse("calib", opts, sizeof(opts) / sizeof(opts[0]), argc, argv, NULL,
			      NULL);
}

/* runs calibrations on src: the one at start, then a recalibration each. */
static void calib_runs(struct source *src, size_t runs, struct calib_gov *g)
{
	char err[512];
	json_t *j = calib_wait(src, 0); /* the calibration at start */
	double count = 0;
	for (size_t r = 0; r < runs && j && !sig_quit; r++) {
		double cm = 0, se = 0, mhz = -1;
		exp_metric(j, "est.calibration.count", &count);
		exp_metric(j, "est.calibration.chain_max", &cm);
		exp_metric(j, "est.calibration.single_est_ns", &se);
		exp_metric(j, "cpu.cpus[0].freq_mhz", &mhz);
		g->chain[g->got] = (int)cm;
		g->mhz[g->got] = mhz;
		g->single[g->got++] = se;
		json_decref(j);
		j = NULL;
		if (r + 1 < runs) {
			source_knob_set(src, K_EST_RECALIBRATE, 1, NULL, err, sizeof(err));
			j = calib_wait(src, count);
		}
	}
	json_decref(j);
}

/* The tick time that chain_max gives, measured after the last run. A relink places every
 * estimator with the initial delay of about 2 s (49 ticks), and a row comes round once per
 * 2 s period: wait out the one, span the other. */
static void calib_window(const struct exp_common *c, struct source *src, struct calib_gov *g,
			 char *hang, size_t hanglen)
{
	json_t *w = exp_window(src, c->warmup > CALIB_MIN_SETTLE_S ? c->warmup : CALIB_MIN_SETTLE_S,
			       c->seconds > CALIB_MIN_WINDOW_S ? c->seconds : CALIB_MIN_WINDOW_S,
			       hang, hanglen);
	exp_metric(w, "est.est_cpus", &g->est_cpus);
	exp_metric(w, "est.max_per_kthread", &g->per_kt);
	exp_metric(w, "est.estimators", &g->ests);
	exp_metric(w, "est.max_threads", &g->max_kt);
	exp_metric(w, "est.chain_max", &g->cm_last);
	exp_metric(w, "est.tick_ns.avg", &g->tick_avg);
	exp_metric(w, "est.tick_ns.max", &g->tick_max);
	exp_metric(w, "est.cpu_pct", &g->cpu);
	exp_metric(w, "est.visits", &g->visits);
	exp_metric(w, "est.tick_ns.per_est", &g->per_est);
	double kt = 0, dt = 0;
	g->kt_cpu_ns = exp_metric(w, "est.kthread[*].cpu_pct", &kt) == 0 &&
			       exp_metric(w, "interval_s", &dt) == 0 && g->visits > 0
			   ? kt / 100.0 * dt * 1e9 / g->visits
			   : -1;
	json_decref(w);
}

/* One governor's runs on a fresh engine: 0, or an exit status (the source, a scenario
 * without est, too few calibrations, a hang). */
static int calib_governor(const struct exp_common *c, size_t runs, long for_count,
			  struct calib_gov *g)
{
	char set_gov[64], err[512], hang[256] = "";
	const char *extra[] = {set_gov};
	int rc = 0;
	snprintf(set_gov, sizeof(set_gov), "cpu.governor=%s", g->name);
	struct source *src = exp_source(c, NULL, extra, 1, err, sizeof(err), &rc);
	if (!src) {
		fprintf(stderr, "tunetop: experiment calib: %s\n", err);
		return rc;
	}
	if (!calib_has_est(src)) {
		fprintf(stderr,
			"tunetop: experiment calib: scenario '%s' does not run est, so nothing "
			"calibrates (valid: a scenario with est, e.g. est-only or default, or "
			"--set est.enabled=on)\n",
			c->scenario);
		source_close(src);
		return 2;
	}
	g->measured = true;
	calib_runs(src, runs, g);
	calib_window(c, src, g, hang, sizeof(hang));
	source_close(src);
	if (g->got < runs && !sig_quit) {
		fprintf(stderr, "tunetop: experiment calib: %s: %zu of %zu calibrations seen\n",
			g->name, g->got, runs);
		rc = 1;
	}
	if (hang[0]) {
		fprintf(stderr, "tunetop: experiment calib: %s: %s\n", g->name, hang);
		rc = 1;
	}
	/* What the IPVS thread's readers ask of a calibration: how many kthreads a given
	 * number of estimators takes under this governor (one kthread holds
	 * est.max_per_kthread: 50 rows of chain_max x tick_chains). */
	g->want = for_count > 0 ? (double)for_count : g->ests;
	g->kt_need = g->per_kt > 0 ? (long)((g->want + g->per_kt - 1) / g->per_kt) : -1;
	return rc;
}

/* chain_max values and how often each came, by chain_max ascending: the object keeps
 * insertion order, in the text and the JSON (in run order it read "390 x1 358 x2 368 x1"). */
static json_t *calib_histogram(struct calib_gov *g)
{
	json_t *hist = json_object();
	qsort(g->chain, g->got, sizeof(int), calib_int_cmp);
	for (size_t i = 0; i < g->got; i++) {
		char key[16];
		snprintf(key, sizeof(key), "%d", g->chain[i]);
		json_t *cur = json_object_get(hist, key);
		json_object_set_new(hist, key, json_integer(cur ? json_integer_value(cur) + 1 : 1));
	}
	return hist;
}

static void calib_print(const struct calib_gov *g, const json_t *hist)
{
	const char *key;
	json_t *val;
	/* chain_max scales with the CPUs each estimator sums: at the default 16 it is in the
	 * hundreds, at the IPVS thread's 128 near its 22; say which it was. */
	printf("%s: %zu calibration%s at est.cpus %.0f%s\n  chain_max histogram:", g->name, g->got,
	       g->got == 1 ? "" : "s", g->est_cpus,
	       g->est_cpus == CALIB_IPVS_CPUS ? " (the IPVS thread's)"
					      : " (the IPVS thread's 128: --scenario est-ipvs)");
	json_object_foreach ((json_t *)hist, key, val)
		printf(" %s x%lld", key, (long long)json_integer_value(val));
	double single_min = g->got ? g->single[0] : 0;
	for (size_t i = 1; i < g->got; i++)
		if (g->single[i] < single_min)
			single_min = g->single[i];
	char spread[192], ticks[320];
	calib_say_spread(g->chain, g->got, spread, sizeof(spread)); /* sorted by calib_histogram */
	calib_say_ticks(g->tick_avg, g->tick_max, g->visits, g->per_est, g->kt_cpu_ns, ticks,
			sizeof(ticks));
	printf("\n  %s\n  single est (min over runs) %.0f ns; %s; est CPU %.1f%%\n", spread,
	       single_min, ticks, g->cpu);
	if (g->kt_need >= 0)
		printf("  %.0f estimators need %ld kthread%s at chain_max %.0f (%.0f estimators "
		       "per kthread)%s\n",
		       g->want, g->kt_need, g->kt_need == 1 ? "" : "s", g->cm_last, g->per_kt,
		       g->max_kt > 0 && g->kt_need > g->max_kt ? ": more than the kthread limit"
							       : "");
}

/* A governor's result: its calibrations in run order, then their histogram (chain_max sorted). */
static json_t *calib_json(struct calib_gov *g)
{
	json_t *jc = json_array(), *js = json_array();
	for (size_t i = 0; i < g->got; i++) {
		json_array_append_new(jc, json_integer(g->chain[i]));
		json_array_append_new(js, json_real(g->single[i]));
	}
	json_t *hist = calib_histogram(g);
	/* What the verdicts read (exp_calib_say.h): chain_max is sorted now. */
	struct exp_summary mhz;
	exp_summarize_finite(g->mhz, g->got, &mhz);
	char spread[192];
	bool stable = calib_say_spread(g->chain, g->got, spread, sizeof(spread));
	double med = g->got == 0  ? 0
		     : g->got % 2 ? g->chain[g->got / 2]
				  : (g->chain[g->got / 2 - 1] + g->chain[g->got / 2]) / 2.0;
	double smin = g->got ? g->single[0] : 0;
	for (size_t i = 1; i < g->got; i++)
		smin = g->single[i] < smin ? g->single[i] : smin;
	json_t *said = json_pack("{s:f, s:f, s:o, s:b, s:s}", "chain_max_median", med,
				 "single_est_ns_min", smin, "freq_mhz_median",
				 mhz.n && mhz.median > 0 ? json_real(mhz.median) : json_null(),
				 "stable", stable, "spread", spread);
	return json_pack(
	    "{s:s, s:o, s:o, s:o, s:f, s:f, s:f, s:I, s:I, s:o?, s:o?, s:o}", "governor", g->name,
	    "chain_max", jc, "single_est_ns", js, "histogram", hist, "tick_ns_avg", g->tick_avg,
	    "tick_ns_max", g->tick_max, "est_cpu_pct", g->cpu, "est_cpus", (json_int_t)g->est_cpus,
	    "estimators_for", (json_int_t)g->want, "estimators_per_kthread",
	    g->per_kt > 0 ? json_integer((json_int_t)g->per_kt) : NULL, "kthreads_needed",
	    g->kt_need >= 0 ? json_integer(g->kt_need) : NULL, "verdict", said);
}

/* Why each governor's chain_max is lower than the highest one's (the IPVS thread's point: the
 * calibration runs at the frequency a slowly ramping governor leaves the CPU at). */
static void calib_compare(json_t *jg)
{
	size_t n = json_array_size(jg), i, ref = 0;
	struct calib_said *g = xcalloc(n + 1, sizeof(*g));
	json_t *row;
	json_array_foreach (jg, i, row) {
		json_t *v = json_object_get(row, "verdict");
		g[i] = (struct calib_said){
		    json_string_value(json_object_get(row, "governor")),
		    json_number_value(json_object_get(v, "chain_max_median")),
		    json_number_value(json_object_get(v, "single_est_ns_min")),
		    json_is_number(json_object_get(v, "freq_mhz_median"))
			? json_number_value(json_object_get(v, "freq_mhz_median"))
			: -1};
		if (g[i].chain_median > g[ref].chain_median)
			ref = i;
	}
	char why[512];
	for (i = 0; i < n; i++) {
		calib_say_why(&g[i], &g[ref], why, sizeof(why));
		if (why[0])
			printf("%s\n", why);
	}
	free(g);
}

static int calib_check_govs(const char *const *govs, size_t ngov)
{
	for (size_t g = 0; g < ngov; g++) {
		if (cpu_governor_parse(govs[g]) < 0) {
			fprintf(stderr,
				"tunetop: experiment calib: --governors: '%s' is not valid "
				"(valid: performance, powersave, ondemand, schedutil)\n",
				govs[g]);
			return 2;
		}
	}
	return 0;
}

/* The run the pass runner drives: a governor is an arm, its calibrations one pass. */
struct calib_run {
	const struct exp_common *c;
	size_t runs;
	long for_count;
	const char *const *govs;
	json_t *jg; /* the governors' results */
};

static int calib_measure(void *ctx, size_t i, struct pass_obs *obs)
{
	struct calib_run *cr = ctx;
	struct calib_gov g = {.name = cr->govs[i],
			      .chain = xcalloc(cr->runs, sizeof(int)),
			      .single = xcalloc(cr->runs, sizeof(double)),
			      .mhz = xcalloc(cr->runs, sizeof(double))};
	int rc = calib_governor(cr->c, cr->runs, cr->for_count, &g);
	if (g.measured) {
		json_t *row = calib_json(&g);
		if (!cr->c->json)
			calib_print(&g, json_object_get(row, "histogram"));
		json_array_append_new(cr->jg, row);
	}
	free(g.chain);
	free(g.single);
	free(g.mhz);
	obs->void_ = rc == 0 && sig_quit;
	return rc;
}

static void calib_judge(void *ctx, size_t i, enum pass_verdict v, size_t slot)
{
	(void)ctx, (void)i, (void)v, (void)slot; /* each governor's result is written as it ends */
}

int exp_calib_run(const struct exp_common *c0, int argc, char **argv)
{
	struct exp_common c = *c0;
	const char *gov_list = "performance,ondemand", *govs[EXP_MAX_LIST];
	long runs_l = 10, for_count = -1;
	char *gov_copy = NULL;
	int rc = 0;

	if (!c.scenario)
		c.scenario = "est-only";
	if (calib_parse(argc, argv, &gov_list, &runs_l, &for_count))
		return 2;
	size_t ngov =
	    exp_parse_list("calib", "--governors", gov_list, -1, &gov_copy, govs, EXP_MAX_LIST);
	if (ngov == 0 || calib_check_govs(govs, ngov)) {
		free(gov_copy);
		return 2;
	}
	size_t runs = (size_t)runs_l;
	json_t *jg = json_array();
	/* One pass a governor, in order, each on a fresh engine (tui/pass.h); a governor that
	 * fails (too few calibrations, a hang) ends the run after its result is written. */
	struct calib_run cr = {&c, runs, for_count, govs, jg};
	struct pass_conf pc = {.narms = ngov, .passes = 1, .order = PASS_EACH, .hang_stops = true};
	static const struct pass_ops ops = {calib_measure, calib_judge, exp_stopped, NULL};
	struct pass_run r;
	rc = pass_run(&r, &pc, &ops, &cr);
	pass_run_free(&r);
	if (!c.json && json_array_size(jg) > 1)
		calib_compare(jg);
	if (rc == 0 && !sig_quit && exp_pictures(&c, "calib", calib_draw, jg) != 0)
		rc = 1;
	json_t *o = json_pack("{s:s, s:s, s:i, s:o, s:b}", "experiment", "calib", "scenario",
			      c.scenario, "runs", (int)runs, "governors", jg, "ok", rc == 0);
	if (c.json && (rc == 0 || json_array_size(jg)))
		exp_result_print(o);
	json_decref(o);
	free(gov_copy);
	return rc;
}
