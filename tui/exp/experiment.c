/* SPDX-License-Identifier: GPL-2.0-or-later */
/* experiment.c: `tunetop experiment`: common options, source set-up and measurement windows. */
#include "tui/exp/experiment.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/safefile.h"
#include "core/scenario.h"
#include "core/xalloc.h"
#include "diag/diag.h"
#include "tui/snapjson_diag.h"
#include "tui/exp/chart_cairo.h"
#include "tui/exp/exp_cost.h"
#include "tui/exp/exp_check.h"
#include "tui/sig.h"
#include "tui/snapjson.h"

struct exp_entry {
	const char *name;
	const char *summary;
	int (*run)(const struct exp_common *c, int argc, char **argv);
};

static const struct exp_entry exp_table[] = {
    {"sweep", "PMD sleep/drop sweep: maxsleep x timer slack x offered load", exp_sweep_run},
    {"ab", "A/B passes of one knob's values: MIN/AVG/MAX/Dev and Welch's t-test", exp_ab_run},
    {"calib", "calibration stability: chain_max histogram and tick time per governor",
     exp_calib_run},
    {"tune", "the live tuner: a knob stepped, the cheapest within a drop budget kept",
     exp_tune_run},
};

static void exp_usage(FILE *out)
{
	fputs("Usage: tunetop experiment NAME [OPTIONS]\n\nExperiments:\n", out);
	for (size_t i = 0; i < sizeof(exp_table) / sizeof(exp_table[0]); i++)
		fprintf(out, "  %-6s %s\n", exp_table[i].name, exp_table[i].summary);
	fputs("\nCommon options:\n"
	      "  --json               one JSON object instead of a table\n"
	      "  --scenario NAME|FILE starting knobs (each experiment has a default)\n"
	      "  --set KNOB=VALUE     repeatable, applied after the scenario\n"
	      "  --seconds S          measurement window per point or pass\n"
	      "  --warmup S           settle time before each window\n"
	      "  --png FILE, --svg FILE  draw the result (sweep: drop% vs CPU%; ab: MIN/AVG/MAX\n"
	      "                       bars; calib: chain_max histogram per governor)\n"
	      "A pass in which a subsystem hangs fails the experiment (exit status 1).\n"
	      "\n"
	      "sweep:  --maxsleep LIST --slack LIST --rate LIST --passes N (3; median, spread)\n"
	      "        --drop-budget PCT (0.1: the answer is the cheapest setting within it)\n"
	      "        --host-took-limit PCT (30: a pass the host took more of is set aside\n"
	      "        and rerun, at most as many times as --passes; default scenario pmd-seed)\n"
	      "ab:     --knob KNOB --values A,B[,...] --passes N --metric PATH (repeatable)\n"
	      "calib:  --governors LIST --runs N --count N        (default scenario est only)\n"
	      "tune:   --knob KNOB --budget drop=PCT [--steps LIST] [--window S]\n"
	      "        [--host --write [--yes]]           (default scenario pmd-seed)\n"
	      "LISTs are comma-separated; PATHs name JSON fields of a snapshot, e.g.\n"
	      "blk.lat_us.p99, pmd.threads[*].cpu_pct (sum), pmd.threads[avg].sleep_iter_pct.\n",
	      out);
}

int exp_parse_double(const char *opt, const char *s, double lo, double hi, double *out)
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

int exp_parse_count(const char *opt, const char *s, long lo, long hi, long *out)
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

