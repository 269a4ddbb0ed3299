#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# tt-timeout: 900
"""test_diag_soak.py: no false alarm over minutes (docs/diag.md, "No false alarms").

Through `tunetop --agent`, as an operator's console would be driven:
- the default scenario for TT_DIAG_SOAK_SECONDS (60 in `make check`, 600 in CI's
  `make diag-soak`) with a knob change every 1/30 of it, each an operator's everyday change
  (max sleep 100-1000 us, estimator count, IO depth, offered rate, timer slack 1 us), none of
  which makes any rule's condition true;
- then pmd-idle (one sleeping PMD, no traffic) for a fifth of that, with max sleep and slack
  changes.
Every snapshot's diagnoses[] is read. A finding other than host.cpu_taken is a false alarm.
host.cpu_taken speaks of the machine, not of the knobs: it is checked against the figures
themselves (this script's reading of the PMDs' stolen_pct and the pmd/est threads' run-queue
delay), and a host.cpu_taken with none of the last four snapshots over its 25 % is a false
alarm too. A started/cleared diag event for a rule never seen active is one as well."""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from agentproto import TUNETOP, Agent, host_taken_pct  # noqa: E402

if not os.access(TUNETOP, os.X_OK):
    print("TUNETOP not set or not executable")
    sys.exit(77)
# A sanitizer's engine is several times slower: its figures are the instrumentation's (the
# rules themselves run under the sanitizers in tests/unit/test_diag.c).
if os.path.basename(os.environ.get("TT_BUILD", "").rstrip("/")) in ("asan", "tsan"):
    print("a soak of the engine's figures needs the release build")
    sys.exit(77)

SECONDS = float(os.environ.get("TT_DIAG_SOAK_SECONDS", "60"))
HOST_TAKEN_PCT = 25.0  # diag/diag_host.c's DIAG_HOST_TAKEN_PCT
# host.cpu_taken raises after 3 samples over and clears after 3 under, and a sample with an est
# kthread idle all interval counts for neither, up to 2 in a row (diag/diag.h DIAG_MAX_UNDECIDED)
HOST_LAG = 4 + 2

# Everyday changes, in the order applied, cycling; each leaves every rule's condition false:
# a max sleep of 100-1000 us against the default's 10-50 kpps on a 2048-slot ring (40 ms or more to
# fill), counts and depths inside the engine's light load.
DEFAULT_CHANGES = [
    "set pmd.maxsleep_us 100", "set est.count 3000", "set blk.iodepth 8",
    "set gen.rate_pps 50000", "set pmd.timer_slack_ns 1000", "set pmd.maxsleep_us 1000",
    "set est.count 1000", "set blk.iodepth 2", "set gen.rate_pps 10000",
    "set pmd.timer_slack_ns 50000", "set pmd.maxsleep_us 500", "set est.count 2000",
    "set blk.iodepth 4", "set gen.rate_pps 20000",
]
IDLE_CHANGES = ["set pmd.maxsleep_us 100", "set pmd.timer_slack_ns 1000",
                "set pmd.maxsleep_us 1000", "set pmd.timer_slack_ns 50000",
                "set pmd.maxsleep_us 300"]


def soak(scenario, secs, changes):
    every = max(2.0, secs / 30)
    a = Agent("--scenario", scenario, "-d", "1")
    false, hist, events = {}, [], []
    n = host = host_true = made = 0
    start = time.monotonic()
    next_change = start + every
    while time.monotonic() < start + secs:
        s = a.snapshot(15)
        if s is None:
            a.close()
            sys.exit(f"{scenario}: the agent stopped after {n} snapshots: "
                     f"{a.p.stderr.read()[-500:]}")
        n += 1
        hist = (hist + [host_taken_pct(s)])[-HOST_LAG:]
        ids = set()
        for d in s["diagnoses"]:
            ids.add(d["id"])
            if d["id"] != "host.cpu_taken":
                false.setdefault(d["id"], (s["seq"], d["conclusion"], s["knobs"]))
                continue
            host += 1
            if max(hist) >= HOST_TAKEN_PCT:
                host_true += 1
            else:
                false.setdefault("host.cpu_taken (figures under 25 %)",
                                 (s["seq"], d["conclusion"], hist))
        for e in s.get("events", []):
            if e.get("kind") == "diag" and "host.cpu_taken" not in e["text"]:
                events.append(e["text"])
        if time.monotonic() >= next_change:
            a.send(changes[made % len(changes)])
            made += 1
            next_change += every
    a.close()
    print(f"{scenario}: {n} snapshots over {secs:.0f} s with {made} knob changes: "
          f"{len(false)} false findings; host.cpu_taken on {host} "
          f"({host_true} with the figures over {HOST_TAKEN_PCT:.0f} %), worst host took "
          f"{a.worst_host:.0f} %")
    bad = [f"{k} at seq {v[0]}: {v[1]} ({v[2]})" for k, v in false.items()]
    bad += [f"diag event: {t}" for t in events]
    return bad


bad = soak("default", SECONDS, DEFAULT_CHANGES)
bad += soak("pmd-idle", max(20.0, SECONDS / 5), IDLE_CHANGES)
if bad:
    sys.exit("false alarms:\n  " + "\n  ".join(bad))
print("ok: no false finding")
