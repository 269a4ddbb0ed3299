#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/blk.sh: rq_affinity 0/1/2 in one run: IOPS, p50/p99 completion latency, IPIs per
# completion, CPU% of the interrupt CPU thread (blk-irq) against the submitters (blk-sub:N),
# as MIN/AVG/MED/MAX/Dev over passes (the 2008 io-affinity thread's table; rq=0 the baseline).
# BLK_PASSES (10), BLK_PASS_MS (400), BLK_SERVICE_US (1), BLK_JITTER_US (1) override the defaults
# (blk-steer's device).
set -u
bin="$TT_BUILD/bench/bench_blk"
[ -x "$bin" ] || { echo "bench_blk not built (make bench)"; exit 1; }
"$bin" "${BLK_PASSES:-10}" "${BLK_PASS_MS:-400}" "${BLK_SERVICE_US:-1}" "${BLK_JITTER_US:-1}"
