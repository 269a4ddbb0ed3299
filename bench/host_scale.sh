#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/host_scale.sh: host-backend CPU per refresh on a host with HOST_SCALE_THREADS (5000)
# idle threads, against `top -b -H` over the same refreshes, the two run one after the other
# (order alternated each round, HOST_SCALE_ROUNDS rounds, medians). The threads carry the
# names of a real host's (pmd-c01/id:6, kworker/u9:3, handler12, revalidator5), a share
# HOST_SCALE_MATCH (0.1) of them ones tunetop's host matcher follows (host_thread_pick): a
# pool all named python3 would measure the scan alone. Each round also runs tunetop with
# every thread renamed to an unmatched name; the difference is the cost per matched thread.
# CPU is each process's own user+sys (wait4 rusage), start-up included (both tools).
# HOST_SCALE_BASE=PATH: another tunetop (a build before a change) run the same way in each
# round, alternated with this one, for a before/after in one run.
set -u
nthreads=${HOST_SCALE_THREADS:-5000}
n=${HOST_SCALE_N:-10}
delay=${HOST_SCALE_D:-0.5}
rounds=${HOST_SCALE_ROUNDS:-3}
match=${HOST_SCALE_MATCH:-0.1}
command -v top >/dev/null || { echo "no top (procps)"; exit 0; }
python3 - "$nthreads" "$n" "$TUNETOP" "$delay" "$rounds" "$match" "${HOST_SCALE_BASE:-}" <<'PY'
import json, os, statistics, subprocess, sys, threading, time

nthreads, n, tunetop = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
delay, rounds, match = sys.argv[4], int(sys.argv[5]), float(sys.argv[6])
base = sys.argv[7]
threading.stack_size(64 * 1024)
stop = threading.Event()
ts = [threading.Thread(target=stop.wait, daemon=True) for _ in range(nthreads)]
for t in ts:
    t.start()
time.sleep(0.5)
nmatch = int(nthreads * match)

def name(i, matched):
    """The i-th thread's name: matched ones as OVS PMDs and kworkers, the rest as OVS's
    handlers and revalidators (15 bytes at most, the kernel's comm)."""
    if matched:
        return "pmd-c%02d/id:%d" % (i % 100, i) if i % 2 else "kworker/u9:%d" % i
    return "handler%d" % i if i % 2 else "revalidator%d" % i

def rename(matched):
    for i, t in enumerate(ts):
        with open("/proc/self/task/%d/comm" % t.native_id, "w") as f:
            f.write(name(i, matched and i < nmatch)[:15])

def run(argv, path):
    with open(path, "w") as out:
        p = subprocess.Popen(argv, stdout=out, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
    return ru.ru_utime + ru.ru_stime

tmp = "/tmp/tt-hostscale.%d" % os.getpid()
os.makedirs(tmp, exist_ok=True)
refresh = n + 1
top_argv = ["top", "-b", "-H", "-d", delay, "-n", str(refresh)]
res = {"top": [], "load": []}
kinds = [("tt", tunetop)] + ([("base", base)] if base else [])
for k, _ in kinds:
    for f in ("", "0", "_ratio", "_per", "_matched", "_matched0", "_sample_us"):
        res[k + f] = []

def tt(k, path, matched):
    cpu = run([path, "--host", "-b", "-n", str(refresh), "-d", delay], tmp + "/tt.json")
    lines = [json.loads(l) for l in open(tmp + "/tt.json") if l.strip()]
    res[k + ("" if matched else "0")].append(cpu)
    res[k + ("_matched" if matched else "_matched0")].append(lines[-1]["host"]["threads_matched"])
    if matched:
        res[k + "_sample_us"].append(statistics.median(o["self"]["sample_us"] for o in lines[1:]))

for r in range(rounds):
    res["load"].append(os.getloadavg()[0])
    order = kinds if r % 2 == 0 else kinds[::-1]
    rename(False)
    for k, path in order:
        tt(k, path, False)
    rename(True)
    if r % 2:
        res["top"].append(run(top_argv, tmp + "/top.txt"))
    for k, path in order:
        tt(k, path, True)
    if r % 2 == 0:
        res["top"].append(run(top_argv, tmp + "/top.txt"))
    for k, _ in kinds:
        res[k + "_ratio"].append(res[k][-1] / res["top"][-1])
        dm = res[k + "_matched"][-1] - res[k + "_matched0"][-1]
        res[k + "_per"].append((res[k][-1] - res[k + "0"][-1]) / refresh / dm if dm > 0
                               else float("nan"))
stop.set()
for f in os.listdir(tmp):
    os.unlink(os.path.join(tmp, f))
os.rmdir(tmp)
med = statistics.median
print("threads on the host: %d processes, +%d python threads (%d named to match)"
      % (len(os.listdir("/proc")), nthreads, nmatch))
print("rounds %d, load average 1-min at each round: %s" % (rounds, " ".join("%.1f" % l for l in res["load"])))
print("%-40s %14s %s" % ("median of %d, -n %d -d %s" % (rounds, refresh, delay), "CPU ms/refresh", "(rounds)"))
rows = [("top", "top -b -H")]
for k, path in kinds:
    who = "tunetop" if k == "tt" else "base " + os.path.basename(path)
    rows += [(k, "%s (%d matched)" % (who, med(res[k + "_matched"]))),
             (k + "0", "%s (%d matched)" % (who, med(res[k + "_matched0"])))]
for key, label in rows:
    print("%-40s %14.2f (%s)" % (label, med(res[key]) * 1e3 / refresh,
                                 " ".join("%.2f" % (v * 1e3 / refresh) for v in res[key])))
for k, path in kinds:
    who = "tunetop" if k == "tt" else "base"
    print("%-7s ratio to top, same round: median %.3f (%s)   (goal <= 0.1)"
          % (who, med(res[k + "_ratio"]), " ".join("%.3f" % v for v in res[k + "_ratio"])))
    print("%-7s per matched thread and refresh: %.1f us (%s); sample median %d us"
          % (who, med(res[k + "_per"]) * 1e6, " ".join("%.1f" % (v * 1e6) for v in res[k + "_per"]),
             med(res[k + "_sample_us"])))
print("top per thread and refresh (it reads every thread): %.1f us" % (med(res["top"]) * 1e6 / refresh / nthreads))
PY
