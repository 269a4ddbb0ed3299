/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blk_llist.c: lock-free MPSC list with was-empty push and exchange drain (blk_llist.h). */
#include "engine/blk/blk_llist.h"

#include <stddef.h>

void blk_llist_init(struct blk_llist *l)
{
	atomic_init(&l->head, NULL);
}

bool blk_llist_push(struct blk_llist *l, struct blk_lnode *n)
{
	/* Relaxed first read: the CAS below validates it. */
	struct blk_lnode *old = atomic_load_explicit(&l->head, memory_order_relaxed);

	do {
		n->next = old;
		/*
		 * Release on success: n->next and everything the producer wrote into the
		 * request before (timestamps, the data buffer) are visible to the consumer
		 * whose exchange (acquire) takes n. The successful CASes of all producers
		 * form one release sequence on head, so an exchange that reads the newest
		 * node also sees every older node's contents.
		 */
	} while (!atomic_compare_exchange_weak_explicit(&l->head, &old, n, memory_order_release,
							memory_order_relaxed));
	return old == NULL;
}

struct blk_lnode *blk_llist_del_all(struct blk_llist *l)
{
	/* Acquire pairs with the producers' release CAS (see blk_llist_push). */
	return atomic_exchange_explicit(&l->head, NULL, memory_order_acquire);
}

struct blk_lnode *blk_llist_del_all_but_newest(struct blk_llist *l)
{
	/*
	 * Acquire: as del_all. Producers only ever write their own node's next and
	 * the head, never an interior node's next, so the one consumer may cut the
	 * chain below the newest node without a CAS.
	 */
	struct blk_lnode *newest = atomic_load_explicit(&l->head, memory_order_acquire);
	struct blk_lnode *rest;

	if (!newest)
		return NULL;
	rest = newest->next;
	newest->next = NULL;
	return rest;
}

struct blk_lnode *blk_llist_reverse(struct blk_lnode *n)
{
	struct blk_lnode *prev = NULL;

	while (n) {
		struct blk_lnode *next = n->next;
		n->next = prev;
		prev = n;
		n = next;
	}
	return prev;
}

bool blk_llist_empty(struct blk_llist *l)
{
	return atomic_load_explicit(&l->head, memory_order_relaxed) == NULL;
}
