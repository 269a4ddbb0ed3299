/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exp_sweep_report.c: a sweep's results: per point the median and spread of each column, the
 * trade-off table with the cheapest setting within the drop budget, as text or one JSON object,
 * and the drop%-vs-CPU-share picture. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/xalloc.h"
#include "tui/exp/chart_cairo.h"
#include "tui/exp/exp_result.h"
#include "tui/exp/exp_sweep.h"
#include "tui/pass_cost.h"

/* What the seed's tables put side by side. */
const struct sweep_col exp_sweep_cols[SWEEP_NCOLS] = {
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

void exp_sweep_label(const json_t *row, bool rates, char *buf, size_t len)
{
	char took[24] = "", rate[32] = "";
	const json_t *t = json_object_get(row, "pass.host_took_pct");
	if (json_integer_value(json_object_get(row, "passes")) == 0)
		snprintf(took, sizeof(took), "%s",
			 json_integer_value(json_object_get(row, "failed")) ? " (hung)"
									    : " (set aside)");
	else if (json_is_number(t))
		snprintf(took, sizeof(took), ", host %.0f%%", json_number_value(t));
	if (rates)
		snprintf(rate, sizeof(rate), " / %.0f pps",
			 json_number_value(json_object_get(row, "rate_pps")));
	snprintf(buf, len, "%lld us / %lld ns%s%s",
		 (long long)json_integer_value(json_object_get(row, "maxsleep_us")),
		 (long long)json_integer_value(json_object_get(row, "timer_slack_ns")), rate, took);
}

static int sweep_draw(const char *path, bool svg, void *arg, char *err, size_t errlen)
{
	const struct sweep *sw = arg;
	struct chart_pt *pts = xcalloc(sw->npts + 1, sizeof(*pts));
	char note[160];
	for (size_t i = 0; i < sw->npts; i++) {
		const struct sweep_point *p = &sw->pts[i];
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
					   .mark = i == sw->best,
					   .failed = p->ok == 0};
		exp_sweep_label(json_array_get(json_object_get(sw->result, "rows"), i),
				sw->many_rates, pts[i].label, sizeof(pts[i].label));
	}
	snprintf(note, sizeof(note),
		 "scenario %s; maxsleep / timer slack%s, host took; median of %zu passes, lines "
		 "min to max; drop budget %g%%",
		 sw->c.scenario, sw->many_rates ? " / offered load" : "", sw->passes, sw->budget);
	int rc = chart_cairo_scatter(path, svg, "PMD drops against PMD CPU share", note,
				     "PMD CPU % of the time the host left the PMD threads",
				     "drop %", pts, sw->npts, err, errlen);
	free(pts);
	return rc;
}

/* A point's row of the result: its setting, passes, and per column the median, spread, min,
 * max and every kept pass's figure (null and empty when it has none). */
static json_t *sweep_row_json(const struct sweep_point *p, bool within)
{
	json_t *aside = json_array(), *spread = json_object(), *mins = json_object(),
	       *maxs = json_object(), *each = json_object(), *bounds = json_object();
	for (size_t i = 0; i < p->set_aside; i++)
		json_array_append_new(aside, json_real(p->aside_took[i]));
	json_t *row =
	    json_pack("{s:f, s:I, s:I, s:i, s:i, s:i, s:o, s:b}", "rate_pps", p->rate_v,
		      "maxsleep_us", (json_int_t)p->ms, "timer_slack_ns", (json_int_t)p->slack,
		      "passes", (int)p->ok, "failed", (int)p->failed, "set_aside",
		      (int)p->set_aside, "set_aside_host_took_pct", aside, "within_budget", within);
	for (size_t k = 0; k < SWEEP_NCOLS; k++) {
		const char *path = exp_sweep_cols[k].path;
		const struct exp_summary *s = &p->sum[k];
		bool have = p->ok && p->have[k];
		json_object_set_new(row, path, exp_real(have, s->median));
		json_object_set_new(spread, path, exp_real(have, s->max - s->min));
		json_object_set_new(mins, path, exp_real(have, s->min));
		json_object_set_new(maxs, path, exp_real(have, s->max));
		json_t *arr = json_array();
		for (size_t i = 0; have && i < p->ok; i++)
			json_array_append_new(arr, json_real(p->v[k][i]));
		json_object_set_new(each, path, arr);
		if (exp_sweep_cols[k].at_least)
			json_object_set_new(bounds, path, json_boolean(have && p->at_least[k]));
	}
	json_object_update_new(
	    row, json_pack("{s:o, s:o, s:o, s:o, s:o, s:s?, s:o}", "at_least", bounds, "spread",
			   spread, "min", mins, "max", maxs, "pass_values", each, "hang",
			   p->hang[0] ? p->hang : NULL, "diagnoses", exp_findings_json(&p->diag)));
	return row;
}

