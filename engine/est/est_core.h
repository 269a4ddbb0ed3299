/* SPDX-License-Identifier: GPL-2.0-or-later */
/* est_core.h: the estimator-chain state of docs/est.md §2: estimators, rows, kthreads. */
#ifndef TT_EST_CORE_H
#define TT_EST_CORE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/clock.h"
#include "engine/est/est_counters.h"
#include "engine/est/est_ewma.h"
#include "core/snap_est.h"
#include "core/event.h"

struct engine;
struct ethread;

#define EST_NTICKS 50 /* IPVS_EST_NTICKS, docs/est.md §1 */
#define EST_TICK_NS (2 * NS_PER_S / EST_NTICKS) /* IPVS_EST_TICK: 40 ms, docs/est.md §1 */
#define EST_CHAIN_FACTOR 48 /* IPVS_EST_CHAIN_FACTOR, docs/est.md §1 */
#define EST_TICK_CHAINS_MAX EST_CHAIN_FACTOR /* chains a row holds (tick_chains 48 or 1) */
#define EST_LOAD_DIVISOR 8 /* IPVS_EST_LOAD_DIVISOR: 12.5% per kthread */
#define EST_CPU_KTHREADS (EST_LOAD_DIVISOR / 2) /* IPVS_EST_CPU_KTHREADS, docs/est.md §1 */
#define EST_INITIAL_DELAY (EST_NTICKS - 1) /* ktrow of a new estimator, docs/est.md §2 */
#define EST_DRAIN_BATCH 16 /* temp-list entries per mutex hold, §1 */
#define EST_RELINK_RESCHED 64 /* calc-phase steps per mutex hold, §5 */
#define EST_RESYNC_START_TICKS 4 /* task start: timer reset beyond this, §5 */
#define EST_RESYNC_LOOP_TICKS 8 /* main loop: backlog dropped beyond this, §5 */
#define EST_DEBUG_TICK_PASSES 32 /* "tick time:" line every 32 passes, §4 */

/*
 * One estimator (struct ip_vs_estimator plus its stats). ktid is -1 while it
 * waits on the temp list, and ktrow then holds its delay. Every field is
 * under est_state.mutex, and while it is linked into a kthread's chain also
 * under that kthread's kd->lock (the chain walker holds only the latter).
 */
struct est_estimator {
	struct est_estimator *next,
	    **pprev; /* hlist: a chain or the temp list; pprev NULL: unlinked */
	int ktid, ktrow, ktcid;
	uint32_t slot; /* per-CPU counter slot (est_counters.h) */
	struct est_ewma ewma;
	uint64_t visits; /* times a kthread estimated it */
};

/* One row (struct ip_vs_est_tick_data), allocated when it gets its first estimator. */
struct est_tick {
	struct est_estimator *chains[EST_TICK_CHAINS_MAX];
	uint64_t present; /* bit cid: chain non-empty */
	uint64_t full; /* bit cid: chain_len >= chain_max */
	uint32_t chain_len[EST_TICK_CHAINS_MAX];
};

/*
 * One kthread context (struct ip_vs_est_kt_data). Contexts live in slots that
 * are kept until the subsystem stops (a slot is "used" while it holds a
 * context), so a task being stopped never touches freed memory.
 *
 * Locking (instead of RCU): every field below `lock` is protected by it. The
 * kthread walks one chain per hold of kd->lock, so a config change on this
 * kthread waits at most one chain (~95 us by design, a whole tick with
 * tick_chains 1), the same bound the kernel's cond_resched_rcu() gives, as
 * long as others take it with est_kd_lock() and the walker gives way.
 * Lock order: est_state.mutex, then kd->lock.
 */
struct est_kd {
	struct est_state *st;
	int id;
	bool used; /* est_state.mutex */
	pthread_mutex_t lock;
	/* Config-side threads blocked on lock (est_kd_lock): the walker gives way
	 * between chains, or, relocking at once (no handoff in glibc), it kept
	 * them out for a whole tick (8.6 ms seen at 128 CPUs), holding up the
	 * config mutex with them. Relaxed: a hint, the lock orders the data. */
	_Atomic int lock_waiters;
	int emu_cpu; /* where its task runs (set when a task starts) */
	pthread_cond_t cond; /* wakes its task early (stop); CLOCK_MONOTONIC */
	struct ethread *task; /* NULL: no task; set/cleared under both locks */
	struct est_tick *ticks[EST_NTICKS];
	uint64_t avail; /* bit row: the row has room */
	uint32_t tick_len[EST_NTICKS];
	uint64_t est_timer_ns; /* the next tick's deadline on the monotonic grid */
	int chain_max, tick_max, tick_chains;
	uint32_t est_count, est_max_count;
	int add_row, est_row;
	uint32_t chain_pass[EST_NTICKS][EST_TICK_CHAINS_MAX]; /* chain walks (tests count visits) */
	uint64_t tick_ns_last; /* its own last tick with work (est_tick_stats mixes kthreads) */
	int dbg_row; /* kt 0: first non-empty row processed (-1 none), §4 */
	uint64_t dbg_pass;
};

/* Tick measurements, written by the kthreads (relaxed: each stands alone). */
struct est_tick_stats {
	_Atomic uint64_t ticks, ticks_run, tick_ns_sum, tick_ns_max, tick_ns_last, visits;
	_Atomic uint64_t hist[EST_TICK_HIST_BUCKETS];
};

