#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""test_est_batch.py: the est section and events of `tunetop -b` (docs/est.md §4-§5)."""
import json, os, re, subprocess, sys

tt = os.environ.get("TUNETOP")
if not tt or not os.access(tt, os.X_OK):
    print("TUNETOP not set or not executable")
    sys.exit(77)

out = subprocess.run([tt, "-b", "-n", "3", "-d", "1", "--scenario", "est-only",
                      "--set", "est.count=3000", "--set", "est.cpus=32"],
                     capture_output=True, text=True, timeout=60)
assert out.returncode == 0, out.stderr
lines = [json.loads(l) for l in out.stdout.splitlines()]
assert len(lines) == 3, out.stdout
events = [e for j in lines for e in j["events"]]
texts = [e["text"] for e in events]

def find(kind, pattern):
    for e in events:
        if e["kind"] == kind and re.fullmatch(pattern, e["text"]):
            return re.fullmatch(pattern, e["text"])
    sys.exit(f"no {kind} event matching {pattern!r} in {texts}")

find("kthread_start", r"starting estimator thread 0\.\.\.")
calc = find("calibration", r"calc: chain_max=(\d+), single est=(\d+)ns, diff=(\d+), loops=(\d+), ntest=12")
find("calibration", r"dequeue: \d+ns")
using = find("calibration", r"using max (\d+) ests per chain, (\d+) per kthread")

for j in lines:
    e = j["est"]
    for k in ("estimators", "pending", "kthreads", "chain_max", "tick_chains", "est_cpus",
              "max_per_kthread", "tick_ns", "calibration", "kthread_cpu_pct"):
        assert k in e, k
    for k in ("chain_max", "single_est_ns", "loops", "tests", "governor", "time"):
        assert k in e["calibration"], k
    assert set(e["tick_ns"]) >= {"last", "avg", "max"}
    assert e["estimators"] == e["placed"] + e["pending"], e
    assert e["estimators"] == 3001 and e["est_cpus"] == 32
    assert len(e["kthread_cpu_pct"]) == e["kthreads"]

last = lines[-1]["est"]
cm = int(calc.group(1))
assert last["calibration"]["chain_max"] == cm
assert last["calibration"]["single_est_ns"] == int(calc.group(2))
assert last["chain_max"] == int(using.group(1)) == cm  # tick_chains 48: no x48
assert last["max_per_kthread"] == int(using.group(2)) == 50 * 48 * cm
assert last["calibration"]["governor"] == lines[-1]["cpu"]["governor"]
assert last["pending"] == 0 and last["kthreads"] == 1
assert last["ticks"] > 0
names = [t["name"] for t in lines[-1]["threads"] if t["subsystem"] == "est"]
assert "est-k:0" in names, names
print("ok: chain_max", cm, "kthreads", last["kthreads"])
