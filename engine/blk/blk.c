/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blk.c: the blk subsystem's lifecycle, knobs and snapshot (docs/blk.md). */
#include <stdio.h>
#include <stdlib.h>

#include "engine/blk/blk_int.h"
#include "engine/blk/blk_hist_le.h"
#include "core/clock.h"
#include "core/snapshot.h"
#include "core/xalloc.h"

static void blk_stop(struct engine *eng);

/* Submitter i's emulated CPU: the CPUs after the interrupt CPU first, the
 * interrupt CPU itself last, so a small count gives remote submitters. */
static int blk_sub_cpu(const struct blk_state *st, int i)
{
	return (st->irq_cpu + 1 + i) % st->ncpus;
}

static void blk_build(struct blk_state *st, struct engine *eng)
{
	int nrq = st->nr_hw_queues, depth = (int)engine_knob(eng, K_BLK_IODEPTH);

	st->cpus = xcalloc((size_t)st->ncpus, sizeof(*st->cpus));
	st->hwqs = xcalloc((size_t)nrq, sizeof(*st->hwqs));
	st->subs = xcalloc((size_t)st->nsubs, sizeof(*st->subs));
	/* The CPU -> hardware queue map is cpu % nr_hw_queues; nr_ctx counts CPUs per queue. */
	for (int c = 0; c < st->ncpus; c++)
		st->hwqs[c % nrq].nr_ctx++;
	for (int q = 0; q < nrq; q++)
		blk_llist_init(&st->hwqs[q].sq);
	blk_wake_init(&st->irq_wake);
	blk_wake_init(&st->pause_wake);
	st->smp_cpu_completed = xcalloc((size_t)st->ncpus, sizeof(uint64_t));
	st->smp_cpu_softirq = xcalloc((size_t)st->ncpus, sizeof(uint64_t));
	st->smp_cpu_ipi = xcalloc((size_t)st->ncpus, sizeof(uint64_t));
	st->smp_sub_completed = xcalloc((size_t)st->nsubs, sizeof(uint64_t));
	st->smp_unkicked = xcalloc((size_t)st->ncpus, sizeof(bool));
	st->smp_unkicked_runs = xcalloc((size_t)st->ncpus, sizeof(uint64_t));
	blk_llist_init(&st->cq);
	for (int c = 0; c < st->ncpus; c++) {
		struct blk_cpu *cpu = &st->cpus[c];
		cpu->id = c;
		cpu->llc = eng->cpu.cpus[c].llc;
		cpu->capacity = BLK_CAPACITY_SCALE;
		cpu->nr_ctx = st->hwqs[c % nrq].nr_ctx;
		blk_llist_init(&cpu->done);
		blk_llist_init(&cpu->inbox);
		atomic_init(&cpu->csd_locked, false);
		atomic_init(&cpu->softirq_pending, false);
		/* Never an IPI target unless a submitter serves it (below). */
		cpu->server = &st->irq_wake;
	}
	for (int i = 0; i < st->nsubs; i++) {
		struct blk_sub *s = &st->subs[i];
		int c = blk_sub_cpu(st, i);
		blk_sub_init(st, s, i, c, depth);
		/* The first submitter on a CPU other than the IRQ CPU is that CPU's IRQ context;
		 * IPIs never go to the IRQ CPU (§2 (d): current CPU == submit CPU). */
		if (c != st->irq_cpu && st->cpus[c].server == &st->irq_wake) {
			s->serves_cpu = true;
			st->cpus[c].server = &s->wake;
		}
	}
	st->rng = clock_mono_ns() | 1;
}

