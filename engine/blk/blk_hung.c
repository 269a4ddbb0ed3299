/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blk_hung.c: what blk.hung is judged from (blk.c, blk_sample_hung): a done list that no kick
 * will drain, and a thread that completes requests held off its CPU by the host. */
#include "engine/blk/blk_int.h"

/*
 * A CPU's done list that nothing will drain: requests on it, no BLOCK softirq raised, no IPI
 * in flight (blk_ipi.c) and no softirq run on it since the last sample, where it looked the
 * same. Every other state of a list has its kick on the way; this one is a lost kick
 * (blk.fault_lost_kick), however the host treats the threads. Seen at two samples with no run
 * between, so a producer or a drainer stopped between its two steps (push, then kick; clear
 * pending, then take) is not one unless the host held it there a whole interval.
 */
bool blk_stranded(struct blk_state *st)
{
	bool any = false;
	for (int c = 0; c < st->ncpus; c++) {
		struct blk_cpu *cpu = &st->cpus[c];
		uint64_t runs = atomic_load_explicit(&cpu->softirq_runs, memory_order_relaxed);
		/* Acquire: a kick's flag is read after the list it was raised for. */
		bool unkicked =
		    !blk_llist_empty(&cpu->done) &&
		    !atomic_load_explicit(&cpu->softirq_pending, memory_order_acquire) &&
		    !atomic_load_explicit(&cpu->csd_locked, memory_order_acquire);
		if (unkicked && st->smp_unkicked[c] && runs == st->smp_unkicked_runs[c])
			any = true;
		st->smp_unkicked[c] = unkicked;
		st->smp_unkicked_runs[c] = runs;
	}
	return any;
}

/* Whether the host held off its CPU (ethread.h, ethread_held_off) a thread that completes
 * requests: blk-irq, or a submitter (whose softirq completes what is steered to its CPU). */
bool blk_host_held(const struct blk_state *st)
{
	if (st->irq_t && ethread_held_off(st->irq_t))
		return true;
	for (int i = 0; i < st->nsubs; i++)
		if (st->subs[i].t && ethread_held_off(st->subs[i].t))
			return true;
	return false;
}
