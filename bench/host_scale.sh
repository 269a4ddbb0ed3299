#!/usr/bin/env bash
# bench/host_scale.sh: host-backend CPU per refresh on a host with HOST_SCALE_THREADS (5000)
# idle threads, against `top -b -H -d 1` over the same refreshes in the same run (the goal:
# at most 0.1x top's CPU, under 1% of a CPU at 1 Hz). CPU is each process's own user+sys
# (wait4 rusage) divided by its refreshes; tunetop's median self.sample_us is shown too.
set -u
nthreads=${HOST_SCALE_THREADS:-5000}
n=${HOST_SCALE_N:-10}
command -v top >/dev/null || { echo "no top (procps)"; exit 0; }
python3 - "$nthreads" "$n" "$TUNETOP" <<'PY'
import json, os, statistics, subprocess, sys, threading, time

nthreads, n, tunetop = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
threading.stack_size(64 * 1024)
stop = threading.Event()
ts = [threading.Thread(target=stop.wait, daemon=True) for _ in range(nthreads)]
for t in ts:
    t.start()
time.sleep(0.5)

def run(argv, out):
    p = subprocess.Popen(argv, stdout=out, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    return ru.ru_utime + ru.ru_stime

res = {}
def go(name, argv, path):
    with open(path, "w") as f:
        res[name] = run(argv, f)

tmp = "/tmp/tt-hostscale.%d" % os.getpid()
os.makedirs(tmp, exist_ok=True)
a = threading.Thread(target=go, args=("top", ["top", "-b", "-H", "-d", "1", "-n", str(n + 1)], tmp + "/top.txt"))
b = threading.Thread(target=go, args=("tunetop", [tunetop, "--host", "-b", "-n", str(n + 1), "-d", "1"], tmp + "/tt.json"))
a.start(); b.start(); a.join(); b.join()
lines = [json.loads(l) for l in open(tmp + "/tt.json") if l.strip()]
med = statistics.median(o["self"]["sample_us"] for o in lines[1:])
first = lines[0]["self"]["sample_us"]
cpu = statistics.median(o["self"]["cpu_pct"] for o in lines[1:])
top_lines = sum(1 for l in open(tmp + "/top.txt") if l.strip())
stop.set()
for f in os.listdir(tmp):
    os.unlink(os.path.join(tmp, f))
os.rmdir(tmp)
refresh = n + 1
print("threads on the host: %d (+%d idle python threads)" % (len(os.listdir("/proc")), nthreads))
print("%-28s %12s %14s" % ("", "CPU ms total", "CPU ms/refresh"))
print("%-28s %12.1f %14.2f" % ("top -b -H -d 1 -n %d" % refresh, res["top"] * 1e3, res["top"] * 1e3 / refresh))
print("%-28s %12.1f %14.2f" % ("tunetop --host -b -n %d" % refresh, res["tunetop"] * 1e3, res["tunetop"] * 1e3 / refresh))
print("ratio tunetop/top: %.3f   (goal <= 0.1)" % (res["tunetop"] / res["top"]))
print("tunetop sample: first %d us, median of the rest %d us = %.2f%% of a CPU at 1 Hz (goal < 1%%)"
      % (first, med, med / 1e4))
print("tunetop steady state: median self.cpu_pct %.2f%% (its thread's CPU over each 1 s interval)"
      " = %.2f ms/refresh, %.3fx top's" % (cpu, cpu * 10, cpu * 10 / (res["top"] * 1e3 / refresh)))
PY
