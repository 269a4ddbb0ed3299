/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pmd.c: the PMD subsystem: builds the topology, starts/restarts the threads, knobs, sampling. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "engine/pmd/pmd_core.h"
#include "core/xalloc.h"

/* Stop every PMD, then count what is left in the rings as dropped: the
 * invariant stays exact over a restart. A stop is a quiescent point, so the
 * equation is checked exactly here too (a leak shows as an event). */
static void pmd_threads_stop(struct pmd_state *ps)
{
	for (int i = 0; i < ps->npmd; i++)
		if (ps->pmd[i].t)
			ethread_request_stop(ps->pmd[i].t);
	for (int i = 0; i < ps->npmd; i++) {
		if (ps->pmd[i].t)
			ethread_join(ps->pmd[i].t);
		ps->pmd[i].t = NULL;
	}
	/* Joined: every thread's last stores happen-before these reads, and no
	 * packet is in a thread's hands (each sends its batch before it exits). */
	int64_t missing = pmd_missing_quiescent(ps);
	if (missing != 0) {
		ps->restart_missing += (uint64_t)missing;
		event_add(&ps->eng->events, EV_INVARIANT,
			  "pmd: %lld packets missing at a restart (generated - forwarded - "
			  "dropped - in rings)",
			  (long long)missing);
	}
	for (int i = 0; i < ps->npmd; i++) {
		for (int q = 0; q < ps->pmd[i].nrxq; q++) {
			ps->restart_drops += pmd_ring_count(ps->pmd[i].rxq[q]);
			pmd_ring_free(ps->pmd[i].rxq[q]);
			ps->pmd[i].rxq[q] = NULL;
		}
		if (ps->pmd[i].txq)
			ps->restart_drops += pmd_ring_count(ps->pmd[i].txq);
		pmd_ring_free(ps->pmd[i].txq);
		ps->pmd[i].txq = NULL;
	}
	ps->running = false;
}

static int pmd_threads_start(struct pmd_state *ps, char *err, size_t errlen)
{
	struct engine *eng = ps->eng;
	uint32_t rxq_size = (uint32_t)engine_knob(eng, K_PMD_RXQ_SIZE);
	uint32_t txq_size = (uint32_t)engine_knob(eng, K_PMD_TXQ_SIZE);
	int nrxq = (int)engine_knob(eng, K_PMD_RXQS);
	int ncpu = eng->cpu.count > 0 ? eng->cpu.count : 1;
	uint64_t now = clock_mono_ns();

	ps->topo = (enum pmd_topology)engine_knob(eng, K_PMD_TOPOLOGY);
	ps->npmd = ps->topo == PMD_TOPO_CHAIN ? 2 : (int)engine_knob(eng, K_PMD_COUNT);
	for (int i = 0; i < ps->npmd; i++) {
		struct pmd_poller *p = &ps->pmd[i];
		bool last = ps->topo != PMD_TOPO_CHAIN || i == ps->npmd - 1;
		p->id = i;
		p->ps = ps;
		p->nrxq = nrxq;
		for (int q = 0; q < nrxq; q++)
			p->rxq[q] = pmd_ring_new(rxq_size);
		/* Only a PMD that sends on to a peer has a tx ring; the last one of
		 * a path sends to a sink that takes everything at once. The peer
		 * drains it the moment a packet lands (pmd_feed.c), so it only ever
		 * holds what waits for the next PMD's poll: at least PMD_PEER_RING,
		 * so that time the host takes from that PMD (not emulated time) is
		 * caught up and does not turn into tx drops no real peer would make. */
		p->txq =
		    last ? NULL : pmd_ring_new(txq_size > PMD_PEER_RING ? txq_size : PMD_PEER_RING);
		/* direct: gen:i sinks PMD i's tx; chain: gen:0 (txonly) sinks PMD1's. */
		p->sink = !last ? NULL : ps->topo == PMD_TOPO_CHAIN ? &ps->gc[0] : &ps->gc[i];
		p->c = &ps->pc[i];
		p->sleep = &ps->sleep[i];
		atomic_store_explicit(&p->paused, false, memory_order_relaxed);

		/* Source i fills PMD i's rxqs in both topologies; in the chain, gen:1 is
		 * the mac peer between PMD0's tx and PMD1's rx. */
		struct pmd_feed *f = &ps->feed[i];
		bool peer = ps->topo == PMD_TOPO_CHAIN && i == 1;
		pmd_feed_init(f, i, peer ? PMD_SRC_MACPEER : PMD_SRC_TXONLY, &ps->gc[i], now);
		f->nout = nrxq;
		for (int q = 0; q < nrxq; q++)
			f->out[q] = p->rxq[q];
		p->feed = f;
	}
	if (ps->topo == PMD_TOPO_CHAIN)
		ps->feed[1].in = ps->pmd[0].txq;
	atomic_store_explicit(&ps->pause_req, false, memory_order_relaxed);
	ps->running = true;
	/* PMD i on emulated CPU i. The sources have no thread: on two cores the
	 * PMDs are the only busy threads. */
	for (int i = 0; i < ps->npmd; i++) {
		char name[32]; /* ethread_start() truncates to 15 */
		snprintf(name, sizeof(name), "pmd-c:%d", i);
		ps->pmd[i].t = ethread_start(eng, name, SUBSYS_PMD, i % ncpu, pmd_thread_main,
					     &ps->pmd[i], err, errlen);
		if (!ps->pmd[i].t)
			goto fail;
	}
	return 0;
fail:
	pmd_threads_stop(ps);
	return -1;
}

