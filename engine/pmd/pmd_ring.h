/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pmd_ring.h: lock-free single-producer single-consumer ring of packets (power-of-two size). */
#ifndef TT_PMD_RING_H
#define TT_PMD_RING_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdint.h>

#include "engine/pmd/pmd_pkt.h"

#define PMD_CACHELINE 64

/*
 * One producer thread calls pmd_ring_enqueue_burst, one consumer thread calls
 * pmd_ring_dequeue_burst; anyone may call pmd_ring_count (an instant's view).
 * The indexes run free (64 bits never wrap in practice); a slot is idx & mask.
 * Each side keeps a private cache of the other side's index so the shared
 * cache line is touched only when the cached view says full or empty.
 */
struct pmd_ring {
	/* Consumer's line. head: next slot to read. Written by the consumer
	 * (release, after it has copied the slots out), read by the producer
	 * (acquire, before it overwrites those slots). */
	alignas(PMD_CACHELINE) _Atomic uint64_t head;
	uint64_t tail_cache; /* consumer-private: last tail seen */

	/* Producer's line. tail: next slot to write. Written by the producer
	 * (release, after it has filled the slots), read by the consumer
	 * (acquire, before it reads them). */
	alignas(PMD_CACHELINE) _Atomic uint64_t tail;
	uint64_t head_cache; /* producer-private: last head seen */

	alignas(PMD_CACHELINE) uint32_t size; /* a power of two */
	uint32_t mask;
	struct pmd_pkt *slots;
};

/* size must be a power of two >= 2 (the knob table checks pmd.rxq_size). */
struct pmd_ring *pmd_ring_new(uint32_t size);
void pmd_ring_free(struct pmd_ring *r);

/* Producer: copy up to n packets in; returns how many fit (the rest is the caller's drop). */
unsigned pmd_ring_enqueue_burst(struct pmd_ring *r, const struct pmd_pkt *pkts, unsigned n);
/* Consumer: copy up to max packets out; returns how many. */
unsigned pmd_ring_dequeue_burst(struct pmd_ring *r, struct pmd_pkt *pkts, unsigned max);
/* Consumer: like dequeue_burst, stopping at the first packet sent after t_max_ns
 * (t_hop_ns): what a peer has received by then. */
unsigned pmd_ring_dequeue_sent_by(struct pmd_ring *r, struct pmd_pkt *pkts, unsigned max,
				  uint64_t t_max_ns);
/* Packets in the ring at one instant (exact once both sides are quiescent). */
uint64_t pmd_ring_count(struct pmd_ring *r);

/* Every ring of a PMD set (pmd_core.h), read by the stats and the invariant check. */
struct pmd_state;
/* Packets the rings and the threads' hands can hold at one instant. */
uint64_t pmd_capacity(const struct pmd_state *ps);
/* Packets in the rings, downstream rings first (a packet moving on is never counted twice). */
uint64_t pmd_rings_count(struct pmd_state *ps);

#endif
