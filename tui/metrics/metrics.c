/* SPDX-License-Identifier: GPL-2.0-or-later */
/* metrics.c: what the exporter keeps across snapshots, and the render of one: every family in
 * the family table's order (metrics_table.c), its figure of the snapshot or of each of its rows,
 * or what its function writes (the writer: metrics_write.c). */
#include "tui/metrics/metrics.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core/snap_schema.h"
#include "tui/metrics/metrics_int.h"

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

/* The rows a family's samples are of: where they start, how many, how far apart. */
static const char *metrics_rows(const struct snapshot *s, int rows, int *n, size_t *size)
{
	const struct host_snap *h = &s->host;
	switch (rows) {
	case R_CPU:
		*n = s->ncpus, *size = sizeof(*s->cpus);
		return (const char *)s->cpus;
	case R_KT:
		*n = s->est.nkt, *size = sizeof(s->est.kt[0]);
		return (const char *)s->est.kt;
	case R_PMD:
		*n = s->pmd.nthreads, *size = sizeof(s->pmd.threads[0]);
		return (const char *)s->pmd.threads;
	case R_BLKCPU:
		*n = s->blk.ncpus < BLK_SNAP_MAX_CPUS ? s->blk.ncpus : BLK_SNAP_MAX_CPUS;
		*size = sizeof(s->blk.per_cpu[0]);
		return (const char *)s->blk.per_cpu;
	case R_LINK:
		*n = h->links_ok ? h->nlinks : 0, *size = sizeof(h->links[0]);
		return (const char *)h->links;
	case R_OVSPMD:
		*n = h->ovs ? h->novs_pmds : 0, *size = sizeof(h->ovs_pmds[0]);
		return (const char *)h->ovs_pmds;
	}
	*n = 1, *size = 0;
	return (const char *)s;
}

static uint64_t metrics_u64(int type, const char *m)
{
	return type == SFT_U64	 ? *(const uint64_t *)m
	       : type == SFT_U32 ? *(const uint32_t *)m
	       : type == SFT_INT ? (uint64_t) * (const int *)m
				 : *(const bool *)m;
}

static double metrics_f64(int type, int scale, const char *m)
{
	double v = type == SFT_DBL   ? *(const double *)m
		   : type == SFT_INT ? (double)*(const int *)m
				     : (double)metrics_u64(type, m);
	static const double div[] = {[SC_1] = 1, [SC_PCT] = 100, [SC_US] = 1e6, [SC_NS] = 1e9};
	return scale == SC_MHZ ? v * 1e6 : v / div[scale];
}

/* One family's samples: one figure, or one per row labelled by the row's name or id. */
static void metrics_row(struct mw *w, const struct snapshot *s, const struct metric_family *r)
{
	bool counter = r->type == MT_COUNTER;
	size_t size;
	int n;
	const char *base = metrics_rows(s, r->rows, &n, &size);
	char id[16];
	for (int i = 0; i < n; i++) {
		const char *row = base + (size_t)i * size;
		double v = metrics_f64(r->ftype, r->scale, row + r->off);
		if (r->skip_neg && v < 0)
			continue;
		mw_begin(w, counter ? "_total" : "");
		if (r->rows != R_ONE) {
			/* every row struct begins with its name, or with its int id */
			bool named = r->rows == R_PMD || r->rows == R_LINK || r->rows == R_OVSPMD;
			if (!named)
				snprintf(id, sizeof(id), "%d", *(const int *)row);
			mw_label(w, r->labels, named ? row : id);
		}
		if (counter)
			mw_u64(w, metrics_u64(r->ftype, row + r->off));
		else
			mw_f64(w, v);
	}
}

static void metrics_families(struct mw *w, const struct snapshot *s, const struct metrics_state *st)
{
	const bool has[] = {true, s->has_est, s->has_pmd, s->has_blk, s->has_host};
	for (size_t i = 0; i < metric_nfamilies; i++) {
		const struct metric_family *r = &metric_families[i];
		if ((!r->fn && r->rows == R_NONE) || !has[r->sec] ||
		    (r->absent && snapshot_absent(s, r->absent)) ||
		    (s->self.absent & r->self_bit) ||
		    (r->valid && !*(const bool *)((const char *)s + r->valid)))
			continue;
		mw_family(w, (enum metric_id)i);
		if (r->fn)
			r->fn(w, s, st);
		else
			metrics_row(w, s, r);
	}
}

void metrics_render(const struct snapshot *snap, const struct metrics_state *st,
		    enum metrics_format fmt, struct metrics_buf *b)
{
	struct mw w = {.b = b, .fmt = fmt, .fams = metric_families};

	b->len = 0;
	metrics_buf_put(b, "", 0); /* an empty string, even when nothing follows */
	metrics_families(&w, snap, st);
	if (fmt == METRICS_OPENMETRICS)
		metrics_buf_put(b, "# EOF\n", 6);
}
