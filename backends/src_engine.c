/* SPDX-License-Identifier: GPL-2.0-or-later */
/* src_engine.c: the embedded engine as a source (the default): the engine does the work,
 * this file only adapts its calls and gives it the machine's topology and cpufreq. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/host/host_bpf.h"
#include "backends/host/host_proc.h"
#include "backends/host/hostfreq.h"
#include "backends/source.h"
#include "backends/host/topology.h"
#include "core/xalloc.h"
#include "engine/engine.h"

static int src_engine_topo(struct engine_host_cpu **out)
{
	struct topo_cpu *t;
	int n = topo_probe(&t);
	*out = xcalloc((size_t)n, sizeof(**out));
	for (int i = 0; i < n; i++) {
		(*out)[i].node = t[i].node;
		(*out)[i].llc = t[i].llc;
	}
	free(t);
	return n;
}

/* The machine behind the engine: libnuma topology, libcpupower when a policy exists. */
static const struct engine_platform src_engine_platform = {
    .topo_probe = src_engine_topo,
    .cpufreq_available = hostfreq_available,
    .cpufreq_governor = hostfreq_governor,
    .cpufreq_set_governor = hostfreq_set_governor,
};

/* The engine, and the eBPF sleep probe on its PMD threads (the engine must not know it). */
struct src_engine {
	struct engine *eng;
	struct host_bpf *bpf; /* loaded at the first sample with pmd.sleep_probe on */
	bool bpf_tried;
	char bpf_err[128];
	struct host_cpustat stat_prev[SNAP_MACHINE_CPUS]; /* the machine's CPUs, last read */
	bool no_machine; /* source_conf's: nothing shows them */
};

#define SRC_ENG(src) (((struct src_engine *)(src)->priv)->eng)

static int src_engine_open(struct source *src, const struct source_conf *conf, char *err,
			   size_t errlen)
{
	(void)err;
	(void)errlen;
	struct src_engine *se = xcalloc(1, sizeof(*se));
	se->eng = engine_new();
	se->eng->platform = &src_engine_platform;
	se->no_machine = conf->no_machine;
	if (conf->delay_s > 0) /* the pace of its once-a-refresh figures */
		se->eng->smp_refresh_ns = (uint64_t)(conf->delay_s * 1e9);
	src->priv = se;
	return 0;
}

static int src_engine_start(struct source *src, char *err, size_t errlen)
{
	struct engine *eng = SRC_ENG(src);
	int rc = engine_start(eng, err, errlen);
	if (rc == 0)
		src->start_ns = eng->smp_clock.start_ns; /* the first sample's baseline */
	return rc;
}

/* The kernel's view of the engine's PMD sleeps beside the engine's own (docs/pmd.md). */
static void src_engine_probe(struct src_engine *se, struct snapshot *snap)
{
	bool want = engine_knob(se->eng, K_PMD_SLEEP_PROBE) != 0;
	if (want && !se->bpf && !se->bpf_tried) {
		se->bpf_tried = true; /* once: a refusal does not change between samples */
		se->bpf = host_bpf_open(se->bpf_err, sizeof(se->bpf_err));
	}
	if (se->bpf && host_bpf_enable(se->bpf, want, se->bpf_err, sizeof(se->bpf_err)) != 0) {
		host_bpf_close(se->bpf);
		se->bpf = NULL;
	}
	struct pmd_snap *p = &snap->pmd;
	p->timer_slack_differs = 0;
	for (int i = 0; i < p->nthreads; i++) {
		p->threads[i].timer_slack_ns = -1;
		for (size_t k = 0; k < snap->nthreads; k++)
			if (strcmp(snap->threads[k].name, p->threads[i].name) == 0)
				p->threads[i].timer_slack_ns = snap->threads[k].timer_slack_ns;
	}
	host_bpf_pmdsec(se->bpf,
			se->bpf ? ""
			: want	? se->bpf_err
				: "off (pmd.sleep_probe=off)",
			snap, NULL);
}

/* The machine's own CPUs over the interval, beside the emulated ones (snapshot.h machine[]). */
static void src_engine_machine(struct src_engine *se, struct snapshot *snap)
{
	struct host_cpustat now[SNAP_MACHINE_CPUS];
	size_t len;
	char *t = host_proc_slurp("/proc/stat", &len);
	int n = t ? host_proc_stat(t, len, now, SNAP_MACHINE_CPUS) : -1;
	free(t);
	snap->machine_ncpus = 0;
	for (int i = 0; i < n; i++) {
		snap->machine[i].load_pct = host_proc_load_pct(&now[i], &se->stat_prev[i]);
		snap->machine[i].freq_mhz = hostfreq_cur_mhz((unsigned)i);
		/* The first read has nothing to take a delta from. */
		if (se->stat_prev[i].present)
			snap->machine_ncpus = i + 1;
	}
	if (n > 0)
		memcpy(se->stat_prev, now, sizeof(now[0]) * (size_t)n);
}

static void src_engine_sample(struct source *src, struct snapshot *snap)
{
	struct src_engine *se = src->priv;
	engine_sample(se->eng, snap);
	if (!se->no_machine) /* /proc/stat and a cpufreq file per CPU, each sample */
		src_engine_machine(se, snap);
	if (snap->has_pmd)
		src_engine_probe(se, snap);
}

static void src_engine_want_runq_all(struct source *src, bool all)
{
	atomic_store_explicit(&SRC_ENG(src)->smp_runq_want,
			      all ? ENGINE_RUNQ_ALL : ENGINE_RUNQ_PMD_EST, memory_order_relaxed);
}

static int src_engine_knob_set(struct source *src, enum knob_id id, int64_t v, int64_t *stored,
			       char *err, size_t errlen)
{
	struct engine *eng = SRC_ENG(src);
	int rc = engine_knob_set_value(eng, id, v, err, errlen);
	*stored = engine_knob(eng, id);
	return rc;
}

static int src_engine_knob_get(struct source *src, enum knob_id id, int64_t *out)
{
	*out = engine_knob(SRC_ENG(src), id);
	return 0;
}

static const char *src_engine_knob_refusal(const struct source *src, enum knob_id id)
{
	(void)src;
	return id == K_HOST_PID ? "only the host source follows a process (--host)" : NULL;
}

static void src_engine_close(struct source *src)
{
	struct src_engine *se = src->priv;
	engine_free(se->eng);
	host_bpf_close(se->bpf);
	free(se);
	src->priv = NULL;
}

const struct source_ops source_engine_ops = {
    .name = "engine",
    .open = src_engine_open,
    .start = src_engine_start,
    .sample = src_engine_sample,
    .want_runq_all = src_engine_want_runq_all,
    .knob_set = src_engine_knob_set,
    .knob_get = src_engine_knob_get,
    .knob_refusal = src_engine_knob_refusal,
    .close = src_engine_close,
};
