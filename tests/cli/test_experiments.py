#!/usr/bin/env python3
"""`tunetop experiment`: each experiment runs briefly and its --json parses with the fields
the README names; bad arguments are usage errors (status 2) that name what is valid."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from ttcheck import check, finish  # noqa: E402

TUNETOP = os.environ.get("TUNETOP", "./tunetop")



def run(*args, timeout=120):
    return subprocess.run([TUNETOP, "experiment", *args], capture_output=True, text=True,
                          timeout=timeout)


# sweep: a fresh engine per point; rows carry the knobs and the metrics.
r = run("sweep", "--json", "--maxsleep", "0,500", "--slack", "1000", "--rate", "20000",
        "--seconds", "0.5", "--warmup", "0.2", "--scenario", "pmd-light")
check(r.returncode == 0, f"sweep exits 0 ({r.stderr[-200:]})")
o = json.loads(r.stdout)
check(o["experiment"] == "sweep" and len(o["rows"]) == 2, "sweep: one row per point")
rows = {row["maxsleep_us"]: row for row in o["rows"]}
check(set(rows) == {"0", "500"}, "sweep: rows name their maxsleep")
check(all(row["rate_pps"] == 20000 for row in o["rows"]), "sweep: --rate applied")
# The sleep/CPU trade-off itself, as an ordering: maxsleep 0 never sleeps.
check(rows["0"]["pmd.threads[avg].sleep_iter_pct"] == 0, "sweep: maxsleep 0 never sleeps")
check(rows["500"]["pmd.threads[avg].sleep_iter_pct"] > 0, "sweep: maxsleep 500 sleeps")
check(rows["500"]["pmd.threads[*].cpu_pct"] < rows["0"]["pmd.threads[*].cpu_pct"],
      "sweep: sleeping PMD uses less CPU than a polling one")

# ab: alternation, summaries per value and Welch's test.
r = run("ab", "--json", "--knob", "blk.rq_affinity", "--values", "0,2", "--passes", "3",
        "--seconds", "0.3", "--warmup", "0.2", "--metric", "blk.ipis_per_s")
check(r.returncode == 0, f"ab exits 0 ({r.stderr[-200:]})")
o = json.loads(r.stdout)
m = o["metrics"][0]
check(o["passes"] == 3 and m["metric"] == "blk.ipis_per_s" and m["present"], "ab: metric present")
vals = {v["value"]: v for v in m["values"]}
check(vals["0"]["max"] == 0, "ab: rq_affinity 0 sends no IPIs")
check(vals["2"]["min"] > 0, "ab: rq_affinity 2 sends IPIs")
check(m["welch"] and m["welch"][0]["significant"], "ab: the difference is significant")
check(vals["0"]["min"] <= vals["0"]["avg"] <= vals["0"]["max"], "ab: MIN <= AVG <= MAX")

# calib: N calibrations under a governor.
r = run("calib", "--json", "--runs", "2", "--governors", "performance", "--seconds", "0.3",
        "--warmup", "0.1")
check(r.returncode == 0, f"calib exits 0 ({r.stderr[-200:]})")
o = json.loads(r.stdout)
g = o["governors"][0]
check(g["governor"] == "performance" and len(g["chain_max"]) == 2, "calib: two calibrations seen")
check(all(c >= 1 for c in g["chain_max"]), "calib: chain_max >= 1")
check(sum(g["histogram"].values()) == 2, "calib: histogram counts every run")

# Usage errors.
for args, frag in ((["nosuch"], "valid: sweep, ab, calib"),
                   (["ab", "--knob", "nope", "--values", "1,2"], "'nope' is not a knob"),
                   (["ab", "--knob", "blk.rq_affinity"], "--values"),
                   (["ab", "--knob", "pmd.maxsleep_us", "--values", "1,99999"], "out of range"),
                   (["sweep", "--bogus"], "unknown option '--bogus'"),
                   (["calib", "--governors", "turbo"], "'turbo' is not valid"),
                   (["sweep", "--seconds", "-1"], "valid: 0.1 to 3600")):
    r = run(*args, timeout=30)
    check(r.returncode == 2 and frag in r.stderr, f"{' '.join(args)} -> 2, says {frag!r} "
          f"(got {r.returncode}: {r.stderr.strip()[:120]})")
r = run("--help", timeout=10)
check(r.returncode == 0 and "sweep" in r.stdout, "experiment --help lists the experiments")

finish()
