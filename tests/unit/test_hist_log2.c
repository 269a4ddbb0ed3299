/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_hist_log2.c: the log2 (8 sub-bucket) histogram shared with the eBPF sleep probe:
 * bucket bounds contain their values, and quantiles land in the right bucket. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/hist_log2.h"

static uint64_t h[HIST_LOG2_BUCKETS];

/* Every value lies in [lo, hi) of its bucket, buckets are contiguous and no wider than
 * 1/8 of their lower bound (checked over a sweep of values, not from the formula). */
static void test_bounds_contain_values(void **state)
{
	(void)state;
	for (uint64_t v = 0; v < 5000; v++) {
		unsigned b = hist_log2_bucket(v);
		assert_true(hist_log2_lo(b) <= v);
		assert_true(v < hist_log2_hi(b));
	}
	for (uint64_t v = 5000; v < (1ULL << 36); v = v * 3 / 2 + 7) {
		unsigned b = hist_log2_bucket(v);
		assert_true(b < HIST_LOG2_BUCKETS);
		assert_true(hist_log2_lo(b) <= v && v < hist_log2_hi(b));
		assert_true((hist_log2_hi(b) - hist_log2_lo(b)) * 8 <= hist_log2_lo(b));
	}
	for (unsigned b = 0; b + 1 < HIST_LOG2_BUCKETS; b++)
		assert_true(hist_log2_hi(b) == hist_log2_lo(b + 1));
	assert_int_equal(hist_log2_bucket(7), 7);
	assert_int_equal(hist_log2_bucket(8), 8);
	assert_int_equal(hist_log2_bucket(UINT64_MAX), HIST_LOG2_BUCKETS - 1);
	assert_int_equal(hist_log2_bucket(1ULL << 40), HIST_LOG2_BUCKETS - 1);
}

/* 50 us of slack: 1000 sleeps spread evenly over 48..56 us read a median near 52 us;
 * interpolation keeps it within the bucket's 4 us, not at a bucket edge. */
static void test_quantile_interpolates(void **state)
{
	(void)state;
	memset(h, 0, sizeof(h));
	for (uint64_t v = 48000; v < 56000; v += 8)
		h[hist_log2_bucket(v)]++;
	double p50 = hist_log2_quantile(h, HIST_LOG2_BUCKETS, 0.5);
	assert_true(p50 > 51000 && p50 < 53000);
	/* The true p99 (55.9 us) is in [53248, 57344): the estimate stays in that bucket. */
	double p99 = hist_log2_quantile(h, HIST_LOG2_BUCKETS, 0.99);
	assert_true(p99 > 55000 && p99 < 57344);
	/* q = 0: the first sample's bucket, [45056, 49152). */
	assert_true(hist_log2_quantile(h, HIST_LOG2_BUCKETS, 0.0) >= 45056);
}

/* Nearest rank: one sleep in ten at 1 ms, the rest at 2 us: p99 is the slow one, p50 not;
 * an empty histogram reads 0; the open last bucket reads its lower bound. */
static void test_quantile_ranks_and_edges(void **state)
{
	(void)state;
	memset(h, 0, sizeof(h));
	assert_true(hist_log2_quantile(h, HIST_LOG2_BUCKETS, 0.5) == 0);
	h[hist_log2_bucket(2000)] = 9;
	h[hist_log2_bucket(1000000)] = 1;
	double p50 = hist_log2_quantile(h, HIST_LOG2_BUCKETS, 0.5);
	double p99 = hist_log2_quantile(h, HIST_LOG2_BUCKETS, 0.99);
	assert_true(p50 >= 1792 && p50 < 2048);
	assert_true(p99 >= 983040 && p99 < 1048576);
	memset(h, 0, sizeof(h));
	h[HIST_LOG2_BUCKETS - 1] = 3;
	assert_true(hist_log2_quantile(h, HIST_LOG2_BUCKETS, 0.5) ==
		    (double)hist_log2_lo(HIST_LOG2_BUCKETS - 1));
	/* A single sample below 8 ns: its own 1 ns bucket, read at its middle. */
	memset(h, 0, sizeof(h));
	h[5] = 1;
	assert_true(hist_log2_quantile(h, HIST_LOG2_BUCKETS, 0.5) == 5.5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_bounds_contain_values),
	    cmocka_unit_test(test_quantile_interpolates),
	    cmocka_unit_test(test_quantile_ranks_and_edges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
