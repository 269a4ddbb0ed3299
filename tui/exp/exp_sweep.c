/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exp_sweep.c: the sleep/drop sweep: maxsleep x timer slack x offered load, N passes a point
 * run round-robin over the points (host load falls on all of them), passes the host took
 * too much of set aside and rerun, median and spread side by side, the trade-off table with
 * the cheapest setting within a drop budget, and the drop%-vs-CPU-share picture. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/xalloc.h"
#include "tui/exp/chart_cairo.h"
#include "tui/pass_cost.h"
#include "tui/exp/exp_metric.h"
#include "tui/exp/exp_stats.h"
#include "tui/exp/exp_diag.h"
#include "tui/exp/experiment.h"
#include "tui/pass.h"
#include "tui/sig.h"

#define SWEEP_MAX_PASSES 100
#define SWEEP_DEFAULT_PASSES 3
/* "Zero drop" for cheapest_zero_drop: every pass under this drop%. A rounding floor, not a
 * goal (docs/pmd.md: drops come in whole packets over ~10^5 a second); the answer is the
 * cheapest setting within --drop-budget. */
#define SWEEP_ZERO_DROP_PCT 0.01

struct sweep_col {
	const char *title;
	const char *path;
	/* When non-NULL: above 0, the figure of that pass is a lower bound (it fell in a
	 * histogram's open top bucket: sleep_overshoot_us.p99_at_least in docs/json.md). */
	const char *at_least;
};

/* What the seed's tables put side by side. */
static const struct sweep_col sweep_cols[] = {
    {"offered_pps", "pmd.offered_pps", NULL},
    {"drop%", "pmd.drop_pct", NULL},
    {"drops_asleep", "pmd.threads[*].drops_while_asleep", NULL},
    {"pmd_cpu%", "pmd.threads[*].cpu_pct", NULL},
    {"sleep_iter%", "pmd.threads[avg].sleep_iter_pct", NULL},
    {"sleep_us_avg", "pmd.threads[avg].sleep_us_avg", NULL},
    {"oversh_p99_us", "pmd.threads[avg].sleep_overshoot_us.p99",
     "pmd.threads[*].sleep_overshoot_us.p99_at_least"},
    /* The window's cost from its counters (tui/pass_cost.h). */
    {"cpu_ns/pkt", "pass.cpu_ns_per_pkt", NULL},
    {"cpu_share%", "pass.cpu_share_pct", NULL},
    {"host_took%", "pass.host_took_pct", NULL},
};
#define SWEEP_NCOLS (sizeof(sweep_cols) / sizeof(sweep_cols[0]))
#define SWEEP_COL_DROP 1
#define SWEEP_COL_CPU 3
#define SWEEP_COL_NSPKT 7
#define SWEEP_COL_SHARE 8
#define SWEEP_COL_TOOK 9

struct sweep_point {
	int64_t ms, slack, rate; /* rate -1: the scenario's */
	double rate_v;
	size_t ok, failed;
	size_t set_aside; /* passes the host took more than the limit of */
	double aside_took[2 * SWEEP_MAX_PASSES]; /* their host took % */
	bool have[SWEEP_NCOLS];
	bool at_least[SWEEP_NCOLS]; /* a kept pass's figure was a lower bound: so is the median */
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
	double budget;
};

void exp_sweep_label(const struct exp_sweep_pt_label *l, char *buf, size_t len)
{
	char took[24] = "";
	if (l->measured && l->took_pct >= 0)
		snprintf(took, sizeof(took), ", host %.0f%%", l->took_pct);
	else if (!l->measured)
		snprintf(took, sizeof(took), "%s", l->hung ? " (hung)" : " (set aside)");
	if (l->rates)
		snprintf(buf, len, "%lld us / %lld ns / %.0f pps%s", l->maxsleep_us, l->slack_ns,
			 l->rate_pps, took);
	else
		snprintf(buf, len, "%lld us / %lld ns%s", l->maxsleep_us, l->slack_ns, took);
}

