/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blk_check.c: pausing the blk threads and checking submitted = completed + in flight exactly. */
#include <stdio.h>

#include "engine/blk/blk_int.h"

static void blk_resume(struct blk_state *st);

/* Longest a pause may wait: every wait in the subsystem is at most BLK_WAIT_SLICE_NS. */
#define BLK_PAUSE_DEADLINE_NS (2 * NS_PER_S)

static int blk_nthreads(const struct blk_state *st)
{
	int n = st->nsubs;
	n += st->irq_t != NULL;
	return n;
}

static void blk_kick_all(struct blk_state *st)
{
	for (int i = 0; i < st->nsubs; i++)
		blk_wake_kick(&st->subs[i].wake);
	blk_wake_kick(&st->irq_wake);
}

void blk_park_if_asked(struct blk_state *st, struct ethread *self)
{
	/* acquire: pairs with blk_pause()'s release store of the request. */
	if (!atomic_load_explicit(&st->pause_req, memory_order_acquire))
		return;
	int state = atomic_load_explicit(&self->state, memory_order_relaxed);
	ethread_set_state(self, ETHREAD_IDLE); /* parked on purpose: nothing owed */
	/* release: every list push and counter update of ours happens-before the
	 * pauser's acquire read of parked. */
	atomic_fetch_add_explicit(&st->parked, 1, memory_order_release);
	while (!ethread_should_stop(self)) {
		uint32_t tok = blk_wake_prepare(&st->pause_wake);
		if (!atomic_load_explicit(&st->pause_req, memory_order_acquire))
			break;
		blk_wake_wait(&st->pause_wake, tok, BLK_WAIT_SLICE_NS);
	}
	atomic_fetch_sub_explicit(&st->parked, 1, memory_order_relaxed);
	ethread_set_state(self, state);
}

/* Park every blk thread (deadline 2 s); blk_resume lets them go. */
static int blk_pause(struct blk_state *st)
{
	atomic_store_explicit(&st->pause_req, true, memory_order_release);
	blk_kick_all(st); /* out of their waits, to the top of their loops */
	uint64_t deadline = clock_mono_ns() + BLK_PAUSE_DEADLINE_NS;
	while (atomic_load_explicit(&st->parked, memory_order_acquire) < blk_nthreads(st)) {
		if (clock_mono_ns() > deadline) {
			blk_resume(st);
			return -1;
		}
		clock_sleep_ns(200 * NS_PER_US);
	}
	return 0;
}

static void blk_resume(struct blk_state *st)
{
	atomic_store_explicit(&st->pause_req, false, memory_order_release);
	blk_wake_kick(&st->pause_wake);
}

static uint64_t blk_chain_len(const struct blk_lnode *n)
{
	uint64_t len = 0;
	for (; n; n = n->next)
		len++;
	return len;
}

/* With every blk thread parked: the requests found where they wait. */
static uint64_t blk_walk_in_flight(struct blk_state *st)
{
	uint64_t n = 0;
	for (int q = 0; q < st->nr_hw_queues; q++) {
		struct blk_hwq *h = &st->hwqs[q];
		n += blk_chain_len(atomic_load_explicit(&h->sq.head, memory_order_acquire));
		n += blk_chain_len(h->head ? &h->head->node : NULL); /* in service */
	}
	n += blk_chain_len(atomic_load_explicit(&st->cq.head, memory_order_acquire));
	for (int c = 0; c < st->ncpus; c++)
		n += blk_chain_len(
		    atomic_load_explicit(&st->cpus[c].done.head, memory_order_acquire));
	return n;
}

int blk_check(struct engine *eng, int64_t *missing, char *err, size_t errlen)
{
	struct blk_state *st = eng->blk;

	*missing = 0;
	if (!st) {
		snprintf(err, errlen, "blk is not running");
		return -1;
	}
	if (blk_pause(st) != 0) {
		snprintf(err, errlen, "blk: the threads did not pause within %llu ms",
			 (unsigned long long)(BLK_PAUSE_DEADLINE_NS / NS_PER_MS));
		return -1;
	}
	uint64_t s = 0, c = 0;
	for (int i = 0; i < st->nsubs; i++) {
		s += atomic_load_explicit(&st->subs[i].submitted, memory_order_acquire);
		c += atomic_load_explicit(&st->subs[i].completed, memory_order_acquire);
	}
	uint64_t where = blk_walk_in_flight(st);
	blk_resume(st);
	*missing = (int64_t)(s - c - where);
	if (*missing != 0)
		event_add(&eng->events, EV_INVARIANT,
			  "blk: %lld requests missing (submitted %llu - completed %llu - found "
			  "queued, in service or awaiting completion %llu, paused)",
			  (long long)*missing, (unsigned long long)s, (unsigned long long)c,
			  (unsigned long long)where);
	return 0;
}

int blk_rekick_stranded(struct blk_state *st)
{
	int n = 0;
	for (int c = 0; c < st->ncpus; c++) {
		struct blk_cpu *cpu = &st->cpus[c];
		if (c == st->irq_cpu || blk_llist_empty(&cpu->done))
			continue;
		blk_ipi_send(st, cpu);
		n++;
	}
	return n;
}