/* The per-point table, written from the rows: medians +- half the range, passes set aside. */
static void sweep_print_rows(const struct sweep *sw, const json_t *rows)
{
	struct exp_col cols[5 + SWEEP_NCOLS] = {{"rate_pps", "rate_pps", -10, "%.0f"},
						{"maxsleep_us", "maxsleep_us", -11, NULL},
						{"timer_slack_ns", "slack_ns", -9, NULL},
						{NULL, "passes", 6, NULL},
						{"set_aside", "aside", 5, NULL}};
	for (size_t k = 0; k < SWEEP_NCOLS; k++)
		cols[5 + k] =
		    (struct exp_col){exp_sweep_cols[k].path, exp_sweep_cols[k].title, 17, NULL};
	printf("median over %zu passes, +- half the range (min to max); passes run round-robin "
	       "over the points\n",
	       sw->passes);
	exp_table_row(cols, 5 + SWEEP_NCOLS, NULL, NULL, NULL, NULL);
	for (size_t i = 0; i < sw->npts; i++) {
		const struct sweep_point *p = &sw->pts[i];
		char cell[5 + SWEEP_NCOLS][64], found[1024];
		const char *text[5 + SWEEP_NCOLS] = {[3] = cell[3]};
		snprintf(cell[3], sizeof(cell[3]), "%3zu/%-2zu", p->ok, sw->passes);
		for (size_t k = 0; k < SWEEP_NCOLS; k++)
			if (p->ok && p->have[k]) {
				exp_fmt_spread(cell[5 + k], sizeof(cell[0]), p->sum[k].median,
					       (p->sum[k].max - p->sum[k].min) / 2, p->at_least[k]);
				text[5 + k] = cell[5 + k];
			}
		exp_table_row(cols, 5 + SWEEP_NCOLS, json_array_get(rows, i), text,
			      p->ok	  ? "-"
			      : p->failed ? "hung"
					  : "set aside",
			      NULL);
		exp_findings_text(&p->diag, p->ok, found, sizeof(found));
		if (found[0])
			printf("  %s\n", found);
	}
}

static json_t *sweep_med(const struct sweep_point *p, size_t k)
{
	return exp_real(p->ok && p->have[k], p->sum[k].median);
}

/* A setting and its answer's figures (medians): the JSON's cheapest, a trade-off table row. */
static json_t *sweep_setting_json(const struct sweep_point *p)
{
	return json_pack("{s:I, s:I, s:f, s:o, s:o, s:o, s:o}", "maxsleep_us", (json_int_t)p->ms,
			 "timer_slack_ns", (json_int_t)p->slack, "rate_pps", p->rate_v, "drop_pct",
			 sweep_med(p, SWEEP_COL_DROP), "cpu_ns_per_pkt",
			 sweep_med(p, SWEEP_COL_NSPKT), "cpu_share_pct",
			 sweep_med(p, SWEEP_COL_SHARE), "host_took_pct",
			 sweep_med(p, SWEEP_COL_TOOK));
}

