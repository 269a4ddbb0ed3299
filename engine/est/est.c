/* SPDX-License-Identifier: GPL-2.0-or-later */
/* est.c: the est subsystem: start/stop, live est.count, reloads, knobs and the snapshot. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/est/est.h"
#include "engine/est/est_core.h"
#include "engine/est/est_kthread.h"
#include "engine/est/est_pkt.h"
#include "engine/est/est_place.h"
#include "core/xalloc.h"

/*
 * Concurrency, in short (details in est_core.h):
 * - st->mutex is the config mutex (__ip_vs_mutex + est_mutex). The control
 *   thread holds it to add or remove estimators (in batches) and to reload;
 *   kthread 0 per drain batch of 16 and per 64 calc-phase relink steps.
 * - Chain walking is made safe by kd->lock, held by the walking kthread for
 *   one chain at a time (the RCU read side plus cond_resched_rcu() of the
 *   kernel), and by anyone who links, unlinks or frees in that kthread.
 * - Tasks are stopped under kd->lock and joined only after st->mutex is
 *   dropped (est_reap), so no one waits for a thread that waits for them.
 */

#define EST_ADD_BATCH 1024 /* estimators added or removed per config-mutex hold */

static uint64_t est_counter_bytes(int64_t count, int64_t cpus)
{
	return (uint64_t)(count + 2) * (uint64_t)cpus * EST_CTR_SLOT_BYTES;
}

static int est_mem_check(int64_t count, int64_t cpus, char *err, size_t errlen)
{
	uint64_t need = est_counter_bytes(count, cpus);
	if (need <= EST_MEM_LIMIT_BYTES)
		return 0;
	snprintf(err, errlen,
		 "est.count %" PRId64 " x est.cpus %" PRId64 " needs %" PRIu64
		 " MiB of per-CPU counters (limit %llu MiB)",
		 count, cpus, need >> 20, EST_MEM_LIMIT_BYTES >> 20);
	return KNOB_ERR_USAGE; /* the pair can never run: a usage error (exit 2) */
}

static uint64_t est_sum_now(struct est_state *st, uint32_t slot, uint64_t sum[EST_NSTATS])
{
	est_counters_sum(&st->ctr, slot, sum);
	return sum[EST_INPKTS];
}

/*
 * Counter slots (est.count x est.cpus) added on the caller's thread; more go to
 * est-grow. 2M slots (128 MiB at the 64 B they once took, 80 MiB at 40 B) took
 * ~0.1-0.3 s to fault in on the 2-core test machine; est.count=2M x 16 CPUs took
 * 3-17 s before the first snapshot.
 */
#define EST_SYNC_LINES (2u << 20)

static void est_mem_publish(struct est_state *st)
{
	atomic_store_explicit(&st->mem_bytes,
			      st->ctr.bytes + (uint64_t)st->est_nchunks * EST_PER_CHUNK *
						  sizeof(struct est_estimator),
			      memory_order_relaxed);
}

