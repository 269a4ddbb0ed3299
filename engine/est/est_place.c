/* SPDX-License-Identifier: GPL-2.0-or-later */
/* est_place.c: est_add_ktid, add_row/est_row, avail/full/present bookkeeping (docs/est.md §2). */
#include "engine/est/est_place.h"

#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "core/xalloc.h"

#define EST_AVAIL_ALL ((1ULL << EST_NTICKS) - 1)

void est_log(struct est_state *st, enum event_kind kind, const char *fmt, ...)
{
	char text[EVENT_TEXT_MAX];
	va_list ap;

	if (!st->events)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	event_add(st->events, kind, "%s", text);
}

/* --- bitmaps of at most 64 bits, as lib/find_bit.c answers ----------------- */

static int bit_last(uint64_t map, int size) /* highest set bit < size, else size */
{
	map &= size >= 64 ? ~0ULL : (1ULL << size) - 1;
	return map ? 63 - __builtin_clzll(map) : size;
}

static int bit_next(uint64_t map, int size, int start) /* first set bit >= start, else size */
{
	if (start >= size)
		return size;
	map &= (size >= 64 ? ~0ULL : (1ULL << size) - 1) & (~0ULL << start);
	return map ? __builtin_ctzll(map) : size;
}

static int bit_first_zero(uint64_t map, int size)
{
	return bit_next(~map, size, 0);
}

/* --- hlist ---------------------------------------------------------------- */

static void hl_add_head(struct est_estimator *e, struct est_estimator **head)
{
	e->next = *head;
	if (*head)
		(*head)->pprev = &e->next;
	*head = e;
	e->pprev = head;
}

static void hl_del(struct est_estimator *e)
{
	*e->pprev = e->next;
	if (e->next)
		e->next->pprev = e->pprev;
	e->next = NULL;
	e->pprev = NULL;
}

/* --- the config mutex and kd->lock, handed over to a blocked locker ------- */

void est_config_lock(struct est_state *st)
{
	if (pthread_mutex_trylock(&st->mutex) == 0)
		return;
	atomic_fetch_add_explicit(&st->mutex_waiters, 1, memory_order_relaxed);
	pthread_mutex_lock(&st->mutex);
	atomic_fetch_sub_explicit(&st->mutex_waiters, 1, memory_order_relaxed);
}

bool est_config_lock_for(struct est_state *st, uint64_t wait_ns)
{
	if (pthread_mutex_trylock(&st->mutex) == 0)
		return true;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts); /* pthread_mutex_timedlock's clock */
	uint64_t ns = (uint64_t)ts.tv_nsec + wait_ns;
	ts.tv_sec += (time_t)(ns / NS_PER_S);
	ts.tv_nsec = (long)(ns % NS_PER_S);
	atomic_fetch_add_explicit(&st->mutex_waiters, 1, memory_order_relaxed);
	int rc = pthread_mutex_timedlock(&st->mutex, &ts);
	atomic_fetch_sub_explicit(&st->mutex_waiters, 1, memory_order_relaxed);
	return rc == 0;
}

/*
 * Like cond_resched(): nearly free when no one waits. A waiter needs only to
 * be scheduled (the lock is free meanwhile), but yielding is a busy wait, so
 * it is bounded: on a machine too loaded to run the waiter soon, stop burning
 * the CPU and contend for the lock as before.
 */
static void est_give_way(_Atomic int *waiters)
{
	uint64_t until = 0;

	while (atomic_load_explicit(waiters, memory_order_relaxed)) {
		uint64_t now = clock_mono_ns();
		if (!until)
			until = now + EST_GIVE_WAY_MAX_NS;
		else if (now >= until)
			return;
		sched_yield();
	}
}

void est_config_give_way(struct est_state *st)
{
	est_give_way(&st->mutex_waiters);
}

void est_kd_give_way(struct est_kd *kd)
{
	est_give_way(&kd->lock_waiters);
}

