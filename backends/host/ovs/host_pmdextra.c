/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_pmdextra.c: the pmd section's OVS extras on the host: pmd-stats-show's totals and hit
 * shares per PMD and in total, pmd-rxq-show's queues, pmd-perf-show's histograms and ovsdb's
 * Interface drop counters with their rates (docs/pmd.md "Host mode: what an operator reads"). */
#include <stdio.h>
#include <string.h>

#include "backends/host/host_int.h"
#include "backends/host/ovs/host_ovshist.h"
#include "backends/host/ovs/host_ovssusp.h"

const struct host_pmd_stats *host_pmd_stats_find(const struct host_ovs_stats *s, int core)
{
	for (int j = 0; s && j < s->npmds; j++)
		if (s->pmd[j].core_id == core)
			return &s->pmd[j];
	return NULL;
}

/* A counter's rate over the interval; false when it has no baseline or went back (cleared). */
bool host_counter_delta(uint64_t now, uint64_t before, uint64_t *d)
{
	if (now < before)
		return false;
	*d = now - before;
	return true;
}

/* n of the interval's passes, in % within 0..100 (a hit counted past a pass is not 101 %). */
static double share(uint64_t n, uint64_t passes)
{
	double v = 100.0 * (double)n / (double)passes;
	return v > 100 ? 100 : v;
}

/*
 * The hit shares of x over the interval, from the deltas of c (now) over o (the last sample):
 * none without a baseline, when no packet passed, or when a counter went back (cleared).
 * The deltas are added to *sum for the total; *sum_ok turns false when a PMD has none.
 */
static void host_pmd_shares(struct host_ovs_pmd_snap *x, const struct host_pmd_stats *c,
			    const struct host_pmd_stats *o, struct host_pmd_stats *sum,
			    bool *sum_ok)
{
	uint64_t dp, dr, ds, de, dm, dg, dw;
	x->simple_pct = x->emc_pct = x->smc_pct = x->megaflow_pct = x->phwol_pct = -1;
	x->passes = -1;
	if (!o || !host_counter_delta(c->packets, o->packets, &dp) ||
	    !host_counter_delta(c->recirc, o->recirc, &dr) ||
	    !host_counter_delta(c->simple_hits, o->simple_hits, &ds) ||
	    !host_counter_delta(c->emc_hits, o->emc_hits, &de) ||
	    !host_counter_delta(c->smc_hits, o->smc_hits, &dm) ||
	    !host_counter_delta(c->megaflow_hits, o->megaflow_hits, &dg) ||
	    !host_counter_delta(c->phwol_hits, o->phwol_hits, &dw)) {
		*sum_ok = false;
		return;
	}
	sum->packets += dp;
	sum->recirc += dr;
	sum->simple_hits += ds;
	sum->emc_hits += de;
	sum->smc_hits += dm;
	sum->megaflow_hits += dg;
	sum->phwol_hits += dw;
	sum->has_phwol |= c->has_phwol;
	x->passes = (int64_t)(dp + dr);
	if (dp + dr == 0)
		return;
	x->simple_pct = share(ds, dp + dr);
	x->emc_pct = share(de, dp + dr);
	x->smc_pct = share(dm, dp + dr);
	x->megaflow_pct = share(dg, dp + dr);
	if (c->has_phwol)
		x->phwol_pct = share(dw, dp + dr);
}

/* The PMDs together: totals summed, shares of the summed passes, upcall rates summed. */
static void host_pmd_total(struct host_snap *hs, const struct host_pmd_stats *sum, bool sum_ok)
{
	struct host_ovs_pmd_snap *t = &hs->ovs_total;
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "total");
	t->core_id = -1;
	t->cycles_per_pkt = t->overhead_pct = -1;
	t->isolated = -1;
	t->upcalls_per_s = t->lost_upcalls_per_s = 0;
	for (int i = 0; i < hs->novs_pmds; i++) {
		const struct host_ovs_pmd_snap *x = &hs->ovs_pmds[i];
		t->packets += x->packets;
		t->recirc += x->recirc;
		t->simple_hits += x->simple_hits;
		t->emc_hits += x->emc_hits;
		t->smc_hits += x->smc_hits;
		t->megaflow_hits += x->megaflow_hits;
		t->phwol_hits += x->phwol_hits;
		t->upcalls += x->upcalls;
		t->lost_upcalls += x->lost_upcalls;
		if (x->upcalls_per_s < 0 || t->upcalls_per_s < 0)
			t->upcalls_per_s = t->lost_upcalls_per_s = -1;
		else
			t->upcalls_per_s += x->upcalls_per_s,
			    t->lost_upcalls_per_s += x->lost_upcalls_per_s;
	}
	struct host_pmd_stats zero = {0};
	bool ok = true;
	t->simple_pct = t->emc_pct = t->smc_pct = t->megaflow_pct = t->phwol_pct = -1;
	t->passes = -1;
	if (sum_ok && hs->novs_pmds > 0) {
		struct host_pmd_stats scratch = {0};
		host_pmd_shares(t, sum, &zero, &scratch, &ok);
	}
}

