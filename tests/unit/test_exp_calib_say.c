/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_exp_calib_say.c: what `experiment calib` concludes (tui/exp/exp_calib_say.h): the spread
 * of its calibrations against the IPVS thread's stability, why ondemand's chain_max is lower
 * (docs/conclusions.md I1, I6), and the ticks a tick average spans (avg equal to max). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tui/exp/exp_calib_say.h"

static void test_spread(void **state)
{
	char b[256];
	int perf[] = {41, 42, 42, 42, 42, 42, 42, 42, 42, 43};
	assert_true(calib_say_spread(perf, 10, b, sizeof(b)));
	assert_string_equal(b, "chain_max 41 to 43 over 10 calibrations, within 2% of the median "
			       "42: stable");
	/* The thread's 64 CPUs under ondemand on a loaded machine: 35 to 75. */
	int wide[] = {35, 40, 48, 52, 60, 75};
	assert_false(calib_say_spread(wide, 6, b, sizeof(b)));
	assert_non_null(strstr(b, "chain_max 35 to 75 over 6 calibrations, within 50% of the "
				  "median 50: unstable"));
	int one[] = {15};
	assert_false(calib_say_spread(one, 1, b, sizeof(b)));
	assert_non_null(strstr(b, "one run says nothing"));
}

static void test_ticks(void **state)
{
	char b[256];
	/* est-ipvs: 1056 estimators in one row, one tick in the 2.5 s window. */
	calib_say_ticks(1456000, 1456000, 1056, 1378.8, 1800, b, sizeof(b));
	assert_string_equal(b, "tick time avg 1456 us, max 1456 us over 1 tick with work (one row "
			       "of estimators, which comes round once per 2 s: avg is max)");
	calib_say_ticks(2611000, 4275000, 45000, 1450.6, -1, b, sizeof(b));
	assert_string_equal(b, "tick time avg 2611 us, max 4275 us over 25 ticks with work");
	calib_say_ticks(0, 0, 0, 0, -1, b, sizeof(b)); /* no tick with work: no count */
	assert_string_equal(b, "tick time avg 0 us, max 0 us");
	/* Beside a CPU-bound process: 24940 us by the clock for 1056 estimators at 2233 ns of CPU
	 * each, so the tick is the host's (docs/conclusions.md, I2 loaded). */
	calib_say_ticks(24940000, 24940000, 1056, 23617.4, 2233, b, sizeof(b));
	assert_string_equal(b,
			    "tick time avg 24940 us, max 24940 us over 1 tick with work (one row "
			    "of estimators, which comes round once per 2 s: avg is max), by the "
			    "clock: the est kthreads ran 9% of it (2233 ns of CPU per estimator "
			    "against 23617), the host held them the rest");
}

static void test_why(void **state)
{
	char b[512];
	struct calib_said perf = {"performance", 42, 2203, 3000}, od = {"ondemand", 15, 5908, 1100};
	calib_say_why(&od, &perf, b, sizeof(b));
	assert_string_equal(b,
			    "ondemand: chain_max 15 against performance's 42 (2.8x lower): each "
			    "estimator measured 2.7x slower (5908 ns against 2203), the CPU at "
			    "1100 MHz against 3000: the calibration is a burst of 12 short tests "
			    "that ondemand does not ramp the frequency up for, so it sizes the "
			    "chains for a slow CPU");
	calib_say_why(&perf, &perf, b, sizeof(b));
	assert_string_equal(b, "");
	od.mhz = -1; /* a source without the frequency */
	calib_say_why(&od, &perf, b, sizeof(b));
	assert_non_null(strstr(b, "5908 ns against 2203): the calibration ran on a slower CPU "
				  "than performance's"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_spread),
	    cmocka_unit_test(test_ticks),
	    cmocka_unit_test(test_why),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
