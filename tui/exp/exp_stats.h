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
