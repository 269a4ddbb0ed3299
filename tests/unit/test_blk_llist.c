/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_blk_llist.c: the lock-free done list under several producers (run it under TSan too). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

#include <cmocka.h>

#include "engine/blk/blk_llist.h"
#include "engine/blk/blk_wake.h"
#include "core/clock.h"

#define NPROD 4
#define PER_PROD 20000

struct item {
	struct blk_lnode node; /* first: the list hands back the node */
	int producer;
	int seq;
	uint64_t payload; /* written before the push, read after the drain */
};

struct shared {
	struct blk_llist list;
	struct blk_wake wake;
	struct item *items; /* NPROD * PER_PROD */
	_Atomic int producers_left;
	_Atomic uint64_t kicks; /* pushes that saw the list empty */
};

struct prod_arg {
	struct shared *sh;
	int id;
};

static void *producer(void *p)
{
	struct prod_arg *a = p;
	struct shared *sh = a->sh;

	for (int i = 0; i < PER_PROD; i++) {
		struct item *it = &sh->items[a->id * PER_PROD + i];
		it->producer = a->id;
		it->seq = i;
		it->payload = ((uint64_t)a->id << 32) | (uint64_t)i;
		/* The kick-only-if-empty rule of §3: exactly one producer per empty -> non-empty.
		 */
		if (blk_llist_push(&sh->list, &it->node)) {
			atomic_fetch_add_explicit(&sh->kicks, 1, memory_order_relaxed);
			blk_wake_kick(&sh->wake);
		}
	}
	atomic_fetch_sub_explicit(&sh->producers_left, 1, memory_order_release);
	blk_wake_kick(&sh->wake);
	return NULL;
}

static void test_push_reports_was_empty(void **state)
{
	struct blk_llist l;
	struct blk_lnode a, b, c;
	(void)state;
	blk_llist_init(&l);
	assert_true(blk_llist_empty(&l));
	assert_true(blk_llist_push(&l, &a));
	assert_false(blk_llist_push(&l, &b));
	assert_false(blk_llist_push(&l, &c));
	/* del_all gives newest first; reverse restores FIFO. */
	struct blk_lnode *n = blk_llist_reverse(blk_llist_del_all(&l));
	assert_ptr_equal(n, &a);
	assert_ptr_equal(n->next, &b);
	assert_ptr_equal(n->next->next, &c);
	assert_null(n->next->next->next);
	assert_true(blk_llist_empty(&l));
	assert_null(blk_llist_del_all(&l));
	assert_true(blk_llist_push(&l, &a)); /* empty again: the next producer kicks again */
	assert_non_null(blk_llist_del_all(&l));
}

static void test_fault_drain_leaves_one(void **state)
{
	struct blk_llist l;
	struct blk_lnode a, b, c;
	(void)state;
	blk_llist_init(&l);
	blk_llist_push(&l, &a);
	blk_llist_push(&l, &b);
	blk_llist_push(&l, &c);
	struct blk_lnode *n = blk_llist_reverse(blk_llist_del_all_but_newest(&l));
	assert_ptr_equal(n, &a);
	assert_ptr_equal(n->next, &b);
	assert_null(n->next->next);
	/* The newest stays behind, so the next push does not see empty: no kick ever again. */
	assert_false(blk_llist_empty(&l));
	assert_false(blk_llist_push(&l, &a));
}

static void test_many_producers_nothing_lost_nothing_twice(void **state)
{
	struct shared *sh = calloc(1, sizeof(*sh));
	pthread_t pt[NPROD];
	struct prod_arg args[NPROD];
	int *seen = calloc(NPROD * PER_PROD, sizeof(int));
	int last_seq[NPROD];
	uint64_t drains_nonempty = 0, got = 0;
	(void)state;

	sh->items = calloc(NPROD * PER_PROD, sizeof(*sh->items));
	blk_llist_init(&sh->list);
	blk_wake_init(&sh->wake);
	atomic_init(&sh->producers_left, NPROD);
	atomic_init(&sh->kicks, 0);
	for (int p = 0; p < NPROD; p++)
		last_seq[p] = -1;
	for (int p = 0; p < NPROD; p++) {
		args[p] = (struct prod_arg){.sh = sh, .id = p};
		assert_int_equal(pthread_create(&pt[p], NULL, producer, &args[p]), 0);
	}

	/* The one consumer: drain by exchange, reverse, check; sleep on the wake when empty. */
	for (;;) {
		uint32_t tok = blk_wake_prepare(&sh->wake);
		int left = atomic_load_explicit(&sh->producers_left, memory_order_acquire);
		struct blk_lnode *n = blk_llist_del_all(&sh->list);
		if (n)
			drains_nonempty++;
		for (n = blk_llist_reverse(n); n; n = n->next) {
			struct item *it = (struct item *)n;
			assert_true(it->producer >= 0 && it->producer < NPROD);
			assert_int_equal(it->payload,
					 ((uint64_t)it->producer << 32) | (uint64_t)it->seq);
			seen[it->producer * PER_PROD + it->seq]++;
			/* FIFO per producer after the reverse, across drains too. */
			assert_true(it->seq > last_seq[it->producer]);
			last_seq[it->producer] = it->seq;
			got++;
		}
		if (left == 0 && blk_llist_empty(&sh->list))
			break;
		if (blk_llist_empty(&sh->list))
			blk_wake_wait(&sh->wake, tok, 50 * NS_PER_MS);
	}
	for (int p = 0; p < NPROD; p++)
		pthread_join(pt[p], NULL);

	assert_int_equal(got, NPROD * PER_PROD);
	for (int i = 0; i < NPROD * PER_PROD; i++)
		if (seen[i] != 1)
			fail_msg("item %d seen %d times", i, seen[i]);
	/* Exactly one kick per empty -> non-empty transition, and each was drained once. */
	assert_int_equal(atomic_load(&sh->kicks), drains_nonempty);
	free(seen);
	free(sh->items);
	free(sh);
}

