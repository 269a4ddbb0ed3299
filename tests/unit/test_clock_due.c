/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_clock_due.c: clock_next_due, the grid of the -b and agent loops: on time it keeps the
 * grid, after a stall it neither catches up nor takes the next sample a moment after the
 * late one, and a reader slower than the delay gets a sample per read; clock_first_due, the
 * first sample min(delay, 0.1 s) after the source's baseline. Pure: no clock. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/clock.h"

#define D (50 * NS_PER_MS)

static void test_on_time(void **state)
{
	(void)state;
	/* Due at 1000 ms, taken at 1000.2, done at 1001: the next is on the grid. */
	uint64_t due = 1000 * NS_PER_MS;
	assert_int_equal(clock_next_due(due, D, due + 200 * NS_PER_US, due + NS_PER_MS), due + D);
	/* Woken 20 ms late: still the grid point (30 ms on), no drift. */
	assert_int_equal(clock_next_due(due, D, due + 20 * NS_PER_MS, due + 21 * NS_PER_MS),
			 due + D);
}

static void test_after_stall(void **state)
{
	(void)state;
	/* Due at 1000, the process stopped until 1120, sample taken then and done at 1120.4:
	 * not at once (a rate over 0.4 ms), not two catch-up samples, but half a delay on. */
	uint64_t due = 1000 * NS_PER_MS, taken = 1120 * NS_PER_MS;
	uint64_t next = clock_next_due(due, D, taken, taken + 400 * NS_PER_US);
	assert_int_equal(next, taken + D / 2);
	/* And the grid goes on from there. */
	assert_int_equal(clock_next_due(next, D, next, next + NS_PER_MS), next + D);
}

static void test_slow_reader(void **state)
{
	(void)state;
	/* Writing the line took 80 ms (a reader slower than -d 0.05): the next at once, which
	 * is already 80 ms after the last. */
	uint64_t due = 1000 * NS_PER_MS, now = due + 80 * NS_PER_MS;
	assert_int_equal(clock_next_due(due, D, due, now), now);
}

static void test_first(void **state)
{
	(void)state;
	/* A source whose baseline is at 1000 ms, -d 1 and -d 0.05: the first sample 100 ms and
	 * 50 ms after it, wherever the loop starts (a slow start is inside the interval). */
	uint64_t start = 1000 * NS_PER_MS, first = 100 * NS_PER_MS;
	assert_int_equal(clock_first_due(start, NS_PER_S, first), start + first);
	assert_int_equal(clock_first_due(start, D, first), start + D);
}

static void test_zero_delay(void **state)
{
	(void)state;
	assert_int_equal(clock_next_due(5, 0, 7, 9), 9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_on_time),	cmocka_unit_test(test_after_stall),
	    cmocka_unit_test(test_slow_reader), cmocka_unit_test(test_first),
	    cmocka_unit_test(test_zero_delay),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
