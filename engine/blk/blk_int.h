/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blk_int.h: the blk subsystem's shared state: emulated CPUs, requests, submitters, device. */
#ifndef TT_BLK_INT_H
#define TT_BLK_INT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/blk/blk_decide.h"
#include "engine/blk/blk_llist.h"
#include "engine/blk/blk_stats.h"
#include "engine/blk/blk_wake.h"
#include "core/clock.h"
#include "engine/engine.h"

/* Bytes the submitter writes and the completion reads: one 4 KiB block, so the CPU a
 * completion runs on pays for the cache lines it pulls over (docs/blk.md §8, Brunelle 2008). */
#define BLK_REQ_DATA_BYTES 4096
#define BLK_REQ_DATA_WORDS (BLK_REQ_DATA_BYTES / sizeof(uint64_t))
/* Checksum passes a completion makes over its block (a file system verifying the
 * data it read): the CPU work of ->complete, a few us, so that where completions
 * run decides which CPU is busy (docs/blk.md §9). The submitter only fills. */
#define BLK_REQ_VERIFY_PASSES 8
/* Longest a thread waits before re-checking its stop flag (stop() must take < 100 ms). */
#define BLK_WAIT_SLICE_NS (20 * NS_PER_MS)
/* Capacity of every emulated CPU (SCHED_CAPACITY_SCALE): symmetric, §1 cpus_equal_capacity. */
#define BLK_CAPACITY_SCALE 1024

struct blk_sub;

struct blk_req {
	struct blk_lnode node; /* on exactly one list at a time: sq, cq, done, free */
	struct blk_sub *owner;
	int submit_cpu; /* fixed at allocation (rq->mq_ctx->cpu) */
	int hwq;
	bool polled;
	enum blk_path path; /* set by the IRQ CPU's decision */
	uint64_t t_submit_ns; /* submitter: queued to the device */
	uint64_t t_due_ns; /* device: service ends */
	uint64_t t_irq_ns; /* device: interrupt raised */
	uint64_t t_done_ns; /* completion ran (->complete) */
	uint64_t expect_sum; /* what the completion must read back from data */
	uint64_t *data; /* BLK_REQ_DATA_BYTES written by the submitter */
};

/* The per-CPU softirq/IPI machinery of one emulated CPU (§9). */
struct blk_cpu {
	int id;
	int llc;
	int capacity; /* BLK_CAPACITY_SCALE */
	int nr_ctx; /* CPUs sharing this CPU's hardware queue */
	struct blk_llist done; /* blk_cpu_done */
	struct blk_llist inbox; /* call_single_queue */
	struct blk_lnode csd; /* per-CPU blk_cpu_csd, queued on this CPU's inbox */
	_Atomic bool csd_locked; /* CSD_FLAG_LOCK: in flight until the handler runs */
	_Atomic bool softirq_pending; /* BLOCK_SOFTIRQ raised */
	struct blk_wake *server; /* the thread that is this CPU's IRQ context */

	/* Counters since start (relaxed fetch_add; several threads may complete here). */
	_Atomic uint64_t softirq_runs; /* /proc/softirqs BLOCK */
	_Atomic uint64_t ipi_recv; /* /proc/interrupts CAL */
	_Atomic uint64_t ipi_sent; /* kicks sent to this CPU (inbox was empty) */
	_Atomic uint64_t csd_busy; /* smp_call_function_single_async -EBUSY */
	_Atomic uint64_t completed; /* ->complete ran here */
	_Atomic uint64_t by_path[BLK_PATH_COUNT];
	_Atomic uint64_t by_submit[BLK_MATRIX_MAX]; /* completed here, by submitting CPU */
	_Atomic uint64_t digest; /* the completions' checksums, kept so the work is done */
};

struct blk_sub {
	int idx;
	int cpu;
	bool serves_cpu; /* this thread is its CPU's IRQ context */
	struct blk_state *st;
	struct ethread *t;
	struct blk_wake wake;
	struct blk_llist freel; /* completed requests handed back (kick on empty) */
	struct blk_req *reqs;
	uint64_t *data;
	int depth;
	uint64_t seq; /* submitter only */
	/* submitted: written by the submitter only; completed: by whoever completes.
	 * Release increments, acquire reads: see blk_sample's read order. */
	_Atomic uint64_t submitted;
	_Atomic uint64_t completed;
};

struct blk_hwq {
	struct blk_llist sq; /* submission doorbell list (many submitters) */
	int nr_ctx;
	/* Device thread only: accepted requests in service order. */
	struct blk_req *head, *tail;
	uint64_t busy_until_ns;
};

struct blk_state {
	struct engine *eng;
	int ncpus, irq_cpu, nsubs, nr_hw_queues;
	struct blk_cpu *cpus;
	struct blk_sub *subs;
	struct blk_hwq *hwqs;

	_Atomic unsigned flags; /* BLK_QF_*: written by the control thread, relaxed */

	/* blk-irq: the doorbell, the device's deadlines and its CPU's IPIs. */
	struct blk_wake irq_wake;
	struct blk_llist cq; /* device -> interrupt CPU completion queue */
	struct ethread *irq_t;
	uint64_t rng; /* device (evaluated by blk-irq) only */

