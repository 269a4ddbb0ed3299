/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blk_decide.c: blk_mq_complete_request_remote()'s steering decision, step by step (§2). */
#include "engine/blk/blk_decide.h"

static const char *const blk_path_names[BLK_PATH_COUNT] = {
    [BLK_PATH_DIRECT] = "direct",
    [BLK_PATH_LOCAL_SOFTIRQ] = "local_softirq",
    [BLK_PATH_REMOTE] = "remote",
};

const char *blk_path_name(enum blk_path p)
{
	return (unsigned)p < BLK_PATH_COUNT ? blk_path_names[p] : "?";
}

bool blk_decide_need_ipi(const struct blk_decide_in *in)
{
	/* (a) SMP, (b) SAME_COMP set. */
	if (!in->smp || !(in->flags & BLK_QF_SAME_COMP))
		return false;
	/* (c) forced IRQ threads: an IPI-raised softirq would always wake ksoftirqd. */
	if (in->force_irqthreads)
		return false;
	/* (d) same CPU, or (no FORCE and a shared LLC with equal capacity): stay here. */
	if (in->cur_cpu == in->submit_cpu)
		return false;
	if (!(in->flags & BLK_QF_SAME_FORCE) && in->share_llc && in->equal_capacity)
		return false;
	/* (e) never IPI an offline CPU: fall back to local. */
	return in->submit_online;
}

enum blk_path blk_decide(const struct blk_decide_in *in)
{
	/* Step 2: one software context and already on the submit CPU, or polled IO. */
	if ((in->nr_ctx == 1 && in->cur_cpu == in->submit_cpu) || in->polled)
		return BLK_PATH_DIRECT;
	/* Step 3: steer back to the submit CPU. */
	if (blk_decide_need_ipi(in))
		return BLK_PATH_REMOTE;
	/* Step 4: a single-queue controller leaves hard IRQ context through the softirq. */
	if (in->nr_hw_queues == 1)
		return BLK_PATH_LOCAL_SOFTIRQ;
	/* Step 5. */
	return BLK_PATH_DIRECT;
}

unsigned blk_flags_store(unsigned flags, uint64_t value)
{
	_Static_assert(BLK_RQ_AFFINITY_MAX == 2, "the cases below are 0..BLK_RQ_AFFINITY_MAX");
	switch (value) {
	case 0:
		return flags & ~(BLK_QF_SAME_COMP | BLK_QF_SAME_FORCE);
	case 1:
		return (flags | BLK_QF_SAME_COMP) & ~BLK_QF_SAME_FORCE;
	case 2:
		return flags | BLK_QF_SAME_COMP | BLK_QF_SAME_FORCE;
	default:
		return flags; /* accepted, ignored: a backend must read the value back */
	}
}

int blk_flags_show(unsigned flags)
{
	int set = (flags & BLK_QF_SAME_COMP) != 0;
	int force = (flags & BLK_QF_SAME_FORCE) != 0;
	return set << force;
}