static int pmd_start(struct engine *eng, char *err, size_t errlen)
{
	/* Sized for PMD_MAX PMDs with their histograms (650 KB): from zeroed pages, so only
	 * the PMDs running make their part resident (page-aligned, so cache-line aligned). */
	struct pmd_state *ps = xpages_zalloc(sizeof(*ps));

	ps->eng = eng;
	for (int i = 0; i < PMD_MAX; i++)
		pmd_sleep_init(&ps->sleep[i]);
	ps->smp_prev_ns = clock_mono_ns();
	eng->pmd = ps;
	if (pmd_threads_start(ps, err, errlen) != 0) {
		xpages_free(ps, sizeof(*ps));
		eng->pmd = NULL;
		return -1;
	}
	return 0;
}

static void pmd_stop(struct engine *eng)
{
	struct pmd_state *ps = eng->pmd;
	if (!ps)
		return;
	if (ps->running)
		pmd_threads_stop(ps);
	xpages_free(ps, sizeof(*ps));
	eng->pmd = NULL;
}

static void pmd_sample(struct engine *eng, struct snapshot *snap, uint64_t now_ns)
{
	if (eng->pmd)
		pmd_stats_sample(eng->pmd, snap, now_ns);
}

static int pmd_knob_apply(struct engine *eng, enum knob_id id, int64_t old, int64_t *val, char *err,
			  size_t errlen)
{
	struct pmd_state *ps = eng->pmd;

	(void)old;
	(void)val;
	if (!ps)
		return 0; /* stored; used when the subsystem starts */
	switch (id) {
	case K_PMD_COUNT:
	case K_PMD_RXQ_SIZE:
	case K_PMD_TXQ_SIZE:
	case K_PMD_RXQS:
	case K_PMD_TOPOLOGY:
		/* Rings and threads are rebuilt (a PMD reload, in OVS terms). */
		if (ps->running)
			pmd_threads_stop(ps);
		if (pmd_threads_start(ps, err, errlen) != 0)
			return -1;
		event_add(&eng->events, EV_INFO, "pmd: threads restarted (%s)",
			  knob_table[id].name);
		return 0;
	default:
		/* maxsleep, sleep_inc, slack, rate, pattern, burst, fault_leak: the
		 * PMDs re-read them every iteration. */
		return 0;
	}
}

const struct subsys_ops pmd_ops = {
    .name = "pmd",
    .id = SUBSYS_PMD,
    .start = pmd_start,
    .stop = pmd_stop,
    .sample = pmd_sample,
    .knob_apply = pmd_knob_apply,
    .check = pmd_check,
};
