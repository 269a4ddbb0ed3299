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


enum pmd_topology {
	PMD_TOPO_DIRECT, /* gen:i -> pmd-c:i -> gen:i (sink), one pair per PMD */
	PMD_TOPO_CHAIN, /* the seed: gen:0 txonly -> pmd-c:0 -> gen:1 mac peer -> pmd-c:1 -> gen:0
			 */
};

struct pmd_state;

/* One PMD thread pmd-c:N. */
struct pmd_poller {
	int id;
	struct pmd_state *ps;
	struct ethread *t; /* control thread only (the thread uses self) */
	int nrxq;
	struct pmd_ring *rxq[PMD_MAX_RXQS]; /* it is the consumer of each */
	struct pmd_ring *txq; /* it is the producer */
	struct gen_counters *feeder; /* the source filling its rxqs (rx drops) */
	struct pmd_counters *c;
	struct pmd_sleep *sleep; /* survives restarts, as in OVS (§1.3) */
};

enum pmd_src_kind { PMD_SRC_TXONLY, PMD_SRC_MACPEER };

/* One traffic source gen:N. */
struct pmd_source {
	int id;
	enum pmd_src_kind kind;
	struct pmd_state *ps;
	struct ethread *t;
	int nout;
	struct pmd_ring *out[PMD_MAX_RXQS]; /* producer of each (a PMD's rxqs) */
	struct pmd_ring *in; /* consumer: a sink (txonly) or the peer's input */
	struct gen_counters *c;
	uint32_t seq; /* txonly: next sequence number (thread-private) */
};

struct pmd_state {
	struct engine *eng;
	enum pmd_topology topo;
	int npmd, nsrc;
	bool running;
	struct pmd_poller pmd[PMD_MAX];
	struct pmd_source src[PMD_MAX];

	/* Persistent across restarts (ring size, count, topology changes). */
	struct pmd_counters pc[PMD_MAX];
	struct gen_counters gc[PMD_MAX];
	struct pmd_sleep sleep[PMD_MAX];
	uint64_t restart_drops; /* packets left in rings at a restart: control thread only */

	/* Sampler's previous readings (control thread only). */
	uint64_t smp_prev_ns;
	struct pmd_prev {
		uint64_t iterations, busy_ns, idle_ns, sleep_iters, sleep_ns, rx, tx, tx_drops,
		    rx_drops, asleep;
		uint64_t hist[PMD_OVERSHOOT_BUCKETS];
	} prev[PMD_MAX];
	uint64_t prev_generated, prev_dropped;
};

void pmd_thread_main(struct ethread *self); /* pmd_thread.c */
void pmd_gen_main(struct ethread *self); /* pmd_gen.c: txonly + sink */
void pmd_peer_main(struct ethread *self); /* pmd_gen.c: mac-swap peer */
/* The generator's pacing tick for a rate (also used by the peer). */
uint64_t pmd_gen_tick_ns(int64_t rate_pps);

#endif
