/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exp_stats.h: summary statistics and Welch's t-test for experiment tables. */
#ifndef TT_EXP_STATS_H
#define TT_EXP_STATS_H

#include <stddef.h>

struct exp_summary {
	size_t n;
	double min, avg, max;
	double dev; /* sample standard deviation (n - 1); 0 when n < 2 */
	double median; /* the middle value (mean of the two middle ones when n is even) */
};

void exp_summarize(const double *v, size_t n, struct exp_summary *out);
/* The same over the finite values of v only: NAN marks a pass without a number (a null figure).
 * out->n counts the values summarized; 0 means no usable pass, whose zeros are not data. */
void exp_summarize_finite(const double *v, size_t n, struct exp_summary *out);

/*
 * The arms ranked by AVG, highest first, as "1 (1.59e+05) > 2 (1.51e+05)"; arms whose summary
 * has n == 0 follow as "; no usable pass: 0, 3". names[i] names s[i]. Returns how many arms had a
 * usable pass.
 */
size_t exp_rank_text(const struct exp_summary *s, const char *const *names, size_t n, char *out,
		     size_t len);

/*
 * Welch's two-sample t-test of a against b: t statistic, Welch-Satterthwaite
 * degrees of freedom and the two-sided p-value. Returns -1 when either side has
 * fewer than 2 values; p is 1 when both sides have no variance and equal means,
 * 0 when they have none and differ.
 */
int exp_welch(const struct exp_summary *a, const struct exp_summary *b, double *t, double *df,
	      double *p);

/* Two-sided p-value of Student's t with df degrees of freedom (via the incomplete beta). */
double exp_t_pvalue(double t, double df);
/* The regularized incomplete beta function I_x(a, b). */
double exp_betai(double a, double b, double x);

#endif
