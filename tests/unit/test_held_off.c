/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_held_off.c: ethread_held_off (ethread.h), the line between a thread the host starves
 * and one that is hung. Held off: runnable now, ran less than half the interval, and began no
 * wait in it. A thread that went back to a wait had the CPU and found nothing to do, so it is
 * not held off even when the sample catches it runnable (a stuck blk submitter waking every
 * 20 ms to look was called held off, and so not hung, in about one sample in four). The
 * sampler counts the waits each thread began in its interval (last_waits). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/clock.h"
#include "engine/engine.h"

#define DEADLINE_NS (30 * NS_PER_S)

static void spinner(struct ethread *self)
{
	while (!ethread_should_stop(self))
		;
}

static atomic_int waits_asked, waits_done;

/* Begins as many waits as asked (the state changes a real wait makes), then says so. */
static void waiter(struct ethread *self)
{
	while (!ethread_should_stop(self)) {
		int n = atomic_exchange(&waits_asked, 0);
		for (int i = 0; i < n; i++) {
			ethread_set_state(self, i % 2 ? ETHREAD_SLEEP : ETHREAD_WAIT);
			ethread_set_state(self, ETHREAD_RUN);
		}
		if (n)
			atomic_store(&waits_done, n);
		clock_sleep_ns(NS_PER_MS / 4);
	}
}

static void wait_done(void)
{
	uint64_t t0 = clock_mono_ns();
	while (atomic_load(&waits_done) == 0 && clock_mono_ns() - t0 < DEADLINE_NS)
		clock_sleep_ns(NS_PER_MS);
	assert_true(atomic_exchange(&waits_done, 0) > 0);
}

/* One engine, one thread of fn, one snapshot per test (setup and teardown). */
struct fixture {
	struct engine *eng;
	struct ethread *t;
	struct snapshot *s;
};

static struct fixture fx;

static struct ethread *start(void (*fn)(struct ethread *))
{
	char err[128];
	fx.eng = engine_new();
	fx.s = snapshot_new();
	fx.t = ethread_start(fx.eng, "held-test", SUBSYS_ENGINE, 0, fn, NULL, err, sizeof(err));
	assert_non_null(fx.t);
	return fx.t;
}

static int teardown(void **state)
{
	(void)state;
	if (fx.t)
		ethread_stop(fx.t);
	snapshot_free(fx.s);
	engine_free(fx.eng);
	fx = (struct fixture){0};
	return 0;
}

/* The rule on a thread that is runnable now (it spins): the sampler's two figures decide. */
static void test_runnable_thread(void **state)
{
	(void)state;
	struct ethread *t = start(spinner);

	t->last_cpu_pct = 10; /* ran a tenth of the interval, began no wait: held off */
	t->last_waits = 0;
	assert_true(ethread_held_off(t));
	t->last_waits = 1; /* it went back to a wait: it had the CPU, so not held off */
	assert_false(ethread_held_off(t));
	t->last_waits = 0;
	t->last_cpu_pct = 60; /* ran most of the interval: not held off */
	assert_false(ethread_held_off(t));
}

/* A thread asleep is not runnable, so not held off, whatever the figures. */
static void test_sleeping_thread(void **state)
{
	(void)state;
	struct ethread *t = start(waiter);

	engine_sample(fx.eng, fx.s);
	t->last_cpu_pct = 0;
	t->last_waits = 0;
	/* Runnable only for an instant every 250 us: asked until a read finds it asleep. */
	uint64_t t0 = clock_mono_ns();
	while (ethread_held_off(t) && clock_mono_ns() - t0 < DEADLINE_NS)
		clock_sleep_ns(NS_PER_MS / 10);
	assert_false(ethread_held_off(t));
}

/* The sampler counts the waits begun in its interval, each state other than RUN once. */
static void test_sampler_counts_waits(void **state)
{
	(void)state;
	struct ethread *t = start(waiter);
	static const int ask[] = {5, 0, 3};

	engine_sample(fx.eng, fx.s);
	for (size_t i = 0; i < sizeof(ask) / sizeof(ask[0]); i++) {
		if (ask[i]) {
			atomic_store(&waits_asked, ask[i]);
			wait_done();
		}
		engine_sample(fx.eng, fx.s);
		assert_int_equal(t->last_waits, ask[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_teardown(test_runnable_thread, teardown),
	    cmocka_unit_test_teardown(test_sleeping_thread, teardown),
	    cmocka_unit_test_teardown(test_sampler_counts_waits, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
