/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_exp_check.c: what fails an experiment's pass (a hang event, a "hung" flag, a stalled
 * subsystem) and metric paths checked with the valid choices named. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tui/exp/exp_check.h"

static json_t *js(const char *text)
{
	json_error_t e;
	json_t *j = json_loads(text, 0, &e);
	assert_non_null(j);
	return j;
}

static int check(const char *first, const char *last, char *out, size_t len)
{
	json_t *a = js(first), *b = js(last);
	int rc = exp_hang_check(a, b, out, len);
	json_decref(a);
	json_decref(b);
	return rc;
}

static void test_sound_window(void **state)
{
	char why[256];
	(void)state;
	assert_int_equal(
	    check("{\"blk\":{\"totals\":{\"completed\":10,\"in_flight\":4}},"
		  "\"pmd\":{\"totals\":{\"generated\":100,\"forwarded\":90}},\"events\":[]}",
		  "{\"blk\":{\"totals\":{\"completed\":20,\"in_flight\":4}},"
		  "\"pmd\":{\"totals\":{\"generated\":200,\"forwarded\":180}},"
		  "\"events\":[{\"kind\":\"knob\",\"text\":\"x\"}]}",
		  why, sizeof(why)),
	    0);
	assert_string_equal(why, "");
	/* Idle subsystems are not hung: nothing in flight, nothing generated. */
	assert_int_equal(check("{\"blk\":{\"totals\":{\"completed\":5,\"in_flight\":0}},"
			       "\"pmd\":{\"totals\":{\"generated\":7,\"forwarded\":7}}}",
			       "{\"blk\":{\"totals\":{\"completed\":5,\"in_flight\":0}},"
			       "\"pmd\":{\"totals\":{\"generated\":7,\"forwarded\":7}}}",
			       why, sizeof(why)),
			 0);
}

static void test_hang_event(void **state)
{
	char why[256];
	(void)state;
	/* In the warm-up's snapshot (the first) as well as the window's. */
	assert_int_equal(check("{\"events\":[{\"kind\":\"hang\",\"text\":\"blk-sub:0 made no "
			       "progress\"}]}",
			       "{\"events\":[]}", why, sizeof(why)),
			 1);
	assert_non_null(strstr(why, "blk-sub:0 made no progress"));
	assert_int_equal(check("{}", "{\"events\":[{\"kind\":\"hang\",\"text\":\"pmd-c:1\"}]}", why,
			       sizeof(why)),
			 1);
	assert_non_null(strstr(why, "pmd-c:1"));
}

static void test_hung_flag(void **state)
{
	char why[256];
	(void)state;
	assert_int_equal(check("{}", "{\"blk\":{\"hung\":true}}", why, sizeof(why)), 1);
	assert_non_null(strstr(why, "blk.hung"));
	assert_int_equal(check("{}", "{\"pmd\":{\"threads\":[{\"hung\":false},{\"hung\":true}]}}",
			       why, sizeof(why)),
			 1);
	assert_non_null(strstr(why, "pmd.threads[1].hung"));
	assert_int_equal(check("{}", "{\"blk\":{\"hung\":false}}", why, sizeof(why)), 0);
}

static void test_stall(void **state)
{
	char why[256];
	(void)state;
	assert_int_equal(check("{\"blk\":{\"totals\":{\"completed\":1,\"in_flight\":32}}}",
			       "{\"blk\":{\"totals\":{\"completed\":1,\"in_flight\":32}}}", why,
			       sizeof(why)),
			 1);
	assert_non_null(strstr(why, "blk completed nothing"));
	assert_int_equal(check("{\"pmd\":{\"totals\":{\"generated\":100,\"forwarded\":50}}}",
			       "{\"pmd\":{\"totals\":{\"generated\":900,\"forwarded\":50}}}", why,
			       sizeof(why)),
			 1);
	assert_non_null(strstr(why, "pmd forwarded nothing"));
}

static void test_metric_check(void **state)
{
	char err[512];
	json_t *s =
	    js("{\"blk\":{\"iops\":5,\"lat_us\":{\"p99\":3}},\"knobs\":{\"blk.rq_affinity\":1},"
	       "\"pmd\":{\"threads\":[{\"cpu_pct\":1}]}}");
	(void)state;
	assert_int_equal(exp_metric_check(s, "blk.iops", err, sizeof(err)), 0);
	assert_int_equal(exp_metric_check(s, "knobs.blk.rq_affinity", err, sizeof(err)), 0);
	assert_int_equal(exp_metric_check(s, "pmd.threads[*].cpu_pct", err, sizeof(err)), 0);
	assert_int_equal(exp_metric_check(s, "nosuch.path", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'nosuch'"));
	assert_non_null(strstr(err, "blk, knobs, pmd"));
	assert_int_equal(exp_metric_check(s, "blk.lat_us.p98", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'p98'"));
	assert_non_null(strstr(err, "p99"));
	assert_int_equal(exp_metric_check(s, "blk.lat_us", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "does not lead to a number"));
	assert_int_equal(exp_metric_check(s, "knobs.blk.nosuch", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "blk.rq_affinity"));
	json_decref(s);
	/* The per-completion figures are null on a first sample (docs/json.md): still metrics. */
	s = js("{\"blk\":{\"ipis_per_completion\":null,\"cpu_ns_per_completion\":"
	       "{\"total\":null}}}");
	assert_int_equal(exp_metric_check(s, "blk.ipis_per_completion", err, sizeof(err)), 0);
	assert_int_equal(exp_metric_check(s, "blk.cpu_ns_per_completion.total", err, sizeof(err)),
			 0);
	assert_int_equal(exp_metric_check(s, "blk.cpu_ns_per_completion", err, sizeof(err)), -1);
	json_decref(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sound_window), cmocka_unit_test(test_hang_event),
	    cmocka_unit_test(test_hung_flag),	 cmocka_unit_test(test_stall),
	    cmocka_unit_test(test_metric_check),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