static void sweep_label(const struct sweep_point *p, bool rate, char *buf, size_t len)
{
	struct exp_sweep_pt_label l = {
	    .maxsleep_us = (long long)p->ms,
	    .slack_ns = (long long)p->slack,
	    .rate_pps = p->rate_v,
	    .rates = rate,
	    .measured = p->ok > 0,
	    .hung = p->failed > 0,
	    .took_pct = p->ok && p->have[SWEEP_COL_TOOK] ? p->sum[SWEEP_COL_TOOK].median : -1};
	exp_sweep_label(&l, buf, len);
}

static int sweep_draw(const char *path, bool svg, void *arg, char *err, size_t errlen)
{
	const struct sweep_pic *sp = arg;
	struct chart_pt *pts = xcalloc(sp->n + 1, sizeof(*pts));
	char note[160];
	for (size_t i = 0; i < sp->n; i++) {
		const struct sweep_point *p = &sp->pts[i];
		/* x: CPU share of the time the host left the PMDs, comparable under load. */
		const struct exp_summary
		    *d = &p->sum[SWEEP_COL_DROP],
		    *c = &p->sum[p->have[SWEEP_COL_SHARE] ? SWEEP_COL_SHARE : SWEEP_COL_CPU];
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
		 "scenario %s; maxsleep / timer slack%s, host took; median of %zu passes, lines "
		 "min to max; drop budget %g%%",
		 sp->scenario, sp->many_rates ? " / offered load" : "", sp->passes, sp->budget);
	int rc = chart_cairo_scatter(path, svg, "PMD drops against PMD CPU share", note,
				     "PMD CPU % of the time the host left the PMD threads",
				     "drop %", pts, sp->n, err, errlen);
	free(pts);
	return rc;
}

/* One run: its options, its points, the window waiting for its verdict. */
struct sweep {
	struct exp_common c;
	struct sweep_point *pts;
	size_t npts, passes;
	double budget, limit;
	json_t *snap; /* the last window, until judged */
	double took; /* its host took, NAN unknown */
	bool tty;
};

/* The runner's window of point i (tui/pass.h): a fresh engine each pass, so passes are
 * independent samples of the point. */
static int sweep_measure(void *ctx, size_t i, struct pass_obs *obs)
{
	struct sweep *sw = ctx;
	struct sweep_point *pt = &sw->pts[i];
	char a_ms[64], a_sl[64], a_rt[64], err[512], hang[256];
	const char *extra[3] = {a_ms, a_sl, a_rt};
	int rc = 0;
	snprintf(a_ms, sizeof(a_ms), "pmd.maxsleep_us=%lld", (long long)pt->ms);
	snprintf(a_sl, sizeof(a_sl), "pmd.timer_slack_ns=%lld", (long long)pt->slack);
	snprintf(a_rt, sizeof(a_rt), "gen.rate_pps=%lld", (long long)pt->rate);
	struct source *src =
	    exp_source(&sw->c, extra, pt->rate >= 0 ? 3 : 2, err, sizeof(err), &rc);
	if (!src) {
		fprintf(stderr, "tunetop: experiment sweep: %s\n", err);
		return rc;
	}
	json_t *snap = exp_window(src, sw->c.warmup, sw->c.seconds, hang, sizeof(hang));
	source_close(src);
	if (sig_quit) {
		json_decref(snap);
		obs->void_ = true;
		return 0;
	}
	exp_metric(snap, "knobs.gen.rate_pps", &pt->rate_v);
	if (exp_metric(snap, "pass.host_took_pct", &obs->took_pct) != 0)
		obs->took_pct = NAN;
	sw->took = obs->took_pct;
	obs->hung = hang[0] != '\0';
	if (obs->hung) {
		fprintf(stderr,
			"tunetop: experiment sweep: maxsleep %lld us slack %lld ns, pass %zu of "
			"%zu: %s\n",
			(long long)pt->ms, (long long)pt->slack, pt->ok + pt->failed + 1,
			sw->passes, hang);
		if (!pt->hang[0])
			snprintf(pt->hang, sizeof(pt->hang), "%s", hang);
	}
	json_decref(sw->snap);
	sw->snap = snap;
	return 0;
}

