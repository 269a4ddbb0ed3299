#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""test_blk_json.py: `tunetop -b --scenario blk-steer` prints the blk section of the JSON,
checked with an independent parser: field names, on every line the bound of submitted =
completed + in_flight with in_flight counted where the requests are, per-CPU shape and
per-second figures, the submit x complete matrix, a live-looking run (completions, IPIs for the
other-LLC submitters under 1); then the lost-kick fault: hung with null latency under 2, never
under 0; and blk.fault_leak logging an `invariant` event."""
import json
import os
import subprocess
import sys

tunetop = os.environ.get("TUNETOP")
if not tunetop or not os.access(tunetop, os.X_OK):
    print("TUNETOP not set or not executable")
    sys.exit(77)



def run(*extra, n=5):
    out = subprocess.run([tunetop, "-b", "-n", str(n), "-d", "0.3", "--scenario", "blk-steer"]
                         + list(extra), capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    lines = [json.loads(l) for l in out.stdout.splitlines() if l.strip()]
    assert len(lines) == n, len(lines)
    return lines


lines = run()
ALL = 4 * 16  # submitters x iodepth in blk-steer

names = set()
for o in lines:
    b = o["blk"]
    for k in ("rq_affinity", "iops", "lat_us", "ipis_per_s", "completions", "per_cpu", "totals"):
        assert k in b, k
    assert set(b["lat_us"]) >= {"p50", "p99", "p999"}
    assert set(b["completions"]) >= {"direct", "local_softirq", "remote"}
    t = b["totals"]
    rest = t["submitted"] - t["completed"] - t["in_flight"]
    assert t["unaccounted"] == rest, t
    assert 0 <= t["submitted"] - t["completed"] <= ALL, t
    assert -3 * ALL <= rest <= ALL and t["bound_ok"] is True, t
    assert not any(e["kind"] == "invariant" for e in o["events"]), o["events"]
    assert b["hung"] is False and b["hung_submitters"] == 0, b
    assert all(isinstance(b["lat_us"][k], (int, float)) for k in ("p50", "p99", "p999"))
    m = b["matrix_per_s"]
    assert len(m) == 4 and all(len(r) == 4 for r in m), m
    assert b["rq_affinity"] == 1
    assert o["knobs"]["blk.rq_affinity"] == 1
    assert len(b["per_cpu"]) == 4
    for c in b["per_cpu"]:
        assert set(c) >= {"cpu", "block_softirq", "ipi_recv", "completed"}, c
        assert c["ipi_recv"] <= c["completed"] + 1, c
        for k in ("completed_per_s", "block_softirq_per_s", "ipi_recv_per_s"):
            assert isinstance(c[k], (int, float)) and c[k] >= 0, c
        # the matrix's column for this CPU is what it completed per second
        col = sum(r[c["cpu"]] for r in m)
        assert abs(col - c["completed_per_s"]) <= 0.05 * c["completed_per_s"] + 100, (col, c)
    assert b["data_errors"] == 0
    names |= {th["name"] for th in o["threads"] if th["subsystem"] == "blk"}
    assert not any(e["kind"] == "hang" for e in o["events"]), o["events"]

assert names == {"blk-irq", "blk-sub:0", "blk-sub:1", "blk-sub:2", "blk-sub:3"}, names
last = lines[-1]["blk"]
assert last["totals"]["completed"] > 0
pc = {c["cpu"]: c for c in last["per_cpu"]}
# rq_affinity=1 with CPUs {0,1} and {2,3} in two LLCs, IRQ on CPU 0: only CPUs 2 and 3 get IPIs.
assert pc[1]["ipi_recv"] == 0 and pc[0]["ipi_recv"] == 0, pc
assert pc[2]["ipi_recv"] > 0 and pc[3]["ipi_recv"] > 0, pc
assert pc[1]["completed"] == 0, pc
# per second over the interval: CPU 2's completions move with the interval, not the total
assert 0 < pc[2]["completed_per_s"] < pc[2]["completed"] / 0.3 * 1.5 + 1000, pc[2]

# The lost-kick fault under rq_affinity 2: the remote submitters hang; the snapshot says so and
# gives no latency figure (null, not 0).
hung = run("--set", "blk.rq_affinity=2", "--set", "blk.fault_lost_kick=on", n=6)
assert any(o["blk"]["hung"] for o in hung[2:]), [o["blk"]["hung"] for o in hung]
for o in hung:
    if o["blk"]["hung"]:
        assert o["blk"]["lat_us"] == {"p50": None, "p99": None, "p999": None}, o["blk"]["lat_us"]
        assert o["blk"]["hung_submitters"] >= 1
assert hung[-1]["blk"]["lost_kicks"] > 0
# ... and never with rq_affinity 0 (no remote path).
never = run("--set", "blk.rq_affinity=0", "--set", "blk.fault_lost_kick=on", n=5)
assert not any(o["blk"]["hung"] for o in never), [o["blk"]["hung"] for o in never]
assert never[-1]["blk"]["lost_kicks"] == 0

# blk.fault_leak: the engine's own check names blk and the number missing.
leak = run("--set", "blk.fault_leak=on", n=6)
inv = [e for o in leak for e in o["events"] if e["kind"] == "invariant"]
assert inv and inv[0]["text"].startswith("blk: ") and any(ch.isdigit() for ch in inv[0]["text"]), inv
print("ok")
