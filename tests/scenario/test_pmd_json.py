#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""test_pmd_json.py: the batch JSON `pmd` section for pmd-light and pmd-seed:
fields and units, thread names (PMDs only: the sources have no thread), and on every line the
bound of generated = forwarded + dropped + in_flight with in_flight counted independently (the
rings): the rest, in the PMDs' hands, is >= 0 and <= what rings and hands hold, computed here
from the knobs."""
import json
import os
import subprocess
import sys

TUNETOP = os.environ.get("TUNETOP")
if not TUNETOP or not os.access(TUNETOP, os.X_OK):
    print("TUNETOP not set or not executable")
    sys.exit(77)

THREAD_FIELDS = {
    "name": str, "rx_pps": (int, float), "tx_pps": (int, float), "rx_drop_pps": (int, float),
    "tx_drop_pps": (int, float), "drop_pct": (int, float), "iterations": int,
    "busy_pct": (int, float), "idle_pct": (int, float), "sleep_iter_pct": (int, float),
    "sleep_us_avg": (int, float), "sleep_overshoot_us": dict, "cpu_pct": (int, float),
    "drops_while_asleep": int, "sleep_iters": int, "sleep_iters_total": int,
    "asleep_pct": (int, float), "stolen_pct": (int, float),
}


def run(args):
    out = subprocess.run([TUNETOP, "-b"] + args, capture_output=True, text=True, timeout=30)
    if out.returncode != 0:
        sys.exit("tunetop %s: exit %d: %s" % (args, out.returncode, out.stderr))
    lines = [json.loads(l) for l in out.stdout.splitlines()]
    if not lines:
        sys.exit("no output for %s" % args)
    return lines


def capacity(j):
    k = j["knobs"]
    npmd = len(j["pmd"]["threads"])
    ntx = 1 if j["pmd"]["topology"] == "chain" else 0
    # the tx ring in front of the chain's peer is at least 65536 (engine/pmd/pmd.c)
    return npmd * k["pmd.rxqs"] * k["pmd.rxq_size"] + ntx * max(k["pmd.txq_size"], 65536) \
        + npmd * 3 * 32


def check(lines, want_pmds, topology):
    for j in lines:
        p = j["pmd"]
        for k in ("maxsleep_us", "sleep_inc_us", "timer_slack_ns", "threads", "totals", "hung",
                  "lat_us", "drops_while_asleep"):
            assert k in p, k
        t = p["totals"]
        rest = t["generated"] - t["forwarded"] - t["dropped"] - t["in_flight"]
        cap = capacity(j)
        assert 0 <= rest <= cap, (t, cap)
        assert 0 <= t["in_flight"] <= cap, (t, cap)
        assert t["unaccounted"] == rest and t["bound_ok"] is True, t
        assert not any(e["kind"] == "invariant" for e in j["events"]), j["events"]
        assert p["hung"] is False
        lat = p["lat_us"]
        assert lat["p50"] is None or 0 <= lat["p50"] <= lat["p99"], lat
        # A percentile in the histograms' open top bucket says it is a bound (4095 us latency,
        # 1023 us overshoot: the only integer figures they give).
        for q in ("p50", "p99"):
            assert lat[q + "_at_least"] is (lat[q] is not None and lat[q] >= 4095), lat
        assert p["topology"] == topology, p["topology"]
        names = [x["name"] for x in p["threads"]]
        assert names == want_pmds, names
        for th in p["threads"]:
            for f, ty in THREAD_FIELDS.items():
                assert isinstance(th[f], ty), (f, th[f])
            ov = th["sleep_overshoot_us"]
            assert set(ov) == {"p50", "p99", "p50_at_least", "p99_at_least"}, ov
            for q in ("p50", "p99"):
                assert ov[q + "_at_least"] is (ov[q] >= 1023), ov
            assert 0 <= th["drop_pct"] <= 100 and 0 <= th["sleep_iter_pct"] <= 100
            # per interval, as documented: never more than the interval's iterations
            assert th["sleep_iters"] <= th["iterations"] <= 10**9, th
            assert th["sleep_iters_total"] >= th["sleep_iters"], th
            assert 0 <= th["asleep_pct"] <= 100, th
        # The sources cost no CPU: no gen:N threads, only the PMDs.
        engine = {x["name"]: x for x in j["threads"] if x["subsystem"] == "pmd"}
        assert sorted(engine) == sorted(want_pmds), sorted(engine)
    last = lines[-1]["pmd"]
    assert last["totals"]["forwarded"] > 0, "no traffic forwarded"
    return last


light = check(run(["-n", "4", "-d", "0.25", "--scenario", "pmd-light"]), ["pmd-c:0"], "direct")
assert light["maxsleep_us"] == 500
# Light load: the PMD sleeps on most iterations and drops nothing.
assert light["threads"][0]["sleep_iter_pct"] > 50, light["threads"][0]
assert light["totals"]["dropped"] == 0, light["totals"]
# Latency is measured per packet (arrival to sink): a light load has a figure.
assert light["lat_us"]["p50"] is not None and light["lat_us"]["p50"] >= 0, light["lat_us"]

seed = check(run(["-n", "3", "-d", "0.3", "--scenario", "pmd-seed"]), ["pmd-c:0", "pmd-c:1"],
             "chain")
assert seed["maxsleep_us"] == 50
assert seed["rxq_size"] == 32 and seed["timer_slack_ns"] == 50000
print("ok: pmd-light %.0f pps, pmd-seed drop %.1f%%" % (light["threads"][0]["rx_pps"],
                                                         seed["drop_pct"]))

# pmd.fault_leak: the engine's own check logs an `invariant` event naming pmd and a number.
lines = run(["-n", "6", "-d", "0.3", "--scenario", "pmd-seed", "--set", "pmd.fault_leak=on"])
inv = [e for j in lines for e in j["events"] if e["kind"] == "invariant"]
assert inv, "no invariant event with pmd.fault_leak=on"
assert any(e["text"].startswith("pmd: ") and any(c.isdigit() for c in e["text"]) for e in inv), inv
assert any(j["pmd"]["totals"]["bound_ok"] is False for j in lines)
print("ok: leak caught: %s" % inv[0]["text"])
