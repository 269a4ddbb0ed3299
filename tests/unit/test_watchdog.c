/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_watchdog.c: a thread that stops beating raises exactly one hang event; IDLE is exempt. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/clock.h"
#include "engine/engine.h"

static _Atomic int phase, ack;

/* Beats until phase 1, then stops beating in `target` state until phase 2; ack says which
 * phase it has reached (the state set; after phase 2 a beat given). */
static void stall_main(struct ethread *self)
{
	int target = (int)(intptr_t)self->arg;
	while (atomic_load(&phase) == 0 && !ethread_should_stop(self)) {
		ethread_beat(self);
		clock_sleep_ns(NS_PER_MS);
	}
	ethread_set_state(self, target);
	atomic_store(&ack, 1);
	while (atomic_load(&phase) == 1 && !ethread_should_stop(self))
		clock_sleep_ns(NS_PER_MS);
	ethread_set_state(self, ETHREAD_RUN);
	ethread_beat(self);
	atomic_store(&ack, 2);
	while (!ethread_should_stop(self)) {
		ethread_beat(self);
		clock_sleep_ns(NS_PER_MS);
	}
}

/* Until the thread has reached phase p: polled with a deadline, not a fixed sleep (a thread
 * of a loaded machine or a sanitizer's build wakes late). */
static void wait_ack(int p)
{
	uint64_t end = clock_mono_ns() + 10 * NS_PER_S;
	while (atomic_load(&ack) < p && clock_mono_ns() < end)
		clock_sleep_ns(NS_PER_MS);
	assert_true(atomic_load(&ack) >= p);
}

static void run_stall(int state_while_stalled, uint64_t expect_hangs)
{
	char err[128];
	struct engine *eng = engine_new();
	uint64_t limit = (uint64_t)engine_knob(eng, K_ENGINE_WATCHDOG_MS) * NS_PER_MS;

	atomic_store(&phase, 0);
	atomic_store(&ack, 0);
	struct ethread *t = ethread_start(eng, "stall", SUBSYS_ENGINE, 0, stall_main,
					  (void *)(intptr_t)state_while_stalled, err, sizeof(err));
	assert_non_null(t);
	clock_sleep_ns(5 * NS_PER_MS);
	uint64_t now = clock_mono_ns();
	engine_watchdog_check(eng, now); /* arm */
	atomic_store(&phase, 1);
	wait_ack(1);
	/* Observe the stalled beat, then let simulated time pass the limit twice. */
	now = clock_mono_ns();
	engine_watchdog_check(eng, now);
	engine_watchdog_check(eng, now + limit / 2);
	assert_int_equal(event_count_kind(&eng->events, EV_HANG), 0);
	engine_watchdog_check(eng, now + limit + 1);
	engine_watchdog_check(eng, now + 2 * limit);
	engine_watchdog_check(eng, now + 3 * limit);
	assert_int_equal(event_count_kind(&eng->events, EV_HANG), expect_hangs);

	/* Progress re-arms: a second stall would be reported again, once. */
	atomic_store(&phase, 2);
	wait_ack(2);
	engine_watchdog_check(eng, clock_mono_ns());
	assert_int_equal(event_count_kind(&eng->events, EV_HANG), expect_hangs);

	ethread_stop(t);
	engine_free(eng);
}

static void test_run_stall_one_hang(void **state)
{
	(void)state;
	run_stall(ETHREAD_RUN, 1);
}

static void test_wait_stall_one_hang(void **state)
{
	(void)state;
	run_stall(ETHREAD_WAIT, 1);
}

static void test_idle_is_exempt(void **state)
{
	(void)state;
	run_stall(ETHREAD_IDLE, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_run_stall_one_hang),
	    cmocka_unit_test(test_wait_stall_one_hang),
	    cmocka_unit_test(test_idle_is_exempt),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
