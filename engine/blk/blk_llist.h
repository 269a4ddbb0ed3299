/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blk_llist.h: the per-CPU lock-free done list (docs/blk.md §3 blk_cpu_done, §9). */
#ifndef TT_BLK_LLIST_H
#define TT_BLK_LLIST_H

#include <stdatomic.h>
#include <stdbool.h>

/*
 * A many-producer, one-consumer lock-free stack, like the kernel's llist: a
 * push is one compare-and-swap and reports whether the list was empty before
 * it (the producer that sees empty -> non-empty is the one that must kick);
 * the consumer takes the whole list with one exchange and reverses it to get
 * FIFO order back. No lock, so nothing the emulated IRQ path can deadlock on
 * (the 2008 lesson, §4).
 */
struct blk_lnode {
	struct blk_lnode *next;
};

struct blk_llist {
	_Atomic(struct blk_lnode *) head;
};

void blk_llist_init(struct blk_llist *l);
/* Push n; returns true when the list was empty just before (the caller kicks). */
bool blk_llist_push(struct blk_llist *l, struct blk_lnode *n);
/* Take every node at once, newest first (NULL if empty). */
struct blk_lnode *blk_llist_del_all(struct blk_llist *l);
/*
 * FAULT INJECTION ONLY (blk.fault_lost_kick): take every node but the newest,
 * which stays on the list. The list then never looks empty again, so no
 * producer kicks and nothing drains it: the 2008 class of lost-IPI hang.
 */
struct blk_lnode *blk_llist_del_all_but_newest(struct blk_llist *l);
/* Reverse a chain taken by del_all (newest first -> oldest first). */
struct blk_lnode *blk_llist_reverse(struct blk_lnode *n);
/* A hint only (relaxed): true if the list looked empty. */
bool blk_llist_empty(struct blk_llist *l);

#endif
