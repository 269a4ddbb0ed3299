/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_est_place.c: row/chain/kthread placement (docs/est.md §2), the thread limit, the relink
 * order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/est/est_place.h"

#define NEST 12000

struct fix {
	struct est_state *st;
	struct est_estimator *e;
};

/* No engine: no tasks start, nothing is logged; placement alone. */
static int setup(void **state)
{
	struct fix *f = calloc(1, sizeof(*f));
	f->st = calloc(1, sizeof(*f->st));
	f->e = calloc(NEST, sizeof(*f->e));
	est_place_init(f->st, 2, 48); /* 2 cpulist CPUs: 8 kthreads at most */
	f->st->chain_max = 2; /* as if calibrated: tick_max 96, 4800 per kthread */
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fix *f = *state;
	est_place_destroy(f->st);
	free(f->e);
	free(f->st);
	free(f);
	return 0;
}

static void check(struct est_state *st)
{
	char err[256] = "";
	int rc = est_check(st, err, sizeof(err));
	if (rc)
		fail_msg("%s", err);
}

static void add(struct fix *f, int from, int to)
{
	for (int i = from; i < to; i++)
		assert_int_equal(est_start_estimator(f->st, &f->e[i]), 0);
}

static int drain_all(struct est_state *st)
{
	int n, rc = 0;
	while ((n = est_drain_batch(st, EST_DRAIN_BATCH, NULL, NULL)) > 0)
		;
	if (n < 0)
		rc = -1;
	return rc;
}

static void test_thread_limit(void **state)
{
	(void)state;
	assert_int_equal(est_max_threads_for(0), 1);
	assert_int_equal(est_max_threads_for(1), 4);
	assert_int_equal(est_max_threads_for(3), 12);
	assert_int_equal(est_max_threads_for(128), 512);
}

static void test_params(void **state)
{
	struct fix *f = *state;
	add(f, 0, 1); /* creates kthread 0's context */
	struct est_kd *kd = f->st->kt_arr[0];
	assert_int_equal(kd->chain_max, 2);
	assert_int_equal(kd->tick_max, 96);
	assert_int_equal(kd->est_max_count, 4800);
	f->st->tick_chains = 1;
	est_set_params(f->st, kd);
	assert_int_equal(kd->chain_max, 96); /* x48: one chain per tick */
	assert_int_equal(kd->tick_max, 96);
	assert_int_equal(kd->est_max_count, 4800);
	f->st->chain_max = 12; /* the spec's example: 576 per tick, 28800 per kthread */
	est_set_params(f->st, kd);
	assert_int_equal(kd->chain_max, 576);
	assert_int_equal(kd->est_max_count, 28800);
}

static void test_small_kthread_packs_from_add_row(void **state)
{
	struct fix *f = *state;
	struct est_state *st = f->st;

	add(f, 0, 200);
	struct est_kd *kd = st->kt_arr[0];
	kd->est_row = 10; /* ignored while est_count < 2 x tick_max */
	assert_int_equal(drain_all(st), 0);
	check(st);
	/* The temp list is LIFO: e[199] goes first, into row (add_row 0 + 49) = 49,
	 * two per chain in chains 0, 1, ...; full rows are skipped downward. */
	assert_int_equal(f->e[199].ktrow, 49);
	assert_int_equal(f->e[199].ktcid, 0);
	assert_int_equal(f->e[198].ktcid, 0);
	assert_int_equal(f->e[197].ktcid, 1);
	assert_int_equal(kd->tick_len[49], 96);
	assert_int_equal(kd->avail & (1ULL << 49), 0);
	assert_int_equal(kd->tick_len[48], 96);
	/* Past 2 x tick_max (192) the base is est_row: (10 + 49) % 50 = 9. */
	assert_int_equal(kd->tick_len[47], 0);
	assert_int_equal(kd->tick_len[9], 8);
	assert_int_equal(f->e[0].ktrow, 9);
	assert_int_equal(st->placed, 200);
	assert_int_equal(st->pending, 0);
}

static void test_relink_keeps_or_raises_delay(void **state)
{
	struct fix *f = *state;
	struct est_state *st = f->st;

	add(f, 0, 1);
	assert_int_equal(drain_all(st), 0);
	struct est_kd *kd = st->kt_arr[0];
	kd->avail &= ~(1ULL << 5); /* pretend row 5 is full */
	kd->est_row = 3;
	f->e[1].ktid = -1;
	add(f, 1, 2);
	f->e[1].ktrow = 2; /* a relinked estimator with delay 2: row 5 wanted */
	assert_int_equal(drain_all(st), 0);
	assert_int_equal(f->e[1].ktrow, 6); /* searched upward */
	kd->avail |= 1ULL << 5;
}

