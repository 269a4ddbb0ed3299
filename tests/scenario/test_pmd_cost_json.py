#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""test_pmd_cost_json.py: the cost figures of the batch JSON on pmd-seed (core/pmd_cost.c):
each PMD's cpu_ns_per_pkt and cpu_left_pct and the section's cpu_pct, stolen_pct,
cpu_ns_per_pkt, cpu_left_pct and target_pps exist; null on the first sample (no common
baseline), never 0 for unknown; and consistent with the counters beside them, checked here
from the raw totals: cpu_ns_per_pkt x the packets a PMD received in the interval is its
thread's CPU ns in the interval, and cpu_left_pct is CPU% over 100 - stolen_pct
(at least the CPU used)."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from ttcheck import check, finish  # noqa: E402

TUNETOP = os.environ.get("TUNETOP")
if not TUNETOP or not os.access(TUNETOP, os.X_OK):
    print("TUNETOP not set or not executable")
    sys.exit(77)

out = subprocess.run([TUNETOP, "-b", "-n", "5", "-d", "0.5", "--scenario", "pmd-seed"],
                     capture_output=True, text=True, timeout=60)
if out.returncode != 0:
    sys.exit("tunetop: exit %d: %s" % (out.returncode, out.stderr))
lines = [json.loads(l) for l in out.stdout.splitlines()]
check(len(lines) == 5, "5 lines")

TOP = ("cpu_pct", "stolen_pct", "cpu_ns_per_pkt", "cpu_left_pct", "target_pps")
THR = ("cpu_ns_per_pkt", "cpu_left_pct")
for j in lines:
    p = j["pmd"]
    check(all(k in p for k in TOP), "seq %d: pmd has %s" % (j["seq"], TOP))
    check(all(k in t for t in p["threads"] for k in THR), "seq %d: every PMD has %s" % (j["seq"], THR))
    check(p["target_pps"] == j["knobs"]["gen.rate_pps"], "seq %d: target_pps is gen.rate_pps x "
          "1 source (the chain's peer only forwards): %s" % (j["seq"], p["target_pps"]))

first = lines[0]["pmd"]
check(all(first[k] is None for k in TOP if k != "target_pps"),
      "first sample: the section's cost figures are null: %s" % {k: first[k] for k in TOP})
check(all(t[k] is None for t in first["threads"] for k in THR),
      "first sample: every PMD's cost figures are null")


def cpu_ns(j, name):
    return next(t["cpu_ns"] for t in j["threads"] if t["name"] == name)


for prev, j in zip(lines, lines[1:]):
    p = j["pmd"]
    seq = j["seq"]
    cpu_sum, left_sum = 0.0, 0.0
    for t in p["threads"]:
        pt = next(x for x in prev["pmd"]["threads"] if x["name"] == t["name"])
        pkts = t["rx_packets"] - pt["rx_packets"]
        dcpu = cpu_ns(j, t["name"]) - cpu_ns(prev, t["name"])
        v = t["cpu_ns_per_pkt"]
        if pkts <= 0:
            check(v is None, "seq %d %s: no packets, ns/pkt null" % (seq, t["name"]))
            continue
        if not check(isinstance(v, (int, float)) and v > 0,
                     "seq %d %s: cpu_ns_per_pkt a positive number: %r" % (seq, t["name"], v)):
            continue
        # The CPU clock and the packet counters are read a few microseconds apart in the same
        # sample: a 10 % margin.
        check(abs(v * pkts - dcpu) <= 0.10 * dcpu + 1e5,
              "seq %d %s: cpu_ns_per_pkt %.1f x %d packets = %.0f ~ its CPU ns %d"
              % (seq, t["name"], v, pkts, v * pkts, dcpu))
        s, c, left = t["stolen_pct"], t["cpu_pct"], t["cpu_left_pct"]
        # The time left is never less than the CPU used (the two overlap: core/pmd_cost.c).
        room = max(100.0 - s, c)
        check(left is not None and abs(left - 100.0 * c / room) <= 0.02 + 1e-3 * left
              and left <= 100.0,
              "seq %d %s: cpu_left_pct %s = cpu %s / max(100 - host took %s, cpu), <= 100"
              % (seq, t["name"], left, c, s))
        cpu_sum += c
        left_sum += room
    n = len(p["threads"])
    check(abs(p["cpu_pct"] - cpu_sum) <= 0.01 * n, "seq %d: pmd.cpu_pct %s = the PMDs' sum %.2f"
          % (seq, p["cpu_pct"], cpu_sum))
    check(abs(p["stolen_pct"] - sum(t["stolen_pct"] for t in p["threads"]) / n) <= 0.01,
          "seq %d: pmd.stolen_pct is the PMDs' mean" % seq)
    if p["offered_pps"] > 0:
        want = p["cpu_pct"] * 1e7 / p["offered_pps"]
        check(abs(p["cpu_ns_per_pkt"] - want) <= 0.01 * want + 0.1,
              "seq %d: pmd.cpu_ns_per_pkt %s = CPU over the offered packets %.1f"
              % (seq, p["cpu_ns_per_pkt"], want))
    check(abs(p["cpu_left_pct"] - 100.0 * cpu_sum / left_sum) <= 0.05,
          "seq %d: pmd.cpu_left_pct %s = summed CPU over summed time left" % (seq, p["cpu_left_pct"]))
finish()
