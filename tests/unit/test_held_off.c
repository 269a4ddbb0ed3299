/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_held_off.c: ethread_held_off (ethread.h), the line between a thread the host starves
 * and one that is hung. Held off: it ran less than half the interval, and it either waited on a
 * run queue for a quarter of it and longer than it ran, or was not run in it and is runnable
 * now. A thread that was run and waited little is not held off even when the sample catches it
 * runnable: a stuck blk submitter waking every 20 ms to look was called held off, and so not
 * hung, in about one sample in four. The sampler keeps those figures for the PMD and blk
 * threads (ethread_held_sample). */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "core/clock.h"
#include "engine/engine.h"

#define DEADLINE_NS (30 * NS_PER_S)

static void spinner(struct ethread *self)
{
	while (!ethread_should_stop(self))
		;
}

static pthread_mutex_t nap_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t nap_cond = PTHREAD_COND_INITIALIZER;
static int nap_wakes, nap_seen; /* under nap_lock */

/* Asleep on a condition until woken (nap_wake), counting each wake-up it sees. */
static void napper(struct ethread *self)
{
	pthread_mutex_lock(&nap_lock);
	while (!ethread_should_stop(self)) {
		while (nap_seen == nap_wakes && !ethread_should_stop(self))
			pthread_cond_wait(&nap_cond, &nap_lock);
		nap_seen = nap_wakes;
		pthread_cond_broadcast(&nap_cond);
	}
	pthread_mutex_unlock(&nap_lock);
}

/* Wake the napper once and wait, with a deadline, until it has run. */
static void nap_wake(void)
{
	struct timespec dl;
	clock_gettime(CLOCK_REALTIME, &dl);
	dl.tv_sec += 30;
	pthread_mutex_lock(&nap_lock);
	nap_wakes++;
	pthread_cond_broadcast(&nap_cond);
	while (nap_seen != nap_wakes)
		if (pthread_cond_timedwait(&nap_cond, &nap_lock, &dl) != 0)
			break;
	int ok = nap_seen == nap_wakes;
	pthread_mutex_unlock(&nap_lock);
	assert_true(ok);
}

/* Wait, with a deadline, until the kernel has t asleep (S in its /proc stat). */
static void wait_asleep(const struct ethread *t)
{
	char path[64], buf[256];
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)t->tid);
	uint64_t t0 = clock_mono_ns();
	for (;;) {
		FILE *f = fopen(path, "r");
		assert_non_null(f);
		size_t n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[n] = '\0';
		const char *rp = strrchr(buf, ')');
		if (rp && rp[1] == ' ' && rp[2] == 'S')
			return;
		assert_true(clock_mono_ns() - t0 < DEADLINE_NS);
		clock_sleep_ns(NS_PER_MS / 10);
	}
}

/* One engine, one thread of fn, one snapshot per test (setup and teardown). */
struct fixture {
	struct engine *eng;
	struct ethread *t;
	struct snapshot *s;
};

static struct fixture fx;

static struct ethread *start(void (*fn)(struct ethread *), enum subsys subsys)
{
	char err[128];
	fx.eng = engine_new();
	fx.s = snapshot_new();
	fx.t = ethread_start(fx.eng, "held-test", subsys, 0, fn, NULL, err, sizeof(err));
	assert_non_null(fx.t);
	return fx.t;
}

static int teardown(void **state)
{
	(void)state;
	if (fx.t) {
		ethread_request_stop(fx.t);
		pthread_mutex_lock(&nap_lock);
		pthread_cond_broadcast(&nap_cond);
		pthread_mutex_unlock(&nap_lock);
		ethread_join(fx.t);
	}
	snapshot_free(fx.s);
	engine_free(fx.eng);
	fx = (struct fixture){0};
	return 0;
}

/* The rule on a thread that is runnable now (it spins): the sampler's figures decide. */
static void test_runnable_thread(void **state)
{
	(void)state;
	struct ethread *t = start(spinner, SUBSYS_BLK);
	static const struct {
		double cpu, rq_wait;
		int64_t slices;
		bool held;
	} rows[] = {
	    {10, 0, 0, true}, /* not run in the interval, and runnable: held off */
	    {1, 0, 3, false}, /* run 3 times, waited little: it woke to look, not held off */
	    {1, 24, 3, false},
	    {1, 25, 3, true}, /* run, but waited a quarter of the interval for it: held off */
	    {30, 28, 3, false}, /* waited less than it ran: it shared a CPU, not held off */
	    {10, 100, 0, true},
	    {60, 100, 0, false}, /* ran most of the interval: not held off */
	    {10, 0, -1, false}, /* unknown (no schedstat, or the first interval) */
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		t->last_cpu_pct = rows[i].cpu;
		t->last_rq_wait_pct = rows[i].rq_wait;
		t->last_slices = rows[i].slices;
		assert_int_equal(ethread_held_off(t), rows[i].held);
	}
}

/* A thread asleep is not runnable: not held off when it was not run, whatever the figures. */
static void test_sleeping_thread(void **state)
{
	(void)state;
	struct ethread *t = start(napper, SUBSYS_BLK);

	nap_wake(); /* it has run; it goes back to its wait (or is about to) */
	t->last_cpu_pct = 0;
	t->last_rq_wait_pct = 0;
	t->last_slices = 0;
	uint64_t t0 = clock_mono_ns();
	while (ethread_held_off(t) && clock_mono_ns() - t0 < DEADLINE_NS)
		clock_sleep_ns(NS_PER_MS / 10);
	assert_false(ethread_held_off(t));
}

/* The sampler's figures over its interval: a thread asleep through it was run 0 times and
 * waited 0; one woken k times was run at least k times. Other threads are not read. */
static void test_sampler_figures(void **state)
{
	(void)state;
	struct ethread *t = start(napper, SUBSYS_BLK);

	engine_sample(fx.eng, fx.s);
	assert_int_equal(t->last_slices, -1); /* the first reading: no base */
	nap_wake();
	wait_asleep(t);
	engine_sample(fx.eng, fx.s);
	engine_sample(fx.eng, fx.s); /* asleep since the last one */
	assert_int_equal(t->last_slices, 0);
	assert_true(t->last_rq_wait_pct == 0.0);
	for (int i = 0; i < 3; i++)
		nap_wake();
	engine_sample(fx.eng, fx.s);
	assert_true(t->last_slices >= 3);
	assert_true(t->last_rq_wait_pct >= 0.0 && t->last_rq_wait_pct <= 100.0);

	char err[128];
	struct ethread *o =
	    ethread_start(fx.eng, "held-other", SUBSYS_ENGINE, 0, spinner, NULL, err, sizeof(err));
	assert_non_null(o);
	engine_sample(fx.eng, fx.s);
	engine_sample(fx.eng, fx.s);
	assert_int_equal(o->last_slices, -1);
	ethread_stop(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_teardown(test_runnable_thread, teardown),
	    cmocka_unit_test_teardown(test_sleeping_thread, teardown),
	    cmocka_unit_test_teardown(test_sampler_figures, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
