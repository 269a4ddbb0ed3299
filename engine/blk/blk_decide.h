/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blk_decide.h: the pure completion-steering decision of docs/blk.md §2. */
#ifndef TT_BLK_DECIDE_H
#define TT_BLK_DECIDE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/limits.h"

/* Queue flags behind rq_affinity (§0, §6): QUEUE_FLAG_SAME_COMP and QUEUE_FLAG_SAME_FORCE. */
#define BLK_QF_SAME_COMP 0x1u
#define BLK_QF_SAME_FORCE 0x2u
/* blk-mq queues start with SAME_COMP set (QUEUE_FLAG_MQ_DEFAULT, §6): the file reads 1. */
#define BLK_QF_MQ_DEFAULT BLK_QF_SAME_COMP

/* Where a completion runs (§2 outcomes). */
enum blk_path {
	BLK_PATH_DIRECT, /* ->complete in the caller's (hard IRQ) context */
	BLK_PATH_LOCAL_SOFTIRQ, /* this CPU's done list + BLOCK_SOFTIRQ (nr_hw_queues == 1) */
	BLK_PATH_REMOTE, /* submit CPU's done list + call-single IPI -> its softirq */
	BLK_PATH_COUNT
};

/* Inputs of blk_mq_complete_request_remote() (§1 table). */
struct blk_decide_in {
	int cur_cpu; /* IRQ CPU: raw_smp_processor_id() */
	int submit_cpu; /* rq->mq_ctx->cpu */
	bool share_llc; /* cpus_share_cache(cur, submit) */
	bool equal_capacity; /* cpus_equal_capacity(cur, submit) */
	bool submit_online; /* cpu_online(submit) */
	bool polled; /* REQ_POLLED */
	bool force_irqthreads; /* threadirqs / PREEMPT_RT */
	bool smp; /* CONFIG_SMP */
	int nr_hw_queues; /* q->nr_hw_queues */
	int nr_ctx; /* software contexts of the request's hardware context */
	unsigned flags; /* BLK_QF_* */
};

const char *blk_path_name(enum blk_path p); /* "direct", "local_softirq", "remote" */

/* blk_mq_complete_need_ipi() (§2 step 3). */
bool blk_decide_need_ipi(const struct blk_decide_in *in);
/* §2 steps 2-5: the path the completion takes. */
enum blk_path blk_decide(const struct blk_decide_in *in);

/*
 * queue_var_store + queue_rq_affinity_store (§6): 0 clears both flags, 1 sets
 * COMP and clears FORCE, 2 sets both; any other value (3 .. UINT_MAX) is
 * accepted and changes nothing. Returns the new flags.
 */
unsigned blk_flags_store(unsigned flags, uint64_t value);
/* queue_rq_affinity_show: SAME_COMP << SAME_FORCE, i.e. 0, 1 or 2. */
int blk_flags_show(unsigned flags);

#endif