size_t exp_split_list(const char *list, char **copy, const char **out, size_t max)
{
	size_t n = 0;
	*copy = xstrdup(list);
	for (char *save = NULL, *tok = strtok_r(*copy, ",", &save); tok && n < max;
	     tok = strtok_r(NULL, ",", &save))
		out[n++] = tok;
	return n;
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

struct source *exp_source(const struct exp_common *c, const char *const *extra, size_t nextra,
			  char *err, size_t errlen, int *status)
{
	struct source *src = source_open(&source_engine_ops, NULL, err, errlen);
	if (!src) {
		*status = 1;
		return NULL;
	}
	int rc = scenario_apply(c->scenario, source_scenario_assign, src, err, errlen);

	for (size_t i = 0; rc == 0 && i < c->nsets; i++)
		rc = source_knob_assign(src, c->sets[i], err, errlen);
	for (size_t i = 0; rc == 0 && i < nextra; i++)
		rc = source_knob_assign(src, extra[i], err, errlen);
	if (rc != 0) {
		*status = rc == KNOB_ERR_USAGE ? 2 : 1;
		source_close(src);
		return NULL;
	}
	if (source_start(src, err, errlen) != 0) {
		*status = 1;
		source_close(src);
		return NULL;
	}
	return src;
}

static void exp_sleep(double s)
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
	struct exp_pmd_mark start;
	exp_pmd_mark_read(snap, &start);
	exp_sleep(seconds);
	source_sample(src, snap);
	json_t *j = snapjson_build(snap);
	/* The pass's PMD cost from the window's counters (tui/exp/exp_cost.h). */
	struct exp_pmd_acc acc = {0};
	struct exp_pmd_cost cost;
	exp_pmd_acc_add(&acc, &start, snap);
	if (exp_pmd_cost_of(&acc, &cost) == 0)
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

int experiment_main(int argc, char **argv)
{
	struct exp_common c = {.seconds = 2.0, .warmup = 1.0};
	char **rest = xcalloc((size_t)argc + 1, sizeof(*rest));
	int nrest = 0, rc = 2;
	const struct exp_entry *e = NULL;

	for (size_t i = 0; i < sizeof(exp_table) / sizeof(exp_table[0]); i++)
		if (strcmp(argv[0], exp_table[i].name) == 0)
			e = &exp_table[i];
	if (!e) {
		if (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0 ||
		    strcmp(argv[0], "--list") == 0) {
			exp_usage(stdout);
			free(rest);
			return 0;
		}
		fprintf(stderr,
			"tunetop: experiment: unknown experiment '%s' (valid: sweep, ab, calib, "
			"tune)\n",
			argv[0]);
		free(rest);
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool has_val = i + 1 < argc;
		if (strcmp(a, "--json") == 0) {
			c.json = true;
		} else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			exp_usage(stdout);
			free(rest);
			return 0;
		} else if (strcmp(a, "--scenario") == 0 && has_val) {
			c.scenario = argv[++i];
		} else if (strcmp(a, "--set") == 0 && has_val) {
			if (c.nsets == EXP_MAX_SETS) {
				fprintf(stderr, "tunetop: experiment: at most %d --set\n",
					EXP_MAX_SETS);
				goto out;
			}
			c.sets[c.nsets++] = argv[++i];
		} else if (strcmp(a, "--seconds") == 0 && has_val) {
			if (exp_parse_double(a, argv[++i], 0.1, 3600, &c.seconds))
				goto out;
		} else if (strcmp(a, "--warmup") == 0 && has_val) {
			if (exp_parse_double(a, argv[++i], 0, 3600, &c.warmup))
				goto out;
		} else if ((strcmp(a, "--png") == 0 || strcmp(a, "--svg") == 0) && has_val) {
			const char *path = argv[++i];
			if (!*path) {
				fprintf(stderr, "tunetop: experiment: %s needs a file name\n", a);
				goto out;
			}
			/* Checked now, not after a run of minutes: a directory, a symlink, a
			 * FIFO or a missing directory is a usage error (core/safefile.h). */
			char why[512];
			if (safefile_check_target(path, 0, why, sizeof(why)) != 0) {
				fprintf(stderr, "tunetop: experiment: %s %s\n", a, why);
				goto out;
			}
			*(a[2] == 'p' ? &c.png : &c.svg) = path;
		} else {
			rest[nrest++] = argv[i];
		}
	}
	/* The picture module is loaded now (tui/exp/pic_module.h), not after a run of minutes:
	 * without it a picture cannot be drawn, a runtime failure. */
	if (c.png || c.svg) {
		char why[PATH_MAX + 512];
		if (chart_cairo_load(why, sizeof(why)) != 0) {
			fprintf(stderr, "tunetop: experiment: %s: %s\n", c.png ? "--png" : "--svg",
				why);
			rc = 1;
			goto out;
		}
	}
	sig_install();
	rc = e->run(&c, nrest, rest);
out:
	free(rest);
	return rc;
}
