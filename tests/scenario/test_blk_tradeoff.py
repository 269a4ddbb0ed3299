#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""test_blk_tradeoff.py: blk-steer shows the 2008 rq_affinity trade-off on a small machine: the
device completes by the clock, so completion work is the CPU cost; at rq_affinity 0 the interrupt
CPU runs every completion and is busy over 90 % of the time (blk.irq_busy_pct: all but its waits
for work; what the host took of that is blk.irq_host_took_pct, checked against the thread's own
run-queue delay from schedstat), at 2 the submitters' CPUs share the work and IOPS rise at least
1.3x, paid for with IPIs (over 0 per completion at 2, about 0 at 0); in every interval busy
holds what blk-irq ran (its CPU clock). Medians of 5 intervals of
0.4 s per mode, checked with an independent parser. On a machine far busier than its CPUs
(another job's threads take the CPU the submitters need) the timing figures are reported, not
checked."""
import json
import os
import statistics
import subprocess
import sys

tunetop = os.environ.get("TUNETOP")
if not tunetop or not os.access(tunetop, os.X_OK):
    print("TUNETOP not set or not executable")
    sys.exit(77)

PASSES = 5


def mode(r):
    # One run per mode; its first line (the start-up interval) is left out.
    out = subprocess.run([tunetop, "-b", "-n", str(PASSES + 1), "-d", "0.4", "--scenario",
                          "blk-steer", "--set", "blk.rq_affinity=%d" % r],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    lines = [json.loads(l)["blk"] for l in out.stdout.splitlines() if l.strip()]
    assert len(lines) == PASSES + 1, len(lines)
    rows = lines[1:]
    for b in rows:
        assert b["rq_affinity"] == r, b["rq_affinity"]
        assert b["data_errors"] == 0 and not b["hung"], b
        per = b["cpu_ns_per_completion"]
        assert set(per) == {"total", "irq", "submitters"}, per
        assert all(isinstance(per[k], (int, float)) and per[k] > 0 for k in per), per
        assert abs(per["total"] - per["irq"] - per["submitters"]) <= 1e-6 * per["total"] + 1
        assert isinstance(b["ipis_per_completion"], (int, float)), b["ipis_per_completion"]
        assert b["cpu_pct"]["dev"] == 0, b["cpu_pct"]  # the device burns no CPU
        busy, took = b["irq_busy_pct"], b["irq_host_took_pct"]
        assert isinstance(busy, (int, float)) and 0 <= busy <= 100, b
        assert isinstance(took, (int, float)) and 0 <= took <= busy, b
    med = lambda f: statistics.median(f(b) for b in rows)
    # The run-queue delay the kernel counted for blk-irq (schedstat), independent of the
    # engine's own wait clock; None where schedstat is absent.
    runq = []
    for l in out.stdout.splitlines()[1:]:
        th = [t for t in json.loads(l)["threads"] if t["name"] == "blk-irq"]
        if th and isinstance(th[0].get("runq_delay_pct"), (int, float)):
            runq.append(th[0]["runq_delay_pct"])
    return {"iops": med(lambda b: b["iops"]), "irq": med(lambda b: b["cpu_pct"]["irq"]),
            "busy": med(lambda b: b["irq_busy_pct"]), "took": med(lambda b: b["irq_host_took_pct"]),
            "runq": statistics.median(runq) if len(runq) == PASSES else None,
            "cpu": med(lambda b: b["cpu_ns_per_completion"]["total"]),
            "irq_ns": med(lambda b: b["cpu_ns_per_completion"]["irq"]),
            "ipc": med(lambda b: b["ipis_per_completion"])}


def busy_holds_ran():
    """The interrupt CPU's busy time holds what blk-irq ran (its CPU clock, counted apart from
    its waits): busy >= ran, within a point of rounding, in every interval. At the default
    scenario's 2k IOPS blk-irq sleeps and wakes 2000 times a second, so the CPU its futex
    calls take inside each wait (5-9 % here) must count as busy, and a wait that spans two
    intervals must be split between them; once, busy read 3 % beside 8 % ran."""
    out = subprocess.run([tunetop, "-b", "-n", "7", "-d", "0.25"], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    rows = [json.loads(l)["blk"] for l in out.stdout.splitlines() if l.strip()][1:]
    bad = [(b["irq_busy_pct"], b["cpu_pct"]["irq"]) for b in rows
           if b["irq_busy_pct"] + 1 < b["cpu_pct"]["irq"]]
    assert not bad, "irq CPU busy under what it ran (busy, ran): %s" % bad
    print("default scenario: irq CPU busy %s %% holds ran %s %%"
          % ([round(b["irq_busy_pct"]) for b in rows], [round(b["cpu_pct"]["irq"]) for b in rows]))


busy_holds_ran()
load0 = os.getloadavg()[0]
m = {r: mode(r) for r in (0, 1, 2)}
# One more round of 0 and 2 when the first misses the trade-off: a burst of another job's
# work during one mode's 2 s shifts it (1.25x once beside a build, 1.65-2.4x otherwise; the
# interrupt CPU 99 % busy at 2 once right after a heavy test). A steering that does nothing
# misses it twice.
if (m[2]["iops"] < 1.3 * m[0]["iops"] or m[0]["busy"] <= 90 or
        m[0]["busy"] <= m[2]["busy"]):
    print("first round: IOPS at 2 / at 0 %.2f, busy %.1f %% at 0, %.1f %% at 2; once more"
          % (m[2]["iops"] / m[0]["iops"], m[0]["busy"], m[2]["busy"]))
    m[0], m[2] = mode(0), mode(2)
load = max(load0, os.getloadavg()[0])
for r in (0, 1, 2):
    x = m[r]
    print("rq_affinity %d: %.0f IOPS, interrupt CPU busy %.1f %% (ran %.1f, host took %.1f, "
          "run queue %s), CPU per completion %.0f ns (blk-irq %.0f), IPIs per completion %.3f"
          % (r, x["iops"], x["busy"], x["irq"], x["took"],
             "-" if x["runq"] is None else "%.1f" % x["runq"], x["cpu"], x["irq_ns"], x["ipc"]))
ratio = m[2]["iops"] / m[0]["iops"]
print("IOPS at 2 / at 0: %.2f; loadavg %.2f on %d CPUs" % (ratio, load, os.cpu_count()))

# IPIs: none at 0 (nothing is steered), some at 2 (three of four submitters are elsewhere).
# Counters, not timing: checked whatever the load.
assert m[0]["ipc"] < 0.001, m[0]
assert m[2]["ipc"] > 0, m[2]
# Host took is the interrupt thread's time runnable but off its CPU: the kernel's own
# run-queue count for it (schedstat) bounds it, and at 0, where blk-irq never waits for
# work, matches it (medians; 10 points for the two clocks' windows). Elsewhere the run-queue
# count is larger: the wait after a wake-up until the CPU is free is counted with the wait.
for r in (0, 1, 2):
    if m[r]["runq"] is not None:
        assert m[r]["took"] <= m[r]["runq"] + 10, (r, m[r])
if m[0]["runq"] is not None:
    assert abs(m[0]["took"] - m[0]["runq"]) <= 10, m[0]
# Busy at 0 holds whatever the host takes (idle is blk-irq's own waits for work: 0-3 % at
# load 3 to 60 on 2 CPUs); only a host so loaded that the submitters cannot refill the
# device in time starves it, so it is checked up to 4 runnable threads per CPU.
if load > 4 * os.cpu_count():
    print("trade-off not checked: load %.2f above 4x the %d CPUs" % (load, os.cpu_count()))
    sys.exit(0)
assert m[0]["busy"] > 90, "interrupt CPU at 0 busy only %.1f %%" % m[0]["busy"]
assert m[0]["busy"] > m[2]["busy"], "interrupt CPU at 0 (%.1f %%) not above 2 (%.1f %%)" % (
    m[0]["busy"], m[2]["busy"])
if load > os.cpu_count():
    print("IOPS ratio not checked: load %.2f above the %d CPUs" % (load, os.cpu_count()))
    sys.exit(0)
assert ratio >= 1.3, "IOPS at 2 only %.2fx those at 0" % ratio
