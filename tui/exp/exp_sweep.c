/* exp_sweep.c: the sleep/drop sweep: maxsleep x timer slack x offered load, N passes a point,
 * median and spread side by side, and the drop%-vs-CPU% picture. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "tui/exp/chart_cairo.h"
#include "tui/exp/exp_metric.h"
#include "tui/exp/exp_stats.h"
#include "tui/exp/exp_diag.h"
#include "tui/exp/experiment.h"
#include "tui/sig.h"

#define SWEEP_MAX_PASSES 100
#define SWEEP_DEFAULT_PASSES 3
/* "Zero drop" for the cheapest-setting mark: every pass under this drop%. A rounding
 * floor, not a goal (docs/pmd.md: drops come in whole packets over ~10^5 a second). */
#define SWEEP_ZERO_DROP_PCT 0.01

struct sweep_col {
	const char *title;
	const char *path;
};

/* What the seed's tables put side by side. */
static const struct sweep_col sweep_cols[] = {
    {"offered_pps", "pmd.offered_pps"},
    {"drop%", "pmd.drop_pct"},
    {"drops_asleep", "pmd.threads[*].drops_while_asleep"},
    {"pmd_cpu%", "pmd.threads[*].cpu_pct"},
    {"sleep_iter%", "pmd.threads[avg].sleep_iter_pct"},
    {"sleep_us_avg", "pmd.threads[avg].sleep_us_avg"},
    {"oversh_p99_us", "pmd.threads[avg].sleep_overshoot_us.p99"},
};
#define SWEEP_NCOLS (sizeof(sweep_cols) / sizeof(sweep_cols[0]))
#define SWEEP_COL_DROP 1
#define SWEEP_COL_CPU 3

struct sweep_point {
	int64_t ms, slack, rate; /* rate -1: the scenario's */
	double rate_v;
	size_t ok, failed;
	bool have[SWEEP_NCOLS];
	double v[SWEEP_NCOLS][SWEEP_MAX_PASSES];
	struct exp_summary sum[SWEEP_NCOLS];
	char hang[256]; /* the first hang seen at this point */
	struct exp_findings diag; /* what the rules said of its passes */
};

struct sweep_pic {
	const struct sweep_point *pts;
	size_t n, best;
	bool many_rates;
	const char *scenario;
	size_t passes;
};

static void sweep_label(const struct sweep_point *p, bool rate, char *buf, size_t len)
{
	if (rate)
		snprintf(buf, len, "%lld us / %lld ns / %.0f pps", (long long)p->ms,
			 (long long)p->slack, p->rate_v);
	else
		snprintf(buf, len, "%lld us / %lld ns", (long long)p->ms, (long long)p->slack);
}

static int sweep_draw(const char *path, bool svg, void *arg, char *err, size_t errlen)
{
	const struct sweep_pic *sp = arg;
	struct chart_pt *pts = xcalloc(sp->n + 1, sizeof(*pts));
	char note[160];
	for (size_t i = 0; i < sp->n; i++) {
		const struct sweep_point *p = &sp->pts[i];
		const struct exp_summary *d = &p->sum[SWEEP_COL_DROP], *c = &p->sum[SWEEP_COL_CPU];
		pts[i] = (struct chart_pt){.x = c->median,
					   .y = d->median,
					   .x_lo = c->min,
					   .x_hi = c->max,
					   .y_lo = d->min,
					   .y_hi = d->max,
					   .mark = i == sp->best,
					   .failed = p->ok == 0};
		sweep_label(p, sp->many_rates, pts[i].label, sizeof(pts[i].label));
	}
	snprintf(note, sizeof(note),
		 "scenario %s; maxsleep / timer slack%s; median of %zu passes, lines min to max",
		 sp->scenario, sp->many_rates ? " / offered load" : "", sp->passes);
	int rc = chart_cairo_scatter(path, svg, "PMD drops against PMD CPU", note,
				     "PMD CPU % (sum over PMD threads)", "drop %", pts, sp->n, err,
				     errlen);
	free(pts);
	return rc;
}