/* One batch towards grow_want (grow_lock held); false when there is nothing left. */
static bool est_grow_batch(struct est_state *st)
{
	uint64_t want = st->grow_want, have = atomic_load_explicit(&st->live, memory_order_relaxed);

	if (want > have) {
		uint64_t i = have, end = want - i > EST_ADD_BATCH ? i + EST_ADD_BATCH : want;
		est_counters_reserve(&st->ctr, (uint32_t)end + 1);
		while ((uint64_t)st->est_nchunks * EST_PER_CHUNK < end) {
			int n = st->est_nchunks, k = n / EST_CHUNKS_PER_SLAB;
			if (n % EST_CHUNKS_PER_SLAB == 0) /* zero pages until used */
				st->est_slab[k] =
				    xcalloc((size_t)EST_CHUNKS_PER_SLAB * EST_PER_CHUNK,
					    sizeof(struct est_estimator));
			st->est_chunk[n] =
			    st->est_slab[k] + (size_t)(n % EST_CHUNKS_PER_SLAB) * EST_PER_CHUNK;
			st->est_nchunks++;
		}
		/* Outside the mutex: these are unlinked and at or beyond live, so no
		 * one else looks at them, and summing est.cpus lines each took the
		 * mutex for ms per batch (5-11 ms at 128 CPUs), stalling kthread 0. */
		for (uint64_t j = i; j < end; j++) {
			struct est_estimator *e = est_at(st, j);
			uint64_t sum[EST_NSTATS] = {0};
			memset(e, 0, sizeof(*e));
			e->slot = (uint32_t)j + 1;
			/* The slot of an estimator once live may have counted: its totals
			 * are the zero point. One never live was never counted into (the
			 * packet path counts only below live): zero, without summing
			 * est.cpus lines for each (a third of est_start's time). */
			if (j < st->live_max)
				est_sum_now(st, e->slot, sum);
			est_ewma_zero(&e->ewma, sum);
		}
		est_config_lock(st);
		for (; i < end; i++) {
			struct est_estimator *e = est_at(st, i);
			if (i == 0)
				st->tot = e; /* tot_stats */
			if (est_start_estimator(st, e) != 0)
				est_log(st, EV_ERROR, "cannot start estimator %llu",
					(unsigned long long)i);
		}
		pthread_mutex_unlock(&st->mutex);
		/* Release: the packet path sees initialised counters for these. */
		atomic_store_explicit(&st->live, (uint32_t)end, memory_order_release);
		if (end > st->live_max)
			st->live_max = (uint32_t)end;
		est_mem_publish(st);
		return end < want;
	}
	if (want < have) {
		atomic_store_explicit(&st->live, (uint32_t)want, memory_order_release);
		for (uint64_t i = have; i > want;) {
			est_config_lock(st);
			for (int b = 0; b < EST_ADD_BATCH && i > want; b++)
				est_stop_estimator(st, est_at(st, --i));
			pthread_mutex_unlock(&st->mutex);
			est_reap(st);
		}
	}
	return false;
}

static void est_grow_main(struct ethread *self)
{
	struct est_state *st = self->arg;
	bool more = true;
	while (more && !ethread_should_stop(self)) {
		pthread_mutex_lock(&st->grow_lock);
		more = est_grow_batch(st);
		pthread_mutex_unlock(&st->grow_lock);
		ethread_beat(self);
	}
}

/* Grow or shrink to count estimators plus tot_stats, live (control thread). */
static void est_set_count(struct est_state *st, uint64_t count)
{
	uint64_t want = count + 1;
	char err[160];

	/* A grower still at work stops after its batch; this call decides anew. */
	if (st->grow) {
		ethread_stop(st->grow);
		st->grow = NULL;
	}
	pthread_mutex_lock(&st->grow_lock);
	st->grow_want = want;
	bool more = true;
	/* tot_stats (it creates kthread 0) and small counts right here, so est.count
	 * reads back at once; a large growth in the background. */
	do
		more = est_grow_batch(st);
	while (more && (want * (uint64_t)st->ctr.ncpus <= EST_SYNC_LINES || !st->eng));
	pthread_mutex_unlock(&st->grow_lock);
	if (!more)
		return;
	st->grow =
	    ethread_start(st->eng, "est-grow", SUBSYS_EST, 0, est_grow_main, st, err, sizeof(err));
	if (st->grow) {
		est_log(st, EV_INFO, "adding %llu estimators in the background (est-grow)",
			(unsigned long long)(want - atomic_load_explicit(&st->live,
									 memory_order_relaxed)));
		return;
	}
	est_log(st, EV_ERROR, "%s: adding the estimators here", err);
	pthread_mutex_lock(&st->grow_lock);
	while (est_grow_batch(st))
		;
	pthread_mutex_unlock(&st->grow_lock);
}

/* ip_vs_est_reload_start() + est_reload_work: restart tasks with the new config. */
static void est_reload(struct est_state *st, bool calc)
{
	est_config_lock(st);
	if (calc)
		st->calc_phase = true;
	st->genid++;
	for (int id = 0; id < st->kt_count; id++)
		if (st->kt_arr[id]->used)
			est_task_stop(st, st->kt_arr[id], "stopping estimator thread %d...");
	for (int id = 0; id < st->kt_count && !st->stopped; id++)
		if (st->kt_arr[id]->used && (id == 0 || !st->calc_phase))
			est_task_start(st, st->kt_arr[id]);
	pthread_mutex_unlock(&st->mutex);
	est_reap(st);
}

static int est_cpulist_for(struct engine *eng)
{
	int n = (int)engine_knob(eng, K_EST_CPULIST_CPUS);
	return (n <= 0 || n > eng->cpu.count) ? eng->cpu.count : n;
}

