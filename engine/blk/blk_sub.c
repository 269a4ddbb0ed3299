/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blk_sub.c: the IO submitters blk-sub:N, each keeping blk.iodepth requests in flight. */
#include <stdlib.h>

#include "engine/blk/blk_int.h"
#include "core/clock.h"
#include "core/xalloc.h"

void blk_sub_init(struct blk_state *st, struct blk_sub *s, int idx, int cpu, int depth)
{
	s->idx = idx;
	s->cpu = cpu;
	s->st = st;
	s->depth = depth;
	blk_wake_init(&s->wake);
	blk_llist_init(&s->freel);
	atomic_init(&s->submitted, 0);
	atomic_init(&s->completed, 0);
	s->reqs = xcalloc((size_t)depth, sizeof(*s->reqs));
	s->data = xaligned_alloc(64, (size_t)depth * BLK_REQ_DATA_BYTES);
	for (int i = 0; i < depth; i++) {
		struct blk_req *rq = &s->reqs[i];
		rq->owner = s;
		rq->data = s->data + (size_t)i * BLK_REQ_DATA_WORDS;
		/* Every request starts free: the thread submits them all on its first pass. */
		blk_llist_push(&s->freel, &rq->node);
	}
}

void blk_sub_free(struct blk_sub *s)
{
	free(s->reqs);
	free(s->data);
	s->reqs = NULL;
	s->data = NULL;
}

/* Fill the buffer, stamp the request with its submit CPU and ring the doorbell. */
static void blk_sub_submit(struct blk_sub *s, struct blk_req *rq)
{
	struct blk_state *st = s->st;
	uint64_t t0 = clock_mono_ns(), sum = 0, seed = ++s->seq * 0x9E3779B97F4A7C15ull;

	for (size_t i = 0; i < BLK_REQ_DATA_WORDS; i++) {
		uint64_t w = seed ^ (i * 0xBF58476D1CE4E5B9ull);
		rq->data[i] = w;
		sum += w;
	}
	rq->expect_sum = sum;
	uint64_t t1 = clock_mono_ns();
	cpu_stretch(&st->eng->cpu, s->cpu, t1 - t0);

	rq->submit_cpu = s->cpu; /* rq->mq_ctx->cpu, fixed from now on */
	rq->hwq = s->cpu % st->nr_hw_queues;
	rq->polled = engine_knob(st->eng, K_BLK_POLLED) != 0;
	rq->t_submit_ns = clock_mono_ns();
	rq->t_due_ns = rq->t_irq_ns = rq->t_done_ns = 0;
	/* Count before the request can possibly complete (release: blk_sample reads
	 * completed first, then submitted, and must never see c > s). */
	atomic_fetch_add_explicit(&s->submitted, 1, memory_order_release);
	/* Counted where it is: queued to the device (relaxed: a live figure only). */
	atomic_fetch_add_explicit(&st->at_dev, 1, memory_order_relaxed);
	/* The doorbell: the device is evaluated by the interrupt CPU's thread. */
	if (blk_llist_push(&st->hwqs[rq->hwq].sq, &rq->node))
		blk_wake_kick(&st->irq_wake);
}

/* Submit every request handed back; returns how many. */
static int blk_sub_refill(struct blk_sub *s)
{
	int n = 0;
	struct blk_lnode *l = blk_llist_reverse(blk_llist_del_all(&s->freel));

	while (l) {
		struct blk_lnode *next = l->next; /* submit reuses the node */
		blk_sub_submit(s, (struct blk_req *)l);
		l = next;
		n++;
	}
	return n;
}

void blk_sub_main(struct ethread *self)
{
	struct blk_sub *s = self->arg;
	struct blk_state *st = s->st;
	struct blk_cpu *cpu = &st->cpus[s->cpu];

	ethread_set_state(self, ETHREAD_WAIT);
	while (!atomic_load_explicit(&st->go, memory_order_acquire) && !ethread_should_stop(self)) {
		uint32_t tok = blk_wake_prepare(&s->wake);
		if (!atomic_load_explicit(&st->go, memory_order_acquire))
			blk_wake_wait(&s->wake, tok, BLK_WAIT_SLICE_NS);
	}
	ethread_set_state(self, ETHREAD_RUN);
	while (!ethread_should_stop(self)) {
		int done = 0;

		blk_park_if_asked(st, self);

		/* This thread is its emulated CPU: take the CPU's IPIs and softirqs first,
		 * as an interrupt would preempt the task. */
		if (s->serves_cpu)
			done += blk_ipi_irq_exit(st, cpu, s);
		done += blk_sub_refill(s);
		if (done) {
			ethread_beat(
			    self); /* only progress beats: a wedged queue must look stuck */
			continue;
		}

		/* Every request is in flight: wait for the completions we are owed (WAIT,
		 * so the watchdog notices when they never come). */
		uint32_t tok = blk_wake_prepare(&s->wake);
		if (!blk_llist_empty(&s->freel) ||
		    (s->serves_cpu &&
		     (!blk_llist_empty(&cpu->inbox) ||
		      atomic_load_explicit(&cpu->softirq_pending, memory_order_relaxed))))
			continue;
		ethread_set_state(self, ETHREAD_WAIT);
		blk_wake_wait(&s->wake, tok, BLK_WAIT_SLICE_NS);
		ethread_set_state(self, ETHREAD_RUN);
	}
}
