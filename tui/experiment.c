/* experiment.c: `tunetop experiment`: common options, source set-up and measurement windows. */
#include "tui/experiment.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/scenario.h"
#include "core/xalloc.h"
#include "tui/sig.h"
#include "tui/snapjson.h"

struct exp_entry {
	const char *name;
	const char *summary;
	int (*run)(const struct exp_common *c, int argc, char **argv);
};

static const struct exp_entry exp_table[] = {
	{ "sweep", "PMD sleep/drop sweep: maxsleep x timer slack x offered load", exp_sweep_run },
	{ "ab", "A/B passes of one knob's values: MIN/AVG/MAX/Dev and Welch's t-test", exp_ab_run },
	{ "calib", "calibration stability: chain_max histogram and tick time per governor",
	  exp_calib_run },
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
	      "\n"
	      "sweep:  --maxsleep LIST --slack LIST --rate LIST   (default scenario pmd-seed)\n"
	      "ab:     --knob KNOB --values A,B[,...] --passes N --metric PATH (repeatable)\n"
	      "calib:  --governors LIST --runs N                  (default scenario est only)\n"
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
		fprintf(stderr, "tunetop: experiment: %s: '%s' is not valid (valid: %g to %g)\n", opt,
			s, lo, hi);
		return 2;
	}
	*out = v;
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

json_t *exp_window(struct source *src, double warmup, double seconds)
{
	struct snapshot *snap = snapshot_new();
	exp_sleep(warmup);
	source_sample(src, snap); /* start of the window: deltas from here */
	exp_sleep(seconds);
	source_sample(src, snap);
	json_t *j = snapjson_build(snap);
	snapshot_free(snap);
	return j;
}

int experiment_main(int argc, char **argv)
{
	struct exp_common c = { .seconds = 2.0, .warmup = 1.0 };
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
		fprintf(stderr, "tunetop: experiment: unknown experiment '%s' (valid: sweep, ab, calib)\n",
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
				fprintf(stderr, "tunetop: experiment: at most %d --set\n", EXP_MAX_SETS);
				goto out;
			}
			c.sets[c.nsets++] = argv[++i];
		} else if (strcmp(a, "--seconds") == 0 && has_val) {
			if (exp_parse_double(a, argv[++i], 0.1, 3600, &c.seconds))
				goto out;
		} else if (strcmp(a, "--warmup") == 0 && has_val) {
			if (exp_parse_double(a, argv[++i], 0, 3600, &c.warmup))
				goto out;
		} else {
			rest[nrest++] = argv[i];
		}
	}
	sig_install();
	rc = e->run(&c, nrest, rest);
out:
	free(rest);
	return rc;
}
