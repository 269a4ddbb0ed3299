/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pmd_stats.c: sampling the PMD counters into the snapshot's pmd section. */
#include "engine/pmd/pmd_stats.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "core/pmd_cost.h"
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

/* How often the totals are re-read when packets left the path during a read. */
#define PMD_TOTALS_TRIES 64

/*
 * In flight is counted where it is: the rings (pmd_rings_count). A packet's
 * path is a chain of single-writer steps: a feed adds it to `generated`
 * (release) BEFORE the ring's release store of tail publishes it; each later
 * hop acquires a ring index before it moves or counts it, and counts a drop or
 * a forward (release) only after the packet left the ring.
 *
 * Read order: forwarded and dropped (acquire), the rings downstream first,
 * then generated (acquire), then forwarded and dropped again. A packet counted
 * out when first read was generated before (so it is in `generated`), one
 * found in a ring was generated before and not yet out, and downstream-first
 * reading never counts a moving packet twice; so unaccounted = generated -
 * forwarded - dropped - rings >= 0: packets in a PMD's hands or that moved
 * during the read. When forwarded + dropped did not change over the read,
 * nothing left the path meanwhile and what arrived went into free ring space,
 * so unaccounted <= capacity (rings + hands). Reads where packets left are
 * retried; only the lower bound holds for a read that never settled.
 * With every PMD paused or joined nothing moves and unaccounted is exactly 0:
 * anything else is work lost without being counted (pmd.fault_leak).
 */
bool pmd_stats_totals(struct pmd_state *ps, uint64_t *generated, uint64_t *forwarded,
		      uint64_t *dropped, uint64_t *in_flight)
{
	bool settled = false;
	for (int tries = 0; tries < PMD_TOTALS_TRIES && !settled; tries++) {
		uint64_t f = 0, d = ps->restart_drops, g = 0, f2 = 0, d2 = ps->restart_drops;
		for (int i = 0; i < PMD_MAX; i++) {
			f += pmd_ctr_read(&ps->gc[i].sunk);
			d += pmd_ctr_read(&ps->gc[i].src_drops);
			d += pmd_ctr_read(&ps->pc[i].tx_drops);
		}
		uint64_t rings = pmd_rings_count(ps);
		for (int i = 0; i < PMD_MAX; i++)
			g += pmd_ctr_read(&ps->gc[i].generated);
		for (int i = 0; i < PMD_MAX; i++) {
			f2 += pmd_ctr_read(&ps->gc[i].sunk);
			d2 += pmd_ctr_read(&ps->gc[i].src_drops);
			d2 += pmd_ctr_read(&ps->pc[i].tx_drops);
		}
		settled = f == f2 && d == d2;
		*generated = g;
		*forwarded = f;
		*dropped = d;
		*in_flight = rings;
	}
	return settled;
}

/* The PMD counts a sleep before the iteration it ends, and the sampler reads the two counters
 * a moment apart: part can pass whole by what happened in between. A share stays within its
 * whole (a replay refuses one past 100, backends/replay/snapdec_int.h). */
double pmd_share_pct(uint64_t part, uint64_t whole)
{
	if (!whole)
		return 0;
	return part >= whole ? 100.0 : 100.0 * (double)part / (double)whole;
}

static void pmd_stats_thread(struct pmd_state *ps, int i, struct pmd_thread_snap *t, double dt_s,
			     uint64_t *lat)
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
	cur.host_lost = pmd_ctr_read(&ps->gc[i].host_lost);
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
	t->host_lost_pps = dt_s > 0 ? (double)(cur.host_lost - pv->host_lost) / dt_s : 0;
	t->host_lost = cur.host_lost;
	t->drop_pct = pmd_share_pct(rxd + txd, rx + rxd); /* of what was offered to it */
	t->iterations = it;
	t->busy_pct = pmd_share_pct(busy, busy + idle);
	t->idle_pct = busy + idle ? 100.0 - t->busy_pct : 0;
	t->sleep_iter_pct = pmd_share_pct(si, it);
	t->sleep_us_avg = si ? (double)sns / (double)si / 1000.0 : 0; /* per sleeping iteration */
	t->overshoot_p50_us = pmd_hist_percentile(hist, PMD_OVERSHOOT_BUCKETS, 0.50);
	t->overshoot_p99_us = pmd_hist_percentile(hist, PMD_OVERSHOOT_BUCKETS, 0.99);
	t->overshoot_p50_at_least = pmd_hist_at_least(t->overshoot_p50_us, PMD_OVERSHOOT_BUCKETS);
	t->overshoot_p99_at_least = pmd_hist_at_least(t->overshoot_p99_us, PMD_OVERSHOOT_BUCKETS);
	t->drops_while_asleep = cur.asleep - pv->asleep;
	t->cpu_pct = ps->pmd[i].t ? ps->pmd[i].t->last_cpu_pct : 0;
	t->rx_packets = cur.rx;
	t->tx_packets = cur.tx;
	t->rx_drops = cur.rx_drops;
	t->tx_drops = cur.tx_drops;
	t->sleep_iters = si; /* per interval, as documented */
	cur.stolen_ns = pmd_ctr_read(&c->stolen_ns);
	t->stolen_pct = dt_s > 0 ? 100.0 * (double)(cur.stolen_ns - pv->stolen_ns) / 1e9 / dt_s : 0;
	if (t->stolen_pct > 100.0) /* a delay read late lands in one interval */
		t->stolen_pct = 100.0;
	t->sleep_iters_total = cur.sleep_iters;
	t->asleep_pct = dt_s > 0 ? 100.0 * (double)sns / 1e9 / dt_s : 0;
	if (t->asleep_pct > 100.0)
		t->asleep_pct = 100.0;
	t->drops_while_asleep_pct = pmd_share_pct(t->drops_while_asleep, rxd);
	for (int b = 0; b < PMD_LAT_BUCKETS; b++) {
		cur.lat[b] = pmd_ctr_read(&c->lat_hist[b]);
		lat[b] += cur.lat[b] - pv->lat[b];
	}
	pmd_hist_le_fill(cur.hist, PMD_OVERSHOOT_BUCKETS, t);
	*pv = cur;
}