static int blk_start(struct engine *eng, char *err, size_t errlen)
{
	struct blk_state *st = xcalloc(1, sizeof(*st));
	char name[32]; /* ethread_start truncates to 15 characters */

	st->eng = eng;
	st->ncpus = eng->cpu.count < BLK_SNAP_MAX_CPUS ? eng->cpu.count : BLK_SNAP_MAX_CPUS;
	st->irq_cpu = (int)engine_knob(eng, K_BLK_IRQ_CPU);
	st->nsubs = (int)engine_knob(eng, K_BLK_SUBMITTERS);
	st->nr_hw_queues = (int)engine_knob(eng, K_BLK_NR_HW_QUEUES);
	if (st->irq_cpu >= st->ncpus) {
		snprintf(err, errlen, "blk.irq_cpu %d: only %d emulated CPUs (0 to %d)",
			 st->irq_cpu, st->ncpus, st->ncpus - 1);
		free(st);
		return KNOB_ERR_USAGE; /* the knobs disagree: exit 2 from the command line */
	}
	/* A fresh blk-mq queue has SAME_COMP; the knob's value then applies as a write
	 * would, and reads back as the flags say (3 and up change nothing, §6). */
	unsigned flags =
	    blk_flags_store(BLK_QF_MQ_DEFAULT, (uint64_t)engine_knob(eng, K_BLK_RQ_AFFINITY));
	atomic_init(&st->flags, flags);
	atomic_store_explicit(&eng->knobs.v[K_BLK_RQ_AFFINITY], blk_flags_show(flags),
			      memory_order_relaxed);
	blk_build(st, eng);
	eng->blk = st;

	/* The device has no thread: it completes by the clock, evaluated by blk-irq. */
	st->irq_t =
	    ethread_start(eng, "blk-irq", SUBSYS_BLK, st->irq_cpu, blk_irq_main, st, err, errlen);
	if (!st->irq_t) {
		blk_stop(eng);
		return -1;
	}
	for (int i = 0; i < st->nsubs; i++) {
		snprintf(name, sizeof(name), "blk-sub:%d", i);
		st->subs[i].t = ethread_start(eng, name, SUBSYS_BLK, st->subs[i].cpu, blk_sub_main,
					      &st->subs[i], err, errlen);
		if (!st->subs[i].t) {
			blk_stop(eng);
			return -1;
		}
	}
	st->smp_prev_ns = st->smp_irq_at_ns = clock_mono_ns();
	atomic_store_explicit(&st->go, true, memory_order_release);
	for (int i = 0; i < st->nsubs; i++)
		blk_wake_kick(&st->subs[i].wake);
	return 0;
}

static void blk_stop(struct engine *eng)
{
	struct blk_state *st = eng->blk;

	if (!st)
		return;
	/* Ask everyone, wake everyone, then join: every wait is at most BLK_WAIT_SLICE_NS. */
	for (int i = 0; i < st->nsubs; i++)
		if (st->subs[i].t)
			ethread_request_stop(st->subs[i].t);
	if (st->irq_t)
		ethread_request_stop(st->irq_t);
	for (int i = 0; i < st->nsubs; i++)
		blk_wake_kick(&st->subs[i].wake);
	blk_wake_kick(&st->irq_wake);
	for (int i = 0; i < st->nsubs; i++)
		if (st->subs[i].t)
			ethread_join(st->subs[i].t);
	if (st->irq_t)
		ethread_join(st->irq_t);
	/* Requests still queued anywhere live in the submitters' arrays: freed here. */
	for (int i = 0; i < st->nsubs; i++)
		blk_sub_free(&st->subs[i]);
	free(st->subs);
	free(st->hwqs);
	free(st->cpus);
	free(st->smp_cpu_completed);
	free(st->smp_cpu_softirq);
	free(st->smp_cpu_ipi);
	free(st->smp_sub_completed);
	free(st->smp_unkicked);
	free(st->smp_unkicked_runs);
	free(st);
	eng->blk = NULL;
}

static double blk_pct(const struct ethread *t)
{
	return t ? t->last_cpu_pct : 0.0;
}

/* How often blk_sample re-reads counters that moved under it. They move once per
 * request (every ~60 us at 16 kIOPS) and one read takes well under a microsecond, so
 * a retry is rare; only a sampler preempted inside the read needs more than one. */
#define BLK_SAMPLE_TRIES 64

static uint64_t blk_sum_completed(const struct blk_state *st)
{
	uint64_t c = 0;

	for (int i = 0; i < st->nsubs; i++)
		c += atomic_load_explicit(&st->subs[i].completed, memory_order_acquire);
	return c;
}