	struct blk_hist lat;
	/* Where the requests in flight are, each a relaxed counter kept by
	 * the threads that move requests in and out: queued to or held by the
	 * device, completed by the device and waiting for the interrupt CPU, on a
	 * CPU's done list. Their sum is counted independently of submitted and
	 * completed. */
	_Atomic int64_t at_dev, at_cq, at_done;
	_Atomic uint64_t leak_seq; /* blk.fault_leak: completions seen */
	_Atomic uint64_t lost_kicks; /* blk.fault_lost_kick: requests left behind */

	/* blk_pause(): every blk thread parks at the top of its loop. */
	_Atomic bool pause_req;
	_Atomic int parked;
	struct blk_wake pause_wake;
	bool bound_reported; /* control thread */

	_Atomic uint64_t data_errors; /* completions that read back wrong data (must stay 0) */
	_Atomic uint64_t irqs; /* device interrupts raised */
	/* Wall ns blk-irq spent waiting for work (doorbell or deadline), since start, and the
	 * start of the wait under way (0: none). The rest of the interval it ran or wanted to
	 * run: the interrupt CPU's busy time. Written by blk-irq only, under irq_wait_seq (a
	 * seqlock, blk_irq.c): the sampler reads both consistently and counts the part of a
	 * long wait that fell in its interval there, not all of it where it ends. */
	_Atomic uint64_t irq_idle_ns, irq_wait_since, irq_wait_seq;

	/* Sampler's previous values (control thread only). */
	uint64_t smp_prev_ns, smp_completed, smp_ipi;
	/* The blk threads' own CPU clocks at the previous sample (CPU per completion). */
	uint64_t smp_irq_cpu_ns, smp_sub_cpu_ns;
	/* blk-irq's idle total, CPU clock and the time they were read at the previous sample
	 * (busy = interval - idle, and what it ran, over that one window). */
	uint64_t smp_irq_idle_ns, smp_irq_busy_cpu_ns, smp_irq_at_ns;
	/* Per-CPU totals at the previous sample, for the per-second figures. */
	uint64_t *smp_cpu_completed, *smp_cpu_softirq, *smp_cpu_ipi, *smp_sub_completed;
	/* Per CPU at the previous sample: its done list held requests with no kick on the way,
	 * and its softirq runs then (blk_hung.c, blk_stranded). */
	bool *smp_unkicked;
	uint64_t *smp_unkicked_runs;
	uint64_t smp_matrix[BLK_MATRIX_MAX][BLK_MATRIX_MAX];
	/* The histogram at the previous sample, and a scratch copy of the live one (34 KiB
	 * each since the histogram got 128 sub-buckets: kept here, off the caller's stack). */
	struct blk_hist_copy smp_lat, smp_cur;

	/* The start gate: submitters wait on their wake until every thread is started
	 * (64 submitters busy at once queued the starter behind them: 10 s to the
	 * first line). Release by blk_start, acquire by the submitters. */
	_Atomic bool go;
};

/* blk_ipi.c: the kick-only-if-empty mechanics of §3. */
void blk_ipi_send(struct blk_state *st, struct blk_cpu *target);
/* The "IRQ exit" of cpu: handle call-single IPIs, then the BLOCK softirq. Returns the
 * number of things done (0: nothing was pending). self: the calling submitter or NULL. */
int blk_ipi_irq_exit(struct blk_state *st, struct blk_cpu *cpu, struct blk_sub *self);
/* blk_mq_complete_request() on cur for rq (the IRQ CPU's hard IRQ handler). */
void blk_complete_request(struct blk_state *st, struct blk_req *rq, struct blk_cpu *cur);

/* blk_hung.c, once a sample (blk_sample_hung): whether a CPU's done list held requests with no
 * kick on the way at this sample and the last, with no drain between (a lost kick); and
 * whether the host held off blk-irq or a submitter over the interval (ethread_held_off). */
bool blk_stranded(struct blk_state *st);
bool blk_host_held(const struct blk_state *st);

/* blk_check.c: the thread side of pausing (blk_pause, blk_resume: static there); the exact
 * check (subsys_ops.check). */
void blk_park_if_asked(struct blk_state *st, struct ethread *self);
int blk_check(struct engine *eng, int64_t *missing, char *err, size_t errlen);
/* Re-send the IPI to every CPU whose done list holds requests; returns how many. */
int blk_rekick_stranded(struct blk_state *st);

/* blk_dev.c: the device by the clock, evaluated by blk-irq: accept what was queued,
 * move what is due to the completion queue; returns how many moved, *next_due the
 * earliest deadline still pending (UINT64_MAX when the device is empty). */
int blk_dev_poll(struct blk_state *st, uint64_t now, uint64_t *next_due);

/* blk_sub.c, blk_irq.c */
void blk_sub_main(struct ethread *self);
void blk_irq_main(struct ethread *self);
void blk_sub_init(struct blk_state *st, struct blk_sub *s, int idx, int cpu, int depth);
void blk_sub_free(struct blk_sub *s);

#endif
