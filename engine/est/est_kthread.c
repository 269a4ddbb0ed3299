/* SPDX-License-Identifier: GPL-2.0-or-later */
/* est_kthread.c: the est-k:N tasks: tick loop, chain walk, drain and calc phase
 * (docs/est.md §3-§5). */
#include "engine/est/est_kthread.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>

#include "engine/engine.h"
#include "engine/est/est_calib.h"
#include "engine/est/est_place.h"

uint32_t est_chain_estimate(struct est_state *st, struct est_estimator *head)
{
	uint32_t n = 0;

	for (struct est_estimator *e = head; e; e = e->next, n++) {
		uint64_t sum[EST_NSTATS];
		est_counters_sum(&st->ctr, e->slot, sum);
		est_ewma_update(&e->ewma, sum);
		e->visits++;
	}
	return n;
}

static bool est_kt_stop_cb(void *ctx)
{
	return ethread_should_stop(ctx);
}

/* Sleep on kd->cond until deadline_ns or a stop; kd->lock held. */
static void est_kt_wait_locked(struct est_kd *kd, struct ethread *self, uint64_t deadline_ns)
{
	struct timespec ts = clock_ns_to_ts(deadline_ns);

	while (!ethread_should_stop(self))
		if (pthread_cond_timedwait(&kd->cond, &kd->lock, &ts) == ETIMEDOUT)
			break;
}

/* Histogram bucket of a tick time: 0 below 2 us, else floor(log2(us)). */
static int est_tick_hist_bucket(uint64_t tick_ns)
{
	uint64_t us = tick_ns / NS_PER_US;
	int b = us < 2 ? 0 : 63 - __builtin_clzll(us);
	return b < EST_TICK_HIST_BUCKETS ? b : EST_TICK_HIST_BUCKETS - 1;
}

static void est_tick_record(struct est_state *st, uint64_t tick_ns, uint32_t visits)
{
	struct est_tick_stats *ts = &st->ts;
	uint64_t max = atomic_load_explicit(&ts->tick_ns_max, memory_order_relaxed);

	atomic_fetch_add_explicit(&ts->ticks_run, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&ts->tick_ns_sum, tick_ns, memory_order_relaxed);
	atomic_fetch_add_explicit(&ts->visits, visits, memory_order_relaxed);
	atomic_store_explicit(&ts->tick_ns_last, tick_ns, memory_order_relaxed);
	while (tick_ns > max &&
	       !atomic_compare_exchange_weak_explicit(&ts->tick_ns_max, &max, tick_ns,
						      memory_order_relaxed, memory_order_relaxed))
		;
	atomic_fetch_add_explicit(&ts->hist[est_tick_hist_bucket(tick_ns)], 1,
				  memory_order_relaxed);
}

/* ip_vs_tick_estimation(): one row, one chain per hold of kd->lock. */
static uint64_t est_tick_run(struct est_state *st, struct est_kd *kd, struct ethread *self, int row)
{
	uint64_t t0 = clock_mono_ns();
	uint32_t visits = 0, len = 0;
	int chain_max = 0, tick_chains = 0, ncpu = st->ctr.ncpus;

	for (int cid = 0; cid < EST_TICK_CHAINS_MAX;) {
		pthread_mutex_lock(&kd->lock);
		struct est_tick *td = kd->ticks[row];
		uint64_t pres = td ? td->present & (~0ULL << cid) : 0;
		if (ethread_should_stop(self) || !pres) {
			pthread_mutex_unlock(&kd->lock);
			break;
		}
		if (!len) {
			len = kd->tick_len[row];
			chain_max = kd->chain_max;
		}
		cid = __builtin_ctzll(pres);
		uint64_t w0 = clock_mono_ns();
		visits += est_chain_estimate(st, td->chains[cid]);
		kd->chain_pass[row][cid]++;
		/* On a slow emulated CPU the same chain takes fmax/f longer. */
		if (st->eng)
			cpu_stretch(&st->eng->cpu, kd->emu_cpu, clock_mono_ns() - w0);
		pthread_mutex_unlock(&kd->lock);
		/* The preemption point between chains (cond_resched_rcu(), §3): a
		 * config-side locker gets kd->lock before the next chain. */
		est_kd_give_way(kd);
		cid++;
	}
	uint64_t tick_ns = clock_mono_ns() - t0;
	est_tick_record(st, tick_ns, visits);

	/* The debug patch's line (§4): kthread 0, its first non-empty row, every 32 passes. */
	if (kd->id == 0 && visits) {
		bool print = false;
		pthread_mutex_lock(&kd->lock);
		if (!ethread_should_stop(self)) {
			if (kd->dbg_row < 0)
				kd->dbg_row = row;
			print = row == kd->dbg_row && kd->dbg_pass++ % EST_DEBUG_TICK_PASSES == 0;
			tick_chains = kd->tick_chains;
		}
		pthread_mutex_unlock(&kd->lock);
		if (print)
			est_log(st, EV_INFO,
				"tick time: %lluns for %d CPUs, %u ests, %d chains, chain_max=%d",
				(unsigned long long)tick_ns, ncpu, len, tick_chains, chain_max);
	}
	return tick_ns;
}