void est_kd_lock(struct est_kd *kd)
{
	if (pthread_mutex_trylock(&kd->lock) == 0)
		return;
	atomic_fetch_add_explicit(&kd->lock_waiters, 1, memory_order_relaxed);
	pthread_mutex_lock(&kd->lock);
	atomic_fetch_sub_explicit(&kd->lock_waiters, 1, memory_order_relaxed);
}

/* --- contexts ------------------------------------------------------------- */

int est_max_threads_for(int cpulist_cpus)
{
	int n = EST_CPU_KTHREADS * cpulist_cpus;
	return n > 1 ? n : 1;
}

void est_place_init(struct est_state *st, int cpulist_cpus, int tick_chains)
{
	pthread_mutex_init(&st->mutex, NULL);
	st->cpulist_cpus = cpulist_cpus;
	st->max_threads = est_max_threads_for(cpulist_cpus);
	st->tick_chains = tick_chains;
	st->cache_factor = 4;
}

void est_place_destroy(struct est_state *st)
{
	for (int i = 0; i < st->kt_alloc; i++) {
		struct est_kd *kd = st->kt_arr[i];
		for (int r = 0; r < EST_NTICKS; r++)
			free(kd->ticks[r]);
		pthread_mutex_destroy(&kd->lock);
		pthread_cond_destroy(&kd->cond);
		free(kd);
	}
	free(st->kt_arr);
	free(st->reap);
	st->kt_arr = NULL;
	st->kt_alloc = st->kt_count = 0;
	pthread_mutex_destroy(&st->mutex);
}

void est_set_params(struct est_state *st, struct est_kd *kd)
{
	est_kd_lock(kd);
	kd->tick_chains = st->tick_chains;
	kd->chain_max = st->chain_max;
	/* One long chain per tick on preemptible-RCU kernels (§1). */
	if (kd->tick_chains == 1)
		kd->chain_max *= EST_CHAIN_FACTOR;
	kd->tick_max = kd->tick_chains * kd->chain_max;
	kd->est_max_count = (uint32_t)(EST_NTICKS * kd->tick_max);
	pthread_mutex_unlock(&kd->lock);
}

static struct est_kd *est_kd_slot(struct est_state *st, int id)
{
	if (id >= st->kt_alloc) {
		int n = id + 1;
		st->kt_arr = xreallocarray(st->kt_arr, (size_t)n, sizeof(*st->kt_arr));
		for (int i = st->kt_alloc; i < n; i++) {
			struct est_kd *kd = xcalloc(1, sizeof(*kd));
			pthread_condattr_t ca;
			kd->id = i;
			kd->st = st;
			pthread_mutex_init(&kd->lock, NULL);
			pthread_condattr_init(&ca);
			pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
			pthread_cond_init(&kd->cond, &ca);
			pthread_condattr_destroy(&ca);
			st->kt_arr[i] = kd;
		}
		st->kt_alloc = n;
	}
	return st->kt_arr[id];
}

static bool est_kd_filled(struct est_state *st, int id)
{
	return id >= 0 && id < st->kt_count && st->kt_arr[id]->used;
}

int est_task_start(struct est_state *st, struct est_kd *kd)
{
	uint64_t now = clock_mono_ns();
	int64_t gap;

	int emu = est_emu_cpu_for(st, kd->id, st->eng ? st->eng->cpu.count : 1);

	est_kd_lock(kd);
	bool running = kd->task != NULL;
	if (!running)
		kd->emu_cpu = emu;
	gap = (int64_t)(kd->est_timer_ns - now);
	/* Sync est_timer if the task starts late (§5 task start). */
	if (!running && (gap > (int64_t)(EST_RESYNC_START_TICKS * EST_TICK_NS) ||
			 gap < -(int64_t)(EST_RESYNC_START_TICKS * EST_TICK_NS)))
		kd->est_timer_ns = now;
	pthread_mutex_unlock(&kd->lock);
	if (running || !st->task_start)
		return 0;
	est_log(st, EV_KTHREAD_START, "starting estimator thread %d...", kd->id);
	return st->task_start(st, kd);
}