static void sweep_measure(const struct exp_common *c, struct sweep_point *pt, size_t pass,
			  size_t passes, int *rc)
{
	char a_ms[64], a_sl[64], a_rt[64], err[512], hang[256];
	const char *extra[3] = {a_ms, a_sl, a_rt};
	snprintf(a_ms, sizeof(a_ms), "pmd.maxsleep_us=%lld", (long long)pt->ms);
	snprintf(a_sl, sizeof(a_sl), "pmd.timer_slack_ns=%lld", (long long)pt->slack);
	snprintf(a_rt, sizeof(a_rt), "gen.rate_pps=%lld", (long long)pt->rate);
	/* A fresh engine each pass: passes are independent samples of the point. */
	struct source *src = exp_source(c, extra, pt->rate >= 0 ? 3 : 2, err, sizeof(err), rc);
	if (!src) {
		fprintf(stderr, "tunetop: experiment sweep: %s\n", err);
		return;
	}
	json_t *snap = exp_window(src, c->warmup, c->seconds, hang, sizeof(hang));
	source_close(src);
	if (sig_quit) {
		json_decref(snap);
		return;
	}
	exp_metric(snap, "knobs.gen.rate_pps", &pt->rate_v);
	if (hang[0]) {
		fprintf(stderr,
			"tunetop: experiment sweep: maxsleep %lld us slack %lld ns, pass %zu of "
			"%zu: %s\n",
			(long long)pt->ms, (long long)pt->slack, pass + 1, passes, hang);
		if (!pt->hang[0])
			snprintf(pt->hang, sizeof(pt->hang), "%s", hang);
		pt->failed++;
	} else {
		for (size_t k = 0; k < SWEEP_NCOLS; k++) {
			double v = 0;
			if (exp_metric(snap, sweep_cols[k].path, &v) == 0)
				pt->have[k] = true;
			pt->v[k][pt->ok] = v;
		}
		exp_findings_add(&pt->diag, snap);
		pt->ok++;
	}
	json_decref(snap);
}

static json_t *sweep_row_json(const struct sweep_point *p)
{
	json_t *row = json_pack("{s:f, s:I, s:I, s:i, s:i}", "rate_pps", p->rate_v, "maxsleep_us",
				(json_int_t)p->ms, "timer_slack_ns", (json_int_t)p->slack, "passes",
				(int)p->ok, "failed", (int)p->failed);
	json_t *spread = json_object(), *mins = json_object(), *maxs = json_object(),
	       *each = json_object();
	for (size_t k = 0; k < SWEEP_NCOLS; k++) {
		const char *path = sweep_cols[k].path;
		bool have = p->ok && p->have[k];
		json_object_set_new(row, path, have ? json_real(p->sum[k].median) : json_null());
		json_object_set_new(spread, path,
				    have ? json_real(p->sum[k].max - p->sum[k].min) : json_null());
		json_object_set_new(mins, path, have ? json_real(p->sum[k].min) : json_null());
		json_object_set_new(maxs, path, have ? json_real(p->sum[k].max) : json_null());
		json_t *arr = json_array();
		for (size_t i = 0; have && i < p->ok; i++)
			json_array_append_new(arr, json_real(p->v[k][i]));
		json_object_set_new(each, path, arr);
	}
	json_object_set_new(row, "spread", spread);
	json_object_set_new(row, "min", mins);
	json_object_set_new(row, "max", maxs);
	json_object_set_new(row, "pass_values", each);
	json_object_set_new(row, "hang", p->hang[0] ? json_string(p->hang) : json_null());
	json_object_set_new(row, "diagnoses", exp_findings_json(&p->diag));
	return row;
}