/* The verdict on point i's window: its columns kept, or (the host took more than the limit:
 * the pass measured the host, not the setting) its host took kept and the pass run again. */
static void sweep_judge(void *ctx, size_t i, enum pass_verdict v, size_t slot)
{
	struct sweep *sw = ctx;
	struct sweep_point *pt = &sw->pts[i];
	if (v == PASS_ASIDE) {
		pt->aside_took[pt->set_aside++] = sw->took;
	} else if (v == PASS_HUNG) {
		pt->failed++;
	} else {
		for (size_t k = 0; k < SWEEP_NCOLS; k++) {
			double x = 0, bound = 0;
			if (exp_metric(sw->snap, sweep_cols[k].path, &x) == 0)
				pt->have[k] = true;
			pt->v[k][slot] = x;
			if (sweep_cols[k].at_least &&
			    exp_metric(sw->snap, sweep_cols[k].at_least, &bound) == 0 && bound > 0)
				pt->at_least[k] = true;
		}
		exp_findings_add(&pt->diag, sw->snap);
		pt->ok++;
	}
	json_decref(sw->snap);
	sw->snap = NULL;
}

static bool sweep_stop(void *ctx)
{
	(void)ctx;
	return sig_quit != 0;
}

static void sweep_progress(void *ctx, size_t windows, size_t most)
{
	const struct sweep *sw = ctx;
	if (sw->tty) {
		fprintf(stderr, "\rpass %zu of at most %zu", windows, most);
		fflush(stderr);
	}
}

static json_t *sweep_row_json(const struct sweep_point *p, bool within)
{
	json_t *row = json_pack("{s:f, s:I, s:I, s:i, s:i}", "rate_pps", p->rate_v, "maxsleep_us",
				(json_int_t)p->ms, "timer_slack_ns", (json_int_t)p->slack, "passes",
				(int)p->ok, "failed", (int)p->failed);
	json_t *aside = json_array();
	for (size_t i = 0; i < p->set_aside; i++)
		json_array_append_new(aside, json_real(p->aside_took[i]));
	json_object_set_new(row, "set_aside", json_integer((json_int_t)p->set_aside));
	json_object_set_new(row, "set_aside_host_took_pct", aside);
	json_object_set_new(row, "within_budget", json_boolean(within));
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
	json_t *bounds = json_object();
	for (size_t k = 0; k < SWEEP_NCOLS; k++)
		if (sweep_cols[k].at_least)
			json_object_set_new(bounds, sweep_cols[k].path,
					    json_boolean(p->ok && p->have[k] && p->at_least[k]));
	json_object_set_new(row, "at_least", bounds);
	json_object_set_new(row, "spread", spread);
	json_object_set_new(row, "min", mins);
	json_object_set_new(row, "max", maxs);
	json_object_set_new(row, "pass_values", each);
	json_object_set_new(row, "hang", p->hang[0] ? json_string(p->hang) : json_null());
	json_object_set_new(row, "diagnoses", exp_findings_json(&p->diag));
	return row;
}

/* The per-point table: medians +- half the range, passes set aside by host load. */
static void sweep_print_row(const struct sweep_point *p, long passes)
{
	printf("%-10.0f %-11lld %-9lld %3zu/%-2ld %5zu", p->rate_v, (long long)p->ms,
	       (long long)p->slack, p->ok, passes, p->set_aside);
	for (size_t k = 0; k < SWEEP_NCOLS; k++) {
		char cell[80];
		if (!p->ok || !p->have[k]) {
			printf(" %17s", p->ok ? "-" : p->failed ? "hung" : "set aside");
			continue;
		}
		exp_fmt_spread(cell, sizeof(cell), p->sum[k].median,
			       (p->sum[k].max - p->sum[k].min) / 2, p->at_least[k]);
		/* (%17s counts bytes: a 3-byte "≥" takes 1 column, so pad by 2 more) */
		printf(" %*s", p->at_least[k] ? 19 : 17, cell);
	}
	printf("\n");
	char found[1024];
	exp_findings_text(&p->diag, p->ok, found, sizeof(found));
	if (found[0])
		printf("  %s\n", found);
}

