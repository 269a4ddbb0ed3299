/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pmd_core.h: the PMD subsystem's state: topology, rings, PMD threads and sources. */
#ifndef TT_PMD_CORE_H
#define TT_PMD_CORE_H

#include <stdint.h>

#include "core/limits.h"
#include "engine/engine.h"
#include "engine/pmd/pmd_flow.h"
#include "engine/pmd/pmd_ring.h"
#include "engine/pmd/pmd_sleep.h"
#include "engine/pmd/pmd_stats.h"

/* Smallest tx ring in front of a mac peer: 109 ms at 600 kpps (see pmd.c). */
#define PMD_PEER_RING 65536

enum pmd_topology {
	PMD_TOPO_DIRECT, /* gen:i -> pmd-c:i -> sink, one pair per PMD */
	PMD_TOPO_CHAIN, /* the seed: gen:0 txonly -> pmd-c:0 -> gen:1 mac peer -> pmd-c:1 -> sink
			 */
};

struct pmd_state;
enum pmd_src_kind { PMD_SRC_TXONLY, PMD_SRC_MACPEER };

/*
 * One traffic source gen:N, with no thread of its own: a NIC fills
 * its rx ring without a core. The PMD that consumes the rings it fills
 * evaluates it at each poll (pmd_feed_poll): the arrivals since the previous
 * poll follow from the clock and the pattern, go into the rings up to their
 * free space, and the rest are rx drops (imissed) stamped with the time they
 * would have arrived. Exact for one consumer: nothing drains a ring between
 * its consumer's polls. Every field is private to that PMD thread.
 */
struct pmd_feed {
	int id;
	enum pmd_src_kind kind;
	struct gen_counters *c;
	int nout;
	struct pmd_ring *out[PMD_MAX_RXQS]; /* the consumer's rxqs */
	int q; /* next rxq to fill (round robin by burst) */
	/* txonly: the arrival process in force since base_ns. */
	uint64_t base_ns; /* arrivals are counted from here */
	uint64_t offered; /* arrivals since base_ns already offered */
	uint64_t last_ns; /* time of the last evaluation */
	int64_t rate_pps;
	int pattern;
	unsigned burst;
	uint32_t seq;
	/* macpeer: the upstream PMD's tx ring, which the peer drains at once. */
	struct pmd_ring *in;
	/* Host time taken from the consumer's thread (run-queue delay): the
	 * emulated PMD owns its core, so that time is not emulated time. txonly:
	 * no arrivals in it; peer: what was sent meanwhile is delivered late and
	 * caught up at 1.5x (see pmd_feed.c). */
	uint64_t skew_ns;
	/* txonly: the part of a lost arrival not counted yet (pmd_lost_arrivals). */
	uint64_t lost_frac;
};

/* One PMD thread pmd-c:N. */
struct pmd_poller {
	int id;
	struct pmd_state *ps;
	struct ethread *t; /* control thread only (the thread uses self) */
	int nrxq;
	struct pmd_ring *rxq[PMD_MAX_RXQS]; /* it is the consumer (and, via feed, the producer) */
	struct pmd_ring *txq; /* it is the producer; NULL when its tx goes to a sink */
	struct pmd_feed *feed; /* the source filling its rxqs, evaluated at each poll */
	struct gen_counters *sink; /* non-NULL: its tx is the end of the path (forwarded) */
	struct pmd_counters *c;
	struct pmd_sleep *sleep; /* survives restarts, as in OVS (§1.3) */
	_Atomic bool paused; /* acknowledges ps->pause_req (release), see pmd_pause() */
};

struct pmd_state {
	struct engine *eng;
	enum pmd_topology topo;
	int npmd;
	bool running;
	struct pmd_poller pmd[PMD_MAX];
	struct pmd_feed feed[PMD_MAX];
	_Atomic bool pause_req; /* control thread: every PMD parks at its next iteration */

	/* Persistent across restarts (ring size, count, topology changes). */
	struct pmd_counters pc[PMD_MAX];
	struct gen_counters gc[PMD_MAX];
	struct pmd_sleep sleep[PMD_MAX];
	uint64_t restart_drops; /* packets left in rings at a restart: control thread only */
	uint64_t restart_missing; /* unaccounted packets found at restarts (a leak) */
	bool bound_reported; /* the live bound check logged its event (control thread) */

	/* Sampler's previous readings (control thread only). */
	uint64_t smp_prev_ns;
	struct pmd_prev {
		uint64_t iterations, busy_ns, idle_ns, sleep_iters, sleep_ns, rx, tx, tx_drops,
		    rx_drops, asleep, stolen_ns, host_lost;
		uint64_t hist[PMD_OVERSHOOT_BUCKETS];
		uint64_t lat[PMD_LAT_BUCKETS];
	} prev[PMD_MAX];
	uint64_t prev_generated, prev_dropped, prev_asleep, prev_host_lost;
};

void pmd_thread_main(struct ethread *self); /* pmd_thread.c */

/* pmd_feed.c: the arrivals a source of rate_pps has in stolen_ns more of host time, whole
 * ones returned, the part of one left kept in *frac (billionths of an arrival), so none is
 * lost or counted twice; 0 and *frac cleared at a rate of 0. Pure. */
uint64_t pmd_lost_arrivals(uint64_t *frac, uint64_t stolen_ns, int64_t rate_pps);

/* pmd_feed.c: set a feed up for a new run (keeps nothing of an old one). */
void pmd_feed_init(struct pmd_feed *f, int id, enum pmd_src_kind kind, struct gen_counters *c,
		   uint64_t now_ns);
/* Evaluate the feed at now_ns (its consumer's poll), stolen_ns the run-queue
 * delay of the consumer since its last poll. Drops of arrivals stamped within
 * [sleep_from_ns, sleep_to_ns] are added to *asleep. */
void pmd_feed_poll(struct engine *eng, struct pmd_feed *f, uint64_t now_ns, uint64_t stolen_ns,
		   uint64_t sleep_from_ns, uint64_t sleep_to_ns, uint64_t *asleep);

/* pmd_check.c: generated - forwarded - dropped - in rings, with every PMD parked or joined. */
int64_t pmd_missing_quiescent(struct pmd_state *ps);
/* subsys_ops.check: pause, count, resume; logs an `invariant` event when work is missing. */
int pmd_check(struct engine *eng, int64_t *missing, char *err, size_t errlen);

#endif
