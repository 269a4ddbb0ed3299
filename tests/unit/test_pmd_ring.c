/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_pmd_ring.c: the SPSC ring: order, wrap-around, full/empty, and a two-thread race (TSan). */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "engine/pmd/pmd_ring.h"

static void mk(struct pmd_pkt *p, unsigned n, uint32_t first)
{
	for (unsigned i = 0; i < n; i++) {
		p[i] = (struct pmd_pkt){.seq = first + i, .ttl = 64};
		p[i].src_ip = first + i;
	}
}

static void test_fill_and_empty(void **state)
{
	struct pmd_ring *r = pmd_ring_new(8);
	struct pmd_pkt in[16], out[16];
	(void)state;
	mk(in, 16, 100);
	assert_int_equal(pmd_ring_count(r), 0);
	assert_int_equal(pmd_ring_dequeue_burst(r, out, 4), 0); /* empty */
	assert_int_equal(pmd_ring_enqueue_burst(r, in, 16), 8); /* only 8 fit */
	assert_int_equal(pmd_ring_count(r), 8);
	assert_int_equal(pmd_ring_enqueue_burst(r, in, 1), 0); /* full */
	assert_int_equal(pmd_ring_dequeue_burst(r, out, 16), 8);
	for (unsigned i = 0; i < 8; i++)
		assert_int_equal(out[i].seq, 100 + i);
	assert_int_equal(pmd_ring_count(r), 0);
	pmd_ring_free(r);
}

static void test_wrap_around(void **state)
{
	struct pmd_ring *r = pmd_ring_new(8);
	struct pmd_pkt in[5], out[5];
	uint32_t next_in = 0, next_out = 0;
	(void)state;
	/* 5 in, 5 out, many times over an 8-slot ring: every index wraps. */
	for (int round = 0; round < 1000; round++) {
		mk(in, 5, next_in);
		assert_int_equal(pmd_ring_enqueue_burst(r, in, 5), 5);
		next_in += 5;
		unsigned n = pmd_ring_dequeue_burst(r, out, 3);
		assert_int_equal(n, 3);
		n += pmd_ring_dequeue_burst(r, out + 3, 2);
		assert_int_equal(n, 5);
		for (unsigned i = 0; i < 5; i++)
			assert_int_equal(out[i].seq, next_out++);
	}
	/* Partly full across the wrap point. */
	mk(in, 5, next_in);
	assert_int_equal(pmd_ring_enqueue_burst(r, in, 5), 5);
	assert_int_equal(pmd_ring_enqueue_burst(r, in, 5), 3);
	assert_int_equal(pmd_ring_count(r), 8);
	pmd_ring_free(r);
}

#define RACE_PKTS 400000u

struct race {
	struct pmd_ring *r;
	uint32_t sent, drops;
};

static void *race_producer(void *arg)
{
	struct race *rc = arg;
	struct pmd_pkt p[NETDEV_MAX_BURST];
	uint32_t seq = 0, burst = 1;
	while (seq < RACE_PKTS) {
		unsigned n = burst;
		if (n > RACE_PKTS - seq)
			n = RACE_PKTS - seq;
		mk(p, n, seq);
		unsigned k = pmd_ring_enqueue_burst(rc->r, p, n);
		seq += k; /* retry the rest: we check lossless order here */
		if (k < n)
			rc->drops++;
		burst = burst % NETDEV_MAX_BURST + 1; /* varied sizes hit every boundary */
	}
	rc->sent = seq;
	return NULL;
}

/* Producer and consumer race on a tiny ring, so it is constantly full and
 * empty: every packet arrives once, in order, with its contents intact. */
static void test_two_thread_race(void **state)
{
	struct race rc = {.r = pmd_ring_new(4)};
	struct pmd_pkt out[NETDEV_MAX_BURST];
	pthread_t t;
	uint32_t expect = 0;
	unsigned empties = 0, max = 1;
	(void)state;
	assert_int_equal(pthread_create(&t, NULL, race_producer, &rc), 0);
	while (expect < RACE_PKTS) {
		unsigned n = pmd_ring_dequeue_burst(rc.r, out, max);
		if (n == 0)
			empties++;
		for (unsigned i = 0; i < n; i++) {
			assert_int_equal(out[i].seq, expect);
			assert_int_equal(out[i].src_ip, expect);
			expect++;
		}
		max = max % 7 + 1;
	}
	pthread_join(t, NULL);
	assert_int_equal(rc.sent, RACE_PKTS);
	assert_int_equal(pmd_ring_count(rc.r), 0);
	/* Both edges were really exercised. */
	assert_true(rc.drops > 0 || empties > 0);
	pmd_ring_free(rc.r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fill_and_empty),
	    cmocka_unit_test(test_wrap_around),
	    cmocka_unit_test(test_two_thread_race),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