static void est_stop(struct engine *eng)
{
	struct est_state *st = eng->est;
	if (!st)
		return;
	if (st->grow) /* first: it adds estimators; it stops after its batch */
		ethread_stop(st->grow);
	st->grow = NULL;
	est_pkt_stop(st);
	est_config_lock(st);
	st->stopped = true;
	for (int id = 0; id < st->kt_count; id++)
		if (st->kt_arr[id]->used)
			est_task_stop(st, st->kt_arr[id], "stopping estimator thread %d...");
	pthread_mutex_unlock(&st->mutex);
	est_reap(st);
	est_place_destroy(st);
	for (int k = 0; k * EST_CHUNKS_PER_SLAB < st->est_nchunks; k++)
		free(st->est_slab[k]);
	est_counters_free(&st->ctr);
	pthread_mutex_destroy(&st->grow_lock);
	eng->est = NULL;
	free(st);
}

static int est_start(struct engine *eng, char *err, size_t errlen)
{
	int ncpus = (int)engine_knob(eng, K_EST_CPUS);
	int64_t count = engine_knob(eng, K_EST_COUNT);

	int rc = est_mem_check(count, ncpus, err, errlen);
	if (rc != 0)
		return rc;
	struct est_state *st = xcalloc(1, sizeof(*st));
	st->eng = eng;
	st->events = &eng->events;
	est_place_init(st, est_cpulist_for(eng), (int)engine_knob(eng, K_EST_TICK_CHAINS));
	st->cache_factor = (int)engine_knob(eng, K_EST_CACHE_FACTOR);
	st->forced_chain_max = (int)engine_knob(eng, K_EST_CHAIN_MAX);
	st->stopped = !engine_knob(eng, K_EST_RUN);
	st->task_start = est_kt_task_start;

	/* Possible CPU c's counters live on the node of emulated CPU c (mod count). */
	int *nodes = xcalloc((size_t)ncpus, sizeof(*nodes));
	for (int c = 0; c < ncpus; c++)
		nodes[c] = eng->cpu.count ? eng->cpu.cpus[c % eng->cpu.count].node : 0;
	est_counters_init(&st->ctr, ncpus, nodes);
	free(nodes);
	est_counters_reserve(&st->ctr, 1); /* slot 0: kthread 0's calc_stats, never counted into */
	atomic_init(&st->live, 0);
	atomic_init(&st->mem_bytes, 0);
	pthread_mutex_init(&st->grow_lock, NULL);
	eng->est = st;

	est_set_count(st, (uint64_t)count); /* tot_stats first: it creates kthread 0 */
	if (est_pkt_start(st, err, errlen) != 0) {
		est_stop(eng);
		return -1;
	}
	return 0;
}

static void est_reload_knob(struct est_state *st, enum knob_id id, int64_t v)
{
	struct engine *eng = st->eng;

	est_config_lock(st);
	switch (id) {
	case K_EST_TICK_CHAINS:
		st->tick_chains = (int)v;
		break;
	case K_EST_CACHE_FACTOR:
		st->cache_factor = (int)v;
		break;
	case K_EST_CHAIN_MAX:
		st->forced_chain_max = (int)v;
		break;
	case K_EST_CPULIST_CPUS:
		st->cpulist_cpus = est_cpulist_for(eng);
		st->max_threads = est_max_threads_for(st->cpulist_cpus);
		break;
	case K_EST_RUN:
		st->stopped = !v;
		break;
	default:
		break;
	}
	pthread_mutex_unlock(&st->mutex);
	/* A cpulist write recalibrates in the kernel (§6); so do the layout knobs
	 * here; run_estimation only restarts the tasks. */
	est_reload(st, id != K_EST_RUN);
}

static int est_knob_apply(struct engine *eng, enum knob_id id, int64_t old, int64_t *val, char *err,
			  size_t errlen)
{
	struct est_state *st = eng->est;
	int64_t v = *val;

	(void)old;
	if (!st)
		return 0; /* not running: est_start() reads the knobs */
	switch (id) {
	case K_EST_COUNT:
		if (est_mem_check(v, st->ctr.ncpus, err, errlen) != 0)
			return -1;
		est_set_count(st, (uint64_t)v);
		return 0;
	case K_EST_CPUS:
		/* Possible CPUs never change under a kernel; here the counters are
		 * rebuilt, and the new kthread 0 calibrates again. */
		if (est_mem_check(engine_knob(eng, K_EST_COUNT), v, err, errlen) != 0)
			return -1;
		est_stop(eng);
		return est_start(eng, err, errlen);
	case K_EST_TICK_CHAINS:
	case K_EST_CACHE_FACTOR:
	case K_EST_CHAIN_MAX:
	case K_EST_CPULIST_CPUS:
	case K_EST_RUN:
		if (id == K_EST_RUN && !v == st->stopped)
			return 0;
		est_reload_knob(st, id, v);
		return 0;
	case K_EST_RECALIBRATE:
		est_reload(st, true);
		return 0;
	default:
		return 0; /* est.traffic_pps is read by the packet threads */
	}
}

