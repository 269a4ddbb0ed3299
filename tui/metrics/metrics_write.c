/* SPDX-License-Identifier: GPL-2.0-or-later */
/* metrics_write.c: the text writer of both exposition formats: the growing buffer, escaping,
 * a family's HELP/TYPE/UNIT header, sample lines and histograms. A leaf: it reads only the
 * family table (metrics_table.c); the families' values are written by metrics.c and
 * metrics_engine.c, metrics_group.c and metrics_ovs.c. */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"
#include "core/xalloc.h"
#include "tui/metrics/metrics_int.h"
/* ---- the buffer ---- */

static void mb_reserve(struct metrics_buf *b, size_t more)
{
	if (b->len + more + 1 <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 4096;
	while (cap < b->len + more + 1)
		cap *= 2;
	b->p = xrealloc(b->p, cap);
	b->cap = cap;
}

static void mb_put(struct metrics_buf *b, const char *s, size_t n)
{
	mb_reserve(b, n);
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void mb_str(struct metrics_buf *b, const char *s)
{
	mb_put(b, s, strlen(s));
}

static void mb_printf(struct metrics_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void mb_printf(struct metrics_buf *b, const char *fmt, ...)
{
	va_list ap;
	/* Format straight into the free space; only a line that does not fit runs twice. */
	mb_reserve(b, 128);
	va_start(ap, fmt);
	int n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	if ((size_t)n >= b->cap - b->len) {
		mb_reserve(b, (size_t)n);
		va_start(ap, fmt);
		vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	b->len += (size_t)n;
}

/* Escape backslash (both formats) and the double quote when quote is set, in s[0..n). */
static void mb_escaped_line(struct metrics_buf *b, const char *s, size_t n, bool quote)
{
	while (n) {
		size_t plain = strcspn(s, quote ? "\\\"" : "\\");
		if (plain > n)
			plain = n;
		mb_put(b, s, plain);
		s += plain;
		n -= plain;
		if (!n)
			break;
		mb_put(b, *s == '\\' ? "\\\\" : "\\\"", 2);
		s++;
		n--;
	}
}

/*
 * Escape backslash and newline (both formats), and the double quote when quote is set.
 * Both formats are UTF-8 and a parser rejects the whole scrape for one bad byte, so a
 * name of raw bytes (any user can name a thread so) is written with U+FFFD instead; and
 * the text is read on terminals (-b, curl), so a control character is written as core/utf8.h
 * has it (ESC as "^["): a thread name cannot send the reader's terminal escape sequences.
 */
static void mb_escaped(struct metrics_buf *b, const char *s, bool quote)
{
	for (;;) {
		const char *nl = strchrnul(s, '\n');
		size_t n = (size_t)(nl - s);
		if (utf8_term_safe(s, n)) {
			mb_escaped_line(b, s, n, quote);
		} else {
			char *line = xmalloc(n + 1);
			memcpy(line, s, n);
			line[n] = '\0';
			size_t need = utf8_sanitize_term(NULL, 0, line) + 1;
			char *fixed = xmalloc(need);
			utf8_sanitize_term(fixed, need, line);
			mb_escaped_line(b, fixed, strlen(fixed), quote);
			free(fixed);
			free(line);
		}
		if (!*nl)
			break;
		mb_put(b, "\\n", 2);
		s = nl + 1;
	}
}

void metrics_buf_put(struct metrics_buf *b, const char *s, size_t n)
{
	mb_put(b, s, n);
}

void metrics_escape_label(struct metrics_buf *b, const char *s)
{
	mb_escaped(b, s, true);
}

/* ---- names and the header of a family ---- */

const char *metrics_type_name(enum metric_type t)
{
	static const char *const names[] = {"counter", "gauge", "histogram", "info", "summary"};
	return (unsigned)t < sizeof(names) / sizeof(names[0]) ? names[t] : "unknown";
}

const char *metrics_prom_name(const struct metric_family *f, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", f->name,
		 f->type == MT_COUNTER ? "_total"
		 : f->type == MT_INFO  ? "_info"
				       : "");
	return buf;
}

const char *metrics_content_type(enum metrics_format fmt)
{
	return fmt == METRICS_OPENMETRICS
		   ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
		   : "text/plain; version=0.0.4; charset=utf-8";
}

void mw_family(struct mw *w, enum metric_id id)
{
	w->f = &w->fams[id];
	w->header = false;
}

static void mw_header(struct mw *w)
{
	const struct metric_family *f = w->f;
	char name[128];
	bool om = w->fmt == METRICS_OPENMETRICS;
	/* 0.0.4 names the counter with its _total and knows no info type (a gauge);
	 * OpenMetrics names the family without the suffix its samples carry. */
	const char *n = om ? f->name : metrics_prom_name(f, name, sizeof(name));
	const char *type = !om && f->type == MT_INFO ? "gauge" : metrics_type_name(f->type);

	mb_printf(w->b, "# HELP %s ", n);
	mb_escaped(w->b, f->help, om);
	mb_printf(w->b, "\n# TYPE %s %s\n", n, type);
	if (om && f->unit[0])
		mb_printf(w->b, "# UNIT %s %s\n", n, f->unit);
	w->header = true;
}

void mw_begin(struct mw *w, const char *suffix)
{
	if (!w->header)
		mw_header(w);
	mb_str(w->b, w->f->name);
	mb_str(w->b, suffix);
	w->labels = false;
}

void mw_label(struct mw *w, const char *key, const char *value)
{
	mb_put(w->b, w->labels ? "," : "{", 1);
	mb_str(w->b, key);
	mb_put(w->b, "=\"", 2);
	mb_escaped(w->b, value, true);
	mb_put(w->b, "\"", 1);
	w->labels = true;
}

void mw_label_int(struct mw *w, const char *key, long long v)
{
	char buf[24];
	snprintf(buf, sizeof(buf), "%lld", v);
	mw_label(w, key, buf);
}

static void mw_close(struct mw *w)
{
	if (w->labels)
		mb_put(w->b, "}", 1);
	mb_put(w->b, " ", 1);
}

/* A float as both formats read it; OpenMetrics wants "1.0" rather than "1" in le. */
static void mb_float(struct metrics_buf *b, double v, bool om_le)
{
	char buf[40];
	if (isnan(v)) {
		mb_str(b, "NaN");
		return;
	}
	if (isinf(v)) {
		mb_str(b, v > 0 ? "+Inf" : "-Inf");
		return;
	}
	snprintf(buf, sizeof(buf), "%.9g", v);
	mb_str(b, buf);
	if (om_le && !strpbrk(buf, ".e"))
		mb_str(b, ".0");
}

void mw_f64(struct mw *w, double v)
{
	mw_close(w);
	mb_float(w->b, v, false);
	mb_put(w->b, "\n", 1);
}

void mw_u64(struct mw *w, uint64_t v)
{
	mw_close(w);
	mb_printf(w->b, "%" PRIu64 "\n", v);
}

/* Nanoseconds as seconds, exactly (a float would lose the ns of a long uptime). */
void mw_ns_s(struct mw *w, uint64_t ns)
{
	mw_close(w);
	mb_printf(w->b, "%" PRIu64 ".%09" PRIu64 "\n", ns / 1000000000u, ns % 1000000000u);
}

/* Shorthands: one unlabelled or one-label sample of the current family. */
void mw_g(struct mw *w, double v)
{
	mw_begin(w, "");
	mw_f64(w, v);
}

void mw_c(struct mw *w, uint64_t v)
{
	mw_begin(w, "_total");
	mw_u64(w, v);
}

void mw_g1(struct mw *w, const char *k, const char *lv, double v)
{
	mw_begin(w, "");
	mw_label(w, k, lv);
	mw_f64(w, v);
}

void mw_c1(struct mw *w, const char *k, const char *lv, uint64_t v)
{
	mw_begin(w, "_total");
	mw_label(w, k, lv);
	mw_u64(w, v);
}

/*
 * A histogram from cumulative counts under each bound (le_s[] ascending, in the
 * metric's unit), the total count and the sum: _bucket lines, the +Inf bucket
 * equal to _count, then _sum and _count. k/lv: one optional label.
 */
void mw_hist(struct mw *w, const char *k, const char *lv, size_t n, const double *le_s,
	     const uint64_t *cum, uint64_t count, double sum)
{
	for (size_t i = 0; i <= n; i++) {
		mw_begin(w, "_bucket");
		if (k)
			mw_label(w, k, lv);
		mb_put(w->b, w->labels ? ",le=\"" : "{le=\"", 5);
		if (i < n)
			mb_float(w->b, le_s[i], w->fmt == METRICS_OPENMETRICS);
		else
			mb_str(w->b, "+Inf");
		mb_str(w->b, "\"} ");
		/* Counts are cumulative: a bound never counts fewer than the one below it. */
		uint64_t v = i < n ? cum[i] : count;
		mb_printf(w->b, "%" PRIu64 "\n", v);
	}
	mw_begin(w, "_sum");
	if (k)
		mw_label(w, k, lv);
	mw_f64(w, sum);
	mw_begin(w, "_count");
	if (k)
		mw_label(w, k, lv);
	mw_u64(w, count);
}
