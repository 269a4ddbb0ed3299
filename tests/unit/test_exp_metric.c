/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_exp_metric.c: the experiment metric path evaluator. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tui/exp/exp_metric.h"

static void test_paths(void **state)
{
	json_error_t jerr;
	json_t *j = json_loads("{\"pmd\": {\"drop_pct\": 1.5, \"threads\": [{\"cpu_pct\": 10},"
			       " {\"cpu_pct\": 32.5}], \"totals\": {\"dropped\": 7}},"
			       " \"knobs\": {\"pmd.maxsleep_us\": 500, \"est.enabled\": true},"
			       " \"tool\": \"tunetop\"}",
			       0, &jerr);
	double v = -1;
	(void)state;
	assert_non_null(j);
	assert_int_equal(exp_metric(j, "pmd.drop_pct", &v), 0);
	assert_float_equal(v, 1.5, 1e-12);
	assert_int_equal(exp_metric(j, "pmd.totals.dropped", &v), 0);
	assert_float_equal(v, 7, 1e-12);
	assert_int_equal(exp_metric(j, "pmd.threads[*].cpu_pct", &v), 0);
	assert_float_equal(v, 42.5, 1e-12);
	assert_int_equal(exp_metric(j, "pmd.threads[avg].cpu_pct", &v), 0);
	assert_float_equal(v, 21.25, 1e-12);
	assert_int_equal(exp_metric(j, "pmd.threads[1].cpu_pct", &v), 0);
	assert_float_equal(v, 32.5, 1e-12);
	assert_int_equal(exp_metric(j, "knobs.pmd.maxsleep_us", &v), 0);
	assert_float_equal(v, 500, 1e-12);
	assert_int_equal(exp_metric(j, "knobs.est.enabled", &v), 0);
	assert_float_equal(v, 1, 1e-12);
	/* Not numbers or not there. */
	assert_int_equal(exp_metric(j, "tool", &v), -1);
	assert_int_equal(exp_metric(j, "pmd.nope", &v), -1);
	assert_int_equal(exp_metric(j, "pmd.threads[2].cpu_pct", &v), -1);
	assert_int_equal(exp_metric(j, "pmd.threads[x].cpu_pct", &v), -1);
	assert_int_equal(exp_metric(j, "pmd.threads[*", &v), -1);
	assert_int_equal(exp_metric(j, "pmd", &v), -1);
	assert_int_equal(exp_metric(j, "", &v), -1);
	assert_int_equal(exp_metric(j, "pmd..drop_pct", &v), -1);
	json_decref(j);
}

/* A documented figure that is null on a sample (no completions yet) is a number this sample has
 * not got (1), not a path that leads nowhere (-1); out is left alone. */
static void test_null(void **state)
{
	json_error_t jerr;
	json_t *j = json_loads("{\"blk\": {\"ipis_per_completion\": null,"
			       " \"cpu_ns_per_completion\": {\"total\": null, \"irq\": 900},"
			       " \"cpus\": [{\"x\": 1}, {\"x\": null}]}}",
			       0, &jerr);
	double v = -1;
	(void)state;
	assert_non_null(j);
	assert_int_equal(exp_metric(j, "blk.ipis_per_completion", &v), 1);
	assert_int_equal(exp_metric(j, "blk.cpu_ns_per_completion.total", &v), 1);
	assert_float_equal(v, -1, 1e-12);
	assert_int_equal(exp_metric(j, "blk.cpu_ns_per_completion.irq", &v), 0);
	assert_float_equal(v, 900, 1e-12);
	assert_int_equal(exp_metric(j, "blk.cpus[*].x", &v), 1);
	assert_int_equal(exp_metric(j, "blk.cpu_ns_per_completion.nope", &v), -1);
	assert_int_equal(exp_metric(j, "blk.cpu_ns_per_completion", &v), -1);
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_paths),
	    cmocka_unit_test(test_null),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
