/* SPDX-License-Identifier: GPL-2.0-or-later */
/* est_kthread.h: the estimation tasks est-k:N (docs/est.md §3-§5). */
#ifndef TT_EST_KTHREAD_H
#define TT_EST_KTHREAD_H

#include <stdint.h>

#include "engine/est/est_core.h"

/* est_state.task_start: start kd's task "est-k:<id>" (st->mutex held). */
int est_kt_task_start(struct est_state *st, struct est_kd *kd);
/* ip_vs_chain_estimation(): sum and update every estimator of one chain. */
uint32_t est_chain_estimate(struct est_state *st, struct est_estimator *head);

#endif
