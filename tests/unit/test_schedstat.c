/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_schedstat.c: the /proc schedstat parser, and run-queue delay of a real thread that
 * is kept off the CPU (pinned beside a spinner on one CPU). */
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/clock.h"
#include "core/schedstat.h"

static void test_parse(void **state)
{
	(void)state;
	struct schedstat s;
	const char *ok = "1919250 420983 13\n";
	assert_int_equal(schedstat_parse(ok, strlen(ok), &s), 0);
	assert_true(s.run_ns == 1919250 && s.runq_wait_ns == 420983 && s.timeslices == 13);
	/* Not NUL-terminated: only len bytes count. */
	assert_int_equal(schedstat_parse("5 6 7", 5, &s), 0);
	assert_true(s.run_ns == 5 && s.runq_wait_ns == 6 && s.timeslices == 7);
	assert_int_equal(schedstat_parse("5 6 78", 5, &s), 0);
	assert_true(s.timeslices == 7);
	const char *bad[] = {"",
			     "1 2",
			     "1 2 x",
			     "-1 2 3",
			     "1 2 3 4",
			     "a b c",
			     "99999999999999999999999 1 1",
			     "1\t2\t3 junk"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(schedstat_parse(bad[i], strlen(bad[i]), &s), -1);
	assert_int_equal(schedstat_parse(NULL, 0, &s), -1);
}

static _Atomic int stop;
static _Atomic pid_t spinner_tid;

static void *spin(void *arg)
{
	(void)arg;
	atomic_store(&spinner_tid, (pid_t)syscall(SYS_gettid));
	while (!atomic_load_explicit(&stop, memory_order_relaxed))
		;
	return NULL;
}

/* Two busy threads on one CPU: each waits on the run queue about half the time. The
 * figure must be far above an idle thread's (which waits ~0). */
static void test_runq_delay_real(void **state)
{
	(void)state;
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, spin, NULL), 0);
	while (!atomic_load(&spinner_tid))
		sched_yield();
	struct schedstat_fds f, idle;
	schedstat_fds_open(&f, 0, atomic_load(&spinner_tid));
	schedstat_fds_open(&idle, 0, (pid_t)syscall(SYS_gettid));
	if (f.sched_fd < 0) {
		atomic_store(&stop, 1);
		pthread_join(t, NULL);
		skip(); /* kernel without CONFIG_SCHED_INFO */
	}
	assert_int_equal(pthread_setaffinity_np(t, sizeof(one), &one), 0);
	assert_true(schedstat_runq_pct(&f, clock_mono_ns()) < 0); /* no baseline yet */
	/* Our own thread spins on the same CPU too, for 300 ms of wall time. */
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	uint64_t t0 = clock_mono_ns();
	while (clock_mono_ns() - t0 < 300000000ULL)
		;
	double pct = schedstat_runq_pct(&f, clock_mono_ns());
	atomic_store(&stop, 1);
	pthread_join(t, NULL);
	print_message("spinner sharing a CPU waited %.1f%% on the run queue\n", pct);
	assert_true(pct > 20.0 && pct <= 100.0); /* of the window: never more */
	struct schedstat s;
	assert_int_equal(schedstat_read(&idle, &s), 0);
	assert_true(s.run_ns > 0);
	schedstat_fds_close(&f);
	schedstat_fds_close(&idle);
	assert_true(schedstat_runq_pct(&f, clock_mono_ns()) < 0); /* closed: unreadable */
}

/* The figure from readings made by the caller (the sampler reads a judged thread once and
 * passes the reading): exact arithmetic on a controlled clock. */
static void test_runq_of_readings(void **state)
{
	(void)state;
	struct schedstat_fds f = {.sched_fd = -1, .slack_fd = -1};
	struct schedstat a = {.runq_wait_ns = 1000000}, b = {.runq_wait_ns = 26000000};
	assert_true(schedstat_runq_pct_of(&f, &a, 1000000000ULL) < 0); /* no baseline yet */
	/* 25 ms waited in 100 ms */
	assert_float_equal(schedstat_runq_pct_of(&f, &b, 1100000000ULL), 25.0, 1e-9);
	/* Unreadable: -1, and the baseline goes, so the next figure is not over the gap. */
	assert_true(schedstat_runq_pct_of(&f, NULL, 1200000000ULL) < 0);
	assert_true(schedstat_runq_pct_of(&f, &b, 1300000000ULL) < 0);
	/* A wait that began before the window lands whole in it: at most 100 % of it. */
	b.runq_wait_ns += 500000000ULL;
	assert_float_equal(schedstat_runq_pct_of(&f, &b, 1400000000ULL), 100.0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse),
	    cmocka_unit_test(test_runq_delay_real),
	    cmocka_unit_test(test_runq_of_readings),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