/*
 * One submitter's totals as of one instant, lock-free: submitted, completed,
 * submitted again (all acquire), kept when submitted did not move.
 * - s >= c: a completion's release increment comes after its submitter's release
 *   increment of submitted (the request travels through the device and the lists
 *   with release/acquire on every hop), so a read of completed that sees it makes
 *   the submission visible to the later read of submitted;
 * - s <= c + iodepth: submission number c + iodepth + 1 reuses a request handed
 *   back after completion c + 1 was counted, so a read of submitted that sees it
 *   makes that completion visible to the later read of completed.
 * Reading completed then submitted once (as this did) kept the first bound only:
 * a sampler preempted between the two reads showed more in flight than exist.
 */
static void blk_sample_sub(struct blk_sub *s, uint64_t *sub, uint64_t *cpl)
{
	uint64_t s1, s2, c;
	int tries = 0;

	do {
		s1 = atomic_load_explicit(&s->submitted, memory_order_acquire);
		c = atomic_load_explicit(&s->completed, memory_order_acquire);
		s2 = atomic_load_explicit(&s->submitted, memory_order_acquire);
	} while (s1 != s2 && ++tries < BLK_SAMPLE_TRIES);
	*sub = s2;
	*cpl = c;
}

/* The live bound at every snapshot; one `invariant` event when it first fails. */
static void blk_bound_check(struct blk_state *st, struct blk_snap *b, bool settled)
{
	int64_t cap = (int64_t)st->nsubs * (st->nsubs ? st->subs[0].depth : 0);
	b->unaccounted = (int64_t)(b->submitted - b->completed) - (int64_t)b->in_flight;
	/* In a thread's hands (taken off a list, not yet counted out) or read at
	 * a different instant: never more than all the requests there are. */
	/* A read that never settled may count a recycled request on each of the
	 * three lists it passed: then only 3 x all requests bounds it. */
	int64_t lo = settled ? -cap : -3 * cap;
	b->bound_broken = !(b->unaccounted >= lo && b->unaccounted <= cap &&
			    (int64_t)b->in_flight <= (settled ? cap : 3 * cap));
	if (b->bound_broken && !st->bound_reported) {
		st->bound_reported = true;
		event_add(&st->eng->events, EV_INVARIANT,
			  "blk: %lld requests unaccounted, more than the %lld that exist "
			  "(submitted %llu, completed %llu, found in flight %llu)",
			  (long long)b->unaccounted, (long long)cap,
			  (unsigned long long)b->submitted, (unsigned long long)b->completed,
			  (unsigned long long)b->in_flight);
	} else if (!b->bound_broken) {
		st->bound_reported = false;
	}
}

/* Per-CPU and submit x complete figures per second over the interval. */
static void blk_sample_rates(struct blk_state *st, struct blk_snap *b, double dt)
{
	for (int c = 0; c < st->ncpus; c++) {
		struct blk_cpu_snap *cs = &b->per_cpu[c];
		cs->completed_per_s =
		    dt > 0 ? (double)(cs->completed - st->smp_cpu_completed[c]) / dt : 0;
		cs->block_softirq_per_s =
		    dt > 0 ? (double)(cs->block_softirq - st->smp_cpu_softirq[c]) / dt : 0;
		cs->ipi_recv_per_s = dt > 0 ? (double)(cs->ipi_recv - st->smp_cpu_ipi[c]) / dt : 0;
		st->smp_cpu_completed[c] = cs->completed;
		st->smp_cpu_softirq[c] = cs->block_softirq;
		st->smp_cpu_ipi[c] = cs->ipi_recv;
	}
	b->matrix_n = st->ncpus < BLK_MATRIX_MAX ? st->ncpus : BLK_MATRIX_MAX;
	for (int done = 0; done < b->matrix_n; done++) {
		for (int sub = 0; sub < b->matrix_n; sub++) {
			uint64_t v = atomic_load_explicit(&st->cpus[done].by_submit[sub],
							  memory_order_relaxed);
			b->matrix_per_s[sub][done] =
			    dt > 0 ? (double)(v - st->smp_matrix[sub][done]) / dt : 0;
			st->smp_matrix[sub][done] = v;
		}
	}
}

