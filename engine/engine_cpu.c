/* SPDX-License-Identifier: GPL-2.0-or-later */
/* engine_cpu.c: building the emulated CPUs and running the governor model thread. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "core/clock.h"
#include "engine/engine.h"
#include "core/xalloc.h"
#include "engine/engine_int.h"

/* Without a platform: the host's online CPU count, one node, one LLC. */
static int engine_topo_default(struct engine_host_cpu **out)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		n = 1;
	*out = xcalloc((size_t)n, sizeof(**out));
	return (int)n;
}

static bool engine_cpufreq_real(const struct engine *eng)
{
	const struct engine_platform *p = eng->platform;
	return p && p->cpufreq_available && p->cpufreq_governor && p->cpufreq_set_governor &&
	       p->cpufreq_available();
}

int engine_cpu_build(struct engine *eng, char *err, size_t errlen)
{
	struct cpu_model *m = &eng->cpu;
	struct engine_host_cpu *host;
	int nhost = eng->platform && eng->platform->topo_probe ? eng->platform->topo_probe(&host)
							       : engine_topo_default(&host);
	int count = (int)engine_knob(eng, K_CPU_COUNT);
	int nodes = (int)engine_knob(eng, K_CPU_NODES);
	int llc_cpus = (int)engine_knob(eng, K_CPU_LLC_CPUS);

	(void)err;
	(void)errlen;
	if (count <= 0)
		count = nhost;
	if (nodes > count) {
		/* A node holds at least one CPU: the knob reads back the nodes there are. */
		nodes = count;
		atomic_store_explicit(&eng->knobs.v[K_CPU_NODES], nodes, memory_order_relaxed);
	}
	if (llc_cpus > count) {
		llc_cpus = count;
		atomic_store_explicit(&eng->knobs.v[K_CPU_LLC_CPUS], llc_cpus,
				      memory_order_relaxed);
	}
	m->count = count;
	m->cpus = xcalloc((size_t)count, sizeof(*m->cpus));
	m->gov_busy_ns = xcalloc((size_t)count, sizeof(*m->gov_busy_ns));
	m->fmin_mhz = CPU_EMU_FMIN_MHZ;
	m->fmax_mhz = CPU_EMU_FMAX_MHZ;
	m->emulated = !engine_cpufreq_real(eng);
	atomic_init(&m->governor, (int)engine_knob(eng, K_CPU_GOVERNOR));

	for (int i = 0; i < count; i++) {
		struct cpu_emu *c = &m->cpus[i];
		c->id = i;
		/* Given counts split the CPUs into equal consecutive blocks; otherwise the
		 * host's layout repeats over the emulated CPUs. */
		if (nodes > 0)
			c->node = (int)((long)i * nodes / count);
		else
			c->node = host[i % nhost].node;
		if (llc_cpus > 0)
			c->llc = i / llc_cpus;
		else
			c->llc = host[i % nhost].llc < 0 ? c->node : host[i % nhost].llc;
		atomic_init(&c->online, true);
		atomic_init(&c->freq_mhz, cpu_gov_next_freq(atomic_load(&m->governor), 0, 0,
							    m->fmin_mhz, m->fmax_mhz));
	}
	free(host);

	if (!m->emulated) {
		/* The host governs for real: the knob follows what the host has now. */
		char gov[64];
		if (eng->platform->cpufreq_governor(gov, sizeof(gov)) == 0) {
			int g = cpu_governor_parse(gov);
			if (g >= 0) {
				atomic_store_explicit(&eng->knobs.v[K_CPU_GOVERNOR], g,
						      memory_order_relaxed);
				atomic_store(&m->governor, g);
			}
		}
	}
	return 0;
}

void engine_cpu_free(struct engine *eng)
{
	free(eng->cpu.cpus);
	free(eng->cpu.gov_busy_ns);
	eng->cpu.cpus = NULL;
	eng->cpu.gov_busy_ns = NULL;
	eng->cpu.count = 0;
}

static int engine_cpu_set_governor(struct engine *eng, int gov, char *err, size_t errlen)
{
	if (!eng->cpu.emulated &&
	    eng->platform->cpufreq_set_governor(cpu_governor_name(gov), err, errlen) != 0)
		return -1;
	/* Release: a worker that sees the new governor also sees the knob value. */
	atomic_store_explicit(&eng->cpu.governor, gov, memory_order_release);
	return 0;
}

/* cpu.governor is the one live knob of SUBSYS_CPU; cpu.count, cpu.nodes and
 * cpu.llc_cpus are read by engine_cpu_build() at start only. */
static int engine_cpu_knob_apply(struct engine *eng, enum knob_id id, int64_t old, int64_t *val,
				 char *err, size_t errlen)
{
	(void)old;
	if (id != K_CPU_GOVERNOR)
		return 0;
	return engine_cpu_set_governor(eng, (int)*val, err, errlen);
}

const struct subsys_ops cpu_ops = {
    .name = "cpu",
    .id = SUBSYS_CPU,
    .knob_apply = engine_cpu_knob_apply,
};

/* Governor model pass over one period (the cpu-gov thread calls it). */
static void engine_governor_step(struct engine *eng, uint64_t now_ns, uint64_t dt_ns)
{
	struct cpu_model *m = &eng->cpu;
	uint64_t *busy = m->gov_busy_ns; /* 100 times a second: no allocation */
	int gov = atomic_load_explicit(&m->governor, memory_order_acquire);

	memset(busy, 0, (size_t)m->count * sizeof(*busy));

	(void)now_ns;
	/* Busy time per emulated CPU is the CPU time of the threads on it. */
	pthread_mutex_lock(&eng->threads.lock);
	for (struct ethread *t = eng->threads.head; t; t = t->next) {
		uint64_t c = clock_cpu_ns(t->cpu_clock);
		if (t->emu_cpu >= 0 && t->emu_cpu < m->count && c >= t->gov_cpu_ns)
			busy[t->emu_cpu] += c - t->gov_cpu_ns;
		t->gov_cpu_ns = c;
	}
	pthread_mutex_unlock(&eng->threads.lock);

	for (int i = 0; i < m->count; i++) {
		struct cpu_emu *c = &m->cpus[i];
		double load = dt_ns ? (double)busy[i] / (double)dt_ns : 0;
		if (load > 1)
			load = 1; /* several threads on one emulated CPU share it */
		c->load_pct = load * 100.0;
		c->util_avg = cpu_util_decay(c->util_avg, load, dt_ns);
		c->busy_ns_total += busy[i];
		atomic_store_explicit(
		    &c->freq_mhz,
		    cpu_gov_next_freq(gov, c->load_pct, c->util_avg, m->fmin_mhz, m->fmax_mhz),
		    memory_order_relaxed);
	}
}

void engine_gov_thread(struct ethread *self)
{
	struct engine *eng = self->eng;
	uint64_t prev = clock_mono_ns();
	uint64_t next = prev + CPU_GOV_PERIOD_NS;

	while (!ethread_should_stop(self)) {
		ethread_set_state(self, ETHREAD_SLEEP);
		clock_sleep_until_ns(next);
		ethread_set_state(self, ETHREAD_RUN);
		uint64_t now = clock_mono_ns();
		engine_governor_step(eng, now, now - prev);
		ethread_beat(self);
		prev = now;
		next += CPU_GOV_PERIOD_NS;
		if (next < now)
			next = now + CPU_GOV_PERIOD_NS; /* fell behind: no burst of catch-up */
	}
}
