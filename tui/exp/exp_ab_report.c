/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exp_ab_report.c: an A/B run's results: per metric MIN/AVG/MAX/Dev of the kept passes and
 * Welch's test, what the host took of each value, the rules' findings, the verdict (an arm with
 * no usable pass makes it inconclusive), as text or one JSON object, and the bars picture. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "tui/exp/chart_cairo.h"
#include "tui/exp/exp_ab.h"
#include "tui/exp/exp_result.h"
#include "tui/exp/exp_stats.h"
#include "tui/sig.h"

/* One panel per metric, a MIN/AVG/MAX bar per value. */
static int ab_draw(const char *path, bool svg, void *arg, char *err, size_t errlen)
{
	const struct ab *ab = arg;
	struct chart_panel *pn = xcalloc(ab->nmetrics, sizeof(*pn));
	struct chart_bar *bars = xcalloc(ab->nmetrics * ab->nvalues, sizeof(*bars));
	char title[160];
	for (size_t m = 0; m < ab->nmetrics; m++) {
		for (size_t v = 0; v < ab->nvalues; v++) {
			const struct exp_summary *s = &ab->sums[m * ab->nvalues + v];
			struct chart_bar *b = &bars[m * ab->nvalues + v];
			snprintf(b->label, sizeof(b->label), "%s = %s, host %.0f%%", ab->knob,
				 ab->values[v], ab->took_sum[v].median);
			b->lo = s->min;
			b->mid = s->avg;
			b->hi = s->max;
		}
		snprintf(pn[m].title, sizeof(pn[m].title), "%s: bar AVG, whisker MIN to MAX",
			 ab->metrics[m]);
		pn[m].bars = &bars[m * ab->nvalues];
		pn[m].nbars = ab->nvalues;
	}
	snprintf(title, sizeof(title), "A/B passes of %s (%zu passes)", ab->knob, ab->done);
	int rc = chart_cairo_bars(path, svg, title, pn, ab->nmetrics, err, errlen);
	free(bars);
	free(pn);
	return rc;
}

/* A summary as JSON: its figures, or nulls when the arm had no usable pass (never zeros). */
static json_t *ab_summary_json(const struct ab *t, size_t v, const struct exp_summary *s)
{
	return json_pack("{s:o, s:i, s:o, s:o, s:o, s:o, s:o}", "value",
			 exp_knob_json(t->id, t->values[v], 0), "passes", (int)s->n, "min",
			 exp_real(s->n, s->min), "avg", exp_real(s->n, s->avg), "max",
			 exp_real(s->n, s->max), "dev", exp_real(s->n, s->dev), "median",
			 exp_real(s->n, s->median));
}

/* One metric: its MIN/AVG/MAX/Dev table over the kept passes (an arm without a usable pass
 * says so) and Welch's test of each value against the first; the table is left out when quiet
 * (no pass kept). sum[v] is filled for every value. Returns the metric's JSON. */
