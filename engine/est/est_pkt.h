/* SPDX-License-Identifier: GPL-2.0-or-later */
/* est_pkt.h: emulated packet paths that count into the estimators' per-CPU counters. */
#ifndef TT_EST_PKT_H
#define TT_EST_PKT_H

#include "engine/est/est_core.h"

#define EST_PKT_THREADS 2 /* est-pkt:N; each owns every 2nd emulated CPU */
#define EST_PKT_PERIOD_NS (10 * NS_PER_MS) /* packets are counted in 10 ms batches */
#define EST_PKT_MAX_PER_PERIOD 200000 /* cap so a huge rate cannot starve the host */
#define EST_PKT_GROUP 8 /* estimator 1 + 8k is a service, the next 7 its dests */
#define EST_PKT_PER_CONN 16 /* a new connection every 16 packets */

/* Start/stop the packet threads (control thread; st->live bounds what they touch). */
int est_pkt_start(struct est_state *st, char *err, size_t errlen);
void est_pkt_stop(struct est_state *st);

#endif
