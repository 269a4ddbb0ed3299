/* SPDX-License-Identifier: GPL-2.0-or-later */
/* metrics.c: what the exporter keeps across snapshots, and the render of one (its families:
 * metrics_engine.c; the writer: metrics_write.c). */
#include "tui/metrics/metrics.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

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

void metrics_render(const struct snapshot *snap, const struct metrics_state *st,
		    enum metrics_format fmt, struct metrics_buf *b)
{
	struct mw w = {.b = b, .fmt = fmt};

	b->len = 0;
	metrics_buf_put(b, "", 0); /* an empty string, even when nothing follows */
	metrics_families(&w, snap, st);
	if (fmt == METRICS_OPENMETRICS)
		metrics_buf_put(b, "# EOF\n", 6);
}