/* Allocated bytes; st->mutex held. */
static uint64_t est_mem_bytes_locked(struct est_state *st)
{
	/* Counters and estimators as the grower published them after its last batch. */
	uint64_t b = atomic_load_explicit(&st->mem_bytes, memory_order_relaxed);
	b += (uint64_t)st->kt_alloc * sizeof(struct est_kd);
	for (int i = 0; i < st->kt_alloc; i++) {
		est_kd_lock(st->kt_arr[i]);
		for (int r = 0; r < EST_NTICKS; r++)
			b += st->kt_arr[i]->ticks[r] ? sizeof(struct est_tick) : 0;
		pthread_mutex_unlock(&st->kt_arr[i]->lock);
	}
	return b;
}

/* How long a sample waits for the configuration lock (see est_sample). */
#define EST_SAMPLE_LOCK_WAIT_NS (2 * NS_PER_MS)

/* The kthreads' figures into e, each read under its kthread's lock. */
static void est_sample_kthreads(struct est_state *st, struct est_snap *e)
{
	for (int id = 0; id < st->kt_count; id++) {
		struct est_kd *kd = st->kt_arr[id];
		if (!kd->used)
			continue;
		est_kd_lock(kd);
		if (id == 0) {
			e->chain_max = kd->chain_max;
			e->max_per_kthread = kd->est_max_count;
		}
		double pct = kd->task ? kd->task->last_cpu_pct : 0;
		e->kthreads += kd->task != NULL;
		e->cpu_pct_total += pct;
		if (e->nkt < EST_SNAP_MAX_KT) {
			struct est_kt_snap *k = &e->kt[e->nkt++];
			k->id = id;
			k->estimators = kd->est_count;
			k->tick_ns_last = kd->tick_ns_last;
			k->cpu_pct = pct;
			for (int r = 0; r < EST_NTICKS; r++) {
				k->rows_filled += kd->tick_len[r] != 0;
				k->rows_full += !(kd->avail & (1ULL << r));
			}
		}
		pthread_mutex_unlock(&kd->lock);
	}
}

/* The figures read under the configuration lock (held by the caller). */
static void est_sample_config(struct est_state *st, struct est_snap *e)
{
	e->mem_bytes = est_mem_bytes_locked(st);
	e->estimators = st->nest;
	e->placed = st->placed;
	e->pending = st->pending;
	e->kthread_slots = st->kt_count;
	e->max_threads = st->max_threads;
	e->tick_chains = st->tick_chains;
	e->est_cpus = st->ctr.ncpus;
	e->calib = st->calib;
	est_sample_kthreads(st, e);
	/* tot_stats' rates, read under the lock of the kthread that updates it. */
	if (st->tot && st->tot->pprev) {
		uint64_t rate[EST_NSTATS];
		struct est_kd *kd = st->tot->ktid >= 0 ? st->kt_arr[st->tot->ktid] : NULL;
		if (kd)
			est_kd_lock(kd);
		est_ewma_read(&st->tot->ewma, rate);
		if (kd)
			pthread_mutex_unlock(&kd->lock);
		e->tot_cps = rate[EST_CONNS];
		e->tot_inpps = rate[EST_INPKTS];
		e->tot_outpps = rate[EST_OUTPKTS];
		e->tot_inbps = rate[EST_INBYTES];
		e->tot_outbps = rate[EST_OUTBYTES];
	}
}