/* CPU and IPIs per completion over the interval: each thread's run time from its own
 * CPU clock, against the completions counted in the same interval. */
static void blk_sample_per_cpl(struct blk_state *st, struct blk_snap *b, uint64_t dcpl,
			       uint64_t dipi)
{
	uint64_t irq_ns = st->irq_t ? clock_cpu_ns(st->irq_t->cpu_clock) : 0, sub_ns = 0;

	for (int i = 0; i < st->nsubs; i++)
		if (st->subs[i].t)
			sub_ns += clock_cpu_ns(st->subs[i].t->cpu_clock);
	uint64_t dirq = irq_ns > st->smp_irq_cpu_ns ? irq_ns - st->smp_irq_cpu_ns : 0;
	uint64_t dsub = sub_ns > st->smp_sub_cpu_ns ? sub_ns - st->smp_sub_cpu_ns : 0;
	st->smp_irq_cpu_ns = irq_ns;
	st->smp_sub_cpu_ns = sub_ns;
	b->per_cpl_valid = dcpl > 0;
	if (!b->per_cpl_valid)
		return;
	b->irq_ns_per_cpl = (double)dirq / (double)dcpl;
	b->sub_ns_per_cpl = (double)dsub / (double)dcpl;
	b->cpu_ns_per_cpl = b->irq_ns_per_cpl + b->sub_ns_per_cpl;
	b->ipis_per_cpl = (double)dipi / (double)dcpl;
}

/* The interrupt CPU's busy time over an interval of dt_ns: what blk-irq did not spend
 * waiting for work. Its CPU % alone reads low whenever the host takes the CPU from it
 * (on a 2-CPU machine shared with a build, 10-40 % of the time), which is not the
 * interrupt CPU running out of work; host took tells the two apart. */
/* blk-irq's idle total up to now, the wait under way included: read under its seqlock
 * (blk_irq.c, blk_irq_wait_mark()). When the writer is met mid-section every try (it was
 * preempted there), the total without the wait under way, which then counts where it ends. */
static uint64_t blk_irq_idle_now(struct blk_state *st, uint64_t *at)
{
	for (int tries = 0; tries < 64; tries++) {
		uint64_t s1 = atomic_load_explicit(&st->irq_wait_seq, memory_order_acquire);
		if (s1 & 1)
			continue;
		/* Acquires: a value from a write section makes its odd count visible to the
		 * load of the count below, which then differs. */
		uint64_t idle = atomic_load_explicit(&st->irq_idle_ns, memory_order_acquire);
		uint64_t since = atomic_load_explicit(&st->irq_wait_since, memory_order_acquire);
		if (atomic_load_explicit(&st->irq_wait_seq, memory_order_relaxed) != s1)
			continue;
		uint64_t now = clock_mono_ns();
		*at = now;
		return idle + (since && now > since ? now - since : 0);
	}
	*at = clock_mono_ns();
	return atomic_load_explicit(&st->irq_idle_ns, memory_order_relaxed);
}

/* The interrupt CPU's busy share and what blk-irq ran, from its wait total, its CPU clock and
 * the time read together: both over one window, however late in the sample the sampler got
 * here (beside busy loops, a sampler held off after the sample's start put the busy share and
 * the thread pass's CPU figure over windows apart: busy 3.0 % beside 4.6 % ran). */
