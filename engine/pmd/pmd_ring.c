/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pmd_ring.c: the SPSC packet ring behind pmd_ring.h, and what a PMD set's rings hold. */
#include "engine/pmd/pmd_ring.h"

#include <stdlib.h>

#include "core/xalloc.h"
#include "engine/pmd/pmd_core.h"

struct pmd_ring *pmd_ring_new(uint32_t size)
{
	struct pmd_ring *r = xaligned_alloc(PMD_CACHELINE, sizeof(*r));

	atomic_init(&r->head, 0);
	atomic_init(&r->tail, 0);
	r->tail_cache = 0;
	r->head_cache = 0;
	r->size = size;
	r->mask = size - 1;
	r->slots = xaligned_alloc(PMD_CACHELINE, (size_t)size * sizeof(struct pmd_pkt));
	return r;
}

void pmd_ring_free(struct pmd_ring *r)
{
	if (!r)
		return;
	free(r->slots);
	free(r);
}

unsigned pmd_ring_enqueue_burst(struct pmd_ring *r, const struct pmd_pkt *pkts, unsigned n)
{
	/* Our own index: only we write it, so relaxed reads our last store. */
	uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
	uint64_t room = r->size - (tail - r->head_cache);

	if (room < n) {
		/* acquire: pairs with the consumer's release of head, so its reads
		 * of the slots we are about to overwrite are finished. */
		r->head_cache = atomic_load_explicit(&r->head, memory_order_acquire);
		room = r->size - (tail - r->head_cache);
	}
	if (n > room)
		n = (unsigned)room;
	for (unsigned i = 0; i < n; i++)
		r->slots[(tail + i) & r->mask] = pkts[i];
	/* release: the slot writes above become visible before the new tail. */
	atomic_store_explicit(&r->tail, tail + n, memory_order_release);
	return n;
}

unsigned pmd_ring_dequeue_burst(struct pmd_ring *r, struct pmd_pkt *pkts, unsigned max)
{
	uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed); /* our own */
	uint64_t avail = r->tail_cache - head;

	if (avail < max) {
		/* acquire: pairs with the producer's release of tail, so the slots
		 * up to it are written before we read them. */
		r->tail_cache = atomic_load_explicit(&r->tail, memory_order_acquire);
		avail = r->tail_cache - head;
	}
	if (avail > max)
		avail = max;
	for (unsigned i = 0; i < avail; i++)
		pkts[i] = r->slots[(head + i) & r->mask];
	/* release: our slot reads are done before the producer may reuse them. */
	atomic_store_explicit(&r->head, head + avail, memory_order_release);
	return (unsigned)avail;
}

unsigned pmd_ring_dequeue_sent_by(struct pmd_ring *r, struct pmd_pkt *pkts, unsigned max,
				  uint64_t t_max_ns)
{
	uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed); /* our own */
	/* acquire: pairs with the producer's release of tail (slots written). */
	r->tail_cache = atomic_load_explicit(&r->tail, memory_order_acquire);
	uint64_t avail = r->tail_cache - head;
	unsigned n = 0;

	while (n < avail && n < max) {
		const struct pmd_pkt *p = &r->slots[(head + n) & r->mask];
		if (p->t_hop_ns > t_max_ns)
			break;
		pkts[n++] = *p;
	}
	/* release: our slot reads are done before the producer may reuse them. */
	atomic_store_explicit(&r->head, head + n, memory_order_release);
	return n;
}

uint64_t pmd_ring_count(struct pmd_ring *r)
{
	/* head first: tail only grows, so tail read later is >= the tail at the
	 * time head was read, and the difference never goes negative. */
	uint64_t head = atomic_load_explicit(&r->head, memory_order_acquire);
	uint64_t tail = atomic_load_explicit(&r->tail, memory_order_acquire);
	return tail - head;
}

uint64_t pmd_capacity(const struct pmd_state *ps)
{
	uint64_t cap = 0;
	for (int i = 0; i < ps->npmd; i++) {
		const struct pmd_poller *p = &ps->pmd[i];
		for (int q = 0; q < p->nrxq; q++)
			cap += p->rxq[q] ? p->rxq[q]->size : 0;
		cap += p->txq ? p->txq->size : 0;
		/* In a PMD's hands: one rx batch, its output batch, a peer's batch. */
		cap += 3 * NETDEV_MAX_BURST;
	}
	return cap;
}

uint64_t pmd_rings_count(struct pmd_state *ps)
{
	uint64_t n = 0;
	/* Downstream first: PMD i's tx ring feeds PMD i+1's rx rings (chain), and a
	 * PMD's rx feeds its tx. A packet that moves on between two reads is then
	 * missed once, never counted twice, so the remainder stays >= 0. */
	for (int i = ps->npmd - 1; ps->running && i >= 0; i--) {
		struct pmd_poller *p = &ps->pmd[i];
		if (p->txq)
			n += pmd_ring_count(p->txq);
		for (int q = 0; q < p->nrxq; q++)
			n += pmd_ring_count(p->rxq[q]);
	}
	return n;
}