/* The trade-off table: what each setting costs, which are within the budget, the answer. */
static void sweep_print_tradeoff(const struct sweep_point *pts, size_t n, const bool *within,
				 size_t best, double budget, double limit)
{
	printf("\ntrade-off (drop budget %g%%; CPU per packet and CPU share of the time the host "
	       "left the PMDs, medians)\n",
	       budget);
	printf("%-10s %-11s %-9s %9s %11s %11s %11s %9s\n", "rate_pps", "maxsleep_us", "slack_ns",
	       "drop%", "cpu_ns/pkt", "cpu_share%", "host_took%", "set_aside");
	for (size_t i = 0; i < n; i++) {
		const struct sweep_point *p = &pts[i];
		char d[32] = "-", c[32] = "-", sh[32] = "-", t[32] = "-";
		if (p->ok) {
			exp_fmt(d, sizeof(d), p->sum[SWEEP_COL_DROP].median);
			if (p->have[SWEEP_COL_NSPKT])
				exp_fmt(c, sizeof(c), p->sum[SWEEP_COL_NSPKT].median);
			if (p->have[SWEEP_COL_SHARE])
				exp_fmt(sh, sizeof(sh), p->sum[SWEEP_COL_SHARE].median);
			if (p->have[SWEEP_COL_TOOK])
				exp_fmt(t, sizeof(t), p->sum[SWEEP_COL_TOOK].median);
		} else if (p->set_aside) {
			/* Every pass set aside: what the host took of them says why. */
			struct exp_summary a;
			exp_summarize(p->aside_took, p->set_aside, &a);
			exp_fmt(t, sizeof(t), a.median);
		}
		printf("%-10.0f %-11lld %-9lld %9s %11s %11s %11s %9zu%s\n", p->rate_v,
		       (long long)p->ms, (long long)p->slack,
		       p->ok	   ? d
		       : p->failed ? "hung"
				   : "-",
		       c, sh, t, p->set_aside,
		       i == best		? "  <- cheapest within the budget"
		       : !p->ok && p->set_aside ? "  every pass set aside"
		       : !p->ok			? ""
		       : !within[i]		? "  over the budget"
						: "");
	}
	if (best < n)
		printf("cheapest within the drop budget (%g%%): maxsleep %lld us, slack %lld ns: "
		       "%.0f ns per packet, CPU share %.1f%% (host took %.1f%%)\n",
		       budget, (long long)pts[best].ms, (long long)pts[best].slack,
		       pts[best].sum[SWEEP_COL_NSPKT].median, pts[best].sum[SWEEP_COL_SHARE].median,
		       pts[best].sum[SWEEP_COL_TOOK].median);
	size_t aside = 0, all_aside = 0;
	for (size_t i = 0; i < n; i++) {
		aside += pts[i].set_aside;
		all_aside += !pts[i].ok && pts[i].set_aside;
	}
	if (best >= n && all_aside)
		printf("no setting stayed within the drop budget (%g%%); %zu had every pass set "
		       "aside (a quieter host, or a higher --host-took-limit)\n",
		       budget, all_aside);
	else if (best >= n)
		printf("no setting stayed within the drop budget (%g%%)\n", budget);
	if (aside)
		printf("%zu passes set aside: the host took more than %g%% of the PMDs' time "
		       "(--host-took-limit)\n",
		       aside, limit);
}