static void blk_sample_busy(struct blk_state *st, struct blk_snap *b)
{
	uint64_t at;
	uint64_t idle = blk_irq_idle_now(st, &at);
	uint64_t cpu = st->irq_t ? clock_cpu_ns(st->irq_t->cpu_clock) : 0;
	uint64_t dt_ns = at > st->smp_irq_at_ns ? at - st->smp_irq_at_ns : 0;
	/* Never back: a fallback total (the wait under way left out) after one with it. */
	uint64_t didle = idle > st->smp_irq_idle_ns ? idle - st->smp_irq_idle_ns : 0;
	uint64_t dcpu = cpu > st->smp_irq_busy_cpu_ns ? cpu - st->smp_irq_busy_cpu_ns : 0;

	if (idle > st->smp_irq_idle_ns)
		st->smp_irq_idle_ns = idle;
	st->smp_irq_at_ns = at;
	st->smp_irq_busy_cpu_ns = cpu;
	b->irq_busy_valid = dt_ns > 0 && st->irq_t;
	if (!b->irq_busy_valid)
		return;
	b->irq_cpu_pct = snapshot_cpu_pct(dcpu, dt_ns);
	double busy = 100.0 * (1.0 - (double)didle / (double)dt_ns);
	/* Clamped: the interval and the waits are read a few instructions apart. */
	b->irq_busy_pct = busy < 0 ? 0 : busy > 100 ? 100 : busy;
	double took = b->irq_busy_pct - b->irq_cpu_pct;
	b->irq_host_took_pct = took > 0 ? took : 0;
}

/* The per-CPU and per-path completion counters into b; returns the IPIs received. */
static uint64_t blk_sample_cpus(struct blk_state *st, struct blk_snap *b)
{
	uint64_t ipi = 0;
	b->direct = b->local_softirq = b->remote = 0;
	b->ipis_sent = b->csd_busy = 0;
	for (int c = 0; c < st->ncpus; c++) {
		struct blk_cpu *cpu = &st->cpus[c];
		struct blk_cpu_snap *cs = &b->per_cpu[c];
		cs->cpu = c;
		cs->llc = cpu->llc;
		cs->submitters = 0;
		cs->block_softirq = atomic_load_explicit(&cpu->softirq_runs, memory_order_relaxed);
		cs->ipi_recv = atomic_load_explicit(&cpu->ipi_recv, memory_order_relaxed);
		cs->completed = atomic_load_explicit(&cpu->completed, memory_order_acquire);
		cs->remote =
		    atomic_load_explicit(&cpu->by_path[BLK_PATH_REMOTE], memory_order_acquire);
		b->direct +=
		    atomic_load_explicit(&cpu->by_path[BLK_PATH_DIRECT], memory_order_acquire);
		b->local_softirq += atomic_load_explicit(&cpu->by_path[BLK_PATH_LOCAL_SOFTIRQ],
							 memory_order_acquire);
		b->remote += cs->remote;
		b->ipis_sent += atomic_load_explicit(&cpu->ipi_sent, memory_order_relaxed);
		b->csd_busy += atomic_load_explicit(&cpu->csd_busy, memory_order_relaxed);
		ipi += cs->ipi_recv;
	}
	return ipi;
}

/*
 * The counters of one consistent snapshot, without a lock; true when they settled. Read order:
 * 1. the submitters' completed totals (acquire), as a mark;
 * 2. per-CPU and per-path completion counters (acquire); each completion
 *    bumps them after the submitter's total (release), so their sums never
 *    exceed the totals read next;
 * 3. every submitter's totals at one instant (blk_sample_sub): in_flight =
 *    submitted - completed is exact and within 0 .. iodepth per submitter.
 * If a completion was counted between 1 and 3, read again: the per-CPU sums
 * then lag the total only by completions in progress at that instant (at most
 * one per completing thread), not by whatever ran while the sampler was
 * preempted.
 */
static bool blk_sample_counts(struct blk_state *st, struct blk_snap *b, uint64_t *completed,
			      uint64_t *submitted, uint64_t *ipi, int64_t *where)
{
	for (int tries = 0; tries < BLK_SAMPLE_TRIES; tries++) {
		uint64_t mark = blk_sum_completed(st);

		*ipi = blk_sample_cpus(st, b);
		*completed = *submitted = 0;
		for (int i = 0; i < st->nsubs; i++) {
			uint64_t s, c;
			blk_sample_sub(&st->subs[i], &s, &c);
			*submitted += s;
			*completed += c;
		}
		/* Where the requests are, downstream first (done lists, then the
		 * completion queue, then the device): a request moving on between two
		 * reads is missed, never counted twice, unless it completed and was
		 * submitted again, which changes the total and makes us read again. */
		/* acquire: pairs with the release of each move's second step. */
		*where = atomic_load_explicit(&st->at_done, memory_order_acquire);
		*where += atomic_load_explicit(&st->at_cq, memory_order_acquire);
		*where += atomic_load_explicit(&st->at_dev, memory_order_acquire);
		if (blk_sum_completed(st) == mark && *completed == mark)
			return true;
	}
	return false;
}

