/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blk_irq.c: blk-irq, the emulated CPU that takes the device interrupt (docs/blk.md §2, §3). */
#include <sys/prctl.h>

#include "engine/blk/blk_int.h"

/* Shortest sleep until a device deadline: at most one interrupt per this much time
 * while the CPU waits (a busy CPU finds what is due without sleeping). */
#define BLK_IRQ_COALESCE_NS (50 * NS_PER_US)

/*
 * blk-irq: the interrupt CPU. It evaluates the device by the clock (blk_dev_poll:
 * the requests whose service ended raise the interrupt), then in hard IRQ runs
 * blk_mq_complete_request() per completed request, then at IRQ exit its own IPIs
 * and BLOCK softirq. The device burns no CPU of its own, so the completion work is
 * what this CPU spends (docs/blk.md §9).
 */

/*
 * A wait of blk-irq begins (since: its start) or ends (idle: its length, added to the total),
 * as one write of the seqlock the sampler reads (blk.c, blk_irq_idle_now()): the count odd
 * while the two words change. blk-irq is the only writer; its section is two stores, so a
 * reader that meets it odd retries a few times and rarely at all. No fences (TSan does not
 * model them): the data stores are releases, so the odd count is visible before them, and
 * the even count is a release after them; the reader's loads are acquires.
 */
static void blk_irq_wait_mark(struct blk_state *st, uint64_t since, uint64_t idle)
{
	uint64_t seq = atomic_load_explicit(&st->irq_wait_seq, memory_order_relaxed);
	atomic_store_explicit(&st->irq_wait_seq, seq + 1, memory_order_relaxed);
	if (idle)
		atomic_store_explicit(&st->irq_idle_ns,
				      atomic_load_explicit(&st->irq_idle_ns, memory_order_relaxed) +
					  idle,
				      memory_order_release);
	atomic_store_explicit(&st->irq_wait_since, since, memory_order_release);
	atomic_store_explicit(&st->irq_wait_seq, seq + 2, memory_order_release);
}

void blk_irq_main(struct ethread *self)
{
	struct blk_state *st = self->arg;
	struct blk_cpu *cpu = &st->cpus[st->irq_cpu];

	/* The device's deadlines are waited for here: not grouped by the 50 us
	 * default timer slack (which would make a 5 us device a 55 us one). */
	prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
	while (!ethread_should_stop(self)) {
		blk_park_if_asked(st, self);
		uint32_t tok = blk_wake_prepare(&st->irq_wake);
		uint64_t next_due;
		int done = blk_dev_poll(st, clock_mono_ns(), &next_due);
		struct blk_lnode *l = blk_llist_reverse(blk_llist_del_all(&st->cq));

		while (l) {
			struct blk_lnode *next = l->next; /* the decision may queue the node */
			/* Out of the queue; blk_complete_request puts it on a done list
			 * (release) or completes it: see blk_dev_finish for the order. */
			atomic_fetch_sub_explicit(&st->at_cq, 1, memory_order_relaxed);
			blk_complete_request(st, (struct blk_req *)l, cpu);
			l = next;
			done++;
		}
		done += blk_ipi_irq_exit(st, cpu, NULL);
		ethread_beat(self);
		if (done)
			continue;
		uint64_t now = clock_mono_ns(), wait = BLK_WAIT_SLICE_NS;
		if (next_due != UINT64_MAX) {
			if (next_due <= now)
				continue;
			/* Interrupt coalescing (an NVMe aggregation time): not woken for
			 * every deadline, so a slow device does not cost this CPU one
			 * wake-up per request; what is due meanwhile waits for the batch. */
			uint64_t dt = next_due - now < BLK_IRQ_COALESCE_NS ? BLK_IRQ_COALESCE_NS
									   : next_due - now;
			wait = dt < wait ? dt : wait;
		}
		/* Waiting for a doorbell or the device's next deadline: nothing is
		 * owed to this CPU itself. */
		ethread_set_state(self, ETHREAD_IDLE);
		uint64_t w0 = clock_mono_ns(), c0 = clock_cpu_ns(self->cpu_clock);
		blk_irq_wait_mark(st, w0, 0);
		blk_wake_wait(&st->irq_wake, tok, wait);
		/* Idle is the wait alone: the time the host keeps this thread off its CPU
		 * while it has work is busy time of the interrupt CPU that the host took
		 * (blk.irq_host_took_pct), not time the interrupt CPU had nothing to do. And
		 * the wait less the CPU it took: the futex call's entry, sleep and wake-up run
		 * on this CPU (5-9 % of it at 2k waits a second), which is busy time. */
		uint64_t wall = clock_mono_ns() - w0, ran = clock_cpu_ns(self->cpu_clock) - c0;
		blk_irq_wait_mark(st, 0, wall > ran ? wall - ran : 0);
		ethread_set_state(self, ETHREAD_RUN);
	}
}
