#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""test_blk_seed.py: the blk-seed scenario is device-bound by its inputs, as the 2008 io-affinity
tests ran (docs/blk.md "Emulated IPI cost"), and its runs hold what follows from them at any
speed. From the knobs alone: the device's rate (one request at a time per hardware queue), the
requests in flight that keep it busy through a thread's absence, and the CPU the interrupt CPU
pays to send the emulated IPIs at that rate (blk.ipi_cost_ns = 20000), well under one CPU; the
same sum gives blk-steer, whose interrupt CPU is its bottleneck, many CPUs: the crossover. Over
runs at rq_affinity 0 and 2: completions never outrun the device's clock, 0 steers nothing, and
at 2 the blk threads' CPU holds the emulated cost of the remote completions on both sides (CPU
per completion since the start at least twice the cost times the remote share, less the
requests a read may catch mid-spin). Whether IOPS stay equal at 2 is a figure of speed: `make bench BENCH=blk`."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from ttcheck import check, finish  # noqa: E402

TUNETOP = os.environ.get("TUNETOP", "./tunetop")
COST = 20000


def run(scenario, *extra, n=5):
    r = subprocess.run([TUNETOP, "-b", "-n", str(n), "-d", "0.4", "--scenario", scenario,
                        *extra], capture_output=True, text=True, timeout=60)
    check(r.returncode == 0, f"tunetop -b --scenario {scenario} {' '.join(extra)} exits 0 "
          f"({r.stderr.strip()[-200:]})")
    return [json.loads(ln) for ln in r.stdout.splitlines() if ln.strip()]


def shape(k):
    """What the knobs imply: device IOPS, requests in flight, interrupt CPU's IPI CPU share."""
    mean_us = k["blk.service_us"] + k["blk.service_jitter_us"] / 2
    cap = k["blk.nr_hw_queues"] * 1e6 / mean_us
    depth = k["blk.submitters"] * k["blk.iodepth"]
    # The interrupt CPU sends one emulated IPI per remote completion (at most every one).
    return cap, depth, cap * COST * 1e-9


r = subprocess.run([TUNETOP, "--list-scenarios"], capture_output=True, text=True, timeout=10)
check(any(ln.split()[:1] == ["blk-seed"] for ln in r.stdout.splitlines()),
      "--list-scenarios lists blk-seed")

# From the inputs: blk-seed is device-bound with headroom, blk-steer CPU-bound.
seed = run("blk-seed", n=1)
steer = run("blk-steer", n=1)
if not seed or not steer:
    finish()
cap, depth, sender = shape(seed[0]["knobs"])
check(cap <= 20000, f"blk-seed's device serves at most 20 k IOPS ({cap:.0f})")
check(depth * 1e6 / cap >= 5000,
      f"blk-seed keeps the device busy through 5 ms without a refill ({depth} requests)")
check(sender <= 0.25, f"blk-seed's interrupt CPU pays at most a quarter CPU to send the "
      f"emulated IPIs at the device's rate ({sender:.2f})")
scap, _, ssender = shape(steer[0]["knobs"])
check(ssender > 1, f"blk-steer's would need more than one CPU ({ssender:.1f} at {scap:.0f} IOPS)")
check(seed[0]["knobs"]["cpu.count"] == steer[0]["knobs"]["cpu.count"] and
      seed[0]["knobs"]["cpu.llc_cpus"] == steer[0]["knobs"]["cpu.llc_cpus"],
      "blk-seed has blk-steer's CPUs and LLCs")


def cpu(o, prefix):
    return sum(t["cpu_ns"] for t in o["threads"]
               if t["subsystem"] == "blk" and t["name"].startswith(prefix))


for rq in (0, 2):
    lines = run("blk-seed", "--set", f"blk.ipi_cost_ns={COST}", "--set", f"blk.rq_affinity={rq}")
    check(len(lines) == 5, f"rq_affinity {rq}: 5 lines ({len(lines)})")
    prev = None
    for o in lines:
        b = o["blk"]
        check(b["rq_affinity"] == rq and not b["hung"] and b["data_errors"] == 0,
              f"rq_affinity {rq} seq {o['seq']}: set, not hung, no data errors")
        if prev is not None:
            # The device by the clock: one request per service time since the engine
            # started (uptime_s, rounded to 10 ms). The previous line's counters were read
            # before this line's clock, however long the sampler took between the two.
            bound = cap * (o["uptime_s"] + 0.01) + 1
            pdone = prev["blk"]["totals"]["completed"]
            check(pdone <= bound, f"rq_affinity {rq} seq {prev['seq']}: {pdone} completions "
                  f"within the device's {bound:.0f} by seq {o['seq']}")
        if rq == 0:
            check(b["completions"]["remote"] == 0 and b["ipis_per_completion"] in (0, None),
                  f"rq_affinity 0 seq {o['seq']}: nothing remote, no IPIs")
        elif prev is not None:
            # Each side pays the cost per remote completion on its own CPU clock: the
            # receiver before it counts the completion, the sender just after the push (a
            # request may be counted before its sender's spin ends: at most every one in
            # flight). This line's clocks were read after the previous line's counters, so
            # they hold the cost of every remote completion counted there, at any speed: per
            # completion since the start, at least twice the cost times the remote share.
            remote = prev["blk"]["completions"]["remote"]
            owed = COST * max(0, remote - depth)
            irq, subs = cpu(o, "blk-irq"), cpu(o, "blk-sub:")
            check(irq >= owed and subs >= owed,
                  f"rq_affinity 2 seq {o['seq']}: sender {irq} and receivers {subs} ns each "
                  f"hold the cost of seq {prev['seq']}'s {remote} remote completions ({owed})")
        prev = o
    if rq == 2 and lines:
        check(lines[-1]["blk"]["completions"]["remote"] > depth,
              f"rq_affinity 2 completed remotely ({lines[-1]['blk']['completions']['remote']})")
finish()
