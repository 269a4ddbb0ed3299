#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/pmd.sh: PMD figures: one PMD's forwarding rate against a bare SPSC ring in the
# same run, idle PMD CPU% for maxsleep 0/50/500, pmd-seed drop% and CPU% for timer slack 50000
# vs 1000, nanosleep and PMD sleep overshoot p50/p99. Medians of PMD_RUNS (3) runs. ~20 s.
set -u
bin="$TT_BUILD/bench/bench_pmd"
[ -x "$bin" ] || { echo "bench_pmd not built (make bench)"; exit 1; }
"$bin" "${PMD_RUNS:-3}"