static json_t *ab_metric(const struct ab *t, const char *metric, bool missing,
			 const double *samples, struct exp_summary *sum, bool quiet)
{
	const struct exp_col cols[] = {{"value", t->knob, -12, NULL},
				       {"min", "MIN", 12, NULL},
				       {"avg", "AVG", 12, NULL},
				       {"max", "MAX", 12, NULL},
				       {"dev", "Dev", 12, NULL}};
	json_t *jv = json_array(), *tests = json_array();
	bool text = !t->c.json && !quiet;
	if (text) {
		printf("\n%s%s (%zu passes of %.1f s)\n", metric,
		       missing ? " [not in the snapshot: is its subsystem running?]" : "", t->done,
		       t->c.seconds);
		exp_table_row(cols, 5, NULL, NULL, NULL, NULL);
	}
	for (size_t v = 0; v < t->nvalues; v++) {
		exp_summarize_finite(&samples[v * t->passes], t->done, &sum[v]);
		json_t *row = ab_summary_json(t, v, &sum[v]);
		if (text) /* an arm with no usable pass says so in place of its figures */
			exp_table_row(cols, sum[v].n ? 5 : 2, row,
				      (const char *[5]){
					  t->values[v],
					  sum[v].n ? NULL : "no usable pass (no number in any)"},
				      NULL, NULL);
		json_array_append_new(jv, row);
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
						       exp_knob_json(t->id, t->values[0], 0), "b",
						       exp_knob_json(t->id, t->values[v], 0), "t",
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
static int ab_inconclusive(const struct ab *t, const struct exp_summary *sums, const double *aside,
			   double limit, char *why, size_t len, json_t **jrank)
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
	for (size_t m = 0; m < t->nmetrics; m++) {
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
						off ? "; " : "", t->metrics[m]);
		if (!*jrank)
			*jrank = json_array();
		json_array_append_new(*jrank,
				      json_pack("{s:s, s:s, s:s}", "metric", t->metrics[m], "by",
						"avg, highest first", "ranking", rank));
	}
	free(rs);
	if (why[0] && !t->c.json) {
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

/* Every window in the order it ran, as the JSON's pass_log. */
static json_t *ab_log_json(const struct ab *ab, const struct pass_run *r)
{
	json_t *jlog = json_array();
	for (size_t i = 0; i < r->nlog; i++) {
		const struct pass_log *l = &r->log[i];
		bool hung = l->verdict == PASS_HUNG;
		json_array_append_new(
		    jlog, json_pack("{s:i, s:o, s:f, s:b, s:b}", "pass", (int)l->pass + 1, "value",
				    exp_knob_json(ab->id, ab->values[l->arm], 0), "host_took_pct",
				    l->took_pct, "set_aside", l->over, "hung", hung));
	}
	return jlog;
}

/* What the host took of each value's kept windows (medians), and how many were over. */
static json_t *ab_took_table(const struct ab *ab, const struct pass_run *r,
			     struct exp_summary *took_sum)
{
	const struct exp_col cols[] = {{"value", ab->knob, -12, NULL},
				       {"host_took_pct", "host_took%", 12, "%.1f"},
				       {"set_aside", "set_aside", 12, NULL}};
	json_t *jarms = json_array();
	bool text = !ab->c.json && ab->done;
	if (text) {
		printf("host took (%% of the window, medians; a window over %g%% set aside and its "
		       "pass run again)\n",
		       ab->limit);
		exp_table_row(cols, 3, NULL, NULL, NULL, NULL);
	}
	for (size_t v = 0; v < ab->nvalues; v++) {
		exp_summarize(&ab->took[v * ab->passes], ab->done, &took_sum[v]);
		/* No pass kept: no figure (null), never a median of nothing printed as 0. */
		json_t *row = json_pack("{s:o, s:o, s:i}", "value",
					exp_knob_json(ab->id, ab->values[v], 0), "host_took_pct",
					ab->done ? json_real(took_sum[v].median) : json_null(),
					"set_aside", (int)r->arm[v].over);
		if (text)
			exp_table_row(cols, 3, row, (const char *[3]){ab->values[v]}, NULL, NULL);
		json_array_append_new(jarms, row);
	}
	return jarms;
}

/* What the rules said of each value's passes: a hang or a fault named on its own arm. */
static json_t *ab_diag_table(const struct ab *ab)
{
	json_t *jd = json_array();
	for (size_t v = 0; v < ab->nvalues && ab->done; v++) {
		char text[1024];
		exp_findings_text(&ab->found[v], ab->done, text, sizeof(text));
		if (!ab->c.json && text[0])
			printf("%s %s: %s\n", ab->knob, ab->values[v], text);
		json_array_append_new(jd, json_pack("{s:o, s:o}", "value",
						    exp_knob_json(ab->id, ab->values[v], 0),
						    "diagnoses", exp_findings_json(&ab->found[v])));
	}
	return jd;
}

int exp_ab_report(struct ab *ab, const struct pass_run *r, int rc)
{
	struct exp_summary *took_sum = xcalloc(ab->nvalues, sizeof(*took_sum));
	json_t *jarms = ab_took_table(ab, r, took_sum), *jm = json_array(), *jrank = NULL;
	struct exp_summary *sums = xcalloc(ab->nmetrics * ab->nvalues, sizeof(*sums));
	bool hung = ab->hang[0] != 0;
	char why[512] = "";
	for (size_t m = 0; m < ab->nmetrics && (rc == 0 || (hung && ab->done)); m++)
		json_array_append_new(jm, ab_metric(ab, ab->metrics[m], ab->missing[m],
						    &ab->samples[m * ab->nvalues * ab->passes],
						    &sums[m * ab->nvalues], ab->done == 0));
	if (rc == 0 && !sig_quit &&
	    ab_inconclusive(ab, sums, ab->aside_samples, ab->limit, why, sizeof(why), &jrank)) {
		fprintf(stderr, "tunetop: experiment ab: inconclusive: %s\n", why);
		rc = 1;
	}
	json_t *jd = ab_diag_table(ab);
	if (rc == 0 || hung) { /* an inconclusive run draws no bars of zeros */
		ab->sums = sums;
		ab->took_sum = took_sum;
		if (ab->done && exp_pictures(&ab->c, "ab", ab_draw, ab) != 0 && rc == 0)
			rc = 1;
	}
	/* The result, whole: the JSON as is (--json); the text was written as it was built. */
	json_t *o = json_pack(
	    "{s:s, s:s, s:s, s:i, s:f, s:o, s:b, s:s?, s:o?, s:s?, s:o, s:f, s:o, s:o, s:o?, s:o?}",
	    "experiment", "ab", "knob", ab->knob, "scenario", ab->c.scenario, "passes",
	    (int)ab->done, "seconds", ab->c.seconds, "metrics", jm, "ok", !hung && !why[0],
	    "inconclusive", why[0] ? why : NULL, "ranking", jrank, "hang", hung ? ab->hang : NULL,
	    "diagnoses", jd, "host_took_limit_pct", ab->limit, "arms", jarms, "pass_log",
	    ab_log_json(ab, r), "hang_value",
	    hung ? exp_knob_json(ab->id, ab->values[ab->hang_value], 0) : NULL, "hang_pass",
	    hung ? json_integer((json_int_t)ab->hang_pass + 1) : NULL);
	if (ab->c.json && (rc == 0 || hung || why[0]))
		exp_result_print(o);
	json_decref(o);
	free(sums);
	free(took_sum);
	return rc;
}
