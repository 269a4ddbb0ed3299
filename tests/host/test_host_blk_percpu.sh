#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_host_blk_percpu.sh: tunetop --host fills the per-CPU blk rates from the counters it
# reads: each CPU's block_softirq_per_s and ipi_recv_per_s are the line's delta of its
# block_softirq and ipi_recv (/proc/softirqs BLOCK, /proc/interrupts CAL) over the line's
# interval (to the printed precision: interval_s and rates are rounded to 0.01), never the
# 0.0 they were; completed_per_s, which the host has no source for, is null and named in
# host.absent.
set -u
. "$(dirname "$0")/../lib/assert.sh"

command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
grep -q '^ *BLOCK:' /proc/softirqs 2>/dev/null || { echo "skip: /proc/softirqs has no BLOCK row"; exit 77; }
out=$(mktemp "${TMPDIR:-/tmp}/tt-blkpc.XXXXXX")
trap 'rm -f "$out"' EXIT

timeout 60 "$TUNETOP" --host -b -n 4 -d 0.3 >"$out" 2>/dev/null
rc=$?
check "batch runs (rc $rc)" test "$rc" -eq 0
res=$(python3 - "$out" <<'PY'
import json, sys
lines = [json.loads(x) for x in open(sys.argv[1]) if x.strip()]
bad, cells = [], 0
prev = None
for n, o in enumerate(lines):
    b, t = o["blk"], o["interval_s"]
    absent = o["host"]["absent"]
    for c in b["per_cpu"]:
        if c["completed_per_s"] is not None:
            bad.append(f"line {n} cpu {c['cpu']}: completed_per_s {c['completed_per_s']}")
        if prev is None:
            continue
        p = prev[c["cpu"]]
        for tot, rate in (("block_softirq", "block_softirq_per_s"), ("ipi_recv", "ipi_recv_per_s")):
            if tot == "ipi_recv" and "blk.per_cpu.ipi_recv" in absent:
                continue  # no CAL row on this host: null, and said so
            d, r = c[tot] - p[tot], c[rate]
            cells += 1
            # r = d / t exactly, as printed: t within 0.005, r within 0.005.
            if r is None or abs(r * t - d) > r * 0.005 + 0.005 * t + 1e-6:
                bad.append(f"line {n} cpu {c['cpu']} {rate}: {r} against {d} in {t} s")
    if "blk.per_cpu.completed_per_s" not in absent:
        bad.append(f"line {n}: blk.per_cpu.completed_per_s not in host.absent")
    prev = {c["cpu"]: c for c in b["per_cpu"]}
print("ok" if not bad and cells else f"{cells} cells; " + "; ".join(bad[:5]))
PY
)
check "per-CPU rates are the counters' deltas over the interval ($res)" test "$res" = ok
finish
