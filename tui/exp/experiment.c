/* SPDX-License-Identifier: GPL-2.0-or-later */
/* experiment.c: `tunetop experiment`: the table of experiments and their common options
 * (what they share to run is exp_util.c's). */
#include "tui/exp/experiment.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/safefile.h"
#include "core/xalloc.h"
#include "tui/exp/chart_cairo.h"
#include "tui/sig.h"

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

/* --help: the usage, and the run ends (-1). */
static int exp_help(const struct exp_opt *o, const char *value)
{
	exp_usage(stdout);
	return -1;
}

/* The picture's file, checked now, not after a run of minutes: a directory, a symlink, a FIFO
 * or a missing directory is a usage error (core/safefile.h). */
static int exp_picture_opt(const struct exp_opt *o, const char *path)
{
	char why[512];
	if (!*path) {
		fprintf(stderr, "tunetop: experiment: %s needs a file name\n", o->name);
		return 2;
	}
	if (safefile_check_target(path, 0, why, sizeof(why)) != 0) {
		fprintf(stderr, "tunetop: experiment: %s %s\n", o->name, why);
		return 2;
	}
	*(const char **)o->out = path;
	return 0;
}

/* The common options into c, the experiment's own into rest[]: 0, 2 (usage) or -1 (--help,
 * printed). */
static int exp_common_parse(struct exp_common *c, int argc, char **argv, char **rest, int *nrest)
{
	const struct exp_opt opts[] = {EXP_FLAG("--json", &c->json),
				       EXP_FN("--help", NULL, NULL, exp_help),
				       EXP_FN("-h", NULL, NULL, exp_help),
				       EXP_TEXT("--scenario", "NAME|FILE", &c->scenario),
				       EXP_MANY("--set", "KNOB=VALUE", c->sets, &c->nsets,
						EXP_MAX_SETS,
						"tunetop: experiment: at most %d --set\n"),
				       EXP_REAL("--seconds", "S", &c->seconds, 0.1, 3600),
				       EXP_REAL("--warmup", "S", &c->warmup, 0, 3600),
				       EXP_FN("--png", "FILE", &c->png, exp_picture_opt),
				       EXP_FN("--svg", "FILE", &c->svg, exp_picture_opt)};
	return exp_opts_parse(NULL, opts, sizeof(opts) / sizeof(opts[0]), argc - 1, argv + 1, rest,
			      nrest);
}

int experiment_main(int argc, char **argv)
{
	struct exp_common c = {.seconds = 2.0, .warmup = 1.0};
	const struct exp_entry *e = NULL;

	for (size_t i = 0; i < sizeof(exp_table) / sizeof(exp_table[0]); i++)
		if (strcmp(argv[0], exp_table[i].name) == 0)
			e = &exp_table[i];
	if (!e) {
		if (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0 ||
		    strcmp(argv[0], "--list") == 0) {
			exp_usage(stdout);
			return 0;
		}
		fprintf(stderr,
			"tunetop: experiment: unknown experiment '%s' (valid: sweep, ab, calib, "
			"tune)\n",
			argv[0]);
		return 2;
	}
	char **rest = xcalloc((size_t)argc + 1, sizeof(*rest));
	int nrest = 0, rc = exp_common_parse(&c, argc, argv, rest, &nrest);
	if (rc != 0) {
		free(rest);
		return rc < 0 ? 0 : rc;
	}
	/* The picture module is loaded now (tui/exp/pic_module.h), not after a run of minutes:
	 * without it a picture cannot be drawn, a runtime failure. */
	if (c.png || c.svg) {
		char why[PATH_MAX + 512];
		if (chart_cairo_load(why, sizeof(why)) != 0) {
			fprintf(stderr, "tunetop: experiment: %s: %s\n", c.png ? "--png" : "--svg",
				why);
			free(rest);
			return 1;
		}
	}
	sig_install();
	rc = e->run(&c, nrest, rest);
	free(rest);
	return rc;
}
