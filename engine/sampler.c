/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sampler.c: each refresh, deltas of every counter into one snapshot. */
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "engine/engine.h"
#include "core/xalloc.h"

double engine_cpu_pct(uint64_t cpu_ns, uint64_t wall_ns)
{
	return snapshot_cpu_pct(cpu_ns, wall_ns);
}

static void sampler_cpus(struct engine *eng, struct snapshot *snap, const uint64_t *busy,
			 uint64_t dt)
{
	struct cpu_model *m = &eng->cpu;

	if (snap->ncpus != m->count) {
		free(snap->cpus);
		snap->cpus = xcalloc((size_t)(m->count ? m->count : 1), sizeof(*snap->cpus));
		snap->ncpus = m->count;
	}
	for (int i = 0; i < m->count; i++) {
		struct snap_cpu *c = &snap->cpus[i];
		c->id = i;
		c->node = m->cpus[i].node;
		c->llc = m->cpus[i].llc;
		c->online = atomic_load_explicit(&m->cpus[i].online, memory_order_relaxed);
		c->load_pct = dt ? 100.0 * (double)busy[i] / (double)dt : 0;
		if (c->load_pct > 100.0)
			c->load_pct = 100.0;
		c->freq_mhz = atomic_load_explicit(&m->cpus[i].freq_mhz, memory_order_relaxed);
	}
	snap->governor = atomic_load_explicit(&m->governor, memory_order_acquire);
	snap->governor_emulated = m->emulated;
	snap->governor_absent = false;
}

/* Threads and their CPU% from each thread's CPU clock; returns their CPU ns in the interval. */
static uint64_t sampler_threads(struct engine *eng, struct snapshot *snap, uint64_t now,
				uint64_t *busy)
{
	uint64_t engine_cpu = 0;
	/* Run-queue delay is a figure of the refresh (the interval the screen or -b shows),
	 * and its schedstat pread costs more than the rest of a thread's sample (~1.4 us
	 * against ~0.6, bench/core.sh): it is read when half a refresh has passed since its
	 * last reading (or until it has a figure), so a sample between two refreshes (a knob
	 * change's, a loop's) repeats the last figure: a delta over the interval between its
	 * two readings, as before. */
	uint64_t rq_every =
	    (eng->smp_refresh_ns ? eng->smp_refresh_ns : ENGINE_REFRESH_DEFAULT_NS) / 2;
	bool rq_all =
	    atomic_load_explicit(&eng->smp_runq_want, memory_order_relaxed) == ENGINE_RUNQ_ALL;

	pthread_mutex_lock(&eng->threads.lock);
	if (snap->threads_cap < eng->threads.count) {
		snap->threads_cap = eng->threads.count + 16;
		snap->threads =
		    xreallocarray(snap->threads, snap->threads_cap, sizeof(*snap->threads));
	}
	snap->nthreads = 0;
	for (struct ethread *t = eng->threads.head; t; t = t->next) {
		struct snap_thread *st = &snap->threads[snap->nthreads++];
		uint64_t c = clock_cpu_ns(t->cpu_clock);
		uint64_t dc = c >= t->smp_cpu_ns ? c - t->smp_cpu_ns : 0;
		uint64_t dw = now - t->smp_mono_ns;

		st->tid = t->tid;
		st->ovs = false;
		memcpy(st->name, t->name, sizeof(st->name));
		st->subsys = t->subsys;
		st->cpu_pct = engine_cpu_pct(dc, dw);
		st->cpu_ns = c;
		st->state = atomic_load_explicit(&t->state, memory_order_relaxed);
		st->emu_cpu = t->emu_cpu;
		/* PMD and blk threads are judged for hangs, so their schedstat is read at every
		 * sample (ethread_held_sample); that one reading serves the run-queue figure. */
		bool judged = t->subsys == SUBSYS_PMD || t->subsys == SUBSYS_BLK;
		struct schedstat ss;
		const struct schedstat *read =
		    judged && schedstat_read(&t->smp_sched, &ss) == 0 ? &ss : NULL;
		if (!rq_all && t->subsys != SUBSYS_PMD && t->subsys != SUBSYS_EST) {
			/* Not shown: not read, and no baseline kept, so a figure once it is
			 * wanted again is a delta over one refresh, not over the gap. */
			t->smp_sched.have_prev = 0;
			t->smp_runq_pct = -1;
		} else if (t->smp_runq_pct < 0 || now - t->smp_sched.prev_mono_ns >= rq_every) {
			t->smp_runq_pct = judged ? schedstat_runq_pct_of(&t->smp_sched, read, now)
						 : schedstat_runq_pct(&t->smp_sched, now);
		}
		st->runq_delay_pct = t->smp_runq_pct;
		/* Only PMD threads change their slack (prctl, pmd.timer_slack_ns); any other
		 * engine thread keeps what it started with, so one read (~0.6 us) serves. */
		if (t->subsys == SUBSYS_PMD || t->smp_slack_ns == -2)
			t->smp_slack_ns = schedstat_slack_ns(&t->smp_sched);
		st->timer_slack_ns = t->smp_slack_ns;
		t->last_cpu_pct = st->cpu_pct;
		if (judged)
			ethread_held_sample(t, read, dw);
		t->smp_cpu_ns = c;
		t->smp_mono_ns = now;
		engine_cpu += dc;
		if (t->emu_cpu >= 0 && t->emu_cpu < eng->cpu.count)
			busy[t->emu_cpu] += dc;
	}
	pthread_mutex_unlock(&eng->threads.lock);
	/* Newest first in the registry; list them oldest first (stable for the eye). */
	for (size_t i = 0, j = snap->nthreads ? snap->nthreads - 1 : 0; i < j; i++, j--) {
		struct snap_thread tmp = snap->threads[i];
		snap->threads[i] = snap->threads[j];
		snap->threads[j] = tmp;
	}
	return engine_cpu;
}

void engine_sample(struct engine *eng, struct snapshot *snap)
{
	uint64_t t0 = clock_mono_ns();
	uint64_t dt = snapshot_clock_stamp(&eng->smp_clock, snap);
	uint64_t now = snap->mono_ns;
	uint64_t *busy = xcalloc((size_t)(eng->cpu.count ? eng->cpu.count : 1), sizeof(*busy));

	snap->backend = "engine";
	sampler_threads(eng, snap, now, busy);
	sampler_cpus(eng, snap, busy, dt);
	for (int s = 0; s < SUBSYS_COUNT; s++) {
		const struct subsys_ops *ops = engine_subsys_get(s);
		if (ops && eng->subsys_on[s])
			ops->sample(eng, snap, now);
	}
	snap->has_est = eng->subsys_on[SUBSYS_EST];
	snap->has_pmd = eng->subsys_on[SUBSYS_PMD];
	snap->has_blk = eng->subsys_on[SUBSYS_BLK];
	snap->has_host = false;
	free(busy);

	for (int k = 0; k < K_COUNT; k++)
		snap->knobs[k] = engine_knob(eng, k);
	snap->nevents =
	    event_copy_since(&eng->events, &eng->smp_event_seq, snap->events, SNAP_MAX_EVENTS);
	snapshot_clock_self(&eng->smp_clock, snap, t0);
}