/* --- calibration through the real chain walk ------------------------------ */

struct est_calc_ctx {
	struct est_state *st;
	struct est_kd *kd;
	struct ethread *self;
	int emu_cpu;
	struct est_estimator calc; /* calc_stats: fresh, alone on a local chain, slot 0 */
};

static uint64_t est_calc_now(void *ctx)
{
	(void)ctx;
	return clock_mono_ns();
}

static void est_calc_pass(void *ctx)
{
	struct est_calc_ctx *c = ctx;
	est_chain_estimate(c->st, &c->calc); /* a chain of one */
}

static bool est_calc_pause(void *ctx, uint64_t ns)
{
	struct est_calc_ctx *c = ctx;

	ethread_set_state(c->self, ETHREAD_SLEEP);
	pthread_mutex_lock(&c->kd->lock);
	est_kt_wait_locked(c->kd, c->self, clock_mono_ns() + ns);
	pthread_mutex_unlock(&c->kd->lock);
	ethread_set_state(c->self, ETHREAD_RUN);
	ethread_beat(c->self);
	return !ethread_should_stop(c->self);
}

static bool est_calc_stopped(void *ctx)
{
	struct est_calc_ctx *c = ctx;
	return ethread_should_stop(c->self);
}

static void est_calc_stretch(void *ctx, uint64_t work_ns)
{
	struct est_calc_ctx *c = ctx;
	if (c->st->eng)
		cpu_stretch(&c->st->eng->cpu, c->emu_cpu, work_ns);
}

/* est_calc_limits() pinned to the CPU it starts on: the stand-in for local_bh_disable() (§8),
 * for the tests. */
static bool est_calc_pinned(struct est_calib_io *io, int cache_factor, struct est_calib_result *r)
{
	cpu_set_t old, one;
	bool pinned = false;
	if (pthread_getaffinity_np(pthread_self(), sizeof(old), &old) == 0 && sched_getcpu() >= 0) {
		CPU_ZERO(&one);
		CPU_SET(sched_getcpu(), &one);
		pinned = pthread_setaffinity_np(pthread_self(), sizeof(one), &one) == 0;
	}
	bool ok = est_calc_limits(io, cache_factor, r);
	if (pinned)
		pthread_setaffinity_np(pthread_self(), sizeof(old), &old);
	return ok;
}

/* Keep tot_stats in kthread 0: place it first on the temp list. */
static void est_calc_tot_first(struct est_state *st)
{
	struct est_estimator *tot = st->tot;
	if (tot && tot->pprev && tot->ktid == -1 && st->temp_head != tot) {
		*tot->pprev = tot->next;
		if (tot->next)
			tot->next->pprev = tot->pprev;
		tot->next = st->temp_head;
		st->temp_head->pprev = &tot->next;
		st->temp_head = tot;
		tot->pprev = &st->temp_head;
	}
}

