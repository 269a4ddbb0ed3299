/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exp_stats.c: MIN/AVG/MAX/Dev and Welch's t-test (the seed's A/B tables plus significance). */
#include "tui/exp/exp_stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

static int exp_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

void exp_summarize(const double *v, size_t n, struct exp_summary *out)
{
	double sum = 0, sq = 0;

	out->n = n;
	out->min = n ? v[0] : 0;
	out->max = n ? v[0] : 0;
	for (size_t i = 0; i < n; i++) {
		sum += v[i];
		if (v[i] < out->min)
			out->min = v[i];
		if (v[i] > out->max)
			out->max = v[i];
	}
	out->avg = n ? sum / (double)n : 0;
	for (size_t i = 0; i < n; i++)
		sq += (v[i] - out->avg) * (v[i] - out->avg);
	out->dev = n > 1 ? sqrt(sq / (double)(n - 1)) : 0;
	out->median = 0;
	if (n) {
		double *s = xcalloc(n, sizeof(*s));
		memcpy(s, v, n * sizeof(*s));
		qsort(s, n, sizeof(*s), exp_cmp_double);
		out->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
		free(s);
	}
}

void exp_summarize_finite(const double *v, size_t n, struct exp_summary *out)
{
	double *f = xcalloc(n ? n : 1, sizeof(*f));
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]))
			f[k++] = v[i];
	exp_summarize(f, k, out);
	free(f);
}

size_t exp_rank_text(const struct exp_summary *s, const char *const *names, size_t n, char *out,
		     size_t len)
{
	size_t *order = xcalloc(n ? n : 1, sizeof(*order));
	size_t k = 0, off = 0;
	/* Insertion sort of the arms with a usable pass: a handful of arms. */
	for (size_t i = 0; i < n; i++) {
		if (s[i].n == 0)
			continue;
		size_t j = k++;
		while (j > 0 && s[order[j - 1]].avg < s[i].avg) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
	out[0] = '\0';
	for (size_t j = 0; j < k; j++)
		off += (size_t)snprintf(out + off, off < len ? len - off : 0, "%s%s (%.4g)",
					j ? " > " : "", names[order[j]], s[order[j]].avg);
	for (size_t i = 0, first = 1; i < n; i++) {
		if (s[i].n != 0)
			continue;
		off += (size_t)snprintf(
		    out + off, off < len ? len - off : 0, "%s%s",
		    first ? (k ? "; no usable pass: " : "no usable pass: ") : ", ", names[i]);
		first = 0;
	}
	free(order);
	return k;
}

#define EXP_LENTZ_TINY 1e-300 /* keeps Lentz's denominators away from 0 */

/* One step of the modified Lentz method with coefficient aa: updates c and d and
 * returns the factor the fraction's value is multiplied by. */
static double exp_lentz_step(double aa, double *c, double *d)
{
	*d = 1 + aa * *d;
	if (fabs(*d) < EXP_LENTZ_TINY)
		*d = EXP_LENTZ_TINY;
	*c = 1 + aa / *c;
	if (fabs(*c) < EXP_LENTZ_TINY)
		*c = EXP_LENTZ_TINY;
	*d = 1 / *d;
	return *d * *c;
}

/* Continued fraction for the incomplete beta (modified Lentz's method). */
static double exp_betacf(double a, double b, double x)
{
	const double eps = 3e-16;
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d = 1 - qab * x / qap;

	if (fabs(d) < EXP_LENTZ_TINY)
		d = EXP_LENTZ_TINY;
	d = 1 / d;
	double h = d;
	for (int m = 1; m <= 300; m++) {
		int m2 = 2 * m;
		h *= exp_lentz_step(m * (b - m) * x / ((qam + m2) * (a + m2)), &c, &d);
		double del =
		    exp_lentz_step(-(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)), &c, &d);
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

double exp_betai(double a, double b, double x)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	double bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log(1 - x));
	/* Use the fraction where it converges fast, the symmetry relation elsewhere. */
	if (x < (a + 1) / (a + b + 2))
		return bt * exp_betacf(a, b, x) / a;
	return 1 - bt * exp_betacf(b, a, 1 - x) / b;
}

double exp_t_pvalue(double t, double df)
{
	if (!isfinite(t))
		return 0;
	return exp_betai(df / 2, 0.5, df / (df + t * t));
}

int exp_welch(const struct exp_summary *a, const struct exp_summary *b, double *t, double *df,
	      double *p)
{
	if (a->n < 2 || b->n < 2)
		return -1;
	double va = a->dev * a->dev / (double)a->n, vb = b->dev * b->dev / (double)b->n;
	double se = sqrt(va + vb);
	if (se == 0) {
		*t = a->avg == b->avg ? 0 : INFINITY;
		*df = (double)(a->n + b->n - 2);
		*p = a->avg == b->avg ? 1 : 0;
		return 0;
	}
	*t = (a->avg - b->avg) / se;
	*df = (va + vb) * (va + vb) / (va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1));
	*p = exp_t_pvalue(*t, *df);
	return 0;
}
