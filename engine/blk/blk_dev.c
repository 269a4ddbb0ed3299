/* blk_dev.c: the emulated device blk-dev: hardware queues, service time, raising the interrupt. */
#include <sys/prctl.h>

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

/* Accept what the submitters queued: each hardware queue serves one request at a time. */
static int blk_dev_accept(struct blk_state *st, uint64_t now)
{
	int n = 0;

	for (int q = 0; q < st->nr_hw_queues; q++) {
		struct blk_hwq *h = &st->hwqs[q];
		struct blk_lnode *l = blk_llist_reverse(blk_llist_del_all(&h->sq));
		while (l) {
			struct blk_req *rq = (struct blk_req *)l;
			l = l->next;
			uint64_t start = h->busy_until_ns > now ? h->busy_until_ns : now;
			rq->t_due_ns = start + blk_dev_service_ns(st);
			h->busy_until_ns = rq->t_due_ns;
			rq->node.next = NULL;
			if (h->tail)
				h->tail->node.next = &rq->node;
			else
				h->head = rq;
			h->tail = rq;
			n++;
		}
	}
	return n;
}

/*
 * Move every request whose service ended to the completion queue and raise the
 * interrupt once per batch (only the push that finds the queue empty kicks).
 * Returns the number completed; *next_due gets the earliest pending deadline.
 */
static int blk_dev_finish(struct blk_state *st, uint64_t now, uint64_t *next_due)
{
	int n = 0;
	bool raise = false;

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
			raise |= blk_llist_push(&st->cq, &rq->node);
			n++;
		}
		if (h->head && h->head->t_due_ns < *next_due)
			*next_due = h->head->t_due_ns;
	}
	if (raise) {
		atomic_fetch_add_explicit(&st->irqs, 1, memory_order_relaxed);
		blk_wake_kick(&st->irq_wake);
	}
	return n;
}

void blk_dev_main(struct ethread *self)
{
	struct blk_state *st = self->arg;

	/* A device keeps its own time: its service deadlines are not grouped by
	 * the 50 us default timer slack (which would make a 5 us device a 55 us one). */
	prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
	while (!ethread_should_stop(self)) {
		blk_park_if_asked(st, self);
		uint32_t tok = blk_wake_prepare(&st->dev_wake);
		uint64_t now = clock_mono_ns(), next_due;

		blk_dev_accept(st, now);
		blk_dev_finish(st, now, &next_due);
		ethread_beat(self);

		bool more = false;
		for (int q = 0; q < st->nr_hw_queues && !more; q++)
			more = !blk_llist_empty(&st->hwqs[q].sq);
		if (more)
			continue;
		if (next_due == UINT64_MAX) {
			/* Nothing queued: idle until a doorbell (nothing is owed to the device). */
			ethread_set_state(self, ETHREAD_IDLE);
			blk_wake_wait(&st->dev_wake, tok, BLK_WAIT_SLICE_NS);
		} else {
			now = clock_mono_ns();
			if (next_due <= now)
				continue;
			uint64_t dt = next_due - now;
			/* A timed wait it chose: the service time of the request in front. */
			ethread_set_state(self, ETHREAD_SLEEP);
			blk_wake_wait(&st->dev_wake, tok,
				      dt < BLK_WAIT_SLICE_NS ? dt : BLK_WAIT_SLICE_NS);
		}
		ethread_set_state(self, ETHREAD_RUN);
	}
}
