/* SPDX-License-Identifier: GPL-2.0-or-later */
/* metrics.h: a snapshot as Prometheus text (0.0.4) or OpenMetrics 1.0.0 text; no I/O, no curses. */
#ifndef TT_METRICS_H
#define TT_METRICS_H

#include <stdint.h>
#include <stdio.h>

#include "core/snapshot.h"
#include "diag/diag.h"

enum metrics_format { METRICS_PROM, METRICS_OPENMETRICS, METRICS_NFORMATS };

enum metric_type { MT_COUNTER, MT_GAUGE, MT_HISTOGRAM, MT_INFO, MT_SUMMARY };

/*
 * One metric family: the table README's metrics section is generated from
 * (`tunetop --list-metrics`). name is the family name as OpenMetrics writes it
 * in # TYPE: a counter's samples add "_total", an info's "_info"; the Prometheus
 * 0.0.4 text names the counter "..._total" and the info "..._info" (a gauge) in
 * its # TYPE line too. unit is the name's unit suffix ("" none).
 */
struct mw;
struct metrics_state;
struct metric_family {
	const char *name;
	enum metric_type type;
	const char *unit;
	const char *labels; /* "pmd" or "tid,name,subsystem" ("" none) */
	const char *help;
	/* What it writes (metrics_engine.c): the figure at off of the snapshot or of each of its
	 * rows (labelled by labels), scaled to the base unit, or what fn writes; neither: the
	 * family before it writes this one too. */
	uint8_t sec, rows, ftype, scale;
	bool skip_neg; /* a negative figure is unknown: no sample (a host PMD's first) */
	uint8_t self_bit; /* SELF_ABSENT_*: a recording that lacks it has no sample */
	uint32_t off; /* in struct snapshot (R_ONE) or in the row's struct */
	uint32_t valid; /* offsetof a bool in struct snapshot that makes it known, 0 none */
	const char *absent; /* the host.absent name that leaves the family out */
	void (*fn)(struct mw *w, const struct snapshot *s, const struct metrics_state *st);
};

extern const struct metric_family metric_families[];
extern const size_t metric_nfamilies;

/* What the exporter counts across snapshots itself (snapshots carry only new events). */
struct metrics_state {
	uint64_t events_total[EV_KIND_COUNT];
	bool tid; /* --metrics-tid: thread series by tid rather than summed by thread name */
	/* PMD loop iterations since tunetop started, summed from the snapshots' interval
	 * counts by PMD name (the sources keep no running total of them). */
	int npmd_iter;
	struct {
		char name[16];
		uint64_t total;
		/* Host took (stolen_pct x the interval) summed the same way, ns. */
		uint64_t host_took_ns;
	} pmd_iter[PMD_SNAP_MAX];
};

/* Add this snapshot's new events to the totals (call once per snapshot). The diagnosis gauge
 * reads the findings the front end put on the snapshot (tui/after.h). */
void metrics_note(struct metrics_state *st, const struct snapshot *snap);

/* A growing text buffer (the caller frees p). */
struct metrics_buf {
	char *p;
	size_t len, cap;
};

/* Render snap (and st's totals; st may be NULL) in fmt, replacing b's text. */
void metrics_render(const struct snapshot *snap, const struct metrics_state *st,
		    enum metrics_format fmt, struct metrics_buf *b);

/* "text/plain; version=0.0.4; charset=utf-8" or the OpenMetrics one. */
const char *metrics_content_type(enum metrics_format fmt);
/* The format an HTTP Accept header asks for (metrics_accept.c): OpenMetrics only when one of
 * its media ranges (any case) has q > 0 and no lower q than the 0.0.4 text's; NULL: 0.0.4. */
enum metrics_format metrics_format_for_accept(const char *accept);
/* Whether an Accept-Encoding header takes gzip (or x-gzip, or "*") with q > 0 (NULL: no). */
bool metrics_accepts_gzip(const char *accept_encoding);
/* The name as 0.0.4 text writes it in # TYPE ("x_total" for a counter, "x_info" for an info). */
const char *metrics_prom_name(const struct metric_family *f, char *buf, size_t len);
/* "counter", "gauge", "histogram", "info", "summary". */
const char *metrics_type_name(enum metric_type t);
/* One family a line: name, type, unit, labels, help, tab-separated (--list-metrics). */
void metrics_list(FILE *out);

/* Append n bytes of s to b. */
void metrics_buf_put(struct metrics_buf *b, const char *s, size_t n);
/* Append the process_* families, read from /proc/self now (metrics_process.c), to a text
 * metrics_render wrote in fmt (before an OpenMetrics text's "# EOF"). Call it when the text
 * is handed out (a scrape, a -o write), so the figures are of that moment. */
void metrics_add_process(struct metrics_buf *b, enum metrics_format fmt);

/* Append s to b with label-value escaping (backslash, double quote, newline). */
void metrics_escape_label(struct metrics_buf *b, const char *s);

#endif
