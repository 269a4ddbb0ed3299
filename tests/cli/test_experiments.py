#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# tt-serial: the sweep ranks settings by drops that the PMDs' CPU time decides
# tt-timeout: 600
"""`tunetop experiment`: each experiment runs briefly and its --json parses with the fields
the README names; sweep runs N passes a point and reports their median and spread; a hung
pass fails the experiment (status 1, the hang named); bad arguments are usage errors (status
2) that name what is valid; --png/--svg draw the result (the PNG decoded here)."""
import atexit
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from ttcheck import check, finish  # noqa: E402
import pngcheck  # noqa: E402

TUNETOP = os.environ.get("TUNETOP", "./tunetop")



def run(*args, timeout=120, cpus=None):
    """tunetop experiment ARGS; cpus: a CPU list the process runs on (taskset -c)."""
    pin = ["taskset", "-c", cpus] if cpus else []
    return subprocess.run(pin + [TUNETOP, "experiment", *args], capture_output=True, text=True,
                          timeout=timeout)


# sweep: a fresh engine per pass, 3 passes a point; rows carry the knobs (as numbers), the
# median of each metric over the passes, the passes' values and their spread.
tmp = tempfile.mkdtemp(prefix="tt-exp-")
atexit.register(shutil.rmtree, tmp, ignore_errors=True)  # its pictures, on any way out
png, svg = os.path.join(tmp, "sweep.png"), os.path.join(tmp, "sweep.svg")
# (--host-took-limit 100: on a busy test machine every pass would be set aside and rerun;
# the limit has its own test below)
r = run("sweep", "--json", "--maxsleep", "0,500", "--slack", "1000", "--rate", "20000",
        "--passes", "3", "--seconds", "0.5", "--warmup", "0.2", "--scenario", "pmd-light",
        "--host-took-limit", "100", "--png", png, "--svg", svg)
check(r.returncode == 0, f"sweep exits 0 ({r.stderr[-200:]})")
o = json.loads(r.stdout)
check(o["experiment"] == "sweep" and len(o["rows"]) == 2, "sweep: one row per point")
check(o["passes"] == 3 and o["ok"] is True, "sweep: 3 passes, none hung")
rows = {row["maxsleep_us"]: row for row in o["rows"]}
check(set(rows) == {0, 500}, f"sweep: rows name their maxsleep as numbers ({list(rows)})")
check(all(type(row["timer_slack_ns"]) is int and type(row["rate_pps"]) in (int, float)
          for row in o["rows"]), "sweep: slack and rate are JSON numbers")
check(all(row["rate_pps"] == 20000 for row in o["rows"]), "sweep: --rate applied")
for ms, row in rows.items():
    for path, vals in row["pass_values"].items():
        if row[path] is None:
            continue
        check(len(vals) == 3 and row["passes"] == 3, f"sweep {ms}: {path} has 3 pass values")
        check(abs(row[path] - statistics.median(vals)) < 1e-6 * max(1, abs(row[path])),
              f"sweep {ms}: {path} is the median of its passes ({row[path]} vs {vals})")
        check(abs(row["spread"][path] - (max(vals) - min(vals))) < 1e-6 * max(1, max(vals)),
              f"sweep {ms}: {path} spread is max - min")
# The passes really are separate measurements: offered load varies a little between them.
offered = rows[0]["pass_values"]["pmd.offered_pps"]
check(len(set(offered)) > 1, f"sweep: passes measured separately ({offered})")
# The sleep/CPU trade-off itself, as an ordering: maxsleep 0 never sleeps.
check(rows[0]["pmd.threads[avg].sleep_iter_pct"] == 0, "sweep: maxsleep 0 never sleeps")
check(rows[500]["pmd.threads[avg].sleep_iter_pct"] > 0, "sweep: maxsleep 500 sleeps")
check(rows[500]["pmd.threads[*].cpu_pct"] < rows[0]["pmd.threads[*].cpu_pct"],
      "sweep: sleeping PMD uses less CPU than a polling one")