void est_task_stop(struct est_state *st, struct est_kd *kd, const char *why)
{
	est_kd_lock(kd);
	struct ethread *t = kd->task;
	if (t) {
		/* Under kd->lock: the task checks its stop flag under the same lock
		 * before it writes anything in kd, so it never writes after this. */
		kd->task = NULL;
		ethread_request_stop(t);
		pthread_cond_broadcast(&kd->cond);
	}
	pthread_mutex_unlock(&kd->lock);
	if (!t)
		return;
	est_log(st, EV_KTHREAD_STOP, why, kd->id);
	if (st->nreap == st->reap_alloc) {
		st->reap_alloc = st->reap_alloc ? 2 * st->reap_alloc : 8;
		st->reap = xreallocarray(st->reap, (size_t)st->reap_alloc, sizeof(*st->reap));
	}
	st->reap[st->nreap++] = t;
}

void est_reap(struct est_state *st)
{
	for (;;) {
		struct ethread *t = NULL;
		est_config_lock(st);
		/* A kthread 0 that was itself stopped by a reload while it relinked
		 * leaves its own entry to whoever stopped it. */
		for (int i = st->nreap - 1; i >= 0 && !t; i--) {
			if (!pthread_equal(st->reap[i]->pt, pthread_self())) {
				t = st->reap[i];
				st->reap[i] = st->reap[--st->nreap];
			}
		}
		pthread_mutex_unlock(&st->mutex);
		if (!t)
			return;
		ethread_join(t);
	}
}

/* A new kthread slot (st->mutex held): 0, or -1 at the thread limit. */
static int est_add_kthread(struct est_state *st)
{
	int id = st->kt_count;

	/* The limit counts slots: a hole is not reused once it is reached (§2). */
	if (st->max_threads && st->kt_count >= st->max_threads)
		return -1;
	for (int i = 0; i < st->kt_count; i++) {
		if (!st->kt_arr[i]->used) {
			id = i;
			break;
		}
	}
	struct est_kd *kd = est_kd_slot(st, id);
	est_kd_lock(kd);
	for (int r = 0; r < EST_NTICKS; r++) {
		free(kd->ticks[r]);
		kd->ticks[r] = NULL;
		kd->tick_len[r] = 0;
	}
	kd->avail = EST_AVAIL_ALL;
	kd->est_timer_ns = clock_mono_ns();
	kd->est_count = 0;
	kd->add_row = kd->est_row = 0;
	kd->dbg_row = -1;
	kd->dbg_pass = 0;
	kd->tick_ns_last = 0;
	memset(kd->chain_pass, 0, sizeof(kd->chain_pass));
	pthread_mutex_unlock(&kd->lock);
	kd->used = true;
	est_set_params(st, kd);
	if (id == st->kt_count)
		st->kt_count++;
	if (!st->stopped && est_task_start(st, kd) != 0) {
		kd->used = false;
		if (id == st->kt_count - 1)
			st->kt_count--;
		return -1;
	}
	st->add_ktid = id; /* the newest kthread takes new estimators */
	return 0;
}

static void est_update_ktid(struct est_state *st)
{
	int best = st->kt_count;

	for (int id = 0; id < st->kt_count; id++) {
		struct est_kd *kd = st->kt_arr[id];
		if (kd->used) {
			if (kd->est_count < kd->est_max_count) {
				best = id;
				break;
			}
		} else if (id < best) {
			best = id;
		}
	}
	st->add_ktid = best;
}

