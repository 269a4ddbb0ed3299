/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blk_ipi.c: completion steering mechanics: done lists, call-single inbox, BLOCK softirq (§3, §9).
 */
#include "engine/blk/blk_int.h"

#include "core/clock.h"

/* The decision inputs of rq completing on cur (fills in from live state). */
static void blk_decide_fill(struct blk_state *st, const struct blk_req *rq,
			    const struct blk_cpu *cur, struct blk_decide_in *in)
{
	const struct blk_cpu *sc = &st->cpus[rq->submit_cpu];
	struct engine *eng = st->eng;

	in->cur_cpu = cur->id;
	in->submit_cpu = rq->submit_cpu;
	in->share_llc = cur->id == sc->id || cur->llc == sc->llc; /* cpus_share_cache */
	in->equal_capacity = cur->capacity == sc->capacity;
	/* Relaxed: onlining is advisory here, as cpu_online() is to the kernel's check. */
	in->submit_online =
	    rq->submit_cpu < eng->cpu.count &&
	    atomic_load_explicit(&eng->cpu.cpus[rq->submit_cpu].online, memory_order_relaxed);
	in->polled = rq->polled;
	in->force_irqthreads = engine_knob(eng, K_BLK_THREADIRQS) != 0;
	in->smp = st->ncpus > 1;
	in->nr_hw_queues = st->nr_hw_queues;
	in->nr_ctx = st->hwqs[rq->hwq].nr_ctx;
	/* Relaxed: a flip of rq_affinity may take effect one request late, as in the kernel. */
	in->flags = atomic_load_explicit(&st->flags, memory_order_relaxed);
}

/* ->complete: runs on cpu, reads the data, accounts, hands the request back. */
static void blk_req_end(struct blk_state *st, struct blk_req *rq, struct blk_cpu *cpu,
			struct blk_sub *self)
{
	struct blk_sub *owner = rq->owner;
	uint64_t t0 = clock_mono_ns(), sum = 0;

	/* Read what the submitter wrote: this is the cache traffic steering saves or costs. */
	for (size_t i = 0; i < BLK_REQ_DATA_WORDS; i++)
		sum += rq->data[i];
	if (sum != rq->expect_sum)
		atomic_fetch_add_explicit(&st->data_errors, 1, memory_order_relaxed);
	/* Then checksum the block (FNV-1a over its words, a serial chain the compiler
	 * cannot fold away): the CPU work of ->complete, paid by the CPU it runs on. */
	uint64_t h = sum;
	for (int p = 0; p < BLK_REQ_VERIFY_PASSES; p++)
		for (size_t i = 0; i < BLK_REQ_DATA_WORDS; i++)
			h = (h ^ rq->data[i]) * 0x100000001B3ull;
	/* Relaxed: kept only so the work is done; nobody orders anything on it. */
	atomic_fetch_xor_explicit(&cpu->digest, h, memory_order_relaxed);
	uint64_t t1 = clock_mono_ns();
	cpu_stretch(&st->eng->cpu, cpu->id, t1 - t0);

	rq->t_done_ns = clock_mono_ns();
	blk_hist_add(&st->lat, rq->t_done_ns - rq->t_submit_ns);
	if (rq->submit_cpu < BLK_MATRIX_MAX && cpu->id < BLK_MATRIX_MAX)
		atomic_fetch_add_explicit(&cpu->by_submit[rq->submit_cpu], 1, memory_order_relaxed);
	/* blk.fault_leak: one completion in 64 goes uncounted (the request is still
	 * handed back), so submitted - completed drifts from what is in flight. */
	bool leak =
	    engine_knob(st->eng, K_BLK_FAULT_LEAK) != 0 &&
	    (atomic_fetch_add_explicit(&st->leak_seq, 1, memory_order_relaxed) + 1) % 64 == 0;
	/* Release: pairs with blk_sample's acquire read of completed, which then sees the
	 * submitter's earlier submitted increment for this request (s >= c always). */
	if (!leak)
		atomic_fetch_add_explicit(&owner->completed, 1, memory_order_release);
	/* After the total, with release: blk_sample reads these first (acquire), so the
	 * per-CPU and per-path sums never run ahead of the total it reads next. */
	atomic_fetch_add_explicit(&cpu->completed, 1, memory_order_release);
	atomic_fetch_add_explicit(&cpu->by_path[rq->path], 1, memory_order_release);
	/* Hand the request back; after this push the submitter may reuse rq at once. */
	if (blk_llist_push(&owner->freel, &rq->node) && owner != self)
		blk_wake_kick(&owner->wake);
}

/*
 * blk.ipi_cost_ns, emulated (docs/blk.md "Emulated IPI cost"): what a remote completion's IPI
 * costs the thread that sends it and the one that takes it, spun on the calling thread's own
 * CPU clock, so it is that thread's CPU time however the host schedules it.
 */
static void blk_ipi_cost_pay(const struct blk_state *st)
{
	int64_t ns = engine_knob(st->eng, K_BLK_IPI_COST_NS);
	if (ns <= 0)
		return;
	uint64_t end = clock_thread_ns() + (uint64_t)ns;
	while (clock_thread_ns() < end)
		;
}

