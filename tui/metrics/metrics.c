/* SPDX-License-Identifier: GPL-2.0-or-later */
/* metrics.c: the self and host families and the render of a snapshot (the mechanisms'
 * families: metrics_engine.c; the writer: metrics_write.c). */
#include "tui/metrics/metrics.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "tui/metrics/metrics_int.h"
#include "tui/options.h"

/* ---- the families (the grouped ones: metrics_group.c) ---- */

void metrics_note(struct metrics_state *st, const struct snapshot *snap)
{
	for (size_t i = 0; i < snap->nevents; i++)
		if ((unsigned)snap->events[i].kind < EV_KIND_COUNT)
			st->events_total[snap->events[i].kind]++;
	diag_eval(&st->diag, snap, NULL, 0);
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
		mw_g1(w, "rule", diag_rule_id(i), diag_rule_active(&st->diag, i) ? 1 : 0);

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
	metrics_buf_put(b, "", 0); /* an empty string, even when nothing follows */
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
		metrics_buf_put(b, "# EOF\n", 6);
}
