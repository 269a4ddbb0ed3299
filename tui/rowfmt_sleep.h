/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rowfmt_sleep.h: the pmd view's sleep lines: timer slack, run-queue delay, the engine's and
 * the kernel's (eBPF) overshoot side by side, and the probe's overshoot histogram. */
#ifndef TT_ROWFMT_SLEEP_H
#define TT_ROWFMT_SLEEP_H

#include <stddef.h>

#include "core/snapshot.h"

/* "sleep probe (eBPF): on, 650 ns per sleep" or "... absent: not root: ...". */
const char *rowfmt_sleep_probe(const struct snapshot *s, char *buf, size_t len);
extern const char rowfmt_sleep_head[];
/* The same columns on the host: the kernel's figure is the only one (no engine "own"). */
extern const char rowfmt_sleep_head_host[];
/* PMD i: slack, run-queue %, sleeps, overshoot p50/p99 engine-own (or OVS) and eBPF. */
const char *rowfmt_sleep_row(const struct snapshot *s, int i, char *buf, size_t len);
/* PMD i's eBPF overshoot histogram, non-empty buckets only, in % of its sleeps. */
const char *rowfmt_sleep_hist(const struct pmd_thread_snap *p, char *buf, size_t len);

#endif
