/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_est_lock.c: the config mutex and kd->lock hand over to a blocked config-side locker. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "core/clock.h"
#include "engine/est/est_place.h"

/*
 * The owner (kthread 0 between drain batches, any kthread between chains)
 * unlocks and gives way; a config-side thread blocked meanwhile must get the
 * lock before the owner goes on, unless it was not even scheduled within
 * EST_GIVE_WAY_MAX_NS (a loaded machine): both outcomes are checked exactly,
 * nothing depends on speed.
 */
struct waiter {
	pthread_mutex_t *m;
	void (*lock)(void *);
	void *arg;
	atomic_int got;
};

static void lock_cfg(void *a)
{
	est_config_lock(a);
}

static void lock_kd(void *a)
{
	est_kd_lock(a);
}

static void *waiter_main(void *a)
{
	struct waiter *w = a;
	w->lock(w->arg);
	atomic_store(&w->got, 1); /* seq_cst: seen by whoever takes the lock next */
	clock_sleep_ns(20 * NS_PER_MS);
	pthread_mutex_unlock(w->m);
	return NULL;
}

static void hand_over(pthread_mutex_t *m, _Atomic int *waiters, void (*lock)(void *), void *arg,
		      void (*give_way)(void *), void *gw_arg)
{
	struct waiter w = {.m = m, .lock = lock, .arg = arg};
	pthread_t t;

	pthread_mutex_lock(m); /* the owner, walking a chain */
	assert_int_equal(pthread_create(&t, NULL, waiter_main, &w), 0);
	while (!atomic_load(waiters)) /* it is blocked, and says so */
		clock_sleep_ns(NS_PER_MS);
	assert_int_equal(atomic_load(&w.got), 0);
	pthread_mutex_unlock(m);
	uint64_t t0 = clock_mono_ns();
	give_way(gw_arg);
	uint64_t waited = clock_mono_ns() - t0;
	/* The owner retakes the lock now: it must come after the waiter's turn. */
	bool held = pthread_mutex_trylock(m) == 0;
	bool after = !held || atomic_load(&w.got);
	if (!after)
		assert_true(waited >= EST_GIVE_WAY_MAX_NS); /* gave up on an unscheduled waiter */
	else if (!held) /* the waiter's turn is on: wait for its release, as the owner would */
		pthread_mutex_lock(m);
	/* Held with got set: the waiter had its whole turn (20 ms) while the owner gave way
	 * (a loaded machine); locking again here was a self-deadlock (the test hung 300 s). */
	pthread_mutex_unlock(m);
	pthread_join(t, NULL);
	assert_int_equal(atomic_load(waiters), 0);
	assert_int_equal(atomic_load(&w.got), 1);
}

static void gw_cfg(void *a)
{
	est_config_give_way(a);
}

static void gw_kd(void *a)
{
	est_kd_give_way(a);
}

static void test_config_mutex_hands_over(void **state)
{
	struct est_state *st = calloc(1, sizeof(*st));
	(void)state;
	est_place_init(st, 1, 48);
	for (int i = 0; i < 3; i++)
		hand_over(&st->mutex, &st->mutex_waiters, lock_cfg, st, gw_cfg, st);
	est_place_destroy(st);
	free(st);
}

static void test_kd_lock_hands_over(void **state)
{
	struct est_kd *kd = calloc(1, sizeof(*kd));
	(void)state;
	pthread_mutex_init(&kd->lock, NULL);
	for (int i = 0; i < 3; i++)
		hand_over(&kd->lock, &kd->lock_waiters, lock_kd, kd, gw_kd, kd);
	pthread_mutex_destroy(&kd->lock);
	free(kd);
}

/* Uncontended: taking the lock counts no waiter, giving way returns at once. */
static void test_uncontended(void **state)
{
	struct est_kd *kd = calloc(1, sizeof(*kd));
	(void)state;
	pthread_mutex_init(&kd->lock, NULL);
	est_kd_lock(kd);
	assert_int_equal(atomic_load(&kd->lock_waiters), 0);
	pthread_mutex_unlock(&kd->lock);
	est_kd_give_way(kd);
	assert_int_equal(pthread_mutex_trylock(&kd->lock), 0);
	pthread_mutex_unlock(&kd->lock);
	pthread_mutex_destroy(&kd->lock);
	free(kd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_config_mutex_hands_over),
	    cmocka_unit_test(test_kd_lock_hands_over),
	    cmocka_unit_test(test_uncontended),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