/* §2 steps 2-4: the row for an estimator with this delay. kd->lock held. */
static int est_pick_row(struct est_kd *kd, int delay)
{
	int crow, row;

	if (kd->est_count >= 2 * (uint32_t)kd->tick_max || delay < EST_INITIAL_DELAY)
		crow = kd->est_row;
	else
		crow = kd->add_row; /* a small kthread packs from add_row */
	crow = (crow + delay) % EST_NTICKS;
	if (delay >= EST_INITIAL_DELAY) {
		/* Keep the initial delay, or lower it if that row has no room. */
		row = crow;
		if (crow < EST_NTICKS - 1) {
			crow++;
			row = bit_last(kd->avail, crow);
		}
		if (row >= crow)
			row = bit_last(kd->avail, EST_NTICKS);
	} else {
		/* Keep the delay, or raise it if that row has no room. */
		row = EST_NTICKS;
		if (crow > 0)
			row = bit_next(kd->avail, EST_NTICKS, crow);
		if (row >= EST_NTICKS)
			row = bit_next(kd->avail, EST_NTICKS, 0);
	}
	return row;
}

/* Place e on a kthread (st->mutex held): 0 or -1. */
static int est_enqueue(struct est_state *st, struct est_estimator *e)
{
	struct est_kd *kd;
	int delay = e->ktrow;

	if (est_kd_filled(st, st->add_ktid)) {
		kd = st->kt_arr[st->add_ktid];
	} else {
		if (est_add_kthread(st) != 0)
			return -1;
		kd = st->kt_arr[st->add_ktid];
	}

	est_kd_lock(kd);
	int row = est_pick_row(kd, delay);
	if (row >= EST_NTICKS || kd->tick_max <= 0) {
		pthread_mutex_unlock(&kd->lock); /* no room: cannot happen below est_max_count */
		return -1;
	}
	struct est_tick *td = kd->ticks[row];
	if (!td)
		td = kd->ticks[row] = xcalloc(1, sizeof(*td));
	int cid = bit_first_zero(td->full, kd->tick_chains);
	if (cid >= kd->tick_chains) /* leftover of an older layout (calc phase) */
		cid = bit_first_zero(td->full, EST_TICK_CHAINS_MAX);

	kd->est_count++;
	kd->tick_len[row]++;
	if (!td->chain_len[cid])
		td->present |= 1ULL << cid;
	td->chain_len[cid]++;
	e->ktid = kd->id;
	e->ktrow = row;
	e->ktcid = cid;
	hl_add_head(e, &td->chains[cid]);
	if (td->chain_len[cid] >= (uint32_t)kd->chain_max) {
		td->full |= 1ULL << cid;
		if (kd->tick_len[row] >= (uint32_t)kd->tick_max)
			kd->avail &= ~(1ULL << row);
	}
	bool kd_full = kd->est_count == kd->est_max_count;
	pthread_mutex_unlock(&kd->lock);
	st->placed++;
	if (kd_full)
		est_update_ktid(st);
	return 0;
}

int est_start_estimator(struct est_state *st, struct est_estimator *e)
{
	if (!st->max_threads)
		st->max_threads = est_max_threads_for(st->cpulist_cpus);
	e->ktid = -1;
	e->ktrow = EST_INITIAL_DELAY;
	if (!st->kt_count || !st->kt_arr[0]->used) {
		if (est_add_kthread(st) != 0)
			return -1;
	}
	hl_add_head(e, &st->temp_head);
	st->nest++;
	st->pending++;
	return 0;
}

static void est_kd_destroy(struct est_state *st, struct est_kd *kd)
{
	est_task_stop(st, kd, "stop unused estimator thread %d...");
	kd->used = false;
}