# The picture: a 900x560 PNG, mostly white background, with the points and the axes drawn,
# and the cheapest zero-drop setting marked in green when the JSON names one.
w, h, px = pngcheck.decode(png)
check((w, h) == (900, 560), f"sweep PNG is 900x560 ({w}x{h})")
ink = pngcheck.count(px, lambda p: p[:3] != (255, 255, 255))
check(5000 < ink < w * h // 2, f"sweep PNG: {ink} non-background pixels (axes, labels, points)")
green = pngcheck.count(px, lambda p: p[1] > 120 and p[0] < 60 and p[2] < 90)
if o["cheapest"] is not None:
    check(green > 100, f"sweep PNG: the cheapest point within the budget is marked ({green} px)")
blue = pngcheck.count(px, lambda p: p[2] > 150 and p[0] < 80 and p[1] < 100)
check(blue > 40, f"sweep PNG: the other point is drawn ({blue} px)")
idn = subprocess.run(["identify", "-format", "%w %h", png], capture_output=True, text=True)
if idn.returncode == 0:
    check(idn.stdout.strip() == "900 560", f"identify agrees: {idn.stdout.strip()}")
root = ET.parse(svg).getroot()
check(root.tag.endswith("svg") and root.get("width", "").startswith("900"),
      f"sweep SVG: an svg element 900 wide ({root.tag} {root.get('width')})")
check(len(list(root.iter("{http://www.w3.org/2000/svg}path"))) >= 4, "sweep SVG: paths drawn")

# ab: alternation, summaries per value and Welch's test.
abpng = os.path.join(tmp, "ab.png")
# 6 passes (Welch df 5): with 3, one slow pass under ASan left p at 0.07 (IPIs/s 14.6k-34.2k).
r = run("ab", "--json", "--knob", "blk.rq_affinity", "--values", "0,2", "--passes", "6",
        "--seconds", "0.3", "--warmup", "0.2", "--metric", "blk.ipis_per_s", "--png", abpng,
        "--host-took-limit", "100")
check(r.returncode == 0, f"ab exits 0 ({r.stderr[-200:]})")
o = json.loads(r.stdout)
m = o["metrics"][0]
check(o["passes"] == 6 and m["metric"] == "blk.ipis_per_s" and m["present"], "ab: metric present")
vals = {v["value"]: v for v in m["values"]}
check(set(vals) == {0, 2}, f"ab: values are JSON numbers for an integer knob ({list(vals)})")
vals = {str(k): v for k, v in vals.items()}
check(vals["0"]["max"] == 0, "ab: rq_affinity 0 sends no IPIs")
check(vals["2"]["min"] > 0, "ab: rq_affinity 2 sends IPIs")
# Welch's test from the arms' own figures: t, df and p as the summaries give them, and the
# verdict p < 0.05 (how far apart the arms are is the machine's: ab judges, the test checks it).
w = m["welch"][0] if m["welch"] else {}
a_, b_ = vals["0"], vals["2"]
va, vb = a_["dev"] ** 2 / a_["passes"], b_["dev"] ** 2 / b_["passes"]
t_ = (a_["avg"] - b_["avg"]) / math.sqrt(va + vb) if va + vb > 0 else None
df_ = ((va + vb) ** 2 / ((va ** 2 / (a_["passes"] - 1) if va else 0) +
                         (vb ** 2 / (b_["passes"] - 1) if vb else 0))) if va + vb > 0 else None


def t_two_sided_p(t, df, steps=20000):
    """P(|T| >= |t|) for Student's t with df degrees of freedom (Simpson's rule on the pdf)."""
    c = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)
    f = lambda x: c * (1 + x * x / df) ** (-(df + 1) / 2)
    h = abs(t) / steps
    inner = f(0) + f(abs(t)) + sum((4 if i % 2 else 2) * f(i * h) for i in range(1, steps))
    return 1 - 2 * inner * h / 3


p_ = t_two_sided_p(t_, df_) if t_ is not None else None
check(t_ is not None and abs(w.get("t", 0) - t_) <= 1e-3 * max(1, abs(t_)) and
      abs(w.get("df", 0) - df_) <= 1e-3 * max(1, df_) and abs(w.get("p", -1) - p_) <= 1e-3 and
      w.get("significant") == (w.get("p", 1) < 0.05),
      f"ab: Welch's t, df, p and verdict from the arms' figures ({w}, t {t_}, df {df_}, p {p_})")
