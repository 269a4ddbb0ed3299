/* pmd_stats.c: sampling the PMD counters into the snapshot's pmd section. */
#include "engine/pmd/pmd_stats.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "engine/pmd/pmd_core.h"
#include "engine/pmd/pmd_hist_le.h"

double pmd_hist_percentile(const uint64_t *counts, unsigned nbuckets, double q)
{
	uint64_t total = 0, seen = 0;
	for (unsigned i = 0; i < nbuckets; i++)
		total += counts[i];
	if (total == 0)
		return 0;
	/* Nearest rank: the smallest bucket at which the cumulative count
	 * reaches ceil(q * total). Rounding down (as this did) reports a rank
	 * below q: over 10 sleeps "p99" was the 9th, so one sleep in ten
	 * overshooting by 50 us never showed. The epsilon keeps an exact
	 * product (0.99 * 100) from rounding up past its rank. */
	uint64_t want = (uint64_t)ceil(q * (double)total - 1e-9);
	if (want == 0)
		want = 1;
	for (unsigned i = 0; i < nbuckets; i++) {
		seen += counts[i];
		if (seen >= want)
			return i + 1 < nbuckets ? (double)i + 0.5 : (double)i;
	}
	return (double)(nbuckets - 1);
}

/*
 * Why the totals are exact. A packet's path is a chain of single-writer
 * steps: the source adds it to `generated` (release store) BEFORE the ring's
 * release store of tail publishes it; every later hop first acquires a ring
 * index, then updates its own counters with release stores. So the store
 * that counts a packet as forwarded (sunk) or dropped (src_drops, tx_drops)
 * happens-after the store that counted it generated.
 *
 * We read every forwarded and dropped counter FIRST (acquire) and the
 * generated counters LAST (acquire). An acquire load that sees a downstream
 * count synchronises with its writer, so the later load of `generated` must
 * return that packet's generated store or a newer one (write-read coherence).
 * Hence generated >= forwarded + dropped as read, and in_flight =
 * generated - forwarded - dropped is never negative: it is the packets that
 * were in rings or in a thread's hands at some instant within the read
 * window. restart_drops is written by the control thread only while no PMD
 * thread runs, and we are that thread. The equation holds exactly by
 * construction; tests check in_flight against the ring capacity and, after
 * a stop, against the rings' real occupancy.
 */
void pmd_stats_totals(struct pmd_state *ps, uint64_t *generated, uint64_t *forwarded,
		      uint64_t *dropped, uint64_t *in_flight)
{
	uint64_t f = 0, d = ps->restart_drops, g = 0;

	for (int i = 0; i < PMD_MAX; i++) {
		f += pmd_ctr_read(&ps->gc[i].sunk);
		d += pmd_ctr_read(&ps->gc[i].src_drops);
		d += pmd_ctr_read(&ps->pc[i].tx_drops);
	}
	for (int i = 0; i < PMD_MAX; i++)
		g += pmd_ctr_read(&ps->gc[i].generated);
	*generated = g;
	*forwarded = f;
	*dropped = d;
	*in_flight = g - f - d;
}

static double pmd_pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

