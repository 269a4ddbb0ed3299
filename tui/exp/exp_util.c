/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exp_util.c: what every experiment calls: option values parsed, the source set up, a pass's
 * window measured, a cell formatted, the pictures written. A leaf: experiment.c dispatches to
 * the experiments, and they call down to here, never back into it. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/scenario.h"
#include "core/xalloc.h"
#include "diag/diag.h"
#include "tui/snapjson_diag.h"
#include "tui/exp/exp_check.h"
#include "tui/exp/experiment.h"
#include "tui/pass_cost.h"
#include "tui/sig.h"
#include "tui/snapjson.h"

static int exp_parse_double(const char *opt, const char *s, double lo, double hi, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < lo || v > hi) {
		fprintf(stderr, "tunetop: experiment: %s: '%s' is not valid (valid: %g to %g)\n",
			opt, s, lo, hi);
		return 2;
	}
	*out = v;
	return 0;
}

static int exp_parse_count(const char *opt, const char *s, long lo, long hi, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		fprintf(stderr,
			"tunetop: experiment: %s: '%s' is not valid (valid: a whole number, %ld to "
			"%ld)\n",
			opt, s, lo, hi);
		return 2;
	}
	*out = v;
	return 0;
}

/* The option names of the table, "--knob KNOB, --host, ...", for the usage error. */
static void exp_opts_names(const struct exp_opt *opts, size_t n, char *buf, size_t len)
{
	size_t off = 0;
	for (size_t k = 0; k < n && off < len; k++)
		off +=
		    (size_t)snprintf(buf + off, len - off, "%s%s%s%s", k ? ", " : "", opts[k].name,
				     opts[k].arg ? " " : "", opts[k].arg ? opts[k].arg : "");
}

/* One option's value into its place: 0 or 2 (usage). */
static int exp_opt_set(const struct exp_opt *o, const char *v)
{
	switch (o->kind) {
	case EXP_OPT_COUNT:
		return exp_parse_count(o->name, v, (long)o->lo, (long)o->hi, o->out);
	case EXP_OPT_REAL:
		return exp_parse_double(o->name, v, o->lo, o->hi, o->out);
	case EXP_OPT_FN:
		return o->fn(o, v);
	case EXP_OPT_MANY:
		if (*o->n == (size_t)o->hi) {
			fprintf(stderr, o->many, (int)o->hi);
			return 2;
		}
		((const char **)o->out)[(*o->n)++] = v;
		return 0;
	default:
		*(const char **)o->out = v;
		return 0;
	}
}

int exp_opts_parse(const char *exp, const struct exp_opt *opts, size_t n, int argc, char **argv,
		   char **rest, int *nrest)
{
	for (int i = 0, rc; i < argc; i++) {
		size_t k = 0;
		while (k < n &&
		       !(strcmp(argv[i], opts[k].name) == 0 && (!opts[k].arg || i + 1 < argc)))
			k++;
		if (k == n && rest) {
			rest[(*nrest)++] = argv[i];
		} else if (k == n) {
			char names[512];
			exp_opts_names(opts, n, names, sizeof(names));
			fprintf(stderr,
				"tunetop: experiment %s: unknown option '%s' (valid: %s and the "
				"common options)\n",
				exp, argv[i], names);
			return 2;
		} else if (opts[k].kind == EXP_OPT_FLAG) {
			*(bool *)opts[k].out = true;
		} else if ((rc = exp_opt_set(&opts[k], opts[k].arg ? argv[++i] : NULL)) != 0) {
			return rc;
		}
	}
	return 0;
}

static size_t exp_split_list(const char *list, char **copy, const char **out, size_t max)
{
	size_t n = 0;
	*copy = xstrdup(list);
	for (char *save = NULL, *tok = strtok_r(*copy, ",", &save); tok && n < max;
	     tok = strtok_r(NULL, ",", &save))
		out[n++] = tok;
	return n;
}

size_t exp_parse_list(const char *exp, const char *opt, const char *list, int id, char **copy,
		      const char **out, size_t max)
{
	char err[512], range[128];
	size_t n = 0;
	const char *p = list;

	*copy = NULL;
	if (id >= 0)
		knob_range_text(id, range, sizeof(range));
	else
		snprintf(range, sizeof(range), "any text");
	/* An empty item anywhere ("", "0,,5", "5,") is a mistake, not a value to skip. */
	for (;;) {
		size_t len = strcspn(p, ",");
		if (len == 0) {
			fprintf(stderr,
				"tunetop: experiment %s: %s: '%s' has an empty item (valid: a "
				"comma-separated list of %s)\n",
				exp, opt, list, range);
			return 0;
		}
		if (++n > max) {
			fprintf(stderr, "tunetop: experiment %s: %s: at most %zu items\n", exp, opt,
				max);
			return 0;
		}
		if (!p[len])
			break;
		p += len + 1;
	}
	n = exp_split_list(list, copy, out, max);
	for (size_t i = 0; id >= 0 && i < n; i++) {
		int64_t v;
		if (knob_parse(id, out[i], &v, err, sizeof(err)) != 0) {
			fprintf(stderr, "tunetop: experiment %s: %s: %s\n", exp, opt, err);
			free(*copy);
			*copy = NULL;
			return 0;
		}
	}
	return n;
}

