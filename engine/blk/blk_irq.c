/* blk_irq.c: blk-irq, the emulated CPU that takes the device interrupt (docs/blk.md §2, §3). */
#include "engine/blk/blk_int.h"

/* blk-irq: the interrupt CPU. Hard IRQ: blk_mq_complete_request() per completed request;
 * IRQ exit: its own IPIs and BLOCK softirq. */
void blk_irq_main(struct ethread *self)
{
	struct blk_state *st = self->arg;
	struct blk_cpu *cpu = &st->cpus[st->irq_cpu];

	while (!ethread_should_stop(self)) {
		blk_park_if_asked(st, self);
		uint32_t tok = blk_wake_prepare(&st->irq_wake);
		int done = 0;
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
		/* Waiting for the device to interrupt: nothing is owed to this CPU itself. */
		ethread_set_state(self, ETHREAD_IDLE);
		blk_wake_wait(&st->irq_wake, tok, BLK_WAIT_SLICE_NS);
		ethread_set_state(self, ETHREAD_RUN);
	}
}