static json_t *sweep_setting_json(const struct sweep_point *p)
{
	json_t *o = json_pack("{s:I, s:I, s:f}", "maxsleep_us", (json_int_t)p->ms, "timer_slack_ns",
			      (json_int_t)p->slack, "rate_pps", p->rate_v);
	static const struct {
		const char *key;
		size_t col;
	} f[] = {{"drop_pct", SWEEP_COL_DROP},
		 {"cpu_ns_per_pkt", SWEEP_COL_NSPKT},
		 {"cpu_share_pct", SWEEP_COL_SHARE},
		 {"host_took_pct", SWEEP_COL_TOOK}};
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		json_object_set_new(o, f[i].key,
				    p->ok && p->have[f[i].col] ? json_real(p->sum[f[i].col].median)
							       : json_null());
	return o;
}

static int sweep_parse(int argc, char **argv, const char **ms_list, const char **slack_list,
		       const char **rate_list, long *passes, double *budget, double *limit)
{
	for (int i = 0; i < argc; i++) {
		if (i + 1 < argc && strcmp(argv[i], "--maxsleep") == 0)
			*ms_list = argv[++i];
		else if (i + 1 < argc && strcmp(argv[i], "--slack") == 0)
			*slack_list = argv[++i];
		else if (i + 1 < argc && strcmp(argv[i], "--rate") == 0)
			*rate_list = argv[++i];
		else if (i + 1 < argc && strcmp(argv[i], "--passes") == 0) {
			if (exp_parse_count("--passes", argv[++i], 1, SWEEP_MAX_PASSES, passes))
				return 2;
		} else if (i + 1 < argc && strcmp(argv[i], "--drop-budget") == 0) {
			if (exp_parse_double("--drop-budget", argv[++i], 0, 100, budget))
				return 2;
		} else if (i + 1 < argc && strcmp(argv[i], "--host-took-limit") == 0) {
			if (exp_parse_double("--host-took-limit", argv[++i], 0, 100, limit))
				return 2;
		} else {
			fprintf(stderr,
				"tunetop: experiment sweep: unknown option '%s' (valid: --maxsleep "
				"LIST, --slack LIST, --rate LIST, --passes N, --drop-budget PCT, "
				"--host-took-limit PCT and the common options)\n",
				argv[i]);
			return 2;
		}
	}
	return 0;
}

/* The points, rate by slack by maxsleep, from the parsed lists. */
static struct sweep_point *sweep_points(const char *const *ms, size_t nms, const char *const *slack,
					size_t nslack, const char *const *rate, size_t nrate)
{
	struct sweep_point *pts = xcalloc(nrate * nslack * nms, sizeof(*pts));
	char err[512];
	size_t n = 0;
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
	return pts;
}

/* The answer: the cheapest setting within the drop budget (tui/pass_cost.h), and
 * cheapest_zero_drop, kept for its readers: every pass under the rounding floor, ranked as
 * the answer is. within[i] says which points met the budget. */
static void sweep_answer(const struct sweep *sw, bool *within, size_t *best, size_t *zero)
{
	size_t n = sw->npts;
	struct pass_cost_cand *cand = xcalloc(n, sizeof(*cand));
	for (size_t i = 0; i < n; i++) {
		const struct sweep_point *p = &sw->pts[i];
		cand[i] = (struct pass_cost_cand){
		    .usable =
			p->ok && !p->failed && p->have[SWEEP_COL_DROP] && p->have[SWEEP_COL_SHARE],
		    .sleeps = p->ms > 0,
		    .drop_pct = p->sum[SWEEP_COL_DROP].median,
		    .ns_per_pkt = p->have[SWEEP_COL_NSPKT] ? p->sum[SWEEP_COL_NSPKT].median : -1,
		    .share_pct = p->sum[SWEEP_COL_SHARE].median};
		within[i] = cand[i].usable && cand[i].drop_pct <= sw->budget;
	}
	*best = pass_cost_cheapest(cand, n, sw->budget);
	for (size_t i = 0; i < n; i++)
		cand[i].usable =
		    cand[i].usable && sw->pts[i].sum[SWEEP_COL_DROP].max < SWEEP_ZERO_DROP_PCT;
	*zero = pass_cost_cheapest(cand, n, SWEEP_ZERO_DROP_PCT);
	free(cand);
}

