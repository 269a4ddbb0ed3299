/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pmd_stats.h: PMD and source counters (docs/pmd.md §2.1 plus sleep overshoot), and sampling.
 */
#ifndef TT_PMD_STATS_H
#define TT_PMD_STATS_H

#include <stdalign.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdint.h>

#include "engine/pmd/pmd_ring.h"

/* Sleep overshoot (real - requested) in 1 us buckets; the last collects >= it. */
#define PMD_OVERSHOOT_BUCKETS 1024
/* End-to-end latency (arrival at the first rx ring to the sink) in 1 us buckets. */
#define PMD_LAT_BUCKETS 4096

/*
 * Every counter is monotonic and has ONE writer (its PMD or source thread, or
 * the control thread between runs when no thread runs). The writer adds with
 * pmd_ctr_add (relaxed load of its own value, release store); readers load
 * with acquire. The release/acquire pairs are what make the totals exact, see
 * pmd_stats_totals() in pmd_stats.c.
 */
struct pmd_counters {
	alignas(PMD_CACHELINE) _Atomic uint64_t iterations;
	_Atomic uint64_t busy_ns, idle_ns; /* PMD_CYCLES_ITER_BUSY/IDLE, sleep excluded */
	_Atomic uint64_t sleep_iters, sleep_ns; /* PMD_SLEEP_ITER, PMD_CYCLES_SLEEP */
	_Atomic uint64_t sleep_req_ns; /* what was asked for in those sleeps */
	_Atomic uint64_t rx_packets, rx_batches;
	_Atomic uint64_t tx_packets, tx_batches; /* SENT_PKTS, SENT_BATCHES */
	_Atomic uint64_t tx_drops; /* tx ring full */
	_Atomic uint64_t flow_misses; /* upcalls */
	_Atomic uint64_t drops_while_asleep; /* rx drops of its feeder during its sleeps */
	_Atomic uint64_t overshoot_hist[PMD_OVERSHOOT_BUCKETS];
	_Atomic uint64_t lat_hist[PMD_LAT_BUCKETS]; /* packets it sank, by latency */
	_Atomic uint64_t stolen_ns; /* run-queue delay seen at polls: time the host took */
	_Atomic uint64_t leaked; /* pmd.fault_leak: lost without being counted (tests only read) */
};

/* A traffic source gen:N: a txonly generator or the mac-swap peer, and the
 * sink at the end of a path. Each counter has one writer: the PMD that
 * evaluates the feed (generated, src_drops, peer_rx) or the PMD that sinks
 * (sunk). */
struct gen_counters {
	alignas(PMD_CACHELINE) _Atomic uint64_t generated; /* new packets (0 for a peer) */
	_Atomic uint64_t src_drops; /* found the rx ring full: the NIC's imissed */
	_Atomic uint64_t sunk; /* sent by the last PMD of a path: forwarded */
	_Atomic uint64_t peer_rx; /* peer: received to swap and send on */
	/* txonly: arrivals of its clock that fell in time the host held the consumer's thread,
	 * so were never offered (docs/pmd.md "What the host took"). */
	_Atomic uint64_t host_lost;
};

static inline void pmd_ctr_add(_Atomic uint64_t *c, uint64_t n)
{
	/* Single writer: no read-modify-write needed; release orders what the
	 * writer did before (dequeues, earlier counters) ahead of this value. */
	uint64_t v = atomic_load_explicit(c, memory_order_relaxed);
	atomic_store_explicit(c, v + n, memory_order_release);
}

static inline uint64_t pmd_ctr_read(_Atomic uint64_t *c)
{
	return atomic_load_explicit(c, memory_order_acquire);
}

/* 1-us bucket of an overshoot in ns. */
static inline unsigned pmd_overshoot_bucket(uint64_t over_ns)
{
	uint64_t us = over_ns / 1000;
	return us >= PMD_OVERSHOOT_BUCKETS ? PMD_OVERSHOOT_BUCKETS - 1 : (unsigned)us;
}

/* Percentile (0..1) of a bucket-count histogram, as the bucket's middle in us; in the open top
 * bucket (everything from nbuckets - 1 us up) it is that bucket's lower end, a bound. */
double pmd_hist_percentile(const uint64_t *counts, unsigned nbuckets, double q);
/* part of whole in %, 0 when whole is 0, 100 at most (part read a little after whole). Pure. */
double pmd_share_pct(uint64_t part, uint64_t whole);
/* A percentile from pmd_hist_percentile() fell in the open top bucket: the true figure is at
 * least that (only the top bucket gives an integer). */
static inline bool pmd_hist_at_least(double pct, unsigned nbuckets)
{
	return pct >= (double)(nbuckets - 1);
}

struct engine;
struct snapshot;
struct pmd_state;
/* Fill snap->pmd from the counters: deltas since the previous call. */
void pmd_stats_sample(struct pmd_state *ps, struct snapshot *snap, uint64_t now_ns);
/* Totals read so that 0 <= generated - forwarded - dropped - in_flight, with
 * in_flight the packets in the rings (see the .c). Returns false when the
 * counters never held still over a read (then only generated >= the rest). */
bool pmd_stats_totals(struct pmd_state *ps, uint64_t *generated, uint64_t *forwarded,
		      uint64_t *dropped, uint64_t *in_flight);

#endif