void host_pmdsec_extras(struct host_state *h, struct snapshot *snap, double dt_s,
			const struct host_ovs_stats *st, bool st_ok, const struct host_ovs_rxqs *rq,
			bool rq_ok)
{
	struct host_snap *hs = &snap->host;
	struct pmd_snap *p = &snap->pmd;
	struct host_pmd_stats sum = {0};
	bool sum_ok = true;

	for (int i = 0; st_ok && i < st->npmds && hs->novs_pmds < HOST_SNAP_MAX_OVS_PMDS; i++) {
		const struct host_pmd_stats *c = &st->pmd[i];
		const struct host_pmd_stats *o =
		    h->have_stats_prev ? host_pmd_stats_find(&h->stats_prev, c->core_id) : NULL;
		struct host_ovs_pmd_snap *x = &hs->ovs_pmds[hs->novs_pmds++];
		uint64_t dp, dc, du, dl;
		snprintf(x->name, sizeof(x->name), "pmd-c%02d", c->core_id);
		for (int k = 0; k < p->nthreads; k++)
			if (strncmp(p->threads[k].name, x->name, strlen(x->name)) == 0)
				snprintf(x->name, sizeof(x->name), "%s", p->threads[k].name);
		x->core_id = c->core_id;
		x->packets = c->packets;
		x->emc_hits = c->emc_hits;
		x->smc_hits = c->smc_hits;
		x->megaflow_hits = c->megaflow_hits;
		x->simple_hits = c->simple_hits;
		x->upcalls = c->upcalls;
		x->lost_upcalls = c->lost_upcalls;
		x->recirc = c->recirc;
		x->phwol_hits = c->phwol_hits;
		host_pmd_shares(x, c, o, &sum, &sum_ok);
		x->cycles_per_pkt = -1;
		x->upcalls_per_s = x->lost_upcalls_per_s = -1;
		x->isolated = -1;
		x->overhead_pct = -1;
		if (o && host_counter_delta(c->packets, o->packets, &dp) &&
		    host_counter_delta(c->proc_cycles, o->proc_cycles, &dc) && dp > 0)
			x->cycles_per_pkt = (double)dc / (double)dp;
		if (o && dt_s > 0 && host_counter_delta(c->upcalls, o->upcalls, &du) &&
		    host_counter_delta(c->lost_upcalls, o->lost_upcalls, &dl)) {
			x->upcalls_per_s = (double)du / dt_s;
			x->lost_upcalls_per_s = (double)dl / dt_s;
		}
		for (int k = 0; rq_ok && k < rq->npmds; k++)
			if (rq->pmd[k].core_id == c->core_id) {
				x->isolated = rq->pmd[k].isolated;
				x->overhead_pct = rq->pmd[k].overhead_pct;
			}
	}
	if (st_ok)
		host_pmd_total(hs, &sum, sum_ok);
	for (int i = 0; rq_ok && i < rq->nrxqs && hs->novs_rxqs < HOST_SNAP_MAX_RXQS; i++) {
		struct host_ovs_rxq_snap *q = &hs->ovs_rxqs[hs->novs_rxqs++];
		snprintf(q->port, sizeof(q->port), "%s", rq->rxq[i].port);
		q->queue = rq->rxq[i].queue;
		q->core_id = rq->rxq[i].core_id;
		q->enabled = rq->rxq[i].enabled;
		q->usage_pct = rq->rxq[i].usage_pct;
	}
	if (st_ok) {
		h->stats_prev = *st;
		h->have_stats_prev = true;
	}
}