/* The live bound at every snapshot; one `invariant` event when it first fails. */
static void pmd_bound_check(struct pmd_state *ps, struct pmd_snap *p, bool settled)
{
	p->unaccounted = (int64_t)(p->generated - p->forwarded - p->dropped - p->in_flight);
	p->capacity = pmd_capacity(ps);
	p->bound_broken =
	    !(p->unaccounted >= 0 && (!settled || (uint64_t)p->unaccounted <= p->capacity));
	if (p->bound_broken && !ps->bound_reported) {
		ps->bound_reported = true;
		event_add(&ps->eng->events, EV_INVARIANT,
			  "pmd: %lld packets unaccounted, more than the %llu the rings and PMDs "
			  "can hold (generated %llu, forwarded %llu, dropped %llu, in rings %llu)",
			  (long long)p->unaccounted, (unsigned long long)p->capacity,
			  (unsigned long long)p->generated, (unsigned long long)p->forwarded,
			  (unsigned long long)p->dropped, (unsigned long long)p->in_flight);
	} else if (!p->bound_broken) {
		ps->bound_reported = false;
	}
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
	static uint64_t lat[PMD_LAT_BUCKETS]; /* control thread only (the sampler) */
	memset(lat, 0, sizeof(lat));
	p->hung = false;
	p->drops_while_asleep = 0;
	for (int i = 0; i < p->nthreads; i++) {
		pmd_stats_thread(ps, i, &p->threads[i], dt_s, lat);
		p->threads[i].tid = ps->pmd[i].t ? ps->pmd[i].t->tid : 0;
		p->drops_while_asleep += p->threads[i].drops_while_asleep;
		/* A PMD loops at least every 10 ms (the sleep cap): an interval
		 * without one iteration is a stuck PMD, not a quiet one, unless the host
		 * held it off its CPU (ethread.h), which host.cpu_taken names. */
		if (ps->running && dt_s > 0.05 && p->threads[i].iterations == 0 &&
		    !(ps->pmd[i].t && ethread_held_off(ps->pmd[i].t)))
			p->hung = true;
	}
	uint64_t nlat = 0;
	for (int b = 0; b < PMD_LAT_BUCKETS; b++)
		nlat += lat[b];
	p->lat_valid = nlat > 0 && !p->hung;
	p->lat_p50_us = p->lat_valid ? pmd_hist_percentile(lat, PMD_LAT_BUCKETS, 0.50) : 0;
	p->lat_p99_us = p->lat_valid ? pmd_hist_percentile(lat, PMD_LAT_BUCKETS, 0.99) : 0;
	p->lat_p50_at_least = p->lat_valid && pmd_hist_at_least(p->lat_p50_us, PMD_LAT_BUCKETS);
	p->lat_p99_at_least = p->lat_valid && pmd_hist_at_least(p->lat_p99_us, PMD_LAT_BUCKETS);

	bool settled =
	    pmd_stats_totals(ps, &p->generated, &p->forwarded, &p->dropped, &p->in_flight);
	p->in_rings = p->in_flight;
	pmd_bound_check(ps, p, settled);
	p->restart_dropped = ps->restart_drops;
	uint64_t dg = p->generated - ps->prev_generated, dd = p->dropped - ps->prev_dropped;
	p->offered_pps = dt_s > 0 ? (double)dg / dt_s : 0;
	p->drop_pct = pmd_share_pct(dd, dg);
	p->dropped_pps = dt_s > 0 ? (double)dd / dt_s : 0;
	uint64_t lost = 0;
	for (int i = 0; i < ps->npmd && i < PMD_MAX; i++)
		lost += pmd_ctr_read(&ps->gc[i].host_lost);
	p->host_lost_pps = dt_s > 0 ? (double)(lost - ps->prev_host_lost) / dt_s : 0;
	p->host_lost_pct = pmd_share_pct(lost - ps->prev_host_lost, lost - ps->prev_host_lost + dg);
	ps->prev_host_lost = lost;
	int nsrc = 0; /* txonly feeds: a chain's mac peer only forwards */
	for (int i = 0; i < ps->npmd && i < PMD_MAX; i++)
		nsrc += ps->feed[i].kind == PMD_SRC_TXONLY;
	p->target_pps = (double)engine_knob(eng, K_GEN_RATE_PPS) * nsrc;
	/* The first sample's CPU clocks started with the threads, its packets with the feeds:
	 * no common interval to divide. */
	pmd_cost_fill(p, snap->seq <= 1);
	ps->prev_generated = p->generated;
	ps->prev_dropped = p->dropped;
	ps->smp_prev_ns = now_ns;
}