/* The configuration and the totals that need no interval. */
static void blk_sample_setup(struct engine *eng, struct blk_state *st, struct blk_snap *b)
{
	b->rq_affinity = blk_flags_show(atomic_load_explicit(&st->flags, memory_order_relaxed));
	b->irq_cpu = st->irq_cpu;
	b->ncpus = st->ncpus;
	b->submitters = st->nsubs;
	b->iodepth = st->nsubs ? st->subs[0].depth : 0;
	b->nr_hw_queues = st->nr_hw_queues;
	b->fault_lost_kick = engine_knob(eng, K_BLK_FAULT_LOST_KICK) != 0;
	for (int i = 0; i < st->nsubs; i++)
		b->per_cpu[st->subs[i].cpu].submitters++;
	b->irqs = atomic_load_explicit(&st->irqs, memory_order_relaxed);
	b->data_errors = atomic_load_explicit(&st->data_errors, memory_order_relaxed);
}

/*
 * Requests owed and not one completed over a real interval: hung. Its latency figures are then
 * meaningless, not zero. Not when the host held off a thread that completes requests: each of
 * them can stand in a stalled submitter's chain (blk-irq takes every request from the device;
 * a CPU's softirq completes what is steered to it), and under load a held-off one stalls the
 * submitters behind it. That is the host's doing, which host.cpu_taken names. A list stranded
 * by a lost kick is hung all the same: nobody will drain it, however the host runs the threads
 * (a busy blk-irq waits on a run queue for half an interval while a lost kick strands the
 * submitters).
 */
static void blk_sample_hung(struct blk_state *st, struct blk_snap *b, double dt)
{
	bool stranded = blk_stranded(st);
	int held = -1; /* asked once, when a submitter made no progress */
	b->hung_submitters = 0;
	for (int i = 0; i < st->nsubs; i++) {
		uint64_t s, c;
		blk_sample_sub(&st->subs[i], &s, &c);
		if (dt > 0.05 && c == st->smp_sub_completed[i] && s > c) {
			if (held < 0)
				held = !stranded && blk_host_held(st);
			if (!held)
				b->hung_submitters++;
		}
		st->smp_sub_completed[i] = c;
	}
	b->hung = b->hung_submitters > 0;
}

/* Latency quantiles and the figures per completion since the last sample, then this sample
 * kept as the next one's base. */
static void blk_sample_lat(struct blk_state *st, struct blk_snap *b, uint64_t completed,
			   uint64_t ipi)
{
	blk_hist_read(&st->lat, &st->smp_cur);
	b->lat_p50_us = (double)blk_hist_quantile_ns(&st->smp_cur, &st->smp_lat, 0.50, NULL) / 1e3;
	b->lat_p99_us = (double)blk_hist_quantile_ns(&st->smp_cur, &st->smp_lat, 0.99, NULL) / 1e3;
	b->lat_p999_us =
	    (double)blk_hist_quantile_ns(&st->smp_cur, &st->smp_lat, 0.999, NULL) / 1e3;
	b->lat_valid = !b->hung && completed > st->smp_completed;
	blk_sample_per_cpl(st, b, completed - st->smp_completed, ipi - st->smp_ipi);
	blk_hist_le_fill(&st->smp_cur, b);
	st->smp_lat = st->smp_cur;
	st->smp_completed = completed;
	st->smp_ipi = ipi;
}

