/* SPDX-License-Identifier: GPL-2.0-or-later */
/* est_place.h: kthread, row and chain placement of estimators (docs/est.md §2, §5). */
#ifndef TT_EST_PLACE_H
#define TT_EST_PLACE_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/est/est_core.h"

/* Set up / tear down the placement state (no tasks; est_kthread.c starts them). */
void est_place_init(struct est_state *st, int cpulist_cpus, int tick_chains);
void est_place_destroy(struct est_state *st);

/* max(1, 4 x CPUs in the cpulist): ip_vs_est_max_threads(). */
int est_max_threads_for(int cpulist_cpus);

/* Take st->mutex from the control side (counted in mutex_waiters while blocked). */
void est_config_lock(struct est_state *st);
/* Like est_config_lock() but for at most wait_ns (a waiter all the same, so a drain
 * lets it in between batches); true when held. For the sampler, which never waits long. */
bool est_config_lock_for(struct est_state *st, uint64_t wait_ns);
/* Take kd->lock from anywhere but kd's own task (counted in lock_waiters while blocked). */
void est_kd_lock(struct est_kd *kd);
/* kd's task between two chains, WITHOUT kd->lock: let a blocked est_kd_lock() in first. */
void est_kd_give_way(struct est_kd *kd);
/* Longest a give-way yields for a waiter that is not scheduled yet. */
#define EST_GIVE_WAY_MAX_NS (1000 * 1000ULL)
/* Kthread 0, between drain batches and relink steps, WITHOUT st->mutex: let a
 * blocked control-side thread take the mutex first (§5 "unlock and reschedule"). */
void est_config_give_way(struct est_state *st);

/* The rest is called with st->mutex held. */
void est_set_params(struct est_state *st, struct est_kd *kd);
int est_start_estimator(struct est_state *st, struct est_estimator *e);
void est_stop_estimator(struct est_state *st, struct est_estimator *e);
/* Place up to max entries from the temp list; -1 when one could not be placed. */
int est_drain_batch(struct est_state *st, int max, bool (*stop)(void *), void *ctx);
/*
 * The calc phase's relink walk (§5 step 3): every linked estimator back onto
 * the temp list in ascending delay, kthread 0's last one excepted. Drops and
 * retakes st->mutex every 64 steps. Returns false if stop() said so.
 */
bool est_dequeue_all(struct est_state *st, bool (*stop)(void *), void *ctx);

/* Tasks: start one (timer resync, event), stop one (to the reap list). */
int est_task_start(struct est_state *st, struct est_kd *kd);
void est_task_stop(struct est_state *st, struct est_kd *kd, const char *why);
/* Join the stopped tasks; call WITHOUT st->mutex. */
void est_reap(struct est_state *st);

/* Walk everything and check the bookkeeping; 0 or -1 with err (mutex held). */
int est_check(struct est_state *st, char *err, size_t errlen);

void est_log(struct est_state *st, enum event_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