/*
 * The drop counters of one interface and their rates since the last sample's ovsdb read,
 * over the time between the two reads. ovs-vswitchd writes them to ovsdb every
 * stats-update-interval (5 s by default), so a rate is 0 between its writes and the whole
 * step at one (docs/pmd.md "Host mode: what an operator reads"). A counter gone back gives none.
 */
static void host_iface_rates(const struct host_state *h, struct host_ovs_iface_snap *o,
			     const struct host_ovsdb_iface *f)
{
	const struct host_iface_prev *v = NULL;
	for (int j = 0; h->iface_prev_ns && j < h->niface_prev; j++)
		if (strcmp(h->iface_prev[j].name, f->name) == 0)
			v = &h->iface_prev[j];
	double dt = v && h->dbread_ns > h->iface_prev_ns
			? (double)(h->dbread_ns - h->iface_prev_ns) / 1e9
			: 0;
	for (int k = 0; k < HOST_IFACE_NDROPS; k++) {
		o->drops[k] = f->drops[k];
		o->drop_per_s[k] = -1;
		if (dt > 0 && f->drops[k] >= 0 && v->drops[k] >= 0 && f->drops[k] >= v->drops[k])
			o->drop_per_s[k] = (double)(f->drops[k] - v->drops[k]) / dt;
	}
}

/* Whether OVS's histogram name is one the pmd view draws: cycles/it, packets/it, a sleep one. */
static bool host_hist_drawn(const char *name)
{
	return strcmp(name, "cycles/it") == 0 || strcmp(name, "packets/it") == 0 ||
	       strstr(name, "sleep") != NULL;
}

/* The TSC rate OVS counts in (one for all its PMDs): the best fixed of the PMD blocks'. */
static bool host_pmd_tsc(const struct host_ovs_perf *perf, struct host_ovs_tsc *tsc)
{
	bool ok = false;
	for (int i = 0; i < perf->npmds; i++) {
		struct host_ovs_tsc t;
		if (host_ovs_tsc_from_perf(&perf->pmd[i], &t) && (!ok || t.rel_err < tsc->rel_err))
			*tsc = t, ok = true;
	}
	return ok;
}

/* The "Measurement duration" of the PMD block of core, -1 without one. */
static double host_perf_duration(const struct host_ovs_perf *perf, int core)
{
	for (int i = 0; i < perf->npmds; i++)
		if (perf->pmd[i].core_id == core)
			return perf->pmd[i].duration_s;
	return -1;
}

/* x's suspicious iterations from its histograms ph (NULL: none printed) and their rates
 * against the last sample's bounds, over the difference of OVS's two durations. */
static void host_pmd_susp(struct host_state *h, struct host_ovs_pmd_snap *x,
			  const struct host_ovs_pmd_hists *ph, const struct host_ovs_perf *perf,
			  const struct host_ovs_tsc *tsc, bool tsc_ok)
{
	struct host_ovs_susp c;
	double dur = host_perf_duration(perf, x->core_id);
	x->susp_min = x->susp_max = -1;
	x->susp_min_per_s = x->susp_max_per_s = -1;
	x->susp_us = OVS_ITER_US_THRESHOLD;
	x->susp_qlen = OVS_VHOST_QUEUE_FULL;
	x->tsc_hz = tsc_ok ? tsc->hz : -1;
	if (!ph) {
		snprintf(x->susp_why, sizeof(x->susp_why), "no histograms (pmd-perf-metrics off)");
		return;
	}
	if (!tsc_ok) {
		snprintf(x->susp_why, sizeof(x->susp_why), "TSC rate not fixed by pmd-perf-show");
		return;
	}
	if (tsc->hz < HOST_OVS_TSC_MIN_HZ) {
		snprintf(x->susp_why, sizeof(x->susp_why), "OVS has no TSC rate (%.0f Hz)",
			 tsc->hz);
		return;
	}
	if (host_ovs_susp_count(ph, tsc, OVS_ITER_US_THRESHOLD, OVS_VHOST_QUEUE_FULL, &c) != 0) {
		snprintf(x->susp_why, sizeof(x->susp_why), "no cycles/it histogram");
		return;
	}
	x->susp_why[0] = '\0';
	x->susp_min = (int64_t)c.min;
	x->susp_max = (int64_t)c.max;
	for (int j = 0; j < h->nsusp_prev; j++) {
		const struct host_susp_prev *o = &h->susp_prev[j];
		double dt = dur - o->duration_s;
		/* A count gone back is a pmd-stats-clear: no rate for that interval. */
		if (o->core_id != x->core_id || o->duration_s < 0 || dur < 0 || dt <= 0 ||
		    x->susp_min < o->min || x->susp_max < o->max)
			continue;
		x->susp_min_per_s = (double)(x->susp_min - o->min) / dt;
		x->susp_max_per_s = (double)(x->susp_max - o->max) / dt;
	}
}

