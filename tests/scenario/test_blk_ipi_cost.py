#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""test_blk_ipi_cost.py: blk.ipi_cost_ns (emulated, docs/blk.md "Emulated IPI cost") is paid by
each remote completion on the thread that sends its IPI (blk-irq) and on the one that takes it (a
blk-sub), spun on the thread's own CPU clock: the receiver before the completion is counted, the
sender just after the push that hands it over (at most every request in flight may be counted
before the sender's spin ends). So on every line, at any speed, each side's CPU since the start
is at least the cost times the remote completions counted, less those in flight. At cost 0 nothing is added (no bound to judge); the knob is labelled emulated in
--list-knobs. The CPU ratio between rq_affinity 2 and 0 is bench/blk.sh's."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from ttcheck import check, finish  # noqa: E402

TUNETOP = os.environ.get("TUNETOP", "./tunetop")
COST = 20000
# A read of the counters after the threads' clocks may count requests whose spin the clock
# read did not see yet, or (the sender) not ended yet: at most every request there is
# (blk-steer: 4 submitters x depth 16).
ALL = 4 * 16


def run(*extra, n=4):
    r = subprocess.run([TUNETOP, "-b", "-n", str(n), "-d", "0.3", "--scenario", "blk-steer",
                        *extra], capture_output=True, text=True, timeout=60)
    check(r.returncode == 0, f"tunetop -b {' '.join(extra)} exits 0 ({r.stderr.strip()[-200:]})")
    return [json.loads(ln) for ln in r.stdout.splitlines() if ln.strip()]


lines = run("--set", f"blk.ipi_cost_ns={COST}", "--set", "blk.rq_affinity=2")
check(len(lines) == 4, f"4 lines ({len(lines)})")
for o in lines:
    check(o["knobs"].get("blk.ipi_cost_ns") == COST, f"the knob reads back ({o['knobs'].get('blk.ipi_cost_ns')})")
    remote = o["blk"]["completions"]["remote"]
    blk = [t for t in o["threads"] if t["subsystem"] == "blk"]
    irq = sum(t["cpu_ns"] for t in blk if t["name"] == "blk-irq")
    subs = sum(t["cpu_ns"] for t in blk if t["name"].startswith("blk-sub:"))
    paid = COST * max(0, remote - ALL)
    check(irq >= paid, f"seq {o['seq']}: the sender (blk-irq) paid the cost of each of {remote} "
          f"remote completions ({irq} ns >= {paid})")
    check(subs >= paid, f"seq {o['seq']}: the receivers (blk-sub) paid it too ({subs} ns >= {paid})")
last = lines[-1] if lines else {"blk": {"completions": {"remote": 0}}}
check(last["blk"]["completions"]["remote"] > ALL,
      f"rq_affinity 2 completed remotely ({last['blk']['completions']['remote']})")
# At rq_affinity 0 nothing is remote and nothing is paid; the default is 0.
lines = run("--set", "blk.rq_affinity=0", n=2)
check(all(o["knobs"].get("blk.ipi_cost_ns") == 0 and o["blk"]["completions"]["remote"] == 0
          for o in lines), "default 0; rq_affinity 0 completes nothing remotely")
r = subprocess.run([TUNETOP, "--list-knobs"], capture_output=True, text=True, timeout=10)
row = [ln for ln in r.stdout.splitlines() if "blk.ipi_cost_ns" in ln]
check(row and "EMULATED" in row[0] and "0 to 1000000 ns" in row[0],
      f"--list-knobs labels blk.ipi_cost_ns emulated ({row})")
finish()
