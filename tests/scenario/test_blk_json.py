#!/usr/bin/env python3
"""test_blk_json.py: `tunetop -b --scenario blk-steer` prints the blk section of INTERFACE.md,
checked with an independent parser: field names, the exact invariant on every line, per-CPU
shape, and a live-looking run (completions, IPIs for the other-LLC submitters under 1)."""
import json
import os
import subprocess
import sys

tunetop = os.environ.get("TUNETOP")
if not tunetop or not os.access(tunetop, os.X_OK):
    print("TUNETOP not set or not executable")
    sys.exit(77)

out = subprocess.run([tunetop, "-b", "-n", "5", "-d", "0.3", "--scenario", "blk-steer"],
                     capture_output=True, text=True, timeout=60)
assert out.returncode == 0, out.stderr
lines = [json.loads(l) for l in out.stdout.splitlines() if l.strip()]
assert len(lines) == 5, len(lines)

names = set()
for o in lines:
    b = o["blk"]
    for k in ("rq_affinity", "iops", "lat_us", "ipis_per_s", "completions", "per_cpu", "totals"):
        assert k in b, k
    assert set(b["lat_us"]) >= {"p50", "p99", "p999"}
    assert set(b["completions"]) >= {"direct", "local_softirq", "remote"}
    t = b["totals"]
    assert t["submitted"] == t["completed"] + t["in_flight"], t
    assert 0 <= t["in_flight"] <= 4 * 8, t
    assert b["rq_affinity"] == 1
    assert o["knobs"]["blk.rq_affinity"] == 1
    assert len(b["per_cpu"]) == 4
    for c in b["per_cpu"]:
        assert set(c) >= {"cpu", "block_softirq", "ipi_recv", "completed"}, c
        assert c["ipi_recv"] <= c["completed"] + 1, c
    assert b["data_errors"] == 0
    names |= {th["name"] for th in o["threads"] if th["subsystem"] == "blk"}
    assert not any(e["kind"] == "hang" for e in o["events"]), o["events"]

assert names == {"blk-irq", "blk-dev", "blk-sub:0", "blk-sub:1", "blk-sub:2", "blk-sub:3"}, names
last = lines[-1]["blk"]
assert last["totals"]["completed"] > 0
pc = {c["cpu"]: c for c in last["per_cpu"]}
# rq_affinity=1 with CPUs {0,1} and {2,3} in two LLCs, IRQ on CPU 0: only CPUs 2 and 3 get IPIs.
assert pc[1]["ipi_recv"] == 0 and pc[0]["ipi_recv"] == 0, pc
assert pc[2]["ipi_recv"] > 0 and pc[3]["ipi_recv"] > 0, pc
assert pc[1]["completed"] == 0, pc
print("ok")
