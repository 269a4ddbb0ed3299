/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blk_dev.c: the emulated device: hardware queues and service time by the clock, no thread of its
 * own. */
#include "engine/blk/blk_int.h"
#include "core/clock.h"

/* xorshift64*: the device's private random source for the service-time jitter. */
static uint64_t blk_dev_rand(struct blk_state *st)
{
	uint64_t x = st->rng;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	st->rng = x;
	return x * 0x2545F4914F6CDD1Dull;
}

static uint64_t blk_dev_service_ns(struct blk_state *st)
{
	uint64_t fixed_us = (uint64_t)engine_knob(st->eng, K_BLK_SERVICE_US);
	uint64_t jitter_us = (uint64_t)engine_knob(st->eng, K_BLK_SERVICE_JITTER_US);
	uint64_t ns = fixed_us * NS_PER_US;

	if (jitter_us)
		ns += blk_dev_rand(st) % (jitter_us * NS_PER_US + 1);
	return ns;
}

/*
 * Accept what the submitters queued: each hardware queue serves one request at a
 * time, and service starts when the request was submitted or when the one before it
 * ends, whichever is later. The device's time is the clock's, not the time of the
 * thread that looks (docs/blk.md §9): a request found late was being served all along.
 */
static void blk_dev_accept(struct blk_state *st)
{
	for (int q = 0; q < st->nr_hw_queues; q++) {
		struct blk_hwq *h = &st->hwqs[q];
		struct blk_lnode *l = blk_llist_reverse(blk_llist_del_all(&h->sq));
		while (l) {
			struct blk_req *rq = (struct blk_req *)l;
			l = l->next;
			uint64_t start =
			    h->busy_until_ns > rq->t_submit_ns ? h->busy_until_ns : rq->t_submit_ns;
			rq->t_due_ns = start + blk_dev_service_ns(st);
			h->busy_until_ns = rq->t_due_ns;
			rq->node.next = NULL;
			if (h->tail)
				h->tail->node.next = &rq->node;
			else
				h->head = rq;
			h->tail = rq;
		}
	}
}

/*
 * Move every request whose service ended to the completion queue and count one
 * interrupt per batch. Returns the number moved; *next_due gets the earliest
 * deadline still pending (UINT64_MAX: the device is empty).
 */
static int blk_dev_finish(struct blk_state *st, uint64_t now, uint64_t *next_due)
{
	int n = 0;

	*next_due = UINT64_MAX;
	for (int q = 0; q < st->nr_hw_queues; q++) {
		struct blk_hwq *h = &st->hwqs[q];
		while (h->head && h->head->t_due_ns <= now) {
			struct blk_req *rq = h->head;
			h->head = (struct blk_req *)rq->node.next;
			if (!h->head)
				h->tail = NULL;
			rq->t_irq_ns = now;
			/* Out of the device, then (release) into the completion queue:
			 * blk_sample reads at_cq (acquire) before at_dev, so if it sees
			 * the request here it also sees it gone from there; a request
			 * moving on is missed by one read, never counted twice. */
			atomic_fetch_sub_explicit(&st->at_dev, 1, memory_order_relaxed);
			atomic_fetch_add_explicit(&st->at_cq, 1, memory_order_release);
			blk_llist_push(&st->cq, &rq->node);
			n++;
		}
		if (h->head && h->head->t_due_ns < *next_due)
			*next_due = h->head->t_due_ns;
	}
	if (n)
		atomic_fetch_add_explicit(&st->irqs, 1, memory_order_relaxed);
	return n;
}

int blk_dev_poll(struct blk_state *st, uint64_t now, uint64_t *next_due)
{
	blk_dev_accept(st);
	return blk_dev_finish(st, now, next_due);
}