static void sweep_print_table(const struct sweep *sw, const bool *within, size_t best)
{
	printf("median over %zu passes, +- half the range (min to max); passes run round-robin "
	       "over the points\n",
	       sw->passes);
	printf("%-10s %-11s %-9s %6s %5s", "rate_pps", "maxsleep_us", "slack_ns", "passes",
	       "aside");
	for (size_t k = 0; k < SWEEP_NCOLS; k++)
		printf(" %17s", sweep_cols[k].title);
	printf("\n");
	for (size_t i = 0; i < sw->npts; i++)
		sweep_print_row(&sw->pts[i], (long)sw->passes);
	sweep_print_tradeoff(sw->pts, sw->npts, within, best, sw->budget, sw->limit);
	fflush(stdout);
}

static void sweep_print_json(const struct sweep *sw, const struct pass_run *r, const bool *within,
			     size_t best, size_t zero, bool ok)
{
	json_t *rows = json_array(), *jl = json_array();
	for (size_t i = 0; i < sw->npts; i++)
		json_array_append_new(rows, sweep_row_json(&sw->pts[i], within[i]));
	for (size_t i = 0; i < r->nlog; i++) {
		const struct pass_log *l = &r->log[i];
		const struct sweep_point *p = &sw->pts[l->arm];
		json_array_append_new(
		    jl, json_pack("{s:i, s:I, s:I, s:f, s:o, s:b, s:b}", "point", (int)l->arm,
				  "maxsleep_us", (json_int_t)p->ms, "timer_slack_ns",
				  (json_int_t)p->slack, "rate_pps", p->rate_v, "host_took_pct",
				  isfinite(l->took_pct) ? json_real(l->took_pct) : json_null(),
				  "set_aside", l->verdict == PASS_ASIDE, "hung",
				  l->verdict == PASS_HUNG));
	}
	json_t *o = json_pack("{s:s, s:s, s:f, s:f, s:i, s:b, s:o}", "experiment", "sweep",
			      "scenario", sw->c.scenario, "seconds", sw->c.seconds, "warmup_s",
			      sw->c.warmup, "passes", (int)sw->passes, "ok", ok, "rows", rows);
	json_object_set_new(o, "zero_drop_pct", json_real(SWEEP_ZERO_DROP_PCT));
	json_object_set_new(o, "cheapest_zero_drop",
			    zero < sw->npts ? sweep_setting_json(&sw->pts[zero]) : json_null());
	json_object_set_new(o, "drop_budget_pct", json_real(sw->budget));
	json_object_set_new(o, "host_took_limit_pct", json_real(sw->limit));
	json_object_set_new(o, "set_aside", json_integer((json_int_t)pass_aside_total(r)));
	json_object_set_new(o, "cheapest",
			    best < sw->npts ? sweep_setting_json(&sw->pts[best]) : json_null());
	json_object_set_new(o, "pass_log", jl);
	json_dumpf(o, stdout, JSON_COMPACT | JSON_REAL_PRECISION(10));
	printf("\n");
	json_decref(o);
}

/* The settings with a hung pass, on stderr: 1 when there was one. */
static int sweep_hangs(const struct sweep *sw)
{
	size_t failed = 0;
	for (size_t i = 0; i < sw->npts; i++)
		failed += sw->pts[i].failed > 0;
	if (!failed)
		return 0;
	fprintf(stderr,
		"tunetop: experiment sweep: %zu of %zu settings had a hung pass (those passes "
		"are left out):\n",
		failed, sw->npts);
	for (size_t i = 0; i < sw->npts; i++)
		if (sw->pts[i].failed)
			fprintf(stderr, "  maxsleep %lld us slack %lld ns: %s\n",
				(long long)sw->pts[i].ms, (long long)sw->pts[i].slack,
				sw->pts[i].hang);
	return 1;
}

