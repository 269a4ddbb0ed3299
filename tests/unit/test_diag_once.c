/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_diag_once.c: the diagnosis rules run once per sample, for the JSON line and the exporter
 * alike (tui/after.h): `-b --serve` over a recording evaluates them once per line written, and
 * the exporter's gauge reads the findings the line carries. Linked with --wrap=diag_eval,
 * which counts the evaluations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "backends/source.h"
#include "diag/diag.h"
#include "tui/batch.h"
#include "tui/metrics/serve.h"
#include "tui/options.h"

#include "tt_tmpdir.h"

static int evals;

int __real_diag_eval(struct diag_state *st, const struct snapshot *snap, struct diag_finding *out,
		     int max);
int __wrap_diag_eval(struct diag_state *st, const struct snapshot *snap, struct diag_finding *out,
		     int max);

int __wrap_diag_eval(struct diag_state *st, const struct snapshot *snap, struct diag_finding *out,
		     int max)
{
	evals++;
	return __real_diag_eval(st, snap, out, max);
}

static void test_serve_once(void **state)
{
	(void)state;
	char rec[4096], err[4200], *line = NULL;
	const char *top = getenv("TT_TOP"), *build = getenv("TT_BUILD");
	snprintf(rec, sizeof(rec), "%s/tests/unit/data/diag_pmd_seed.jsonl", top ? top : ".");
	setenv("TUNETOP_LIBDIR", build ? build : "build", 1); /* tunetop-serve.so */
	char *out = strdup(tt_at("out.jsonl"));
	char *argv[] = {"tunetop", "-b",      "--replay",    rec, "-o",
			out,	   "--serve", "127.0.0.1:0", NULL};
	struct options o;
	assert_int_equal(options_parse(&o, 8, argv, err, sizeof(err)), 0);
	struct source_conf conf = {.replay_path = rec};
	struct source *src = source_open(&source_replay_ops, &conf, err, sizeof(err));
	assert_non_null(src);
	assert_int_equal(source_start(src, err, sizeof(err)), 0);
	if (serve_start(o.serve, err, sizeof(err)) != 0)
		fail_msg("--serve: %s", err);
	evals = 0;
	assert_int_equal(batch_run(src, &o), 0);
	serve_stop();
	source_close(src);
	options_free(&o);

	FILE *fp = fopen(out, "r");
	assert_non_null(fp);
	size_t cap = 0;
	int lines = 0, found = 0;
	while (getline(&line, &cap, fp) > 0) {
		lines++;
		found += strstr(line, "\"diagnoses\":[{") != NULL;
	}
	fclose(fp);
	free(line);
	free(out);
	/* The recording raises a finding, so the rules did run on what was written. */
	assert_int_equal(lines, 8);
	assert_true(found > 0);
	/* One evaluation per sample: the exporter reads the line's findings, not its own. */
	assert_int_equal(evals, lines);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_serve_once, tt_dir_setup, tt_dir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