void blk_ipi_send(struct blk_state *st, struct blk_cpu *target)
{
	(void)st;
	/*
	 * smp_call_function_single_async(target, per-CPU csd). acq_rel: if the csd is
	 * still locked (-EBUSY) the handler has yet to unlock it; its unlock is an
	 * acquire RMW that reads our write, so our done-list push happens before the
	 * softirq that the handler raises next, and that softirq drains our request.
	 */
	if (atomic_exchange_explicit(&target->csd_locked, true, memory_order_acq_rel)) {
		atomic_fetch_add_explicit(&target->csd_busy, 1, memory_order_relaxed);
		return;
	}
	/* call_single_queue: the arch IPI goes out only when the queue was empty. */
	if (blk_llist_push(&target->inbox, &target->csd)) {
		atomic_fetch_add_explicit(&target->ipi_sent, 1, memory_order_relaxed);
		blk_wake_kick(target->server);
	}
}

/* The BLOCK softirq handler, blk_done_softirq(): drain, reverse, complete each. */
static int blk_softirq_run(struct blk_state *st, struct blk_cpu *cpu, struct blk_sub *self)
{
	int n = 0;
	/* The 2008 lost kick is on the remote path only: the interrupt CPU's own
	 * done list (rq_affinity 0, or a submitter on that CPU) is never cut. */
	bool fault = engine_knob(st->eng, K_BLK_FAULT_LOST_KICK) != 0 && cpu->id != st->irq_cpu;
	/* Clear pending before draining (§9): a push after our drain sees an empty list and
	 * raises again. acq_rel pairs with the raiser's release store. */
	if (!atomic_exchange_explicit(&cpu->softirq_pending, false, memory_order_acq_rel))
		return 0;
	struct blk_lnode *l =
	    fault ? blk_llist_del_all_but_newest(&cpu->done) : blk_llist_del_all(&cpu->done);
	atomic_fetch_add_explicit(&cpu->softirq_runs, 1, memory_order_relaxed);
	if (fault && !blk_llist_empty(&cpu->done))
		atomic_fetch_add_explicit(&st->lost_kicks, 1, memory_order_relaxed);
	for (l = blk_llist_reverse(l); l;) {
		struct blk_lnode *next = l->next; /* blk_req_end reuses the node */
		struct blk_req *rq = (struct blk_req *)l;
		atomic_fetch_sub_explicit(&st->at_done, 1, memory_order_relaxed);
		if (rq->path == BLK_PATH_REMOTE)
			blk_ipi_cost_pay(st); /* the receiving side, before it counts */
		blk_req_end(st, rq, cpu, self);
		l = next;
		n++;
	}
	return n + 1;
}

int blk_ipi_irq_exit(struct blk_state *st, struct blk_cpu *cpu, struct blk_sub *self)
{
	int n = 0;
	struct blk_lnode *csds = blk_llist_del_all(&cpu->inbox);

	if (csds) {
		/* One call-function-single interrupt per non-empty queue (the CAL row). */
		atomic_fetch_add_explicit(&cpu->ipi_recv, 1, memory_order_relaxed);
		for (csds = blk_llist_reverse(csds); csds;) {
			struct blk_lnode *next = csds->next;
			/* Async csds unlock before their function runs (kernel/smp.c); acq_rel:
			 * see blk_ipi_send's -EBUSY case. */
			atomic_exchange_explicit(&cpu->csd_locked, false, memory_order_acq_rel);
			/* __blk_mq_complete_request_remote(): only raises BLOCK_SOFTIRQ here. */
			atomic_store_explicit(&cpu->softirq_pending, true, memory_order_release);
			csds = next;
			n++;
		}
	}
	return n + blk_softirq_run(st, cpu, self);
}

void blk_complete_request(struct blk_state *st, struct blk_req *rq, struct blk_cpu *cur)
{
	struct blk_decide_in in;
	struct blk_cpu *target;

	blk_decide_fill(st, rq, cur, &in);
	rq->path = blk_decide(&in);
	switch (rq->path) {
	case BLK_PATH_DIRECT:
		blk_req_end(st, rq, cur, NULL);
		break;
	case BLK_PATH_LOCAL_SOFTIRQ:
		atomic_fetch_add_explicit(&st->at_done, 1, memory_order_release);
		/* blk_mq_raise_softirq(): raise only on the empty -> non-empty push. */
		if (blk_llist_push(&cur->done, &rq->node))
			atomic_store_explicit(&cur->softirq_pending, true, memory_order_release);
		break;
	case BLK_PATH_REMOTE:
		/* blk_mq_complete_send_ipi(): the first producer kicks, the rest ride along. */
		target = &st->cpus[rq->submit_cpu];
		atomic_fetch_add_explicit(&st->at_done, 1, memory_order_release);
		if (blk_llist_push(&target->done, &rq->node))
			blk_ipi_send(st, target);
		/* The sending side's cost after the push, as the kernel sends the IPI after
		 * llist_add: the request is already the target's, whose side of the cost runs
		 * in its own interrupt context meanwhile (docs/blk.md "Emulated IPI cost"). rq
		 * may be completed and reused by now: not touched again. */
		blk_ipi_cost_pay(st);
		break;
	default:
		break;
	}
}