int exp_pictures(const struct exp_common *c, const char *exp,
		 int (*draw)(const char *path, bool svg, void *arg, char *err, size_t errlen),
		 void *arg)
{
	char err[512];
	const char *paths[2] = {c->png, c->svg};
	for (int i = 0; i < 2; i++) {
		if (paths[i] && draw(paths[i], i == 1, arg, err, sizeof(err)) != 0) {
			fprintf(stderr, "tunetop: experiment %s: cannot write the picture: %s\n",
				exp, err);
			return 1;
		}
	}
	return 0;
}

json_t *exp_knob_json(int id, const char *text, int64_t v)
{
	char buf[KNOB_VALUE_MAX];
	if (text)
		knob_parse(id, text, &v, buf, sizeof(buf));
	switch (knob_table[id].type) {
	case KNOB_INT:
		return json_integer((json_int_t)v);
	case KNOB_BOOL:
		return json_boolean(v != 0);
	default:
		return json_string(text ? text : knob_format(id, v, buf, sizeof(buf)));
	}
}

void exp_fmt(char *buf, size_t len, double v)
{
	if (fabs(v) >= 1e6)
		snprintf(buf, len, "%.4g", v);
	else if (fabs(v) >= 100 || v == floor(v))
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.2f", v);
}

void exp_fmt_spread(char *buf, size_t len, double median, double half, bool at_least)
{
	char med[32], hw[32];
	exp_fmt(med, sizeof(med), median);
	exp_fmt(hw, sizeof(hw), half);
	if (at_least)
		snprintf(buf, len, "\u2265%s", med);
	else
		snprintf(buf, len, "%s +-%s", med, hw);
}

struct source *exp_source(const struct exp_common *c, const struct source_conf *host,
			  const char *const *extra, size_t nextra, char *err, size_t errlen,
			  int *status)
{
	int rc = 0;
	struct source *src =
	    source_open_rc(host ? &source_host_ops : &source_engine_ops, host, &rc, err, errlen);
	if (src && c->scenario)
		rc = scenario_apply(c->scenario, source_scenario_assign, src, err, errlen);
	for (size_t i = 0; src && rc == 0 && i < c->nsets; i++)
		rc = source_knob_assign(src, c->sets[i], err, errlen);
	for (size_t i = 0; src && rc == 0 && i < nextra; i++)
		rc = source_knob_assign(src, extra[i], err, errlen);
	if (src && rc == 0 && source_start(src, err, errlen) != 0)
		rc = 1;
	if (!src || rc != 0) {
		*status = rc == KNOB_ERR_USAGE ? 2 : 1;
		if (src)
			source_close(src);
		return NULL;
	}
	return src;
}

void exp_sleep(double s)
{
	uint64_t end = clock_mono_ns() + (uint64_t)(s * 1e9);
	while (!sig_quit && clock_mono_ns() < end)
		clock_sleep_ns(20 * NS_PER_MS);
}

json_t *exp_window(struct source *src, double warmup, double seconds, char *hang, size_t hanglen)
{
	struct snapshot *snap = snapshot_new();
	exp_sleep(warmup);
	source_sample(src, snap); /* start of the window: deltas from here */
	/* Kept for the hang check: its events are the warm-up's, its totals the start's. */
	json_t *first = snapjson_build(snap);
	struct pass_pmd_mark start;
	pass_pmd_mark_read(snap, &start);
	exp_sleep(seconds);
	source_sample(src, snap);
	json_t *j = snapjson_build(snap);
	/* The pass's PMD cost from the window's counters (tui/pass_cost.h). */
	struct pass_pmd_acc acc = {0};
	struct pass_pmd_cost cost;
	pass_pmd_acc_add(&acc, &start, snap);
	if (pass_pmd_cost_of(&acc, &cost) == 0)
		json_object_set_new(
		    j, "pass",
		    json_pack("{s:f, s:o, s:f, s:f, s:f, s:f}", "drop_pct", cost.drop_pct,
			      "cpu_ns_per_pkt",
			      cost.ns_per_pkt >= 0 ? json_real(cost.ns_per_pkt) : json_null(),
			      "cpu_share_pct", cost.share_pct, "host_took_pct", cost.host_took_pct,
			      "window_s", acc.wall_s, "packets", acc.packets));
	/* What the rules see in the window: the pass's findings go out with its figures. */
	struct diag_finding f[DIAG_MAX_FINDINGS];
	int nf = diag_eval_window(snap, f, DIAG_MAX_FINDINGS);
	json_object_set_new(j, "diagnoses", snapjson_findings(f, nf));
	snapshot_free(snap);
	double since;
	char flag[160];
	if (exp_hang_check(first, j, hang, hanglen) && exp_hang_since(first, j, &since) == 0)
		json_object_set_new(j, "hang_since_s", json_real(since));
	/* Hung already over the warm-up (which spans a knob change): a stall older than the
	 * window, for an A/B's arm (exp_ab.c). */
	json_object_set_new(j, "hung_at_start",
			    json_boolean(exp_hung_flag(first, flag, sizeof(flag))));
	json_decref(first);
	return j;
}

bool exp_stopped(void *ctx)
{
	(void)ctx;
	return sig_quit != 0;
}