static void blk_sample(struct engine *eng, struct snapshot *snap, uint64_t now_ns)
{
	struct blk_state *st = eng->blk;
	struct blk_snap *b = &snap->blk;
	uint64_t completed = 0, submitted = 0, ipi = 0;
	int64_t where = 0;

	if (!st)
		return;
	bool settled = blk_sample_counts(st, b, &completed, &submitted, &ipi, &where);
	b->completed = completed;
	b->submitted = submitted;
	/* Counted where the requests are (a live figure; blk_check() makes the
	 * exact comparison with everything parked). */
	b->in_flight = where > 0 ? (uint64_t)where : 0;
	blk_bound_check(st, b, settled);
	blk_sample_setup(eng, st, b);

	double dt = now_ns > st->smp_prev_ns ? (double)(now_ns - st->smp_prev_ns) / 1e9 : 0;
	b->iops = dt > 0 ? (double)(completed - st->smp_completed) / dt : 0;
	blk_sample_rates(st, b, dt);
	b->lost_kicks = atomic_load_explicit(&st->lost_kicks, memory_order_relaxed);
	blk_sample_hung(st, b, dt);
	b->ipis_per_s = dt > 0 ? (double)(ipi - st->smp_ipi) / dt : 0;
	blk_sample_lat(st, b, completed, ipi);

	b->irq_cpu_pct = blk_pct(st->irq_t);
	blk_sample_busy(st, b);
	b->dev_cpu_pct = 0; /* the device has no thread: it completes by the clock */
	b->sub_cpu_pct = 0;
	for (int i = 0; i < st->nsubs; i++)
		b->sub_cpu_pct += blk_pct(st->subs[i].t);
	st->smp_prev_ns = now_ns;
}

static int blk_knob_apply(struct engine *eng, enum knob_id id, int64_t old, int64_t *val, char *err,
			  size_t errlen)
{
	struct blk_state *st = eng->blk;

	switch (id) {
	case K_BLK_RQ_AFFINITY: {
		/* Like the sysfs store: 3 and up are accepted and change nothing, so the
		 * value reads back as before (docs/blk.md §6). */
		if (!st) {
			if (*val > BLK_RQ_AFFINITY_MAX)
				*val = old;
			return 0;
		}
		unsigned f = blk_flags_store(atomic_load_explicit(&st->flags, memory_order_relaxed),
					     (uint64_t)*val);
		/* Relaxed: the IRQ CPU reads it per request; nothing else rides on it. */
		atomic_store_explicit(&st->flags, f, memory_order_relaxed);
		*val = blk_flags_show(f);
		return 0;
	}
	case K_BLK_SUBMITTERS:
	case K_BLK_IODEPTH:
	case K_BLK_NR_HW_QUEUES:
	case K_BLK_IRQ_CPU:
		/* The shape of the queue: rebuild it (counters restart from zero). */
		if (!st)
			return 0;
		blk_stop(eng);
		if (blk_start(eng, err, errlen) == 0)
			return 0;
		/* Put the old shape back so the subsystem keeps running; report the error. */
		atomic_store_explicit(&eng->knobs.v[id], old, memory_order_relaxed);
		{
			char err2[256];
			if (blk_start(eng, err2, sizeof(err2)) != 0)
				event_add(&eng->events, EV_ERROR, "blk: %s", err2);
		}
		return -1;
	case K_BLK_FAULT_LOST_KICK:
		if (st && old != 0 && *val == 0) {
			/* The fault off: the stranded requests are still on their done
			 * lists and no kick will come by itself; send the IPIs the fault
			 * ate, as a watchdog would, and say so. */
			int n = blk_rekick_stranded(st);
			event_add(&eng->events, EV_INFO,
				  "blk: lost-kick fault off: IPI re-sent to %d CPU%s with stranded "
				  "completions",
				  n, n == 1 ? "" : "s");
		}
		return 0;
	default:
		/* Service times, fault_leak, threadirqs, polled: read live by the threads. */
		return 0;
	}
}

const struct subsys_ops blk_ops = {
    .name = "blk",
    .id = SUBSYS_BLK,
    .start = blk_start,
    .stop = blk_stop,
    .sample = blk_sample,
    .knob_apply = blk_knob_apply,
    .check = blk_check,
};