/* The calibration's result as the snapshot shows it (st->mutex held). */
static void est_calc_record(struct est_state *st, const struct est_calib_result *r, int gov,
			    uint64_t dequeue_ns)
{
	struct timespec wall;
	clock_gettime(CLOCK_REALTIME, &wall);
	st->calib = (struct est_calib_snap){
	    .chain_max = r->chain_max,
	    .single_est_ns = r->min_est_ns,
	    .diff_ns = r->diff_ns,
	    .loops = r->loops,
	    .tests = r->tests,
	    .valid_tests = r->valid,
	    .governor = gov,
	    .wall_ns = clock_ts_to_ns(&wall),
	    .dequeue_ns = dequeue_ns,
	    .count = st->calib.count + 1,
	};
}

/* With st->mutex held: stop the other tasks, take every estimator off, set the new chain_max
 * (forced, or the calibration's) and record the calibration. */
static void est_calc_relink_locked(struct est_state *st, struct ethread *self,
				   const struct est_calib_result *r, int forced, uint64_t genid,
				   int gov)
{
	if (ethread_should_stop(self))
		return;
	/* Stop the other tasks so every estimator can move at once (§5 step 2). */
	for (int id = 1; id < st->kt_count; id++)
		if (st->kt_arr[id]->used)
			est_task_stop(st, st->kt_arr[id], "stopping estimator thread %d...");
	uint64_t t0 = clock_mono_ns();
	st->in_calc = true;
	bool done = est_dequeue_all(st, est_kt_stop_cb, self);
	st->in_calc = false;
	uint64_t dequeue_ns = clock_mono_ns() - t0;
	if (!done || !st->kt_count || !st->kt_arr[0]->used)
		return;
	est_log(st, EV_CALIBRATION, "dequeue: %lluns", (unsigned long long)dequeue_ns);

	struct est_kd *kd0 = st->kt_arr[0];
	pthread_mutex_lock(&kd0->lock);
	kd0->add_row = kd0->est_row;
	pthread_mutex_unlock(&kd0->lock);
	st->chain_max = forced > 0 ? forced : r->chain_max;
	est_set_params(st, kd0);
	est_log(st, EV_CALIBRATION, "using max %d ests per chain, %u per kthread", kd0->chain_max,
		kd0->est_max_count);
	est_calc_tot_first(st);
	if (genid == st->genid)
		st->calc_phase = false;
	est_calc_record(st, r, gov, dequeue_ns);
}

/* ip_vs_est_calc_phase(): calibrate, stop the other tasks, relink everything. */
static void est_calc_phase(struct est_state *st, struct est_kd *kd, struct ethread *self)
{
	/* calc is local (slot 0, zeroed): a kthread 0 that a reload is replacing
	 * may still be calibrating with its own. */
	struct est_calc_ctx c = {.st = st, .kd = kd, .self = self, .calc = {.slot = 0}};
	struct est_calib_io io = {.ctx = &c,
				  .now_ns = est_calc_now,
				  .pass = est_calc_pass,
				  .pause = est_calc_pause,
				  .stopped = est_calc_stopped,
				  .stretch = est_calc_stretch};
	struct est_calib_result r;

	pthread_mutex_lock(&kd->lock);
	c.emu_cpu = kd->emu_cpu;
	pthread_mutex_unlock(&kd->lock);
	pthread_mutex_lock(&st->mutex);
	uint64_t genid = st->genid;
	int cache_factor = st->cache_factor;
	int forced = st->forced_chain_max;
	pthread_mutex_unlock(&st->mutex);
	int gov = st->eng ? atomic_load_explicit(&st->eng->cpu.governor, memory_order_acquire) : 0;

	bool ok = est_calc_pinned(&io, cache_factor, &r);
	est_log(st, EV_CALIBRATION,
		"calc: chain_max=%d, single est=%lluns, diff=%llu, loops=%d, ntest=%d", r.chain_max,
		(unsigned long long)r.min_est_ns, (unsigned long long)r.diff_ns, r.loops, r.tests);
	if (!ok)
		return;
	pthread_mutex_lock(&st->mutex);
	est_calc_relink_locked(st, self, &r, forced, genid, gov);
	pthread_mutex_unlock(&st->mutex);
	est_reap(st);
}

