/* SPDX-License-Identifier: GPL-2.0-or-later */
/* metrics.c: the text writer (HELP, TYPE, escaping, histograms), the self and host families, and
 * the render of a snapshot (the mechanisms' families: metrics_engine.c). */
#include "tui/metrics/metrics.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"
#include "core/xalloc.h"
#include "tui/metrics/metrics_int.h"
#include "tui/options.h"

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

void metrics_list(FILE *out)
{
	char name[128];
	for (size_t i = 0; i < metric_nfamilies; i++) {
		const struct metric_family *f = &metric_families[i];
		fprintf(out, "%s\t%s\t%s\t%s\t%s\n", metrics_prom_name(f, name, sizeof(name)),
			metrics_type_name(f->type), f->unit[0] ? f->unit : "-",
			f->labels[0] ? f->labels : "-", f->help);
	}
}

void mw_family(struct mw *w, enum metric_id id)
{
	w->f = &metric_families[id];
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

/* ---- the families (the grouped ones: metrics_group.c) ---- */

void metrics_note(struct metrics_state *st, const struct snapshot *snap)
{
	for (size_t i = 0; i < snap->nevents; i++)
		if ((unsigned)snap->events[i].kind < EV_KIND_COUNT)
			st->events_total[snap->events[i].kind]++;
	for (int i = 0; snap->has_pmd && i < snap->pmd.nthreads; i++) {
		const struct pmd_thread_snap *t = &snap->pmd.threads[i];
		int j = 0;
		while (j < st->npmd_iter && strcmp(st->pmd_iter[j].name, t->name) != 0)
			j++;
		if (j == st->npmd_iter) {
			if (j == PMD_SNAP_MAX)
				continue;
			snprintf(st->pmd_iter[j].name, sizeof(st->pmd_iter[j].name), "%s", t->name);
			st->pmd_iter[j].total = 0;
			st->pmd_iter[j].host_took_ns = 0;
			st->npmd_iter++;
		}
		if (!t->no_rate) /* a host PMD's first sample has no interval yet */
			st->pmd_iter[j].total += t->iterations;
		/* A counter, so rate() gives the share and CPU seconds can be set against the
		 * time left (docs/pmd.md "CPU that can be compared"). */
		if (!t->no_rate && t->stolen_pct > 0 && snap->interval_s > 0)
			st->pmd_iter[j].host_took_ns +=
			    (uint64_t)(t->stolen_pct / 100.0 * snap->interval_s * 1e9);
	}
}

/* Rule id has a finding on s: the findings the front end attached, evaluated once for the
 * line, the exporter and the screen alike (tui/after.c). */
static bool metrics_finding(const struct snapshot *s, const char *id)
{
	for (int i = 0; s->diag.evaluated && i < s->diag.n; i++)
		if (strcmp(s->diag.f[i].id, id) == 0)
			return true;
	return false;
}

static void metrics_self(struct mw *w, const struct snapshot *s, const struct metrics_state *st)
{
	char buf[64];

	mw_family(w, M_INFO);
	mw_begin(w, "_info");
	mw_label(w, "version", TUNETOP_VERSION);
	mw_label(w, "backend", s->backend ? s->backend : "engine");
	mw_label(w, "governor_source", snapshot_governor_source(s));
	mw_label(w, "governor", snapshot_governor_name(s));
	mw_u64(w, 1);
	mw_family(w, M_UPTIME);
	mw_g(w, s->uptime_s);
	mw_family(w, M_SAMPLES);
	mw_c(w, s->seq);
	mw_family(w, M_SAMPLE_INTERVAL);
	mw_g(w, s->interval_s);
	/* A self figure the source lacks (a recording without it) has no sample, never a 0. */
	mw_family(w, M_SAMPLE_DURATION);
	if (!(s->self.absent & SELF_ABSENT_SAMPLE))
		mw_g(w, (double)s->self.sample_us / 1e6);
	mw_family(w, M_RENDER_DURATION);
	if (!(s->self.absent & SELF_ABSENT_RENDER))
		mw_g(w, (double)s->self.render_us / 1e6);
	mw_family(w, M_SELF_CPU);
	if (!(s->self.absent & SELF_ABSENT_CPU))
		mw_g(w, s->self.cpu_pct / 100.0);
	mw_family(w, M_KNOB);
	for (int k = 0; k < K_COUNT; k++)
		mw_g1(w, "knob", knob_table[k].name, (double)s->knobs[k]);
	metrics_knobs(w, s);
	mw_family(w, M_EVENTS);
	for (int k = 0; st && k < EV_KIND_COUNT; k++)
		mw_c1(w, "kind", event_kind_name((enum event_kind)k), st->events_total[k]);
	mw_family(w, M_DIAG);
	for (int i = 0; st && i < diag_rule_count(); i++)
		mw_g1(w, "rule", diag_rule_id(i), metrics_finding(s, diag_rule_id(i)) ? 1 : 0);

	mw_family(w, M_CPU_LOAD);
	for (int i = 0; i < s->ncpus; i++)
		snprintf(buf, sizeof(buf), "%d", s->cpus[i].id),
		    mw_g1(w, "cpu", buf, s->cpus[i].load_pct / 100.0);
	mw_family(w, M_CPU_FREQ);
	for (int i = 0; i < s->ncpus; i++)
		snprintf(buf, sizeof(buf), "%d", s->cpus[i].id),
		    mw_g1(w, "cpu", buf, (double)s->cpus[i].freq_mhz * 1e6);
	mw_family(w, M_CPU_ONLINE);
	for (int i = 0; i < s->ncpus; i++)
		snprintf(buf, sizeof(buf), "%d", s->cpus[i].id),
		    mw_g1(w, "cpu", buf, s->cpus[i].online ? 1 : 0);
	mw_family(w, M_THREADS_CPU);
	metrics_threads(w, s, st && st->tid);
}

static void metrics_host(struct mw *w, const struct snapshot *s, const struct metrics_state *st)
{
	const struct host_snap *h = &s->host;
	bool tid = st && st->tid;

	mw_family(w, M_HOST_LINK_RX);
	for (int i = 0; h->links_ok && i < h->nlinks; i++)
		mw_c1(w, "interface", h->links[i].name, h->links[i].rx_packets);
	mw_family(w, M_HOST_LINK_TX);
	for (int i = 0; h->links_ok && i < h->nlinks; i++)
		mw_c1(w, "interface", h->links[i].name, h->links[i].tx_packets);
	mw_family(w, M_HOST_LINK_RX_DROP);
	for (int i = 0; h->links_ok && i < h->nlinks; i++)
		mw_c1(w, "interface", h->links[i].name, h->links[i].rx_dropped);
	mw_family(w, M_HOST_LINK_TX_DROP);
	for (int i = 0; h->links_ok && i < h->nlinks; i++)
		mw_c1(w, "interface", h->links[i].name, h->links[i].tx_dropped);
	mw_family(w, M_HOST_NET_RX);
	for (int i = 0; h->links_ok && i < h->nlinks; i++)
		mw_c1(w, "device", h->links[i].name, h->links[i].rx_packets);
	mw_family(w, M_HOST_NET_TX);
	for (int i = 0; h->links_ok && i < h->nlinks; i++)
		mw_c1(w, "device", h->links[i].name, h->links[i].tx_packets);
	mw_family(w, M_HOST_NET_RX_DROP);
	for (int i = 0; h->links_ok && i < h->nlinks; i++)
		mw_c1(w, "device", h->links[i].name, h->links[i].rx_dropped);
	mw_family(w, M_HOST_NET_TX_DROP);
	for (int i = 0; h->links_ok && i < h->nlinks; i++)
		mw_c1(w, "device", h->links[i].name, h->links[i].tx_dropped);
	mw_family(w, M_HOST_CPU_DELAY);
	metrics_delay(w, s, tid, false);
	mw_family(w, M_HOST_BLKIO_DELAY);
	metrics_delay(w, s, tid, true);
	mw_family(w, M_HOST_TASKSTATS);
	mw_g(w, h->taskstats ? 1 : 0);
	mw_family(w, M_HOST_OVS);
	mw_g(w, h->ovs ? 1 : 0);
	mw_family(w, M_HOST_THREADS);
	mw_g(w, h->threads_matched);
	metrics_ovs(w, s);
}

void metrics_render(const struct snapshot *snap, const struct metrics_state *st,
		    enum metrics_format fmt, struct metrics_buf *b)
{
	struct mw w = {.b = b, .fmt = fmt};

	b->len = 0;
	mb_reserve(b, 0);
	b->p[0] = '\0';
	metrics_self(&w, snap, st);
	if (snap->has_est)
		metrics_est(&w, &snap->est);
	if (snap->has_pmd)
		metrics_pmd(&w, snap, st);
	if (snap->has_blk)
		metrics_blk(&w, snap);
	if (snap->has_host)
		metrics_host(&w, snap, st);
	if (fmt == METRICS_OPENMETRICS)
		mb_str(b, "# EOF\n");
}
