/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * engine.h: the embedded engine: emulated CPUs, threads, knobs, subsystems, sampling.
 * It knows no source, backend or screen (docs/design.md "Layers"): what it needs
 * of the machine (topology, a real cpufreq) comes in through struct engine_platform.
 */
#ifndef TT_ENGINE_H
#define TT_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/cpu_model.h"
#include "engine/ethread.h"
#include "core/event.h"
#include "core/knob.h"
#include "core/snapshot.h"
#include "engine/subsys_ops.h"

struct est_state;
struct pmd_state;
struct blk_state;
struct load_state;

/* A host CPU as the engine mirrors it onto its emulated CPUs. */
struct engine_host_cpu {
	int node; /* NUMA node */
	int llc; /* last-level cache id, -1 unknown */
};

/*
 * What the engine may ask of the machine it runs on. The engine source
 * (backends/src_engine.c) fills it from libnuma and libcpupower; NULL members
 * (or no platform at all, as in the tests) mean: one node, one LLC, emulated
 * frequency.
 */
struct engine_platform {
	/* The host's CPUs: *out malloc'd, returns the count (>= 1). */
	int (*topo_probe)(struct engine_host_cpu **out);
	/* True when a real cpufreq policy can be driven. */
	bool (*cpufreq_available)(void);
	int (*cpufreq_governor)(char *buf, size_t len);
	int (*cpufreq_set_governor)(const char *name, char *err, size_t errlen);
};

struct engine {
	struct knob_values knobs; /* single writer: the control thread */
	struct cpu_model cpu;
	struct ethread_registry threads;
	struct event_log events;
	bool running; /* control thread only */
	const struct engine_platform *platform; /* set before engine_start(); may be NULL */
	uint64_t start_ns;

	/* Subsystem state, owned by each subsystem's start/stop (control thread). */
	struct est_state *est;
	struct pmd_state *pmd;
	struct blk_state *blk;
	struct load_state *load;
	bool subsys_on[SUBSYS_COUNT];

	struct ethread *gov_thread; /* "cpu-gov": the emulated governor model */
	struct ethread *wd_thread; /* "watchdog" */

	/* Sampler state (the thread that samples). */
	struct snapshot_clock smp_clock;
	uint64_t smp_event_seq;
	/* The front end's refresh (-d), set before the first sample; 0: the default. Figures
	 * the sampler reads once a refresh (run-queue delay) are read at this pace. */
	uint64_t smp_refresh_ns;
	/* Whose run-queue delay a refresh reads (enum engine_runq): every thread's while a front
	 * end shows or writes them all, else the PMD and est threads' only (what the pmd view
	 * and the host.cpu_taken rule read). A schedstat pread costs ~3x the rest of a thread's
	 * sample (bench/core.sh). Relaxed: a front end's wish, stored by its thread, read by
	 * the sampler at its next refresh. */
	_Atomic int smp_runq_want;
};

enum engine_runq {
	ENGINE_RUNQ_ALL, /* the default: JSON threads[], the thread table */
	ENGINE_RUNQ_PMD_EST, /* others' figure is null (not read) */
};

/* The refresh when the front end names none: the front ends' default -d (1 s). */
#define ENGINE_REFRESH_DEFAULT_NS 1000000000ULL

/* Create with every knob at its default; nothing runs yet. */
struct engine *engine_new(void);
void engine_free(struct engine *eng); /* stops it first if needed */

/*
 * Set a knob: store, apply (its owner's subsys_ops.knob_apply). Before
 * engine_start() the value is only stored. Returns 0 or KNOB_ERR_RUNTIME (the
 * owner could not put it in force), with a message in err; on an error the old
 * value stays. engine_knob() then reads the value in force. Control thread only.
 * Logs a `knob` event (old -> stored) when the engine runs. A start-only knob
 * (knob_def.start_only) is read at engine_start() alone: refusing it while the
 * engine runs is the caller's part (source_knob_set() in backends/source.c).
 */
int engine_knob_set_value(struct engine *eng, enum knob_id id, int64_t v, char *err, size_t errlen);
/* "name=value" (also "name = value"). */
int engine_knob_assign(struct engine *eng, const char *assignment, char *err, size_t errlen);
/* engine_knob_assign() as a scenario_assign_fn (ctx is the engine): tests and benches
 * apply scenarios straight to an engine. */
int engine_scenario_assign(void *eng, const char *assignment, char *err, size_t errlen);

static inline int64_t engine_knob(const struct engine *eng, enum knob_id id)
{
	return knob_value(&eng->knobs, id);
}

/* Build the emulated CPUs, start the engine threads and every enabled subsystem.
 * Returns 0, KNOB_ERR_USAGE when the knobs can never run together (est.count x
 * est.cpus past the memory cap, blk.irq_cpu past the CPUs), or -1. */
int engine_start(struct engine *eng, char *err, size_t errlen);
/* Stop every subsystem and thread; every thread is joined when it returns. */
void engine_stop(struct engine *eng);

/* Take a snapshot: deltas since the previous call (sampler.c). Control thread only. */
void engine_sample(struct engine *eng, struct snapshot *snap);
/* CPU% of one core from a CPU-time delta over a wall-time delta (0 when no time passed). */
double engine_cpu_pct(uint64_t cpu_ns, uint64_t wall_ns);

/* The ops of subsystem s, or NULL. */
const struct subsys_ops *engine_subsys_get(enum subsys s);

/*
 * Pause subsystem s, check its conservation equation exactly (work counted in =
 * counted out + found where it waits), resume. *missing gets what was neither
 * counted out nor found (0 when it holds); an `invariant` event is logged when
 * it is not 0. Returns 0, or -1 with err (not running, no check, no pause).
 * Control thread only.
 */
int engine_invariant_check(struct engine *eng, enum subsys s, int64_t *missing, char *err,
			   size_t errlen);

/* Watchdog pass (the watchdog thread calls it; tests call it directly). */
void engine_watchdog_check(struct engine *eng, uint64_t now_ns);

#endif