void est_stop_estimator(struct est_state *st, struct est_estimator *e)
{
	int ktid = e->ktid, row = e->ktrow, cid = e->ktcid;

	if (!e->pprev)
		return; /* never linked */
	st->nest--;
	if (ktid < 0) {
		hl_del(e);
		st->pending--;
		goto end_kt0;
	}

	struct est_kd *kd = st->kt_arr[ktid];
	est_kd_lock(kd);
	struct est_tick *td = kd->ticks[row];
	hl_del(e);
	td->full &= ~(1ULL << cid);
	if (!--td->chain_len[cid])
		td->present &= ~(1ULL << cid);
	kd->tick_len[row]--;
	kd->avail |= 1ULL << row;
	if (!kd->tick_len[row]) {
		/* The walker re-reads ticks[row] under kd->lock after each chain:
		 * freeing now is safe without a grace period. */
		kd->ticks[row] = NULL;
		free(td);
	}
	uint32_t left = --kd->est_count;
	pthread_mutex_unlock(&kd->lock);
	st->placed--;
	if (left) {
		if (ktid < st->add_ktid)
			st->add_ktid = ktid; /* this slot may have room now: prefer it */
		return;
	}
	if (ktid > 0) {
		est_kd_destroy(st, kd);
		if (ktid == st->kt_count - 1) {
			st->kt_count--;
			while (st->kt_count > 1 && !st->kt_arr[st->kt_count - 1]->used)
				st->kt_count--;
		}
		if (ktid == st->add_ktid)
			est_update_ktid(st);
	}
end_kt0:
	/* kt 0 goes last, once everything else is empty (§2 step 5). */
	if (st->kt_count == 1 && !st->temp_head && !st->in_calc) {
		struct est_kd *kd0 = st->kt_arr[0];
		if (!kd0->used || !kd0->est_count) {
			if (kd0->used)
				est_kd_destroy(st, kd0);
			st->kt_count--;
			st->add_ktid = 0;
		}
	}
}

int est_drain_batch(struct est_state *st, int max, bool (*stop)(void *), void *ctx)
{
	int n = 0;

	while (max-- > 0) {
		struct est_estimator *e = st->temp_head;
		if (!e || (stop && stop(ctx)))
			return n;
		hl_del(e);
		st->pending--;
		if (est_enqueue(st, e) == 0) {
			n++;
			continue;
		}
		e->ktid = -1;
		hl_add_head(e, &st->temp_head);
		st->pending++;
		return -1; /* some entries wait for the next attempt */
	}
	return n;
}

bool est_dequeue_all(struct est_state *st, bool (*stop)(void *), void *ctx)
{
	int step = 0;

	/* Walk delay (desc), id (desc), cid (asc): the temp list ends up in
	 * ascending delay, so the smallest delays are placed first. */
	for (int delay = EST_NTICKS - 1; delay >= 0; delay--) {
	last_kt:
		for (int id = st->kt_count - 1; id >= 0; id--) {
			if (stop && stop(ctx))
				return false;
			struct est_kd *kd = st->kt_arr[id];
			if (!kd->used)
				continue;
			if (!id && kd->est_count <= 1)
				break; /* keep kt 0's last estimator: next delay */
			int row = (kd->est_row + delay) % EST_NTICKS;
			struct est_tick *td = kd->ticks[row];
			if (!td)
				continue;
			for (int cid = 0; cid < EST_TICK_CHAINS_MAX;) {
				if (stop && stop(ctx))
					return false;
				if (!(++step % EST_RELINK_RESCHED)) {
					/* Let the control thread add and remove meanwhile. */
					pthread_mutex_unlock(&st->mutex);
					est_config_give_way(st);
					pthread_mutex_lock(&st->mutex);
					if (id >= st->kt_count)
						goto last_kt;
					if (!kd->used || kd->ticks[row] != td)
						break; /* next kthread */
				}
				struct est_estimator *e = td->chains[cid];
				if (!e) {
					cid++;
					continue;
				}
				bool last = kd->est_count <= 1;
				if (!id && last)
					goto next_delay;
				bool last_td = kd->tick_len[row] <= 1;
				est_stop_estimator(st, e);
				st->nest++; /* it stays added: now on the temp list */
				e->ktid = -1;
				e->ktrow = (row - kd->est_row + EST_NTICKS) % EST_NTICKS;
				hl_add_head(e, &st->temp_head);
				st->pending++;
				if (last || last_td)
					break; /* kd or td freed */
			}
		}
	next_delay:;
	}
	return true;
}