/* The trade-off table: what each setting costs, which are within the budget, the answer. */
static void sweep_print_tradeoff(const struct sweep_point *pts, size_t n, const bool *within,
				 size_t best, double budget, double limit)
{
	static const struct exp_col cols[] = {
	    {"rate_pps", "rate_pps", -10, "%.0f"},	{"maxsleep_us", "maxsleep_us", -11, NULL},
	    {"timer_slack_ns", "slack_ns", -9, NULL},	{"drop_pct", "drop%", 9, NULL},
	    {"cpu_ns_per_pkt", "cpu_ns/pkt", 11, NULL}, {"cpu_share_pct", "cpu_share%", 11, NULL},
	    {"host_took_pct", "host_took%", 11, NULL},	{NULL, "set_aside", 9, NULL}};
	size_t aside = 0, all_aside = 0;
	printf("\ntrade-off (drop budget %g%%; CPU per packet and CPU share of the time the host "
	       "left the PMDs, medians)\n",
	       budget);
	exp_table_row(cols, 8, NULL, NULL, NULL, NULL);
	for (size_t i = 0; i < n; i++) {
		const struct sweep_point *p = &pts[i];
		char took[32], nasid[24];
		const char *text[8] = {[3] = !p->ok && p->failed ? "hung" : NULL, [7] = nasid};
		snprintf(nasid, sizeof(nasid), "%zu", p->set_aside);
		if (!p->ok &&
		    p->set_aside) { /* every pass set aside: what the host took says why */
			struct exp_summary a;
			exp_summarize(p->aside_took, p->set_aside, &a);
			exp_fmt(took, sizeof(took), a.median);
			text[6] = took;
		}
		json_t *row = sweep_setting_json(p);
		exp_table_row(cols, 8, row, text, NULL,
			      i == best		       ? "  <- cheapest within the budget"
			      : !p->ok && p->set_aside ? "  every pass set aside"
			      : !p->ok || within[i]    ? ""
						       : "  over the budget");
		json_decref(row);
		aside += p->set_aside;
		all_aside += !p->ok && p->set_aside;
	}
	if (best < n)
		printf("cheapest within the drop budget (%g%%): maxsleep %lld us, slack %lld ns: "
		       "%.0f ns per packet, CPU share %.1f%% (host took %.1f%%)\n",
		       budget, (long long)pts[best].ms, (long long)pts[best].slack,
		       pts[best].sum[SWEEP_COL_NSPKT].median, pts[best].sum[SWEEP_COL_SHARE].median,
		       pts[best].sum[SWEEP_COL_TOOK].median);
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

/* The settings whose every pass was set aside and that could have been the answer: any, when
 * there is none; else one that sleeps (it might be cheaper than the best) or any when the best
 * polls (pass_cost_cheapest ranks a sleeping setting first). Writes why to buf ("" when none):
 * an answer over the settings that stayed is not the sweep's answer (docs/experiments.md). */
static size_t sweep_inconclusive(const struct sweep *sw, size_t best, char *buf, size_t len)
{
	size_t n = 0;
	for (size_t i = 0; i < sw->npts; i++) {
		const struct sweep_point *p = &sw->pts[i];
		n += !p->ok && p->set_aside &&
		     (best >= sw->npts || p->ms > 0 || sw->pts[best].ms == 0);
	}
	buf[0] = '\0';
	if (n)
		snprintf(
		    buf, len,
		    "%zu setting%s that could be the answer had every pass set aside (the host "
		    "took more than %g%% of the PMDs' time): a quieter host, or a higher "
		    "--host-took-limit",
		    n, n == 1 ? "" : "s", sw->limit);
	return n;
}

/* The result: one row a point, the answer and the pass log; the JSON as is (--json) or its
 * tables. */
static void sweep_print(struct sweep *sw, const struct pass_run *r, const bool *within, size_t best,
			size_t zero, bool ok)
{
	char why[256];
	if (sweep_inconclusive(sw, best, why, sizeof(why)))
		ok = false;
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
				  exp_real(isfinite(l->took_pct), l->took_pct), "set_aside",
				  l->verdict == PASS_ASIDE, "hung", l->verdict == PASS_HUNG));
	}
	json_t *o =
	    json_pack("{s:s, s:s, s:f, s:f, s:i, s:b, s:o, s:f, s:o?, s:f, s:f, s:I, s:o?, s:o}",
		      "experiment", "sweep", "scenario", sw->c.scenario, "seconds", sw->c.seconds,
		      "warmup_s", sw->c.warmup, "passes", (int)sw->passes, "ok", ok, "rows", rows,
		      "zero_drop_pct", SWEEP_ZERO_DROP_PCT, "cheapest_zero_drop",
		      zero < sw->npts ? sweep_setting_json(&sw->pts[zero]) : NULL,
		      "drop_budget_pct", sw->budget, "host_took_limit_pct", sw->limit, "set_aside",
		      (json_int_t)pass_aside_total(r), "cheapest",
		      best < sw->npts ? sweep_setting_json(&sw->pts[best]) : NULL, "pass_log", jl);
	json_object_set_new(o, "inconclusive", why[0] ? json_string(why) : json_null());
	sw->result = o;
	if (sw->c.json) {
		exp_result_print(o);
		return;
	}
	sweep_print_rows(sw, rows);
	sweep_print_tradeoff(sw->pts, sw->npts, within, best, sw->budget, sw->limit);
	if (why[0])
		printf("inconclusive: %s\n", why);
	fflush(stdout);
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

int exp_sweep_report(struct sweep *sw, const struct pass_run *r, size_t nrate)
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
	sweep_print(sw, r, within, best, zero, failed == 0);
	sw->best = best;
	sw->many_rates = nrate > 1;
	if (exp_pictures(&sw->c, "sweep", sweep_draw, sw) != 0)
		rc = 1;
	if (sweep_hangs(sw) && rc == 0)
		rc = 1;
	char why[256];
	if (sweep_inconclusive(sw, best, why, sizeof(why))) {
		fprintf(stderr, "tunetop: experiment sweep: inconclusive: %s\n", why);
		rc = 1;
	}
	json_decref(sw->result);
	free(within);
	return rc;
}
