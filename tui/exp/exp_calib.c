/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exp_calib.c: calibration stability: recalibrate N times per governor (docs/est.md §7). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/governor.h"
#include "core/xalloc.h"
#include "tui/exp/chart_cairo.h"
#include "tui/exp/exp_metric.h"
#include "tui/exp/experiment.h"
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

struct calib_pic {
	size_t ngov;
	const char *const *govs;
	json_t *jg; /* the governors' results, each with "chain_max": [...] */
};

/* A chain_max histogram per governor, over the same categories (every value seen under
 * any governor), so the governors read against each other. */
static int calib_draw(const char *path, bool svg, void *arg, char *err, size_t errlen)
{
	const struct calib_pic *cp = arg;
	int vals[CALIB_MAX_RUNS * 4];
	size_t nv = 0;
	size_t i, k;
	json_t *g, *x;
	json_array_foreach (cp->jg, i, g) {
		json_array_foreach (json_object_get(g, "chain_max"), k, x) {
			int v = (int)json_integer_value(x);
			size_t j = 0;
			while (j < nv && vals[j] != v)
				j++;
			if (j == nv && nv < sizeof(vals) / sizeof(vals[0]))
				vals[nv++] = v;
		}
	}
	for (size_t a = 1; a < nv; a++) /* ascending: a histogram's x axis */
		for (size_t b = a; b > 0 && vals[b - 1] > vals[b]; b--) {
			int t = vals[b];
			vals[b] = vals[b - 1];
			vals[b - 1] = t;
		}
	size_t ng = json_array_size(cp->jg);
	struct chart_panel *pn = xcalloc(ng + 1, sizeof(*pn));
	struct chart_bar *bars = xcalloc((ng + 1) * (nv + 1), sizeof(*bars));
	json_array_foreach (cp->jg, i, g) {
		json_t *chain = json_object_get(g, "chain_max");
		for (size_t j = 0; j < nv; j++) {
			struct chart_bar *b = &bars[i * nv + j];
			snprintf(b->label, sizeof(b->label), "%d", vals[j]);
			json_array_foreach (chain, k, x)
				if ((int)json_integer_value(x) == vals[j])
					b->mid++;
			b->lo = b->hi = b->mid;
		}
		snprintf(pn[i].title, sizeof(pn[i].title),
			 "%s: calibrations per chain_max (%zu runs), tick avg %.0f us",
			 json_string_value(json_object_get(g, "governor")), json_array_size(chain),
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

static int calib_int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
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

int exp_calib_run(const struct exp_common *c0, int argc, char **argv)
{
	struct exp_common c = *c0;
	const char *gov_list = "performance,ondemand", *govs[EXP_MAX_LIST];
	long runs_l = 10, for_count = -1;
	char *gov_copy, err[512], hang[256];
	int rc = 0;

	if (!c.scenario)
		c.scenario = "est-only";
	for (int i = 0; i < argc; i++) {
		if (i + 1 < argc && strcmp(argv[i], "--governors") == 0) {
			gov_list = argv[++i];
		} else if (i + 1 < argc && strcmp(argv[i], "--runs") == 0) {
			if (exp_parse_count("--runs", argv[++i], 1, CALIB_MAX_RUNS, &runs_l))
				return 2;
		} else if (i + 1 < argc && strcmp(argv[i], "--count") == 0) {
			if (exp_parse_count("--count", argv[++i], 1, 100000000, &for_count))
				return 2;
		} else {
			fprintf(stderr,
				"tunetop: experiment calib: unknown option '%s' (valid: "
				"--governors LIST, "
				"--runs N, --count N and the common options)\n",
				argv[i]);
			return 2;
		}
	}
	size_t ngov =
	    exp_parse_list("calib", "--governors", gov_list, -1, &gov_copy, govs, EXP_MAX_LIST);
	if (ngov == 0)
		return 2;
	for (size_t g = 0; g < ngov; g++) {
		if (cpu_governor_parse(govs[g]) < 0) {
			fprintf(stderr,
				"tunetop: experiment calib: --governors: '%s' is not valid "
				"(valid: performance, powersave, ondemand, schedutil)\n",
				govs[g]);
			free(gov_copy);
			return 2;
		}
	}
	size_t runs = (size_t)runs_l;
	json_t *jg = json_array();
	for (size_t g = 0; g < ngov && rc == 0 && !sig_quit; g++) {
		char set_gov[64];
		const char *extra[] = {set_gov};
		snprintf(set_gov, sizeof(set_gov), "cpu.governor=%s", govs[g]);
		struct source *src = exp_source(&c, extra, 1, err, sizeof(err), &rc);
		if (!src) {
			fprintf(stderr, "tunetop: experiment calib: %s\n", err);
			break;
		}
		if (!calib_has_est(src)) {
			fprintf(
			    stderr,
			    "tunetop: experiment calib: scenario '%s' does not run est, so nothing "
			    "calibrates (valid: a scenario with est, e.g. est-only or default, or "
			    "--set est.enabled=on)\n",
			    c.scenario);
			source_close(src);
			rc = 2;
			break;
		}
		int *chain = xcalloc(runs, sizeof(int));
		double *single = xcalloc(runs, sizeof(double));
		size_t got = 0;
		json_t *j = calib_wait(src, 0); /* the calibration at start */
		double count = 0;
		for (size_t r = 0; r < runs && j && !sig_quit; r++) {
			double cm = 0, se = 0;
			exp_metric(j, "est.calibration.count", &count);
			exp_metric(j, "est.calibration.chain_max", &cm);
			exp_metric(j, "est.calibration.single_est_ns", &se);
			chain[got] = (int)cm;
			single[got++] = se;
			json_decref(j);
			j = NULL;
			if (r + 1 < runs) {
				source_knob_set(src, K_EST_RECALIBRATE, 1, NULL, err, sizeof(err));
				j = calib_wait(src, count);
			}
		}
		json_decref(j);
		/* The tick time that chain_max gives, measured after the last run. A relink
		 * places every estimator with the initial delay of about 2 s (49 ticks), and
		 * a row comes round once per 2 s period: wait out the one, span the other. */
		json_t *w =
		    exp_window(src, c.warmup > CALIB_MIN_SETTLE_S ? c.warmup : CALIB_MIN_SETTLE_S,
			       c.seconds > CALIB_MIN_WINDOW_S ? c.seconds : CALIB_MIN_WINDOW_S,
			       hang, sizeof(hang));
		double tick_avg = 0, tick_max = 0, cpu = 0, per_kt = 0, ests = 0, max_kt = 0;
		double cm_last = 0, est_cpus = 0;
		exp_metric(w, "est.est_cpus", &est_cpus);
		exp_metric(w, "est.max_per_kthread", &per_kt);
		exp_metric(w, "est.estimators", &ests);
		exp_metric(w, "est.max_threads", &max_kt);
		exp_metric(w, "est.chain_max", &cm_last);
		exp_metric(w, "est.tick_ns.avg", &tick_avg);
		exp_metric(w, "est.tick_ns.max", &tick_max);
		exp_metric(w, "est.cpu_pct", &cpu);
		json_decref(w);
		source_close(src);

		if (got < runs && !sig_quit) {
			fprintf(stderr,
				"tunetop: experiment calib: %s: %zu of %zu calibrations seen\n",
				govs[g], got, runs);
			rc = 1;
		}
		if (hang[0]) {
			fprintf(stderr, "tunetop: experiment calib: %s: %s\n", govs[g], hang);
			rc = 1;
		}
		json_t *hist = json_object();
		/* chain_max scales with the CPUs each estimator sums: at the default 16 it is in
		 * the hundreds, at the IPVS thread's 128 near its 22; say which it was. */
		if (!c.json)
			printf("%s: %zu calibration%s at est.cpus %.0f%s\n  chain_max histogram:",
			       govs[g], got, got == 1 ? "" : "s", est_cpus,
			       est_cpus == CALIB_IPVS_CPUS
				   ? " (the IPVS thread's)"
				   : " (the IPVS thread's 128: --scenario est-ipvs)");
		/* By chain_max, ascending: the object keeps insertion order, in the text and
		 * the JSON (in run order it read "390 x1 358 x2 368 x1"). */
		int *sorted = xcalloc(got ? got : 1, sizeof(int));
		memcpy(sorted, chain, got * sizeof(int));
		qsort(sorted, got, sizeof(int), calib_int_cmp);
		for (size_t i = 0; i < got; i++) {
			char key[16];
			snprintf(key, sizeof(key), "%d", sorted[i]);
			json_t *cur = json_object_get(hist, key);
			json_object_set_new(hist, key,
					    json_integer(cur ? json_integer_value(cur) + 1 : 1));
		}
		free(sorted);
		const char *key;
		json_t *val;
		json_object_foreach (hist, key, val) {
			if (!c.json)
				printf(" %s x%lld", key, (long long)json_integer_value(val));
		}
		double single_min = got ? single[0] : 0;
		for (size_t i = 1; i < got; i++)
			if (single[i] < single_min)
				single_min = single[i];
		if (!c.json)
			printf("\n  single est (min over runs) %.0f ns; tick time avg %.0f us, max "
			       "%.0f us; "
			       "est CPU %.1f%%\n",
			       single_min, tick_avg / 1000, tick_max / 1000, cpu);
		/* What the IPVS thread's readers ask of a calibration: how many kthreads a
		 * given number of estimators takes under this governor (one kthread holds
		 * est.max_per_kthread: 50 rows of chain_max x tick_chains). */
		double want = for_count > 0 ? (double)for_count : ests;
		long kt_need = per_kt > 0 ? (long)((want + per_kt - 1) / per_kt) : -1;
		if (!c.json && kt_need >= 0)
			printf("  %.0f estimators need %ld kthread%s at chain_max %.0f (%.0f "
			       "estimators per kthread)%s\n",
			       want, kt_need, kt_need == 1 ? "" : "s", cm_last, per_kt,
			       max_kt > 0 && kt_need > max_kt ? ": more than the kthread limit"
							      : "");
		json_t *jc = json_array(), *js = json_array();
		for (size_t i = 0; i < got; i++) {
			json_array_append_new(jc, json_integer(chain[i]));
			json_array_append_new(js, json_real(single[i]));
		}
		json_t *jgov =
		    json_pack("{s:s, s:o, s:o, s:o, s:f, s:f, s:f}", "governor", govs[g],
			      "chain_max", jc, "single_est_ns", js, "histogram", hist,
			      "tick_ns_avg", tick_avg, "tick_ns_max", tick_max, "est_cpu_pct", cpu);
		json_object_set_new(jgov, "est_cpus", json_integer((json_int_t)est_cpus));
		json_object_set_new(jgov, "estimators_for", json_integer((json_int_t)want));
		json_object_set_new(jgov, "estimators_per_kthread",
				    per_kt > 0 ? json_integer((json_int_t)per_kt) : json_null());
		json_object_set_new(jgov, "kthreads_needed",
				    kt_need >= 0 ? json_integer(kt_need) : json_null());
		json_array_append_new(jg, jgov);
		free(chain);
		free(single);
	}
	struct calib_pic cp = {ngov, govs, jg};
	if (rc == 0 && !sig_quit && exp_pictures(&c, "calib", calib_draw, &cp) != 0)
		rc = 1;
	if (c.json && (rc == 0 || json_array_size(jg))) {
		json_t *o = json_pack("{s:s, s:s, s:i, s:o}", "experiment", "calib", "scenario",
				      c.scenario, "runs", (int)runs, "governors", jg);
		json_object_set_new(o, "ok", json_boolean(rc == 0));
		json_dumpf(o, stdout, JSON_COMPACT | JSON_REAL_PRECISION(10));
		printf("\n");
		json_decref(o);
	} else {
		json_decref(jg);
	}
	free(gov_copy);
	return rc;
}
