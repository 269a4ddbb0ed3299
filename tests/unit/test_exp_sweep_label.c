/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_exp_sweep_label.c: a sweep point's label in the picture says what the table says: a
 * point whose passes were all set aside is "(set aside)", not "(hung)" as the picture said. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tui/exp/experiment.h"

static void test_labels(void **state)
{
	char buf[48];
	(void)state;
	/* A row of the sweep's result, as `experiment sweep --json` writes it in "rows". */
	json_t *row = json_pack("{s:I, s:I, s:f, s:i, s:i, s:f}", "maxsleep_us", (json_int_t)500,
				"timer_slack_ns", (json_int_t)50000, "rate_pps", 20000.0, "passes",
				3, "failed", 0, "pass.host_took_pct", 12.4);
	exp_sweep_label(row, false, buf, sizeof(buf));
	assert_string_equal(buf, "500 us / 50000 ns, host 12%");
	exp_sweep_label(row, true, buf, sizeof(buf));
	assert_string_equal(buf, "500 us / 50000 ns / 20000 pps, host 12%");
	json_object_set_new(row, "pass.host_took_pct", json_null());
	exp_sweep_label(row, false, buf, sizeof(buf));
	assert_string_equal(buf, "500 us / 50000 ns");
	json_object_set_new(row, "passes", json_integer(0)); /* every pass set aside */
	exp_sweep_label(row, false, buf, sizeof(buf));
	assert_string_equal(buf, "500 us / 50000 ns (set aside)");
	json_object_set_new(row, "failed", json_integer(1));
	exp_sweep_label(row, false, buf, sizeof(buf));
	assert_string_equal(buf, "500 us / 50000 ns (hung)");
	json_decref(row);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_labels)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
