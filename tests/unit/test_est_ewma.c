/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_est_ewma.c: the kernel's fixed-point EWMA against hand-computed values (docs/est.md §3). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engine/est/est_ewma.h"

static void feed(struct est_ewma *e, uint64_t per_period_pkts, uint64_t per_period_bytes,
		 uint64_t *total_pkts, uint64_t *total_bytes)
{
	uint64_t sum[EST_NSTATS];
	*total_pkts += per_period_pkts;
	*total_bytes += per_period_bytes;
	for (int i = 0; i < EST_NSTATS; i++)
		sum[i] = i >= EST_INBYTES ? *total_bytes : *total_pkts;
	est_ewma_update(e, sum);
}

static void test_first_steps_by_hand(void **state)
{
	struct est_ewma e;
	uint64_t zero[EST_NSTATS] = {0}, rate[EST_NSTATS], p = 0, b = 0;
	(void)state;
	est_ewma_zero(&e, zero);

	/* 1000 per 2 s: rate = 1000 << 9 = 512000; est = 0 + 512000 >> 2 = 128000. */
	feed(&e, 1000, 100000, &p, &b);
	assert_int_equal(e.est[EST_CONNS], 128000);
	est_ewma_read(&e, rate);
	assert_int_equal(rate[EST_CONNS], 125); /* (128000 + 511) >> 10 */
	/* bytes: 100000 << 4 = 1600000; est 400000; read (400000 + 15) >> 5 = 12500 */
	assert_int_equal(e.est[EST_INBYTES], 400000);
	assert_int_equal(rate[EST_INBYTES], 12500);

	/* est += (512000 - 128000) >> 2 = 96000: 224000, reads (224511 >> 10) = 219. */
	feed(&e, 1000, 100000, &p, &b);
	assert_int_equal(e.est[EST_INPKTS], 224000);
	est_ewma_read(&e, rate);
	assert_int_equal(rate[EST_INPKTS], 219);
	assert_int_equal(e.last[EST_OUTPKTS], 2000);
	assert_int_equal(e.kstats[EST_OUTBYTES], 200000);
}

static void test_converges_to_half_per_second(void **state)
{
	struct est_ewma e;
	uint64_t zero[EST_NSTATS] = {0}, rate[EST_NSTATS], p = 0, b = 0;
	(void)state;
	est_ewma_zero(&e, zero);
	for (int i = 0; i < 100; i++)
		feed(&e, 1000, 100000, &p, &b);
	est_ewma_read(&e, rate);
	/* 1000 per 2 s reads back 500 per second; 100000 bytes per 2 s, 50000 B/s. */
	for (int i = 0; i < EST_INBYTES; i++)
		assert_int_equal(rate[i], 500);
	assert_int_equal(rate[EST_INBYTES], 50000);
	assert_int_equal(rate[EST_OUTBYTES], 50000);
	/* The integer EWMA stops within 3 of the target (diff >> 2 == 0). */
	assert_true(e.est[EST_CONNS] >= 512000 - 3 && e.est[EST_CONNS] <= 512000);
}

static void test_decays_to_zero_signed(void **state)
{
	struct est_ewma e;
	uint64_t zero[EST_NSTATS] = {0}, rate[EST_NSTATS], p = 0, b = 0;
	(void)state;
	est_ewma_zero(&e, zero);
	for (int i = 0; i < 60; i++)
		feed(&e, 1000, 100000, &p, &b);
	/* The counter stops: (0 - est) >> 2 is negative; the arithmetic shift
	 * takes the average all the way down to exactly 0. */
	feed(&e, 0, 0, &p, &b);
	est_ewma_read(&e, rate);
	assert_int_equal(rate[EST_CONNS], 375); /* 3/4 of 500, rounded as the kernel does */
	for (int i = 0; i < 200; i++)
		feed(&e, 0, 0, &p, &b);
	for (int i = 0; i < EST_NSTATS; i++)
		assert_int_equal(e.est[i], 0);
}

static void test_wraparound_and_zero(void **state)
{
	struct est_ewma e;
	uint64_t start[EST_NSTATS], sum[EST_NSTATS], rate[EST_NSTATS];
	(void)state;
	for (int i = 0; i < EST_NSTATS; i++)
		start[i] = UINT64_MAX - 499;
	est_ewma_zero(&e, start);
	for (int i = 0; i < EST_NSTATS; i++)
		sum[i] = 500; /* wrapped: +1000 */
	est_ewma_update(&e, sum);
	assert_int_equal(e.est[EST_CONNS], 128000);
	est_ewma_zero(&e, sum);
	est_ewma_read(&e, rate);
	assert_int_equal(rate[EST_CONNS], 0);
	assert_int_equal(e.last[EST_CONNS], 500);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_first_steps_by_hand),
	    cmocka_unit_test(test_converges_to_half_per_second),
	    cmocka_unit_test(test_decays_to_zero_signed),
	    cmocka_unit_test(test_wraparound_and_zero),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