int exp_sweep_run(const struct exp_common *c0, int argc, char **argv)
{
	struct exp_common c = *c0;
	const char *ms_list = "0,50,500", *slack_list = "1000,50000", *rate_list = NULL;
	const char *ms[EXP_MAX_LIST], *slack[EXP_MAX_LIST], *rate[EXP_MAX_LIST] = {NULL};
	char *ms_copy = NULL, *slack_copy = NULL, *rate_copy = NULL;
	size_t nms, nslack, nrate = 1;
	long passes = SWEEP_DEFAULT_PASSES;
	int rc = 0;

	if (!c.scenario)
		c.scenario = "pmd-seed";
	for (int i = 0; i < argc; i++) {
		if (i + 1 < argc && strcmp(argv[i], "--maxsleep") == 0)
			ms_list = argv[++i];
		else if (i + 1 < argc && strcmp(argv[i], "--slack") == 0)
			slack_list = argv[++i];
		else if (i + 1 < argc && strcmp(argv[i], "--rate") == 0)
			rate_list = argv[++i];
		else if (i + 1 < argc && strcmp(argv[i], "--passes") == 0) {
			if (exp_parse_count("--passes", argv[++i], 1, SWEEP_MAX_PASSES, &passes))
				return 2;
		} else {
			fprintf(stderr,
				"tunetop: experiment sweep: unknown option '%s' (valid: --maxsleep "
				"LIST, "
				"--slack LIST, --rate LIST, --passes N and the common options)\n",
				argv[i]);
			return 2;
		}
	}
	nms = exp_parse_list("sweep", "--maxsleep", ms_list, K_PMD_MAXSLEEP_US, &ms_copy, ms,
			     EXP_MAX_LIST);
	nslack = nms ? exp_parse_list("sweep", "--slack", slack_list, K_PMD_TIMER_SLACK_NS,
				      &slack_copy, slack, EXP_MAX_LIST)
		     : 0;
	if (nslack && rate_list)
		nrate = exp_parse_list("sweep", "--rate", rate_list, K_GEN_RATE_PPS, &rate_copy,
				       rate, EXP_MAX_LIST);
	if (!nms || !nslack || !nrate) {
		free(ms_copy);
		free(slack_copy);
		free(rate_copy);
		return 2;
	}

	size_t npts = nrate * nslack * nms, n = 0;
	struct sweep_point *pts = xcalloc(npts, sizeof(*pts));
	char err[512];
	for (size_t r = 0; r < nrate; r++)
		for (size_t s = 0; s < nslack; s++)
			for (size_t m = 0; m < nms; m++) {
				struct sweep_point *p = &pts[n++];
				knob_parse(K_PMD_MAXSLEEP_US, ms[m], &p->ms, err, sizeof(err));
				knob_parse(K_PMD_TIMER_SLACK_NS, slack[s], &p->slack, err,
					   sizeof(err));
				p->rate = -1;
				if (rate[r])
					knob_parse(K_GEN_RATE_PPS, rate[r], &p->rate, err,
						   sizeof(err));
			}

	if (!c.json) {
		printf("median over %ld passes, +- half the range (min to max)\n", passes);
		printf("%-10s %-11s %-9s %6s", "rate_pps", "maxsleep_us", "slack_ns", "passes");
		for (size_t k = 0; k < SWEEP_NCOLS; k++)
			printf(" %17s", sweep_cols[k].title);
		printf("\n");
	}
	size_t failed_pts = 0;
	for (size_t i = 0; i < npts && rc == 0 && !sig_quit; i++) {
		struct sweep_point *p = &pts[i];
		for (size_t pass = 0; pass < (size_t)passes && rc == 0 && !sig_quit; pass++)
			sweep_measure(&c, p, pass, (size_t)passes, &rc);
		if (rc || sig_quit)
			break;
		for (size_t k = 0; k < SWEEP_NCOLS; k++)
			exp_summarize(p->v[k], p->ok, &p->sum[k]);
		failed_pts += p->failed > 0;
		if (c.json)
			continue;
		printf("%-10.0f %-11lld %-9lld %3zu/%-2ld", p->rate_v, (long long)p->ms,
		       (long long)p->slack, p->ok, passes);
		for (size_t k = 0; k < SWEEP_NCOLS; k++) {
			char med[32], half[32], cell[80];
			if (!p->ok || !p->have[k]) {
				printf(" %17s", p->ok ? "-" : "hung");
				continue;
			}
			exp_fmt(med, sizeof(med), p->sum[k].median);
			exp_fmt(half, sizeof(half), (p->sum[k].max - p->sum[k].min) / 2);
			snprintf(cell, sizeof(cell), "%s +-%s", med, half);
			printf(" %17s", cell);
		}
		printf("\n");
		char found[1024];
		exp_findings_text(&p->diag, p->ok, found, sizeof(found));
		if (found[0])
			printf("  %s\n", found);
		fflush(stdout);
	}

	/* The cheapest setting with no drops in any pass: the trade-off's answer. */
	size_t best = npts;
	for (size_t i = 0; i < n; i++) {
		const struct sweep_point *p = &pts[i];
		if (!p->ok || p->failed || !p->have[SWEEP_COL_DROP] ||
		    p->sum[SWEEP_COL_DROP].max >= SWEEP_ZERO_DROP_PCT)
			continue;
		if (best == npts ||
		    p->sum[SWEEP_COL_CPU].median < pts[best].sum[SWEEP_COL_CPU].median)
			best = i;
	}
	if (rc == 0 && !sig_quit) {
		if (!c.json && best < npts)
			printf(
			    "cheapest without drops (every pass under %.2f%%): maxsleep %lld us, "
			    "slack %lld ns: PMD CPU %.1f%%\n",
			    SWEEP_ZERO_DROP_PCT, (long long)pts[best].ms,
			    (long long)pts[best].slack, pts[best].sum[SWEEP_COL_CPU].median);
		else if (!c.json)
			printf("no setting ran without drops in every pass\n");
		if (c.json) {
			json_t *rows = json_array();
			for (size_t i = 0; i < n; i++)
				json_array_append_new(rows, sweep_row_json(&pts[i]));
			json_t *o = json_pack("{s:s, s:s, s:f, s:f, s:i, s:b, s:o}", "experiment",
					      "sweep", "scenario", c.scenario, "seconds", c.seconds,
					      "warmup_s", c.warmup, "passes", (int)passes, "ok",
					      failed_pts == 0, "rows", rows);
			json_object_set_new(o, "zero_drop_pct", json_real(SWEEP_ZERO_DROP_PCT));
			json_object_set_new(
			    o, "cheapest_zero_drop",
			    best < npts ? json_pack("{s:I, s:I, s:f}", "maxsleep_us",
						    (json_int_t)pts[best].ms, "timer_slack_ns",
						    (json_int_t)pts[best].slack, "rate_pps",
						    pts[best].rate_v)
					: json_null());
			json_dumpf(o, stdout, JSON_COMPACT | JSON_REAL_PRECISION(10));
			printf("\n");
			json_decref(o);
		}
		struct sweep_pic sp = {pts, n, best, nrate > 1, c.scenario, (size_t)passes};
		if (exp_pictures(&c, "sweep", sweep_draw, &sp) != 0)
			rc = 1;
		if (failed_pts) {
			fprintf(
			    stderr,
			    "tunetop: experiment sweep: %zu of %zu settings had a hung pass (those "
			    "passes are left out):\n",
			    failed_pts, n);
			for (size_t i = 0; i < n; i++)
				if (pts[i].failed) {
					fprintf(stderr, "  maxsleep %lld us slack %lld ns: %s\n",
						(long long)pts[i].ms, (long long)pts[i].slack,
						pts[i].hang);
				}
			if (rc == 0)
				rc = 1;
		}
	}
	free(pts);
	free(ms_copy);
	free(slack_copy);
	free(rate_copy);
	return rc;
}
