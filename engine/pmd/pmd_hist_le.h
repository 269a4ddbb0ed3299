/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pmd_hist_le.h: the overshoot histogram as cumulative buckets for the snapshot (exporter). */
#ifndef TT_PMD_HIST_LE_H
#define TT_PMD_HIST_LE_H

#include <stdint.h>

#include "core/snap_pmd.h"

/* From the 1 us bucket totals since start (the last collects everything beyond):
 * t->overshoot_le[], overshoot_count and overshoot_sum_us. */
void pmd_hist_le_fill(const uint64_t *hist, unsigned nbuckets, struct pmd_thread_snap *t);

#endif
