/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_pmd_stats.c: the overshoot histogram's percentiles (nearest rank, 1 us buckets), and the
 * arrivals counted as the host's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engine/pmd/pmd_core.h"
#include "engine/pmd/pmd_stats.h"

static uint64_t h[PMD_OVERSHOOT_BUCKETS];

static double pct(double q)
{
	return pmd_hist_percentile(h, PMD_OVERSHOOT_BUCKETS, q);
}

/* One sleep in ten overshoots by 50 us: p99 of those ten is that sleep
 * (nearest rank ceil(9.9) = 10th), p50 is a 1 us one. */
/* A share stays within its whole: a PMD counts a sleep before the iteration it ends, so two
 * counters read a moment apart can give 90 sleeping iterations of 89 (live JSON said
 * "sleep_iter_pct": 101.12, which a replay refused as 0). */
static void test_share_within_whole(void **state)
{
	(void)state;
	assert_true(pmd_share_pct(0, 0) == 0);
	assert_true(pmd_share_pct(1, 4) == 25);
	assert_true(pmd_share_pct(89, 89) == 100);
	assert_true(pmd_share_pct(90, 89) == 100);
	assert_true(pmd_share_pct(UINT64_MAX, 1) == 100);
}

static void test_p99_sees_one_outlier_in_ten(void **state)
{
	(void)state;
	memset(h, 0, sizeof(h));
	h[pmd_overshoot_bucket(1200)] = 9;
	h[pmd_overshoot_bucket(50300)] = 1;
	assert_true(pct(0.50) == 1.5);
	assert_true(pct(0.90) == 1.5); /* the 9th of 10 */
	assert_true(pct(0.99) == 50.5);
}

/* Exact ranks stay exact: 100 samples, p99 is the 99th, not the 100th. */
static void test_exact_rank_not_rounded_up(void **state)
{
	(void)state;
	memset(h, 0, sizeof(h));
	h[3] = 99;
	h[700] = 1;
	assert_true(pct(0.99) == 3.5);
	assert_true(pct(0.50) == 3.5);
	h[3] = 1;
	h[700] = 1;
	assert_true(pct(0.50) == 3.5); /* ceil(1.0) = 1st of 2 */
}

/* 1 us buckets tell OVS's 1 us slack from Linux's 50 us default; past the
 * last bucket everything collects in it; no samples reads 0. */
static void test_resolution_and_edges(void **state)
{
	(void)state;
	memset(h, 0, sizeof(h));
	assert_true(pct(0.99) == 0);
	h[pmd_overshoot_bucket(999)] = 1; /* under 1 us */
	assert_true(pct(0.5) == 0.5);
	memset(h, 0, sizeof(h));
	h[pmd_overshoot_bucket(51000)] = 1;
	assert_true(pct(0.5) == 51.5);
	assert_int_equal(pmd_overshoot_bucket(5000000000ULL), PMD_OVERSHOOT_BUCKETS - 1);
}

/* A percentile in the open top bucket (1023 us and up) is a lower bound and says so; one a
 * bucket below is exact. */
static void test_top_bucket_is_a_bound(void **state)
{
	(void)state;
	memset(h, 0, sizeof(h));
	h[pmd_overshoot_bucket(5000000)] = 10; /* 5 ms overshoots */
	assert_true(pct(0.99) == PMD_OVERSHOOT_BUCKETS - 1);
	assert_true(pmd_hist_at_least(pct(0.99), PMD_OVERSHOOT_BUCKETS));
	memset(h, 0, sizeof(h));
	h[PMD_OVERSHOOT_BUCKETS - 2] = 10;
	assert_false(pmd_hist_at_least(pct(0.99), PMD_OVERSHOOT_BUCKETS));
	assert_false(pmd_hist_at_least(4094.5, 4096));
	assert_true(pmd_hist_at_least(4095, 4096));
}

/* The host's part: arrivals a source's clock had while the host held its PMD, exact over
 * any split of the host time (docs/pmd.md "What the host took"). */
static void test_lost_arrivals(void **state)
{
	(void)state;
	uint64_t frac = 0, n = 0;
	/* 1 Mpps: 1.5 us is one arrival and half of the next; 0.5 us more completes it. */
	assert_int_equal(pmd_lost_arrivals(&frac, 1500, 1000000), 1);
	assert_int_equal(pmd_lost_arrivals(&frac, 500, 1000000), 1);
	assert_int_equal(frac, 0);
	/* 3 Mpps over a million 333 ns pieces (333 ms in all): exactly 999000 arrivals, none
	 * lost to rounding. */
	for (int i = 0; i < 1000000; i++)
		n += pmd_lost_arrivals(&frac, 333, 3000000);
	assert_int_equal(n, 999000);
	/* 7 pps over 10 s in 1 ms pieces: 70. */
	frac = n = 0;
	for (int i = 0; i < 10000; i++)
		n += pmd_lost_arrivals(&frac, 1000000, 7);
	assert_int_equal(n, 70);
	/* No rate, nothing lost, and no remainder carried into the next rate. */
	assert_int_equal(pmd_lost_arrivals(&frac, 5000000000ULL, 0), 0);
	assert_int_equal(frac, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_share_within_whole),
	    cmocka_unit_test(test_p99_sees_one_outlier_in_ten),
	    cmocka_unit_test(test_exact_rank_not_rounded_up),
	    cmocka_unit_test(test_resolution_and_edges),
	    cmocka_unit_test(test_top_bucket_is_a_bound),
	    cmocka_unit_test(test_lost_arrivals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