/*
 * blk_wake: a kick that lands between a waiter's check and its sleep must still
 * wake it. A kicker publishes one item at a time, at a random moment a few
 * microseconds after the waiter took the previous one (spinning, so both run at
 * once on two cores), while the waiter does prepare, check, a random spin, wait.
 * Every wait has a long timeout, so a lost kick shows as a wait that ran out with
 * the item already there (the llist test above cannot tell: its 50 ms wait only
 * slows it down).
 */
#define WAKE_ROUNDS 3000
#define WAKE_TIMEOUT_NS (2 * NS_PER_S) /* no scheduler delays a wake-up this long */

struct wake_race {
	struct blk_wake wake;
	_Atomic int published; /* items the kicker published */
	_Atomic int taken; /* items the waiter took */
	_Atomic int lost; /* waits that ran out with an item waiting */
};

static void spin(uint64_t *x, int max)
{
	for (volatile int i = (int)(*x % (uint64_t)max); i > 0; i--)
		;
	*x = *x * 6364136223846793005ull + 1442695040888963407ull;
}

static void *wake_kicker(void *p)
{
	struct wake_race *w = p;
	uint64_t x = 12345;

	for (int r = 1; r <= WAKE_ROUNDS; r++) {
		while (atomic_load_explicit(&w->taken, memory_order_acquire) < r - 1)
			;
		spin(&x, 4000);
		/* Publish, then kick (the producer's side of the rule). */
		atomic_store_explicit(&w->published, r, memory_order_release);
		blk_wake_kick(&w->wake);
	}
	return NULL;
}

static void test_wake_no_lost_kick(void **state)
{
	struct wake_race *w = calloc(1, sizeof(*w));
	pthread_t t;
	uint64_t x = 999;
	(void)state;

	blk_wake_init(&w->wake);
	/* A kick after prepare and before the wait makes the wait return at once. */
	uint32_t tok = blk_wake_prepare(&w->wake);
	blk_wake_kick(&w->wake);
	uint64_t t0 = clock_mono_ns();
	blk_wake_wait(&w->wake, tok, WAKE_TIMEOUT_NS);
	assert_true(clock_mono_ns() - t0 < WAKE_TIMEOUT_NS);

	assert_int_equal(pthread_create(&t, NULL, wake_kicker, w), 0);
	for (int r = 1; r <= WAKE_ROUNDS; r++) {
		for (;;) {
			tok = blk_wake_prepare(&w->wake);
			if (atomic_load_explicit(&w->published, memory_order_acquire) >= r)
				break;
			spin(&x, 2000); /* the window between the check and the sleep */
			t0 = clock_mono_ns();
			blk_wake_wait(&w->wake, tok, WAKE_TIMEOUT_NS);
			if (clock_mono_ns() - t0 >= WAKE_TIMEOUT_NS &&
			    atomic_load_explicit(&w->published, memory_order_acquire) >= r)
				atomic_fetch_add_explicit(&w->lost, 1, memory_order_relaxed);
		}
		atomic_store_explicit(&w->taken, r, memory_order_release);
	}
	pthread_join(t, NULL);
	assert_int_equal(atomic_load(&w->lost), 0);
	free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_push_reports_was_empty),
	    cmocka_unit_test(test_fault_drain_leaves_one),
	    cmocka_unit_test(test_many_producers_nothing_lost_nothing_twice),
	    cmocka_unit_test(test_wake_no_lost_kick),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
