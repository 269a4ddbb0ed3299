/* engine.h: the embedded engine: emulated CPUs, threads, knobs, subsystems, sampling. */
#ifndef TT_ENGINE_H
#define TT_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpu_model.h"
#include "ethread.h"
#include "event.h"
#include "knob.h"
#include "snapshot.h"
#include "subsys.h"

struct est_state;
struct pmd_state;
struct blk_state;
struct load_state;
struct host_state;

struct engine {
	struct knob_values knobs;     /* single writer: the control thread */
	struct cpu_model cpu;
	struct ethread_registry threads;
	struct event_log events;
	bool running;                 /* control thread only */
	bool host_backend;            /* --backend host: sample the live host, run no engine */
	struct host_state *host;      /* open while running with host_backend */
	uint64_t start_ns;

	/* Subsystem state, owned by each subsystem's start/stop (control thread). */
	struct est_state *est;
	struct pmd_state *pmd;
	struct blk_state *blk;
	struct load_state *load;
	bool subsys_on[SUBSYS_COUNT];

	struct ethread *gov_thread;   /* "cpu-gov": the emulated governor model */
	struct ethread *wd_thread;    /* "watchdog" */

	/* Sampler state (control thread). */
	uint64_t smp_prev_ns;
	uint64_t smp_event_seq;
	uint64_t smp_seq;
	uint64_t smp_self_cpu_ns;     /* control thread's CPU time at the previous sample */
};

/* Create with every knob at its default; nothing runs yet. */
struct engine *engine_new(void);
void engine_free(struct engine *eng); /* stops it first if needed */

/*
 * Set a knob from text ("500", "ondemand"): validate, store, apply. Before
 * engine_start() the value is only stored. Returns 0, KNOB_ERR_USAGE (unknown
 * knob or bad value) or KNOB_ERR_RUNTIME (refused now), with a message in err.
 * Control thread only. Logs a `knob` event when the engine runs.
 */
int engine_knob_set(struct engine *eng, enum knob_id id, const char *value, char *err,
		    size_t errlen);
int engine_knob_set_value(struct engine *eng, enum knob_id id, int64_t v, char *err,
			  size_t errlen);
/* "name=value" (also "name = value"). */
int engine_knob_assign(struct engine *eng, const char *assignment, char *err, size_t errlen);

static inline int64_t engine_knob(const struct engine *eng, enum knob_id id)
{
	return knob_value(&eng->knobs, id);
}

/* Build the emulated CPUs, start the engine threads and every enabled subsystem. */
int engine_start(struct engine *eng, char *err, size_t errlen);
/* Stop every subsystem and thread; every thread is joined when it returns. */
void engine_stop(struct engine *eng);

/* Take a snapshot: deltas since the previous call (sampler.c). Control thread only. */
void engine_sample(struct engine *eng, struct snapshot *snap);
/* CPU% of one core from a CPU-time delta over a wall-time delta (0 when no time passed). */
double engine_cpu_pct(uint64_t cpu_ns, uint64_t wall_ns);

/* The ops of subsystem s, or NULL. */
const struct subsys_ops *engine_subsys_get(enum subsys s);

/* Knob hooks (knob_table.c rows point at these). */
int engine_knob_apply(struct engine *eng, enum knob_id id, int64_t old, char *err, size_t errlen);
int est_knob_apply(struct engine *eng, enum knob_id id, int64_t old, char *err, size_t errlen);
int pmd_knob_apply(struct engine *eng, enum knob_id id, int64_t old, char *err, size_t errlen);
int blk_knob_apply(struct engine *eng, enum knob_id id, int64_t old, char *err, size_t errlen);

/* Watchdog pass (the watchdog thread calls it; tests call it directly). */
void engine_watchdog_check(struct engine *eng, uint64_t now_ns);
/* Governor model pass over one period (the cpu-gov thread calls it; tests too). */
void engine_governor_step(struct engine *eng, uint64_t now_ns, uint64_t dt_ns);

#endif