/* ip_vs_est_drain_temp_list(): kthread 0 places waiting estimators, 16 per hold. */
static void est_kt_drain(struct est_state *st, struct ethread *self)
{
	for (;;) {
		pthread_mutex_lock(&st->mutex);
		int n = est_drain_batch(st, EST_DRAIN_BATCH, est_kt_stop_cb, self);
		if (n < 0 && !st->drain_blocked) {
			st->drain_blocked = true;
			est_log(st, EV_INFO,
				"estimator thread limit %d reached: %llu estimators wait on the "
				"temp list",
				st->max_threads, (unsigned long long)st->pending);
		} else if (n >= 0 && !st->temp_head) {
			st->drain_blocked = false;
		}
		pthread_mutex_unlock(&st->mutex);
		if (n < EST_DRAIN_BATCH)
			return;
		/* "Between batches, unlock and reschedule" (§5): relocking at once, the
		 * drain could keep the control thread waiting through many batches. */
		est_config_give_way(st);
		ethread_beat(self);
	}
}

/* ip_vs_estimation_kthread(): the monotonic 40 ms grid with resync and catch-up. */
static void est_kt_main(struct ethread *self)
{
	struct est_kd *kd = self->arg;
	struct est_state *st = kd->st;
	int id = kd->id;
	bool calc = false;

	pthread_mutex_lock(&st->mutex);
	if (id > 0 && !st->chain_max) {
		pthread_mutex_unlock(&st->mutex); /* not calibrated yet */
		return;
	}
	if (id == 0) {
		if (!st->chain_max)
			st->calc_phase = true;
		calc = st->calc_phase;
	}
	pthread_mutex_unlock(&st->mutex);
	if (calc) {
		est_calc_phase(st, kd, self);
		if (ethread_should_stop(self))
			return;
	}

	pthread_mutex_lock(&kd->lock);
	int row = kd->est_row; /* a restarted task resumes at the saved row */
	pthread_mutex_unlock(&kd->lock);
	for (;;) {
		if (id == 0)
			est_kt_drain(st, self);
		ethread_set_state(self, ETHREAD_SLEEP);
		pthread_mutex_lock(&kd->lock);
		if (ethread_should_stop(self)) {
			pthread_mutex_unlock(&kd->lock);
			break;
		}
		uint64_t now = clock_mono_ns();
		int64_t gap = (int64_t)(kd->est_timer_ns - now);
		if (gap > 0) {
			if (gap > (int64_t)EST_TICK_NS) {
				/* Clamp; the next tick then runs at once (one-tick catch-up). */
				kd->est_timer_ns = now - EST_TICK_NS;
				gap = (int64_t)EST_TICK_NS;
			}
			est_kt_wait_locked(kd, self, now + (uint64_t)gap);
		} else if (gap < -(int64_t)(EST_RESYNC_LOOP_TICKS * EST_TICK_NS)) {
			kd->est_timer_ns = now; /* too far behind: drop the backlog */
		}
		bool stop = ethread_should_stop(self);
		bool work = kd->tick_len[row] != 0;
		pthread_mutex_unlock(&kd->lock);
		if (stop)
			break;
		ethread_set_state(self, ETHREAD_RUN);
		uint64_t tick_ns = work ? est_tick_run(st, kd, self, row) : 0;
		pthread_mutex_lock(&kd->lock);
		if (ethread_should_stop(self)) {
			pthread_mutex_unlock(&kd->lock);
			break;
		}
		if (work)
			kd->tick_ns_last = tick_ns;
		row = (row + 1) % EST_NTICKS;
		kd->est_row = row;
		kd->est_timer_ns += EST_TICK_NS;
		pthread_mutex_unlock(&kd->lock);
		atomic_fetch_add_explicit(&st->ts.ticks, 1, memory_order_relaxed);
		ethread_beat(self);
	}
}

int est_kt_task_start(struct est_state *st, struct est_kd *kd)
{
	char name[32], err[160]; /* ethread_start() truncates to 15 */

	snprintf(name, sizeof(name), "est-k:%d", kd->id);
	/* kd->lock across the start: the task checks its stop flag under it. */
	est_kd_lock(kd);
	struct ethread *t = ethread_start(st->eng, name, SUBSYS_EST, kd->emu_cpu, est_kt_main, kd,
					  err, sizeof(err));
	kd->task = t;
	pthread_mutex_unlock(&kd->lock);
	if (!t) {
		est_log(st, EV_ERROR, "%s", err);
		return -1;
	}
	return 0;
}
