/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_blk_stats.c: the completion latency histogram: bucket bounds, 1% resolution over
 * 1 us .. 1 s, and quantiles against exact nearest-rank values of the same samples. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

#include "engine/blk/blk_stats.h"

#define NS_1US 1000ull
#define NS_1S 1000000000ull
/* What an operator must be able to tell apart (the brief: about 1% or better). */
#define RESOLUTION 0.01
/* The midpoint of a bucket no wider than 1/128 of its lower bound: within 1/256. */
#define MID_ERR (1.0 / 256)

static uint64_t rng_next(uint64_t *x)
{
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * 0x2545F4914F6CDD1Dull;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static double rel(uint64_t got, uint64_t want)
{
	return (double)(got > want ? got - want : want - got) / (double)want;
}

static void test_bucket_bounds(void **state)
{
	(void)state;
	/* Exact below 2^SUB_BITS ns. */
	for (uint64_t ns = 0; ns < (1u << BLK_HIST_SUB_BITS); ns++)
		assert_int_equal(blk_hist_bucket_mid_ns(blk_hist_index(ns)), ns);
	/* Every value lies in its bucket, and the bucket's midpoint is within 1/256 of it. */
	for (uint64_t ns = 1; ns < (1ull << 39); ns = ns + ns / 7 + 1) {
		unsigned i = blk_hist_index(ns);
		assert_true(i < BLK_HIST_BUCKETS);
		assert_true(blk_hist_bucket_lo_ns(i) <= ns);
		assert_true(i + 1 == BLK_HIST_BUCKETS || ns < blk_hist_bucket_lo_ns(i + 1));
		if (rel(blk_hist_bucket_mid_ns(i), ns) > MID_ERR)
			fail_msg("%llu ns: bucket %u mid %llu", (unsigned long long)ns, i,
				 (unsigned long long)blk_hist_bucket_mid_ns(i));
	}
	/* Indices are monotonic and contiguous at octave edges. */
	assert_int_equal(blk_hist_index(255) + 1, blk_hist_index(256));
	assert_int_equal(blk_hist_index((1ull << 30) - 1) + 1, blk_hist_index(1ull << 30));
	/* Beyond the range: the last bucket, never past the array. */
	assert_int_equal(blk_hist_index(UINT64_MAX), BLK_HIST_BUCKETS - 1);
}

/* Two latencies 1% apart anywhere in 1 us .. 1 s never share a bucket. With 8
 * sub-buckets per octave (12.5% wide) this failed: 2.00 ms and 2.02 ms read the same. */
static void test_resolves_one_percent(void **state)
{
	(void)state;
	for (uint64_t ns = NS_1US; ns <= NS_1S; ns = ns + ns / 97 + 1) {
		uint64_t up = (uint64_t)((double)ns * (1.0 + RESOLUTION));
		if (blk_hist_index(ns) == blk_hist_index(up))
			fail_msg("%llu ns and %llu ns share bucket %u", (unsigned long long)ns,
				 (unsigned long long)up, blk_hist_index(ns));
	}
}

#define NSAMPLES 20000

/* Quantiles against the exact nearest-rank quantile of the same samples. */
static void test_quantiles_match_exact(void **state)
{
	static const double qs[] = {0.01, 0.10, 0.50, 0.90, 0.99, 0.999, 1.0};
	static struct blk_hist h;
	static struct blk_hist_copy zero, cur;
	uint64_t *v = calloc(NSAMPLES, sizeof(*v)), x = 0x9E3779B97F4A7C15ull;
	(void)state;

	memset(&h, 0, sizeof(h));
	memset(&zero, 0, sizeof(zero));
	/* Log-uniform over 1 us .. 1 s: every octave of the range gets samples. */
	for (int i = 0; i < NSAMPLES; i++) {
		double u = (double)(rng_next(&x) >> 11) / (double)(1ull << 53);
		v[i] = (uint64_t)((double)NS_1US * exp2(u * log2((double)(NS_1S / NS_1US))));
		blk_hist_add(&h, v[i]);
	}
	qsort(v, NSAMPLES, sizeof(*v), cmp_u64);
	assert_true(v[0] >= NS_1US && v[NSAMPLES - 1] <= NS_1S);
	blk_hist_read(&h, &cur);
	for (size_t k = 0; k < sizeof(qs) / sizeof(qs[0]); k++) {
		uint64_t n = 0, got = blk_hist_quantile_ns(&cur, &zero, qs[k], &n);
		size_t rank = (size_t)(qs[k] * NSAMPLES + 0.5); /* q * n is whole here */
		uint64_t want = v[rank - 1];
		assert_int_equal(n, NSAMPLES);
		if (rel(got, want) > MID_ERR)
			fail_msg("q=%g: got %llu ns, exact %llu ns", qs[k], (unsigned long long)got,
				 (unsigned long long)want);
	}
	free(v);
}

/* The shape the bench showed: two runs whose median differs by 1.5% near 2 ms. */
static void test_quantiles_tell_close_runs_apart(void **state)
{
	static struct blk_hist h;
	static struct blk_hist_copy zero, a, b;
	(void)state;

	memset(&h, 0, sizeof(h));
	memset(&zero, 0, sizeof(zero));
	for (int i = 0; i < 1000; i++)
		blk_hist_add(&h, 2000000 + (uint64_t)i); /* 2.000 .. 2.001 ms */
	blk_hist_read(&h, &a);
	for (int i = 0; i < 1000; i++)
		blk_hist_add(&h, 2030000 + (uint64_t)i); /* 2.030 .. 2.031 ms */
	blk_hist_read(&h, &b);
	/* Interval quantiles: first interval from zero, second from a. */
	uint64_t p50a = blk_hist_quantile_ns(&a, &zero, 0.5, NULL);
	uint64_t p50b = blk_hist_quantile_ns(&b, &a, 0.5, NULL);
	assert_true(rel(p50a, 2000500) <= MID_ERR);
	assert_true(rel(p50b, 2030500) <= MID_ERR);
	assert_true(p50a < p50b);
}

static void test_quantile_ranks_and_intervals(void **state)
{
	static struct blk_hist h;
	static struct blk_hist_copy zero, cur;
	uint64_t n = 0;
	(void)state;

	memset(&h, 0, sizeof(h));
	memset(&zero, 0, sizeof(zero));
	/* 1000 samples: 990 at 10 us, 9 at 1 ms, 1 at 100 ms. */
	for (int i = 0; i < 990; i++)
		blk_hist_add(&h, 10000);
	for (int i = 0; i < 9; i++)
		blk_hist_add(&h, 1000000);
	blk_hist_add(&h, 100000000);
	blk_hist_read(&h, &cur);
	uint64_t p50 = blk_hist_quantile_ns(&cur, &zero, 0.50, &n);
	assert_int_equal(n, 1000);
	assert_true(rel(p50, 10000) <= MID_ERR);
	/* Nearest rank: the 990th sample is still 10 us, the 991st is 1 ms. */
	assert_true(rel(blk_hist_quantile_ns(&cur, &zero, 0.99, NULL), 10000) <= MID_ERR);
	assert_true(rel(blk_hist_quantile_ns(&cur, &zero, 0.991, NULL), 1000000) <= MID_ERR);
	assert_true(rel(blk_hist_quantile_ns(&cur, &zero, 0.999, NULL), 1000000) <= MID_ERR);
	assert_true(rel(blk_hist_quantile_ns(&cur, &zero, 1.0, NULL), 100000000) <= MID_ERR);
	/* Interval view: nothing new since cur. */
	assert_int_equal(blk_hist_quantile_ns(&cur, &cur, 0.5, &n), 0);
	assert_int_equal(n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_bucket_bounds),
	    cmocka_unit_test(test_resolves_one_percent),
	    cmocka_unit_test(test_quantiles_match_exact),
	    cmocka_unit_test(test_quantiles_tell_close_runs_apart),
	    cmocka_unit_test(test_quantile_ranks_and_intervals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
