/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_est_calib.c: calibration arithmetic of docs/est.md §4 from injected timings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engine/est/est_calib.h"

/* Each test asks now() twice (t1, t2): the script gives each test's diff. */
struct script {
	const uint64_t *diff;
	int ndiff;
	int now_calls, passes, pauses, stop_at_pause;
	uint64_t t;
};

static uint64_t s_now(void *ctx)
{
	struct script *s = ctx;
	int test = s->now_calls / 2;
	if (s->now_calls++ % 2 == 1)
		s->t += s->diff[test < s->ndiff ? test : s->ndiff - 1];
	else
		s->t += 777; /* time between tests does not count */
	return s->t;
}

static void s_pass(void *ctx)
{
	((struct script *)ctx)->passes++;
}

static bool s_pause(void *ctx, uint64_t ns)
{
	struct script *s = ctx;
	assert_int_equal(ns, 20000000); /* HZ/50 */
	return ++s->pauses != s->stop_at_pause;
}

static bool s_stopped(void *ctx)
{
	(void)ctx;
	return false;
}

static bool run(struct script *s, int cache_factor, struct est_calib_result *r)
{
	struct est_calib_io io = {.ctx = s,
				  .now_ns = s_now,
				  .pass = s_pass,
				  .pause = s_pause,
				  .stopped = s_stopped,
				  .stretch = NULL};
	return est_calc_limits(&io, cache_factor, r);
}

static void test_max_for(void **state)
{
	(void)state;
	/* The checks of docs/est.md §4. */
	assert_int_equal(est_calib_max_for(7319), 12);
	assert_int_equal(est_calib_max_for(11171), 8);
	assert_int_equal(est_calib_max_for(4138), 22);
	assert_int_equal(est_calib_max_for(1775), 53);
	assert_int_equal(est_calib_max_for(66250), 1);
	assert_int_equal(est_calib_max_for(95000), 1);
	assert_int_equal(est_calib_max_for(95001), 1);
	assert_int_equal(est_calib_max_for(47500), 2);
}

static void test_epyc_performance_gives_22(void **state)
{
	static const uint64_t d[] = {5000, 4138, 4298};
	struct script s = {.diff = d, .ndiff = 3};
	struct est_calib_result r;
	(void)state;
	assert_true(run(&s, 4, &r));
	assert_int_equal(r.chain_max, 22);
	assert_int_equal(r.min_est_ns, 4138);
	assert_int_equal(r.diff_ns, 4298); /* the last test's, not the best one's */
	assert_int_equal(r.loops, 1);
	assert_int_equal(r.tests, 12);
	assert_int_equal(r.valid, 12);
	assert_int_equal(s.pauses, 3); /* before tests 0, 4 and 8 */
	assert_int_equal(s.passes, 12 * (1 + 4)); /* warm pass + loops x cache_factor */
}

static void test_over_goal_gives_1(void **state)
{
	static const uint64_t d[] = {100000};
	struct script s = {.diff = d, .ndiff = 1};
	struct est_calib_result r;
	(void)state;
	assert_true(run(&s, 4, &r));
	assert_int_equal(r.chain_max, 1);
	assert_int_equal(r.min_est_ns, 100000);
}

static void test_no_valid_test_gives_8(void **state)
{
	static const uint64_t coarse[] = {1000}; /* <= 1 us: loops doubles */
	static const uint64_t slow[] = {1000000000}; /* >= 1 s: skipped */
	struct script s = {.diff = coarse, .ndiff = 1};
	struct est_calib_result r;
	(void)state;
	assert_true(run(&s, 4, &r));
	assert_int_equal(r.chain_max, 8);
	assert_int_equal(r.valid, 0);
	assert_int_equal(r.loops, 4096); /* doubled by each of the 12 tests */
	struct script s2 = {.diff = slow, .ndiff = 1};
	assert_true(run(&s2, 4, &r));
	assert_int_equal(r.chain_max, 8);
	assert_int_equal(r.loops, 1);
}

static void test_loops_divide(void **state)
{
	/* Test 0 too fast (loops -> 2), then 2000 ns over 2 loops = 1000 ns: 95. */
	static const uint64_t d[] = {800, 2000, 3000};
	struct script s = {.diff = d, .ndiff = 3};
	struct est_calib_result r;
	(void)state;
	assert_true(run(&s, 4, &r));
	assert_int_equal(r.loops, 2);
	assert_int_equal(r.min_est_ns, 1000);
	assert_int_equal(r.chain_max, 95);
	assert_int_equal(r.valid, 11);
	assert_int_equal(s.passes, (1 + 4) + 11 * (1 + 8));
}

static void test_abort_at_second_pause(void **state)
{
	static const uint64_t d[] = {4138};
	struct script s = {.diff = d, .ndiff = 1, .stop_at_pause = 2};
	struct est_calib_result r;
	(void)state;
	assert_false(run(&s, 4, &r));
	assert_true(r.aborted);
	assert_int_equal(r.tests, 4);
	assert_int_equal(r.chain_max, 22);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_max_for),
	    cmocka_unit_test(test_epyc_performance_gives_22),
	    cmocka_unit_test(test_over_goal_gives_1),
	    cmocka_unit_test(test_no_valid_test_gives_8),
	    cmocka_unit_test(test_loops_divide),
	    cmocka_unit_test(test_abort_at_second_pause),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
