/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blk_hist_le.h: the latency histogram as cumulative buckets for the snapshot (exporter). */
#ifndef TT_BLK_HIST_LE_H
#define TT_BLK_HIST_LE_H

#include "core/snap_blk.h"
#include "engine/blk/blk_stats.h"

/* From the totals since start: b->lat_le[], lat_count and lat_sum_ns. */
void blk_hist_le_fill(const struct blk_hist_copy *cur, struct blk_snap *b);

#endif
