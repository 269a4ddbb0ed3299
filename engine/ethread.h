/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ethread.h: named engine threads, their registry, heartbeats and CPU clocks. */
#ifndef TT_ETHREAD_H
#define TT_ETHREAD_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "core/schedstat.h"
#include "core/subsys.h"
#include "core/thread_state.h"

struct engine;

#define ETHREAD_NAME_MAX 16 /* pthread_setname_np limit, with the NUL */

struct ethread {
	char name[ETHREAD_NAME_MAX];
	enum subsys subsys;
	int emu_cpu; /* emulated CPU it runs on (cpu_model.h) */
	struct engine *eng;
	void (*fn)(struct ethread *self);
	void *arg; /* the owner's per-thread state */

	pthread_t pt;
	pid_t tid; /* set before ethread_start() returns */
	clockid_t cpu_clock; /* pthread_getcpuclockid(), read by sampler/governor */

	_Atomic uint64_t beat; /* heartbeat: bumped by the thread (relaxed), read by watchdog */
	_Atomic int state; /* enum ethread_state (relaxed: advisory) */
	_Atomic bool stop; /* stop request: release by stopper, acquire by thread */

	/* Registry bookkeeping and readers' private state (under the registry lock). */
	struct ethread *next;
	bool registered;
	uint64_t smp_cpu_ns, smp_mono_ns; /* sampler's previous reading */
	uint64_t gov_cpu_ns; /* governor model's previous reading */
	uint64_t wd_beat, wd_since_ns; /* watchdog: last beat seen and when */
	bool wd_reported; /* one hang event per stall */
	double last_cpu_pct; /* sampler's last result */
	/* Sampler, PMD and blk threads only (ethread_held_sample): schedstat at the last pass, and
	 * over its last interval the run-queue wait (% of it) and times run; -1 unknown. */
	struct schedstat held_prev;
	bool held_have_prev;
	double last_rq_wait_pct;
	int64_t last_slices;
	struct schedstat_fds smp_sched; /* sampler: schedstat and timer slack, kept open */
	int64_t smp_slack_ns; /* sampler: last slack read, -1 unreadable, -2 not yet */
	double smp_runq_pct; /* sampler: last run-queue delay figure, -1 none yet */

	struct ethread_boot *boot; /* between ethread_launch() and ethread_wait_started() */
};

/*
 * ethread_start() in two halves, to start many threads at once: launch each,
 * then wait for each. Starting 1024 load threads one handshake at a time on a
 * busy 2-core machine took 8 s; launched together they register in parallel.
 */
struct ethread *ethread_launch(struct engine *eng, const char *name, enum subsys subsys,
			       int emu_cpu, void (*fn)(struct ethread *), void *arg, char *err,
			       size_t errlen);
void ethread_wait_started(struct ethread *t);

/*
 * Start a thread named name (truncated to 15 characters) that runs fn(self).
 * Returns once the thread is registered, so its tid and CPU clock are valid
 * and the next snapshot lists it. Never returns NULL (failure to create a
 * thread is reported through err and NULL only when pthread_create fails).
 */
struct ethread *ethread_start(struct engine *eng, const char *name, enum subsys subsys, int emu_cpu,
			      void (*fn)(struct ethread *), void *arg, char *err, size_t errlen);
/* Ask the thread to stop (it sees ethread_should_stop()). Wake it yourself if it blocks. */
void ethread_request_stop(struct ethread *t);
/* Join and free; call ethread_request_stop() (and any wakeup) first. */
void ethread_join(struct ethread *t);
/* request_stop + join, for threads that only ever sleep for bounded times. */
void ethread_stop(struct ethread *t);

/*
 * Whether the host held t off its CPU over the interval the sampler just measured: it ran less
 * than half of it (last_cpu_pct), and either waited on a run queue for a quarter of it or more,
 * and longer than it ran (last_rq_wait_pct), or was not run at all in it and the kernel has it
 * runnable now (state R
 * in its /proc stat: the kernel adds a run-queue wait only when it ends, so a thread still
 * waiting shows none). A thread that made no progress in an interval is hung only if it is
 * not held off: one the host starves is the host's doing (host.cpu_taken), not the
 * mechanism's; one stuck in a wait, even one that wakes every few ms to look and is caught
 * runnable doing so, or one spinning on its CPU, is hung. Unknown figures (no schedstat, the
 * first interval) are not held off. One /proc read, for a thread not run in the interval.
 */
bool ethread_held_off(const struct ethread *t);
/* The sampler's pass: t's schedstat over the interval of dw_ns it just measured. */
void ethread_held_sample(struct ethread *t, const struct schedstat *s, uint64_t dw_ns);

static inline bool ethread_should_stop(struct ethread *t)
{
	return atomic_load_explicit(&t->stop, memory_order_acquire);
}

static inline void ethread_beat(struct ethread *t)
{
	atomic_fetch_add_explicit(&t->beat, 1, memory_order_relaxed);
}

static inline void ethread_set_state(struct ethread *t, enum ethread_state s)
{
	atomic_store_explicit(&t->state, (int)s, memory_order_relaxed);
}

/* The registry of live threads of one engine. */
struct ethread_registry {
	pthread_mutex_t lock; /* registration and readers; never taken on a hot path */
	struct ethread *head;
	unsigned count;
};

void ethread_registry_init(struct ethread_registry *reg);
void ethread_registry_destroy(struct ethread_registry *reg);

#endif