check(vals["0"]["min"] <= vals["0"]["avg"] <= vals["0"]["max"], "ab: MIN <= AVG <= MAX")
check(m["welch"][0]["a"] == 0 and m["welch"][0]["b"] == 2, "ab: the t-test names values as numbers")
check(o["ok"] is True and o["hang"] is None, "ab: no hang")
# The arms interleaved, A B A B ..., each value's host took reported.
order = [p["value"] for p in o.get("pass_log", [])]
check(order == [0, 2] * 6, f"ab: arms run A B A B ... ({order})")
check([a["value"] for a in o.get("arms", [])] == [0, 2] and
      all(isinstance(a["host_took_pct"], float) and a["set_aside"] == 0 for a in o["arms"]),
      f"ab: host took and set-aside passes per value ({o.get('arms')})")
w, h, px = pngcheck.decode(abpng)
ink = pngcheck.count(px, lambda p: p[:3] != (255, 255, 255))
check(w == 900 and 1000 < ink < w * h // 2, f"ab PNG {w}x{h}: {ink} non-background pixels")
bars = pngcheck.count(px, lambda p: p[2] > 180 and p[0] < 100 and 90 < p[1] < 140)
check(bars > 500, f"ab PNG: the rq_affinity 2 bar is drawn ({bars} px)")

# A hung pass fails the experiment: status 1 and the hang named (it used to score p=1,
# "not significant", and exit 0).
check(isinstance(o.get("diagnoses"), list) and len(o["diagnoses"]) == 2 and
      all(isinstance(d["diagnoses"], dict) for d in o["diagnoses"]),
      f"ab: the rules' findings per value ({str(o.get('diagnoses'))[:200]})")

# Sweep points interleaved: pass 1 of every point, then pass 2 of every point.
r = run("sweep", "--json", "--maxsleep", "0,500", "--slack", "1000", "--passes", "2",
        "--seconds", "0.3", "--warmup", "0.1", "--scenario", "pmd-light", "--host-took-limit",
        "100")
o = json.loads(r.stdout) if r.returncode == 0 else {}
order = [(p["maxsleep_us"], p["point"]) for p in o.get("pass_log", [])]
check(order == [(0, 0), (500, 1), (0, 0), (500, 1)],
      f"sweep: passes round-robin over the points ({order})")
check(all(isinstance(p["host_took_pct"], float) and p["set_aside"] is False
          for p in o.get("pass_log", [])), "sweep: each pass's host took, none set aside at 100%")

# Artificial host load: a spinning thread takes the PMD's CPU; passes the host took more than
# the limit of are set aside, rerun (at most twice the passes in all), and counted. The process
# runs on one CPU (taskset) with one spinner at nice 0 (engine/load.c niced only more spinners
# than CPUs): the PMD shares that CPU with it whatever the scheduler does. One spinner per CPU
# unpinned left the PMD a CPU of its own when the two spinners shared the other (the host
# took 1.28 % and 2.63 % of the passes, under the limit).
spin = "1"
limit = 5
r = run("sweep", "--json", "--maxsleep", "0", "--slack", "1000", "--passes", "2", "--seconds",
        "0.5", "--warmup", "0.2", "--scenario", "pmd-light", "--set", "load.spin_threads=" + spin,
        "--host-took-limit", str(limit), cpus="0")
o = json.loads(r.stdout) if r.stdout.strip() else {}
log, row = o.get("pass_log", []), (o.get("rows") or [{}])[0]
# Its one setting with every pass set aside is inconclusive (docs/experiments.md): status 1.
check(r.returncode == 0 or (r.returncode == 1 and row.get("passes") == 0 and
                            "every pass set aside" in (o.get("inconclusive") or "")),
      f"sweep under host load exits 0, or 1 inconclusive ({r.returncode}: {r.stderr[-200:]})")
aside = [p for p in log if p["set_aside"]]
check(len(aside) >= 1, f"sweep under {spin} spinning threads: a pass set aside ({log})")
check(all(p["host_took_pct"] > limit for p in aside) and
      all(p["host_took_pct"] <= limit for p in log if not p["set_aside"]),
      f"sweep: set aside exactly the passes over the limit ({log})")
check(row.get("set_aside") == len(aside) == o.get("set_aside") and
      len(row.get("set_aside_host_took_pct", [])) == len(aside),
      f"sweep: the row says how many were set aside ({row.get('set_aside')}, {len(aside)})")
hung = [p for p in log if p.get("hung")]  # a hung window is neither kept nor set aside
check(len(log) <= 4 and row.get("passes") == len(log) - len(aside) - len(hung),
      f"sweep: rerun at most up to twice the passes ({len(log)} attempts, {len(hung)} hung)")
check(o.get("host_took_limit_pct") == limit, "sweep: the limit in the JSON")

# The trade-off's answer on the seed: a sleeping setting with 1 us slack within the 0.1 %
# budget, ranked by CPU per packet and CPU share, not busy polling (which reads cheap in raw
# CPU % when the host took its time).
r = run("sweep", "--json", "--maxsleep", "0,50", "--slack", "1000,50000", "--passes", "3",
        "--seconds", "1", "--warmup", "0.5", "--scenario", "pmd-seed", "--host-took-limit", "100",
        timeout=300)
check(r.returncode == 0, f"sweep on pmd-seed exits 0 ({r.stderr[-200:]})")
o = json.loads(r.stdout) if r.returncode == 0 else {}
best = o.get("cheapest") or {}
check(o.get("drop_budget_pct") == 0.1, "sweep: the default drop budget is 0.1 %")
seed = next((r for r in o.get("rows", []) if r["maxsleep_us"] == 50 and
             r["timer_slack_ns"] == 1000), {})
took = seed.get("pass.host_took_pct")
sanitized = os.path.basename(os.environ.get("TT_BUILD", "").rstrip("/")) in ("asan", "tsan")
if sanitized:
    # An instrumented engine spends 1.7 us a packet (TSan): the ranking measures the
    # instrumentation, not the knobs, as in the diagnosis check below.
    print(f"note: not judged under a sanitizer: answer {best}")
elif (not (best.get("maxsleep_us", 0) > 0 and best.get("timer_slack_ns") == 1000) and
        took is not None and took > 30):
    # The 1 us ramp's margin is the ring's 53 us less the host's gaps: with the host taking a
    # third of the PMDs' time, 50/1000 drops over the budget and no knob is at fault. The
    # default limit (30 %) would set such passes aside; this run keeps them to rank them.
    print(f"note: not judged: the host took {took:.0f}% of the PMDs at 50 us / 1 us "
          f"(drop {seed.get('drop_pct')}%); answer {best}")
else:
    check(best.get("maxsleep_us", 0) > 0 and best.get("timer_slack_ns") == 1000 and
          best.get("drop_pct", 1) <= 0.1,
          f"sweep on pmd-seed: the answer sleeps with 1 us slack, within the budget ({best}; "
          f"50 us / 1 us: {seed.get('drop_pct')}% drop, host took {took})")
for row in o.get("rows", []):
    check(all(isinstance(row[k], float) for k in
              ("pass.cpu_ns_per_pkt", "pass.cpu_share_pct", "pass.host_took_pct")) and
          row["within_budget"] == (row["pmd.drop_pct"] <= 0.1),
          f"sweep: row {row['maxsleep_us']}/{row['timer_slack_ns']} has its cost and budget")

# Each pass's window goes through the diagnosis rules: on pmd-seed at Linux's 50 us slack the
# sweep says what the console says, naming the OVS thread's fix (docs/diag.md).
r = run("sweep", "--json", "--maxsleep", "50", "--slack", "50000", "--passes", "1",
        "--seconds", "2", "--warmup", "1", "--scenario", "pmd-seed", "--host-took-limit", "100")
check(r.returncode == 0, f"sweep on pmd-seed exits 0 ({r.stderr[-200:]})")
row = json.loads(r.stdout)["rows"][0] if r.returncode == 0 else {}
found = row.get("diagnoses")
check(isinstance(found, dict), f"sweep: a row's findings ({found})")
if os.path.basename(os.environ.get("TT_BUILD", "").rstrip("/")) not in ("asan", "tsan"):
    # (an instrumented engine is too slow to fill the ring: tests/unit/test_diag.c has the rule)
    # The host first (docs/diag.md "The host first"): where the host took a quarter of the
    # window the host finding may stand alone; below that the ring's finding must be there.
    ring = (found or {}).get("pmd.sleep_outlasts_ring") or {}
    took = row.get("pass.host_took_pct")
    check((ring.get("passes") == 1 and ring.get("fix") == "pmd.timer_slack_ns=1000") or
          ("host.cpu_taken" in (found or {}) and took is not None and took >= 25),
          f"sweep on pmd-seed, slack 50 us: sleep outlasts the ring, fix 1 us slack, or the host "
          f"took {took}% and says so ({found})")

r = run("ab", "--knob", "blk.rq_affinity", "--values", "0,1", "--set", "blk.fault_lost_kick=on",
        "--passes", "3", "--seconds", "0.5", "--warmup", "0.2", "--metric", "blk.iops")
check(r.returncode == 1 and "hang" in r.stderr and "blk" in r.stderr,
      f"ab with blk hung -> 1, names the hang (got {r.returncode}: {r.stderr.strip()[-160:]})")
check("not significant" not in r.stdout, "ab with a hang prints no verdict")
r = run("ab", "--json", "--knob", "blk.rq_affinity", "--values", "0,1", "--set",
        "blk.fault_lost_kick=on", "--passes", "2", "--seconds", "0.5", "--warmup", "0.2")
check(r.returncode == 1, f"ab --json with a hang -> 1 (got {r.returncode})")
o = json.loads(r.stdout) if r.stdout.strip() else {}
check(o.get("ok") is False and "blk" in (o.get("hang") or ""), f"ab --json says ok false and the hang ({o.get('hang')})")
# The hang is the arm's during which submitters hung: rq_affinity 0 never loses a kick, so the
# hang is rq_affinity 1's, also when it began before the first pass (blk-steer starts at 1)
# or showed only in the next arm's window. (Before, 1 run in 4 of the first form blamed 0.)
for values, extra in (("0,1", ["--scenario", "blk-steer", "--seconds", "0.5", "--warmup", "1"]),
                      ("0,1", ["--scenario", "blk-steer", "--seconds", "0.5", "--warmup", "1"]),
                      ("0,1", ["--scenario", "blk-steer", "--seconds", "0.5", "--warmup", "1"]),
                      ("1,0", ["--seconds", "0.3", "--warmup", "0.1"])):
    r = run("ab", "--json", "--knob", "blk.rq_affinity", "--values", values, "--set",
            "blk.fault_lost_kick=on", "--passes", "3", "--metric", "blk.iops",
            "--host-took-limit", "100", *extra)
    o = json.loads(r.stdout) if r.stdout.strip() else {}
    check(r.returncode == 1 and o.get("hang_value") == 1 and
          "blk.rq_affinity = 1:" in r.stderr and "blk.rq_affinity = 0:" not in r.stderr,
          f"ab {values}: the hang named on rq_affinity 1 ({o.get('hang_value')}: "
          f"{r.stderr.strip()[-160:]})")
r = run("sweep", "--maxsleep", "0", "--slack", "1000", "--passes", "1", "--seconds", "0.5",
        "--warmup", "0.2", "--scenario", "default", "--set", "blk.fault_lost_kick=on",
        "--set", "blk.rq_affinity=2",  # the 2008 fault loses remote completions only
        "--host-took-limit", "100")  # the hang, not the host's share, ends it
check(r.returncode == 1 and "hang" in r.stderr,
      f"sweep with a hung pass -> 1, names the hang (got {r.returncode}: {r.stderr.strip()[-160:]})")

# calib: N calibrations under a governor.
calpng = os.path.join(tmp, "calib.png")
r = run("calib", "--json", "--runs", "2", "--governors", "performance", "--seconds", "0.3",
        "--warmup", "0.1", "--png", calpng)
check(r.returncode == 0, f"calib exits 0 ({r.stderr[-200:]})")
o = json.loads(r.stdout)
g = o["governors"][0]
check(g["governor"] == "performance" and len(g["chain_max"]) == 2, "calib: two calibrations seen")
check(all(c >= 1 for c in g["chain_max"]), "calib: chain_max >= 1")
check(sum(g["histogram"].values()) == 2, "calib: histogram counts every run")
keys = [int(k) for k in g["histogram"]]
check(keys == sorted(keys), f"calib: histogram by chain_max, ascending ({keys})")
per = g["estimators_per_kthread"]
check(isinstance(per, int) and per > 0 and g["kthreads_needed"] == -(-g["estimators_for"] // per),
      f"calib: kthreads needed = ceil(estimators / per kthread) ({g.get('kthreads_needed')}, "
      f"{g.get('estimators_for')}, {per})")
# The IPVS thread's scale: 128 CPUs per estimator put chain_max in its tens (the thread: 22),
# not in the hundreds that 16 CPUs give; --count asks for a count the scenario does not run.
r2 = run("calib", "--json", "--runs", "1", "--governors", "performance", "--seconds", "0.3",
         "--warmup", "0.1", "--scenario", "est-ipvs", "--count", "1000000")
check(r2.returncode == 0, f"calib est-ipvs exits 0 ({r2.stderr[-200:]})")
g2 = json.loads(r2.stdout)["governors"][0]
check(g2["chain_max"][0] < 200 and g2["estimators_for"] == 1000000 and g2["kthreads_needed"] >= 2,
      f"calib est-ipvs: chain_max {g2['chain_max']}, {g2.get('kthreads_needed')} kthreads "
      "for 1000000 estimators")
# Whose scale a chain_max is: the CPUs each estimator sums, 16 by default (chain_max in the
# hundreds), and, short of the IPVS thread's 128, where to find them.
check(g.get("est_cpus") == 16 and g2.get("est_cpus") == 128,
      f"calib: est_cpus in JSON ({g.get('est_cpus')}, est-ipvs {g2.get('est_cpus')})")
r3 = run("calib", "--runs", "1", "--governors", "performance", "--seconds", "0.3",
         "--warmup", "0.1")
check(r3.returncode == 0 and "performance: 1 calibration at est.cpus 16 (the IPVS thread's 128: "
      "--scenario est-ipvs)" in r3.stdout, f"calib: the text names est.cpus ({r3.stdout[:120]})")
w, h, px = pngcheck.decode(calpng)
ink = pngcheck.count(px, lambda p: p[:3] != (255, 255, 255))
bars = pngcheck.count(px, lambda p: p[2] > 180 and p[0] < 100 and 90 < p[1] < 140)
check(w == 900 and ink > 1000 and bars > 500, f"calib PNG {w}x{h}: {ink} px drawn, bars {bars} px")

# Usage errors.
for args, frag in ((["nosuch"], "valid: sweep, ab, calib"),
                   (["ab", "--knob", "nope", "--values", "1,2"], "'nope' is not a knob"),
                   (["ab", "--knob", "blk.rq_affinity"], "--values"),
                   (["ab", "--knob", "pmd.maxsleep_us", "--values", "1,99999"], "out of range"),
                   (["sweep", "--bogus"], "unknown option '--bogus'"),
                   (["calib", "--governors", "turbo"], "'turbo' is not valid"),
                   (["sweep", "--seconds", "-1"], "valid: 0.1 to 3600"),
                   (["sweep", "--maxsleep", ""], "0 to 10000"),
                   (["sweep", "--slack", "1000,,50000"], "empty item"),
                   (["sweep", "--maxsleep", "0,20000"], "0 to 10000"),
                   (["sweep", "--passes", "2.5"], "whole number"),
                   (["sweep", "--passes", "0"], "whole number"),
                   (["ab", "--knob", "blk.rq_affinity", "--values", "0,1", "--passes", "2.5"],
                    "whole number"),
                   (["ab", "--knob", "blk.rq_affinity", "--values", "0,1", "--metric",
                     "nosuch.path"], "valid at that level: schema"),
                   (["ab", "--knob", "blk.rq_affinity", "--values", "0,1", "--metric",
                     "blk.lat_us.p98"], "p99"),
                   (["calib", "--runs", "1.5"], "whole number"),
                   (["calib", "--scenario", "idle", "--runs", "1"], "does not run est"),
                   (["sweep", "--png", ""], "needs a file name")):
    r = run(*args, timeout=30)
    check(r.returncode == 2 and frag in r.stderr, f"{' '.join(args)} -> 2, says {frag!r} "
          f"(got {r.returncode}: {r.stderr.strip()[:120]})")
r = run("--help", timeout=10)
check(r.returncode == 0 and "sweep" in r.stdout, "experiment --help lists the experiments")

r = run("sweep", "--maxsleep", "0", "--slack", "1000", "--passes", "1", "--seconds", "0.3",
        "--warmup", "0.1", "--scenario", "pmd-light", "--png", "/nonexistent-dir/x.png", timeout=60)
# Refused before the first pass, as a usage error with the real reason.
check(r.returncode == 2 and "x.png: No such file or directory" in r.stderr and "pass 1" not in r.stdout + r.stderr,
      f"an unwritable --png -> 2 naming it before any pass (got {r.returncode}: {r.stderr.strip()[:120]})")

finish()
