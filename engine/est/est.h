/* SPDX-License-Identifier: GPL-2.0-or-later */
/* est.h: what tests and benches may ask the running est subsystem (engine/est.c). */
#ifndef TT_EST_H
#define TT_EST_H

#include <stddef.h>
#include <stdint.h>

struct engine;

/* Per-CPU counters refused beyond this (est.count x est.cpus x 40 bytes): every
 * page is touched, and giving 4 GiB back took 0.9-1.6 s at exit on the 2-core
 * test machine (the goal: exit within 1 s of SIGTERM); 2 GiB holds the largest
 * est.count (2000000) at up to 26 CPUs and gives back in about half that. */
#define EST_MEM_LIMIT_BYTES (2ULL << 30)

/* Walk every chain and the temp list: 0, or -1 with what is wrong in err. */
int est_debug_check(struct engine *eng, char *err, size_t errlen);
/*
 * Copy the visit count of estimators [0, max) into out (index 0 is tot_stats)
 * and, when ktid is not NULL, the kthread each is on (-1: pending). Returns
 * the number copied; pass (when not NULL) gets how many times the chain each
 * is on was walked. Takes the config mutex and every kthread's lock.
 */
size_t est_debug_visits(struct engine *eng, uint64_t *out, int *ktid, uint64_t *pass, size_t max);

#endif
