#!/usr/bin/env python3
"""test_pmd_json.py: the batch JSON `pmd` section (INTERFACE.md) for pmd-light and pmd-seed:
fields and units, thread names, and generated = forwarded + dropped + in_flight on every line."""
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
    "drops_while_asleep": int,
}


def run(args):
    out = subprocess.run([TUNETOP, "-b"] + args, capture_output=True, text=True, timeout=30)
    if out.returncode != 0:
        sys.exit("tunetop %s: exit %d: %s" % (args, out.returncode, out.stderr))
    lines = [json.loads(l) for l in out.stdout.splitlines()]
    if not lines:
        sys.exit("no output for %s" % args)
    return lines


def check(lines, want_pmds, want_gens, topology):
    for j in lines:
        p = j["pmd"]
        for k in ("maxsleep_us", "sleep_inc_us", "timer_slack_ns", "threads", "totals"):
            assert k in p, k
        t = p["totals"]
        assert t["generated"] == t["forwarded"] + t["dropped"] + t["in_flight"], t
        assert min(t.values()) >= 0, t
        assert p["topology"] == topology, p["topology"]
        names = [x["name"] for x in p["threads"]]
        assert names == want_pmds, names
        for th in p["threads"]:
            for f, ty in THREAD_FIELDS.items():
                assert isinstance(th[f], ty), (f, th[f])
            assert set(th["sleep_overshoot_us"]) == {"p50", "p99"}
            assert 0 <= th["drop_pct"] <= 100 and 0 <= th["sleep_iter_pct"] <= 100
        engine = {x["name"]: x for x in j["threads"] if x["subsystem"] == "pmd"}
        assert sorted(engine) == sorted(want_pmds + want_gens), sorted(engine)
    last = lines[-1]["pmd"]
    assert last["totals"]["forwarded"] > 0, "no traffic forwarded"
    return last


light = check(run(["-n", "4", "-d", "0.25", "--scenario", "pmd-light"]), ["pmd-c:0"], ["gen:0"],
              "direct")
assert light["maxsleep_us"] == 500
# Light load: the PMD sleeps on most iterations and drops nothing.
assert light["threads"][0]["sleep_iter_pct"] > 50, light["threads"][0]
assert light["totals"]["dropped"] == 0, light["totals"]

seed = check(run(["-n", "3", "-d", "0.3", "--scenario", "pmd-seed"]), ["pmd-c:0", "pmd-c:1"],
             ["gen:0", "gen:1"], "chain")
assert seed["rxq_size"] == 32 and seed["timer_slack_ns"] == 50000
print("ok: pmd-light %.0f pps, pmd-seed drop %.1f%%" % (light["threads"][0]["rx_pps"],
                                                         seed["drop_pct"]))
