#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/est.sh: the estimator-chain figures (medians of several runs).
#   per-estimator cost per emulated CPU: kthread chain walk vs a bare summing loop (baseline)
#   chain_max under performance and ondemand (emulated governor), 128 emulated possible CPUs
#   tick time and kthread CPU% at 10k and 100k estimators on 128 emulated CPUs; bytes per estimator
#   how long a config-side locker waits while est.count moves by thousands
#   the tick grid: ticks per kthread per second (one pass of the 50 rows per 2 s)
set -u
: "${TUNETOP:?run through bench/run.sh or set TUNETOP}" "${TT_BUILD:?}"
BENCH_EST="$TT_BUILD/bench/bench_est"
BENCH_EST_LOCK="$TT_BUILD/bench/bench_est_lock"
[ -x "$BENCH_EST" ] || { echo "est: $BENCH_EST not built (make bench)"; exit 1; }
[ -x "$BENCH_EST_LOCK" ] || { echo "est: $BENCH_EST_LOCK not built (make bench)"; exit 1; }
export TUNETOP BENCH_EST BENCH_EST_LOCK
exec python3 - <<'EOF'
import json, os, statistics, subprocess, sys

tt, bench = os.environ["TUNETOP"], os.environ["BENCH_EST"]
RUNS = int(os.environ.get("EST_BENCH_RUNS", "3"))

def med(xs):
    return statistics.median(xs) if xs else float("nan")

def batch(n, d, *sets, scenario="est-only"):
    cmd = [tt, "-b", "-n", str(n), "-d", str(d), "--scenario", scenario]
    for s in sets:
        cmd += ["--set", s]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120).stdout
    return [json.loads(l) for l in out.splitlines() if l.startswith("{")]

print("1. Per-estimator cost per emulated CPU (ns), 128 CPUs, one 64-byte line per CPU per estimator")
print(f"   {'estimators':>10} {'chain walk':>11} {'bare sum':>9} {'ratio':>6} {'walk/est':>9} {'bare/est':>9}")
for n in (10000, 100000):
    w, b, we, be = [], [], [], []
    for _ in range(RUNS):
        f = subprocess.run([bench, str(n), "128", "5"], capture_output=True, text=True).stdout.split()
        w.append(float(f[2])); b.append(float(f[3])); we.append(float(f[4])); be.append(float(f[5]))
    print(f"   {n:>10} {med(w):>11.2f} {med(b):>9.2f} {med(w)/med(b):>6.2f} {med(we):>8.0f}n {med(be):>8.0f}n")

print("\n2. Calibration, 128 emulated CPUs (medians of 5; emulated fmax/fmin = 3000/1100 MHz)")
print(f"   {'governor':>12} {'chain_max':>9} {'single est':>11} {'loops':>6}  chain_max of each run")
for gov in ("performance", "ondemand"):
    cms, ses, lps = [], [], []
    for _ in range(5):
        lines = batch(2, 0.4, "est.count=100", "est.cpus=128", f"cpu.governor={gov}")
        c = lines[-1]["est"]["calibration"]
        cms.append(c["chain_max"]); ses.append(c["single_est_ns"]); lps.append(c["loops"])
    print(f"   {gov:>12} {med(cms):>9.0f} {med(ses):>9.0f}ns {med(lps):>6.0f}  {cms}")

print("\n3. Tick time and kthread CPU%, 128 emulated CPUs, est-large (2 s intervals after the initial delay)")
print(f"   {'estimators':>10} {'governor':>11} {'kthreads':>8} {'chain_max':>9} {'tick avg':>9} {'tick max':>9} {'kt CPU% sum':>11} {'kt0 CPU%':>8} {'bytes/est':>9}")
for n, gov in ((10000, "performance"), (100000, "performance"), (100000, "ondemand")):
    avg, mx, cpu, cpu0, kts, cm, mem = [], [], [], [], [], [], []
    for _ in range(RUNS if gov == "performance" else 1):
        lines = batch(5, 2, f"est.count={n}", "est.cpus=128", f"cpu.governor={gov}", scenario="est-large")
        for j in lines[2:]:  # the first 4 s: calibration, drain, initial delay
            e = j["est"]
            if e["ticks"] == 0:
                continue
            avg.append(e["tick_ns"]["avg"] / 1e6); mx.append(e["tick_ns"]["max"] / 1e6)
            cpu.append(sum(e["kthread_cpu_pct"])); cpu0.append(e["kthread_cpu_pct"][0])
            kts.append(e["kthreads"]); cm.append(e["chain_max"]); mem.append(e["mem_per_est_bytes"])
    print(f"   {n:>10} {gov:>11} {med(kts):>8.0f} {med(cm):>9.0f} {med(avg):>7.2f}ms {med(mx):>7.2f}ms"
          f" {med(cpu):>10.1f}% {med(cpu0):>7.1f}% {med(mem):>9.0f}")
print("\n   bytes/est: counters (64 B x 128 CPUs = 8192 B) + estimator, rows and contexts, as allocated")

print("\n4. Live est.count steps, 128 emulated CPUs: longest wait of a sampler-like locker (medians)")
print(f"   {'est.count':>10} {'step took':>10} {'config mutex':>13} {'kt0 kd->lock':>13}")
rows = {}
for _ in range(RUNS):
    out = subprocess.run([os.environ["BENCH_EST_LOCK"], "128"], capture_output=True, text=True).stdout
    for i, l in enumerate(out.split("\n")):
        f = l.split()
        if len(f) == 5:
            rows.setdefault(i, []).append((int(f[1]), float(f[2]), float(f[3]), float(f[4])))
for i in sorted(rows):
    r = rows[i]
    print(f"   {r[0][0]:>10} {med([x[1] for x in r]):>8.1f}ms {med([x[2] for x in r]):>11.3f}ms"
          f" {med([x[3] for x in r]):>11.3f}ms")
print("   (waits include scheduling delay on a loaded machine; a tick at 128 CPUs takes ~5 ms)")
print("\n5. The tick grid: ticks per kthread per second over 2 s lines (goal 25: each of the 50 rows")
print("   once per 2 s period, so each estimator is visited once a period; medians of the lines)")
print(f"   {'estimators':>10} {'kthreads':>8} {'ticks/kt/s':>10}")
for n in (2000, 20000):
    lines = batch(4, 2, f"est.count={n}", "est.chain_max=2")[1:]
    rate = [l["est"]["ticks"] / l["interval_s"] / l["est"]["kthreads"] for l in lines
            if l["est"].get("ticks") is not None and l["est"].get("kthreads")]
    kts = [l["est"]["kthreads"] for l in lines]
    print(f"   {n:>10} {med(kts):>8.0f} {med(rate):>10.2f}")
EOF
