/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_exp_stats.c: summaries and Welch's t-test against hand- and table-computed values. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tui/exp/exp_stats.h"
#include "tui/exp/experiment.h"

static void test_summary(void **state)
{
	double v[] = {2, 4, 4, 4, 5, 5, 7, 9};
	struct exp_summary s;
	(void)state;
	exp_summarize(v, 8, &s);
	assert_int_equal(s.n, 8);
	assert_float_equal(s.min, 2, 1e-12);
	assert_float_equal(s.max, 9, 1e-12);
	assert_float_equal(s.avg, 5, 1e-12);
	assert_float_equal(s.dev, sqrt(32.0 / 7.0), 1e-12); /* sample deviation */
	exp_summarize(v, 1, &s);
	assert_float_equal(s.dev, 0, 1e-12);
	exp_summarize(v, 0, &s);
	assert_int_equal(s.n, 0);
}

/* A pass without a number (NAN) is left out, never read as 0; no usable pass at all is n 0. */
static void test_summary_finite(void **state)
{
	double v[] = {NAN, 4, 8, NAN};
	struct exp_summary s;
	(void)state;
	exp_summarize_finite(v, 4, &s);
	assert_int_equal(s.n, 2);
	assert_float_equal(s.min, 4, 1e-12);
	assert_float_equal(s.avg, 6, 1e-12);
	exp_summarize_finite(v, 1, &s);
	assert_int_equal(s.n, 0);
}

/* The partial ranking: by AVG, highest first; arms without a usable pass named, not ranked. */
static void test_rank(void **state)
{
	struct exp_summary s[4] = {
	    {.n = 3, .avg = 103800}, {.n = 0}, {.n = 2, .avg = 159000}, {.n = 1, .avg = 150700}};
	const char *const names[] = {"0", "1", "2", "3"};
	char out[256];
	(void)state;
	assert_int_equal(exp_rank_text(s, names, 4, out, sizeof(out)), 3);
	assert_string_equal(out, "2 (1.59e+05) > 3 (1.507e+05) > 0 (1.038e+05); no usable pass: 1");
	s[0].n = s[2].n = s[3].n = 0;
	assert_int_equal(exp_rank_text(s, names, 4, out, sizeof(out)), 0);
	assert_string_equal(out, "no usable pass: 0, 1, 2, 3");
	assert_int_equal(exp_rank_text(s, names, 2, out, 8), 0); /* cut, still a string */
	assert_int_equal(strlen(out), 7);
}

/* A median of figures clamped at a histogram's top is a bound, printed as one, without a spread. */
static void test_fmt_spread(void **state)
{
	char out[64];
	(void)state;
	exp_fmt_spread(out, sizeof(out), 1023, 188, false);
	assert_string_equal(out, "1023 +-188");
	exp_fmt_spread(out, sizeof(out), 1023, 188, true);
	assert_string_equal(out, "\u22651023");
	exp_fmt_spread(out, sizeof(out), 12.5, 3, false);
	assert_string_equal(out, "12.50 +-3");
}

static void test_t_pvalue_table(void **state)
{
	(void)state;
	/* Student's t critical values: two-sided p = 0.05 at t = 2.228 (df 10),
	 * 12.706 (df 1); p = 0.01 at t = 2.977 (df 14). */
	assert_float_equal(exp_t_pvalue(2.228, 10), 0.05, 5e-4);
	assert_float_equal(exp_t_pvalue(12.706, 1), 0.05, 5e-4);
	assert_float_equal(exp_t_pvalue(2.977, 14), 0.01, 2e-4);
	assert_float_equal(exp_t_pvalue(0, 7), 1.0, 1e-12);
	assert_float_equal(exp_t_pvalue(-2.228, 10), 0.05, 5e-4);
}

static void test_betai_edges(void **state)
{
	(void)state;
	assert_float_equal(exp_betai(2, 3, 0), 0, 1e-12);
	assert_float_equal(exp_betai(2, 3, 1), 1, 1e-12);
	/* I_x(1,1) = x; I_x(2,1) = x^2. */
	assert_float_equal(exp_betai(1, 1, 0.3), 0.3, 1e-10);
	assert_float_equal(exp_betai(2, 1, 0.3), 0.09, 1e-10);
}

static void test_welch(void **state)
{
	/* Two clearly different samples and two overlapping ones. */
	double a[] = {10, 11, 9, 10, 10.5, 9.5}, b[] = {20, 21, 19, 20, 20.5, 19.5};
	double c[] = {10, 12, 8, 11, 9, 10};
	struct exp_summary sa, sb, sc;
	double t, df, p;
	(void)state;
	exp_summarize(a, 6, &sa);
	exp_summarize(b, 6, &sb);
	exp_summarize(c, 6, &sc);
	assert_int_equal(exp_welch(&sa, &sb, &t, &df, &p), 0);
	assert_true(t < -20);
	assert_float_equal(df, 10, 1e-9); /* equal variances and sizes: n1 + n2 - 2 */
	assert_true(p < 1e-6);
	assert_int_equal(exp_welch(&sa, &sc, &t, &df, &p), 0);
	assert_true(p > 0.5);
	/* Hand-computed: means 10 vs 10, t = 0. */
	assert_float_equal(t, 0, 1e-12);
	/* Too few values. */
	exp_summarize(a, 1, &sa);
	assert_int_equal(exp_welch(&sa, &sb, &t, &df, &p), -1);
	/* No variance at all. */
	double k1[] = {3, 3, 3}, k2[] = {3, 3, 3}, k3[] = {4, 4, 4};
	struct exp_summary s1, s2, s3;
	exp_summarize(k1, 3, &s1);
	exp_summarize(k2, 3, &s2);
	exp_summarize(k3, 3, &s3);
	assert_int_equal(exp_welch(&s1, &s2, &t, &df, &p), 0);
	assert_float_equal(p, 1, 1e-12);
	assert_int_equal(exp_welch(&s1, &s3, &t, &df, &p), 0);
	assert_float_equal(p, 0, 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_summary),	   cmocka_unit_test(test_summary_finite),
	    cmocka_unit_test(test_rank),	   cmocka_unit_test(test_fmt_spread),
	    cmocka_unit_test(test_t_pvalue_table), cmocka_unit_test(test_betai_edges),
	    cmocka_unit_test(test_welch),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