#define EST_PER_CHUNK 1024 /* estimator objects per allocation (never moved) */
#define EST_MAX_CHUNKS (EST_MAX_COUNT / EST_PER_CHUNK + 2)
#define EST_CHUNKS_PER_SLAB 16 /* 2.5 MB of estimators per allocation */

struct est_state {
	struct engine *eng; /* NULL in unit tests: no tasks, no events */
	struct event_log *events; /* NULL: not logged */

	/*
	 * The config mutex: the kernel's __ip_vs_mutex and est_mutex in one.
	 * Held by the control thread (est.count, knobs), kthread 0's drain (per
	 * batch of 16) and calc phase (per 64 relink steps); never across a chain.
	 */
	pthread_mutex_t mutex;
	/*
	 * Control-side threads blocked on mutex (est_config_lock). glibc mutexes
	 * do not hand off: kthread 0 unlocking between drain batches or relink
	 * steps and relocking at once can keep the sampler and est.count waiting
	 * through many batches. The kernel's cond_resched() plus its mutex
	 * handoff give way; so does est_config_give_way(). Relaxed: a hint only,
	 * the mutex orders the data.
	 */
	_Atomic int mutex_waiters;
	struct est_kd **kt_arr; /* slots [0, kt_alloc); est_kt_arr */
	int kt_alloc;
	int kt_count; /* est_kt_count: slots in use, holes possible */
	int add_ktid; /* est_add_ktid */
	int max_threads; /* est_max_threads: max(1, 4 x cpulist CPUs) */
	int cpulist_cpus;
	struct est_estimator *temp_head; /* est_temp_list */
	int chain_max; /* est_chain_max: 0 before the first calibration */
	int forced_chain_max; /* est.chain_max knob: 0 = use the calibration */
	int tick_chains; /* 48 or 1, applied to contexts by set_params */
	int cache_factor;
	bool calc_phase; /* est_calc_phase */
	uint64_t genid; /* est_genid */
	bool stopped; /* run_estimation 0: no tasks */
	bool drain_blocked; /* last drain hit the thread limit (logged once) */
	bool in_calc; /* kthread 0 relinks: kt 0 itself is never destroyed */
	uint64_t nest, placed, pending; /* estimators = placed + pending, exactly */
	struct ethread **reap; /* stopped tasks to join once the mutex is dropped */
	int nreap, reap_alloc;
	struct est_calib_snap calib;
	struct est_estimator *tot; /* tot_stats: kept in kthread 0 first */

	/* Estimators [0, nest): index 0 is tot_stats; counter slot = index + 1. */
	struct est_estimator *est_chunk[EST_MAX_CHUNKS];
	int est_nchunks;
	_Atomic uint32_t live; /* estimators the packet path may count into (release) */
	uint32_t live_max; /* the most ever live: slots past it never counted (grow_lock) */

	struct est_counters ctr; /* slot 0: kthread 0's calc_stats */
	struct est_tick_stats ts;
	/* Sampler's carry-over (control thread only): an interval in which no row with
	 * estimators came round reports the last interval that had one, so a 1 s
	 * refresh of a 2 s rotation does not flicker to 0. */
	uint64_t smp_tick_avg, smp_tick_max;
	double smp_tick_per_est; /* ns per estimator visited, same window as smp_tick_avg */
	uint64_t smp_tick_ns_total; /* tick_ns_sum drained so far (snapshot tick_ns_sum_total) */
	/* The fields read under st->mutex at the last sample that got it: repeated, with
	 * config_held, when a calibration or reload holds the mutex (est_sample). */
	struct est_snap smp_cfg;

	/* Packet path threads (est_pkt.c) */
	int npkt;
	struct ethread *pkt[8];
	struct est_pkt_arg {
		struct est_state *st;
		int idx;
	} pkt_arg[8];
	_Atomic uint64_t pkt_total;

	/* Test hook: called with every started task's kd (NULL in the engine). */
	int (*task_start)(struct est_state *st, struct est_kd *kd);

	/*
	 * Growing to a large est.count (est.c est_set_count): past EST_SYNC_LINES
	 * counter lines the est-grow thread adds the estimators batch by batch, as
	 * the kernel's est_temp_list is drained, so start and est.count return at
	 * once and a stop waits one batch. grow_lock: one grower at a time (the
	 * control thread or est-grow); it guards est_chunk[], est_nchunks and ctr's
	 * allocation. mem_bytes: their size, published after each batch (relaxed:
	 * a figure for the snapshot, ordered by nothing).
	 */
	pthread_mutex_t grow_lock;
	uint64_t grow_want; /* estimators wanted, tot_stats included (grow_lock) */
	struct ethread *grow;
	_Atomic uint64_t mem_bytes;
	/* est_chunk[] is cut from slabs of EST_CHUNKS_PER_SLAB chunks (grow_lock):
	 * one mapping per chunk made freeing est.count 2M take a second. */
	struct est_estimator *est_slab[EST_MAX_CHUNKS / EST_CHUNKS_PER_SLAB + 2];
};

static inline struct est_estimator *est_at(struct est_state *st, uint64_t i)
{
	return &st->est_chunk[i / EST_PER_CHUNK][i % EST_PER_CHUNK];
}

static inline int est_emu_cpu_for(const struct est_state *st, int id, int ncpu)
{
	int n = st->cpulist_cpus > 0 && st->cpulist_cpus < ncpu ? st->cpulist_cpus : ncpu;
	return n > 0 ? id % n : 0;
}

#endif