/* The ticks' figures since the last sample (no lock: counters taken with an exchange). */
static void est_sample_ticks(struct est_state *st, struct est_snap *e)
{
	uint64_t hist[EST_TICK_HIST_BUCKETS];
	struct est_tick_stats *ts = &st->ts;
	uint64_t run = atomic_exchange_explicit(&ts->ticks_run, 0, memory_order_relaxed);
	uint64_t sum = atomic_exchange_explicit(&ts->tick_ns_sum, 0, memory_order_relaxed);
	e->ticks = atomic_exchange_explicit(&ts->ticks, 0, memory_order_relaxed);
	e->visits = atomic_exchange_explicit(&ts->visits, 0, memory_order_relaxed);
	uint64_t max = atomic_exchange_explicit(&ts->tick_ns_max, 0, memory_order_relaxed);
	e->tick_ns_last = atomic_load_explicit(&ts->tick_ns_last, memory_order_relaxed);
	if (run) {
		st->smp_tick_avg = sum / run;
		st->smp_tick_max = max;
		/* The visits counted with these ticks (est_tick_record adds both). */
		st->smp_tick_per_est = e->visits ? (double)sum / (double)e->visits : 0;
	}
	e->tick_ns_avg = st->smp_tick_avg;
	e->tick_ns_max = st->smp_tick_max;
	e->tick_ns_per_est = st->smp_tick_per_est;
	for (int i = 0; i < EST_TICK_HIST_BUCKETS; i++)
		hist[i] = atomic_load_explicit(&ts->hist[i], memory_order_relaxed);
	memcpy(e->tick_hist, hist, sizeof(hist));
	st->smp_tick_ns_total += sum;
	e->tick_ns_sum_total = st->smp_tick_ns_total;
}

static void est_sample(struct engine *eng, struct snapshot *snap, uint64_t now_ns)
{
	struct est_state *st = eng->est;
	struct est_snap *e = &snap->est;

	(void)now_ns;
	if (!st)
		return;
	memset(e, 0, sizeof(*e));
	/* Never wait long for the configuration lock: a calibration holds it while it
	 * stops the kthreads and relinks every estimator (100 ms and more on a loaded
	 * machine, ip_vs_est_calc_phase), and this runs on the console's drawing thread.
	 * A drain lets a waiter in between batches, so a short wait sees its progress;
	 * past that the figures read under the lock are the last sample's, marked
	 * config_held. The kthread locks below are held for one chain at most
	 * (est_kd_give_way). */
	if (!est_config_lock_for(st, EST_SAMPLE_LOCK_WAIT_NS)) {
		*e = st->smp_cfg;
		e->config_held = true;
	} else {
		est_sample_config(st, e);
		pthread_mutex_unlock(&st->mutex);
		st->smp_cfg = *e;
	}
	est_sample_ticks(st, e);
	e->mem_per_est_bytes = e->estimators ? (double)e->mem_bytes / (double)e->estimators : 0;
	e->packets = atomic_load_explicit(&st->pkt_total, memory_order_relaxed);
}

int est_debug_check(struct engine *eng, char *err, size_t errlen)
{
	struct est_state *st = eng->est;
	if (!st) {
		snprintf(err, errlen, "est is not running");
		return -1;
	}
	est_config_lock(st);
	int rc = est_check(st, err, errlen);
	pthread_mutex_unlock(&st->mutex);
	return rc;
}

size_t est_debug_visits(struct engine *eng, uint64_t *out, int *ktid, uint64_t *pass, size_t max)
{
	struct est_state *st = eng->est;
	size_t n = 0;

	if (!st)
		return 0;
	est_config_lock(st);
	/* Every kthread lock at once: a consistent cut between two chains. */
	for (int id = 0; id < st->kt_alloc; id++)
		est_kd_lock(st->kt_arr[id]);
	/* Acquire: the grower's chunks below live are visible. */
	uint64_t live = atomic_load_explicit(&st->live, memory_order_acquire);
	for (; n < max && n < live; n++) {
		struct est_estimator *e = est_at(st, n);
		out[n] = e->visits;
		if (ktid)
			ktid[n] = e->pprev ? e->ktid : -2;
		if (pass)
			pass[n] = e->pprev && e->ktid >= 0
				      ? st->kt_arr[e->ktid]->chain_pass[e->ktrow][e->ktcid]
				      : 0;
	}
	for (int id = st->kt_alloc - 1; id >= 0; id--)
		pthread_mutex_unlock(&st->kt_arr[id]->lock);
	pthread_mutex_unlock(&st->mutex);
	return n;
}

const struct subsys_ops est_ops = {
    .name = "est",
    .id = SUBSYS_EST,
    .start = est_start,
    .stop = est_stop,
    .sample = est_sample,
    .knob_apply = est_knob_apply,
};