static void test_full_kthread_then_removal_moves_add_ktid_down(void **state)
{
	struct fix *f = *state;
	struct est_state *st = f->st;

	add(f, 0, 4801);
	assert_int_equal(drain_all(st), 0);
	check(st);
	assert_int_equal(st->kt_count, 2);
	assert_int_equal(st->kt_arr[0]->est_count, 4800);
	assert_int_equal(st->kt_arr[0]->avail, 0); /* every row full */
	assert_int_equal(st->kt_arr[1]->est_count, 1);
	assert_int_equal(st->add_ktid, 1);

	/* e[4800] went first (LIFO) into kt 0; remove one of kt 0's. */
	struct est_estimator *victim = &f->e[4000];
	assert_int_equal(victim->ktid, 0);
	int row = victim->ktrow;
	est_stop_estimator(st, victim);
	check(st);
	assert_int_equal(st->add_ktid, 0);
	assert_true(st->kt_arr[0]->avail & (1ULL << row));
	/* The next one lands in that freed row of kt 0. */
	memset(victim, 0, sizeof(*victim));
	assert_int_equal(est_start_estimator(st, victim), 0);
	assert_int_equal(drain_all(st), 0);
	assert_int_equal(victim->ktid, 0);
	assert_int_equal(victim->ktrow, row);
	assert_int_equal(st->add_ktid, 1); /* kt 0 full again */

	/* Removing kt 1's only estimator destroys it. */
	assert_int_equal(f->e[0].ktid, 1);
	est_stop_estimator(st, &f->e[0]);
	check(st);
	assert_int_equal(st->kt_count, 1);
	assert_false(st->kt_arr[1]->used);
	assert_int_equal(st->add_ktid, 1); /* kt 0 is full: a new slot next */
}

static void test_thread_limit_leaves_pending(void **state)
{
	struct fix *f = *state;
	struct est_state *st = f->st;

	st->chain_max = 1; /* 2400 per kthread */
	st->max_threads = 2;
	add(f, 0, 5000);
	assert_int_equal(drain_all(st), -1);
	check(st);
	assert_int_equal(st->placed, 4800);
	assert_int_equal(st->pending, 200);
	assert_int_equal(st->nest, 5000);
	st->max_threads = 3;
	assert_int_equal(drain_all(st), 0);
	check(st);
	assert_int_equal(st->pending, 0);
	assert_int_equal(st->kt_count, 3);
}

static bool never(void *ctx)
{
	(void)ctx;
	return false;
}

static void test_dequeue_ascending_delay(void **state)
{
	struct fix *f = *state;
	struct est_state *st = f->st;

	add(f, 0, 7000);
	assert_int_equal(drain_all(st), 0);
	st->kt_arr[0]->est_row = 17;
	st->kt_arr[1]->est_row = 30;
	pthread_mutex_lock(&st->mutex);
	assert_true(est_dequeue_all(st, never, NULL));
	pthread_mutex_unlock(&st->mutex);
	check(st);
	assert_int_equal(st->placed, 1); /* kt 0 keeps its last estimator */
	assert_int_equal(st->pending, 6999);
	assert_int_equal(st->kt_count, 1); /* kt 1 emptied and destroyed */
	int prev = -1, n = 0;
	for (struct est_estimator *e = st->temp_head; e; e = e->next, n++) {
		assert_int_equal(e->ktid, -1);
		assert_true(e->ktrow >= prev); /* ascending delay */
		prev = e->ktrow;
	}
	assert_int_equal(n, 6999);
	assert_int_equal(drain_all(st), 0);
	check(st);
}

static void test_invariant_random_mix(void **state)
{
	struct fix *f = *state;
	struct est_state *st = f->st;
	bool on[NEST] = {false};
	unsigned seed = 12345;

	st->chain_max = 1;
	for (int round = 0; round < 400; round++) {
		int op = rand_r(&seed) % 4;
		int n = 1 + rand_r(&seed) % 300;
		for (int k = 0; k < n; k++) {
			int i = rand_r(&seed) % NEST;
			if (op < 2 && !on[i]) {
				memset(&f->e[i], 0, sizeof(f->e[i]));
				assert_int_equal(est_start_estimator(st, &f->e[i]), 0);
				on[i] = true;
			} else if (op == 2 && on[i]) {
				est_stop_estimator(st, &f->e[i]);
				on[i] = false;
			}
		}
		if (op == 3)
			est_drain_batch(st, 1 + rand_r(&seed) % 500, NULL, NULL);
		uint64_t count = 0;
		for (int i = 0; i < NEST; i++)
			count += on[i];
		assert_int_equal(st->nest, count);
		assert_int_equal(st->nest, st->placed + st->pending);
		if (round % 20 == 0)
			check(st);
	}
	drain_all(st);
	check(st);
	for (int i = 0; i < NEST; i++)
		if (on[i])
			est_stop_estimator(st, &f->e[i]);
	check(st);
	assert_int_equal(st->nest, 0);
	assert_true(st->kt_count <= 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_thread_limit),
	    cmocka_unit_test_setup_teardown(test_params, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_small_kthread_packs_from_add_row, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_relink_keeps_or_raises_delay, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_full_kthread_then_removal_moves_add_ktid_down,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_thread_limit_leaves_pending, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_dequeue_ascending_delay, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_invariant_random_mix, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