/* Each PMD's drawn histograms, by its core, and its suspicious iterations. */
void host_pmdsec_hists(struct host_state *h, struct host_snap *hs,
		       const struct host_ovs_hists *hists, const struct host_ovs_perf *perf)
{
	struct host_ovs_tsc tsc;
	bool tsc_ok = host_pmd_tsc(perf, &tsc);
	struct host_susp_prev next[HOST_SNAP_MAX_OVS_PMDS];
	int nnext = 0;
	for (int i = 0; i < hs->novs_pmds; i++) {
		struct host_ovs_pmd_snap *x = &hs->ovs_pmds[i];
		const struct host_ovs_pmd_hists *found = NULL;
		x->nhists = 0;
		for (int j = 0; j < hists->npmds; j++) {
			const struct host_ovs_pmd_hists *ph = &hists->pmd[j];
			if (ph->core_id != x->core_id)
				continue;
			found = ph;
			for (int k = 0; k < ph->nhists && x->nhists < HOST_OVS_SNAP_HISTS; k++)
				if (host_hist_drawn(ph->hist[k].name))
					x->hist[x->nhists++] = ph->hist[k];
		}
		host_pmd_susp(h, x, found, perf, &tsc, tsc_ok);
		if (x->susp_min >= 0)
			next[nnext++] =
			    (struct host_susp_prev){x->core_id, x->susp_min, x->susp_max,
						    host_perf_duration(perf, x->core_id)};
	}
	memcpy(h->susp_prev, next, sizeof(next[0]) * (size_t)nnext);
	h->nsusp_prev = nnext;
}

void host_pmdsec_ifaces(struct host_state *h, struct host_snap *hs)
{
	hs->ovsdb = h->dbread_ok;
	snprintf(hs->ovsdb_error, sizeof(hs->ovsdb_error), "%s", h->dbread_ok ? "" : h->ovsdb_err);
	snprintf(hs->ovs_maxsleep_value, sizeof(hs->ovs_maxsleep_value), "%s",
		 h->have_maxsleep ? h->maxsleep_val : "");
	hs->ovsdb_interval_s = h->dbread_ok && h->iface_prev_ns && h->dbread_ns > h->iface_prev_ns
				   ? (double)(h->dbread_ns - h->iface_prev_ns) / 1e9
				   : -1;
	for (int i = 0; h->dbread_ok && i < h->dbread->nifaces && i < HOST_SNAP_MAX_IFACES; i++) {
		const struct host_ovsdb_iface *f = &h->dbread->iface[i];
		struct host_ovs_iface_snap *o = &hs->ovs_ifaces[hs->novs_ifaces++];
		snprintf(o->name, sizeof(o->name), "%s", f->name);
		o->rx_dropped = f->rx_dropped;
		o->tx_dropped = f->tx_dropped;
		o->rx_errors = f->rx_errors;
		o->tx_errors = f->tx_errors;
		host_iface_rates(h, o, f);
	}
	/* This read is the next one's baseline (a failed read keeps the old one). */
	if (!h->dbread_ok)
		return;
	h->niface_prev = 0;
	for (int i = 0; i < h->dbread->nifaces && i < HOST_SNAP_MAX_IFACES; i++) {
		struct host_iface_prev *v = &h->iface_prev[h->niface_prev++];
		snprintf(v->name, sizeof(v->name), "%s", h->dbread->iface[i].name);
		memcpy(v->drops, h->dbread->iface[i].drops, sizeof(v->drops));
	}
	h->iface_prev_ns = h->dbread_ns;
}
