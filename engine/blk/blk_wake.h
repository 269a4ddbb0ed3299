/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blk_wake.h: the wake-up primitive behind an emulated IPI or doorbell (a futex word). */
#ifndef TT_BLK_WAKE_H
#define TT_BLK_WAKE_H

#include <stdatomic.h>
#include <stdint.h>

/*
 * One futex word per waiting thread (docs/blk.md §9: "a wake-up
 * primitive"). The waiter reads seq, checks its lists, and sleeps only if seq
 * is still the value it read; a kicker bumps seq after publishing its work, so
 * no kick is lost between the check and the sleep. `waiting` lets a kicker skip
 * the system call when nobody sleeps (a Dekker pair, both sides seq_cst).
 */
struct blk_wake {
	_Atomic uint32_t seq;
	_Atomic uint32_t waiting;
	_Atomic uint64_t futex_wakes; /* FUTEX_WAKE calls made (relaxed counter) */
};

void blk_wake_init(struct blk_wake *w);
/* Before checking for work: the token to pass to blk_wake_wait(). */
uint32_t blk_wake_prepare(struct blk_wake *w);
/* Sleep until kicked after prepare() returned seq, or timeout_ns passed. */
void blk_wake_wait(struct blk_wake *w, uint32_t seq, uint64_t timeout_ns);
/* After publishing work for the owner of w (a push that found the list empty). */
void blk_wake_kick(struct blk_wake *w);

#endif
