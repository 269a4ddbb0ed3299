/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blk_wake.c: futex-based kick and wait (blk_wake.h). */
#include "engine/blk/blk_wake.h"

#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/clock.h"

void blk_wake_init(struct blk_wake *w)
{
	atomic_init(&w->seq, 0);
	atomic_init(&w->waiting, 0);
	atomic_init(&w->futex_wakes, 0);
}

uint32_t blk_wake_prepare(struct blk_wake *w)
{
	/* Acquire: pairs with the kicker's bump, so work published before it is seen. */
	return atomic_load_explicit(&w->seq, memory_order_acquire);
}

void blk_wake_wait(struct blk_wake *w, uint32_t seq, uint64_t timeout_ns)
{
	struct timespec ts = clock_ns_to_ts(timeout_ns);

	/* seq_cst store then seq_cst load: either we see the kicker's bump here, or
	 * the kicker (bump, then load of waiting) sees waiting == 1 and calls FUTEX_WAKE. */
	atomic_store_explicit(&w->waiting, 1, memory_order_seq_cst);
	if (atomic_load_explicit(&w->seq, memory_order_seq_cst) == seq)
		syscall(SYS_futex, &w->seq, FUTEX_WAIT_PRIVATE, seq, &ts, NULL, 0);
	atomic_store_explicit(&w->waiting, 0, memory_order_relaxed);
}

void blk_wake_kick(struct blk_wake *w)
{
	/* seq_cst: the other half of the Dekker pair in blk_wake_wait (release suffices
	 * for the work itself). */
	atomic_fetch_add_explicit(&w->seq, 1, memory_order_seq_cst);
	if (atomic_load_explicit(&w->waiting, memory_order_seq_cst)) {
		atomic_fetch_add_explicit(&w->futex_wakes, 1, memory_order_relaxed);
		syscall(SYS_futex, &w->seq, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
	}
}