/* The results: the tables or the JSON, the picture, and the hangs. */
static int sweep_report(struct sweep *sw, const struct pass_run *r, size_t nrate)
{
	bool *within = xcalloc(sw->npts, sizeof(*within));
	size_t best, zero, failed = 0;
	int rc = 0;
	for (size_t i = 0; i < sw->npts; i++) {
		for (size_t k = 0; k < SWEEP_NCOLS; k++)
			exp_summarize(sw->pts[i].v[k], sw->pts[i].ok, &sw->pts[i].sum[k]);
		failed += sw->pts[i].failed > 0;
	}
	sweep_answer(sw, within, &best, &zero);
	if (!sw->c.json)
		sweep_print_table(sw, within, best);
	else
		sweep_print_json(sw, r, within, best, zero, failed == 0);
	struct sweep_pic sp = {sw->pts,	       sw->npts,   best,      nrate > 1,
			       sw->c.scenario, sw->passes, sw->budget};
	if (exp_pictures(&sw->c, "sweep", sweep_draw, &sp) != 0)
		rc = 1;
	if (sweep_hangs(sw) && rc == 0)
		rc = 1;
	free(within);
	return rc;
}

int exp_sweep_run(const struct exp_common *c0, int argc, char **argv)
{
	struct sweep sw = {
	    .c = *c0, .budget = PASS_DROP_BUDGET_PCT, .limit = PASS_HOST_TOOK_LIMIT_PCT};
	const char *ms_list = "0,50,500", *slack_list = "1000,50000", *rate_list = NULL;
	const char *ms[EXP_MAX_LIST], *slack[EXP_MAX_LIST], *rate[EXP_MAX_LIST] = {NULL};
	char *ms_copy = NULL, *slack_copy = NULL, *rate_copy = NULL;
	size_t nms, nslack, nrate = 1;
	long passes = SWEEP_DEFAULT_PASSES;
	int rc = 0;

	if (!sw.c.scenario)
		sw.c.scenario = "pmd-seed";
	if (sweep_parse(argc, argv, &ms_list, &slack_list, &rate_list, &passes, &sw.budget,
			&sw.limit))
		return 2;
	nms = exp_parse_list("sweep", "--maxsleep", ms_list, K_PMD_MAXSLEEP_US, &ms_copy, ms,
			     EXP_MAX_LIST);
	nslack = nms ? exp_parse_list("sweep", "--slack", slack_list, K_PMD_TIMER_SLACK_NS,
				      &slack_copy, slack, EXP_MAX_LIST)
		     : 0;
	if (nslack && rate_list)
		nrate = exp_parse_list("sweep", "--rate", rate_list, K_GEN_RATE_PPS, &rate_copy,
				       rate, EXP_MAX_LIST);
	if (nms && nslack && nrate) {
		sw.passes = (size_t)passes;
		sw.npts = nrate * nslack * nms;
		sw.pts = sweep_points(ms, nms, slack, nslack, rate, nrate);
		sw.tty = !sw.c.json && isatty(STDERR_FILENO) == 1;
		/* Round-robin: pass 1 of every point, then pass 2 of every point, ...; a point's
		 * set-aside passes are rerun in later rounds, up to twice its passes in all
		 * (tui/pass.h). So a spell of host load lands on every point, not on the one
		 * that happened to be running. */
		struct pass_conf pc = {.narms = sw.npts,
				       .passes = sw.passes,
				       .took_limit_pct = sw.limit,
				       .order = PASS_EACH};
		static const struct pass_ops ops = {sweep_measure, sweep_judge, sweep_stop,
						    sweep_progress};
		struct pass_run r;
		rc = pass_run(&r, &pc, &ops, &sw);
		json_decref(sw.snap);
		if (sw.tty)
			fprintf(stderr, "\n");
		if (rc == 0 && !sig_quit)
			rc = sweep_report(&sw, &r, nrate);
		pass_run_free(&r);
		free(sw.pts);
	} else {
		rc = 2;
	}
	free(ms_copy);
	free(slack_copy);
	free(rate_copy);
	return rc;
}