static void pmd_stats_thread(struct pmd_state *ps, int i, struct pmd_thread_snap *t, double dt_s)
{
	struct pmd_counters *c = &ps->pc[i];
	struct pmd_prev *pv = &ps->prev[i];
	struct pmd_prev cur;
	uint64_t hist[PMD_OVERSHOOT_BUCKETS];

	cur.iterations = pmd_ctr_read(&c->iterations);
	cur.busy_ns = pmd_ctr_read(&c->busy_ns);
	cur.idle_ns = pmd_ctr_read(&c->idle_ns);
	cur.sleep_iters = pmd_ctr_read(&c->sleep_iters);
	cur.sleep_ns = pmd_ctr_read(&c->sleep_ns);
	cur.rx = pmd_ctr_read(&c->rx_packets);
	cur.tx = pmd_ctr_read(&c->tx_packets);
	cur.tx_drops = pmd_ctr_read(&c->tx_drops);
	cur.rx_drops = pmd_ctr_read(&ps->gc[i].src_drops); /* source i feeds PMD i */
	cur.asleep = pmd_ctr_read(&c->drops_while_asleep);
	for (int b = 0; b < PMD_OVERSHOOT_BUCKETS; b++) {
		cur.hist[b] = pmd_ctr_read(&c->overshoot_hist[b]);
		hist[b] = cur.hist[b] - pv->hist[b];
	}

	uint64_t it = cur.iterations - pv->iterations, busy = cur.busy_ns - pv->busy_ns;
	uint64_t idle = cur.idle_ns - pv->idle_ns, si = cur.sleep_iters - pv->sleep_iters;
	uint64_t sns = cur.sleep_ns - pv->sleep_ns, rx = cur.rx - pv->rx, tx = cur.tx - pv->tx;
	uint64_t txd = cur.tx_drops - pv->tx_drops, rxd = cur.rx_drops - pv->rx_drops;

	snprintf(t->name, sizeof(t->name), "pmd-c:%u", (unsigned)i & 0xffu);
	t->rx_pps = dt_s > 0 ? (double)rx / dt_s : 0;
	t->tx_pps = dt_s > 0 ? (double)tx / dt_s : 0;
	t->rx_drop_pps = dt_s > 0 ? (double)rxd / dt_s : 0;
	t->tx_drop_pps = dt_s > 0 ? (double)txd / dt_s : 0;
	t->drop_pct = pmd_pct(rxd + txd, rx + rxd); /* of what was offered to it */
	t->iterations = it;
	t->busy_pct = pmd_pct(busy, busy + idle);
	t->idle_pct = busy + idle ? 100.0 - t->busy_pct : 0;
	t->sleep_iter_pct = pmd_pct(si, it);
	t->sleep_us_avg = si ? (double)sns / (double)si / 1000.0 : 0; /* per sleeping iteration */
	t->overshoot_p50_us = pmd_hist_percentile(hist, PMD_OVERSHOOT_BUCKETS, 0.50);
	t->overshoot_p99_us = pmd_hist_percentile(hist, PMD_OVERSHOOT_BUCKETS, 0.99);
	t->drops_while_asleep = cur.asleep - pv->asleep;
	t->cpu_pct = ps->pmd[i].t ? ps->pmd[i].t->last_cpu_pct : 0;
	t->rx_packets = cur.rx;
	t->tx_packets = cur.tx;
	t->rx_drops = cur.rx_drops;
	t->tx_drops = cur.tx_drops;
	t->sleep_iters = cur.sleep_iters;
	pmd_hist_le_fill(cur.hist, PMD_OVERSHOOT_BUCKETS, t);
	*pv = cur;
}

void pmd_stats_sample(struct pmd_state *ps, struct snapshot *snap, uint64_t now_ns)
{
	struct pmd_snap *p = &snap->pmd;
	struct engine *eng = ps->eng;
	double dt_s = (double)(now_ns - ps->smp_prev_ns) / 1e9;

	p->maxsleep_us = engine_knob(eng, K_PMD_MAXSLEEP_US);
	p->sleep_inc_us = engine_knob(eng, K_PMD_SLEEP_INC_US);
	p->timer_slack_ns = engine_knob(eng, K_PMD_TIMER_SLACK_NS);
	p->rxq_size = engine_knob(eng, K_PMD_RXQ_SIZE);
	p->topology = ps->topo == PMD_TOPO_CHAIN ? "chain" : "direct";
	p->nthreads = ps->npmd < PMD_SNAP_MAX ? ps->npmd : PMD_SNAP_MAX;
	for (int i = 0; i < p->nthreads; i++)
		pmd_stats_thread(ps, i, &p->threads[i], dt_s);

	/* Instant ring occupancy, for the eye; the exact figure is in_flight. */
	uint64_t in_rings = 0;
	for (int i = 0; ps->running && i < ps->npmd; i++) {
		for (int q = 0; q < ps->pmd[i].nrxq; q++)
			in_rings += pmd_ring_count(ps->pmd[i].rxq[q]);
		in_rings += pmd_ring_count(ps->pmd[i].txq);
	}
	p->in_rings = in_rings;

	pmd_stats_totals(ps, &p->generated, &p->forwarded, &p->dropped, &p->in_flight);
	p->restart_dropped = ps->restart_drops;
	uint64_t dg = p->generated - ps->prev_generated, dd = p->dropped - ps->prev_dropped;
	p->offered_pps = dt_s > 0 ? (double)dg / dt_s : 0;
	p->drop_pct = pmd_pct(dd, dg);
	ps->prev_generated = p->generated;
	ps->prev_dropped = p->dropped;
	ps->smp_prev_ns = now_ns;
}
