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
	struct exp_sweep_pt_label l = {.maxsleep_us = 500,
				       .slack_ns = 50000,
				       .rate_pps = 20000,
				       .measured = true,
				       .took_pct = 12.4};
	exp_sweep_label(&l, buf, sizeof(buf));
	assert_string_equal(buf, "500 us / 50000 ns, host 12%");
	l.rates = true;
	exp_sweep_label(&l, buf, sizeof(buf));
	assert_string_equal(buf, "500 us / 50000 ns / 20000 pps, host 12%");
	l.rates = false;
	l.took_pct = -1;
	exp_sweep_label(&l, buf, sizeof(buf));
	assert_string_equal(buf, "500 us / 50000 ns");
	l.measured = false; /* every pass set aside: the host took too much of each */
	exp_sweep_label(&l, buf, sizeof(buf));
	assert_string_equal(buf, "500 us / 50000 ns (set aside)");
	l.hung = true;
	exp_sweep_label(&l, buf, sizeof(buf));
	assert_string_equal(buf, "500 us / 50000 ns (hung)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_labels)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
