#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/host_1hz.sh: what `tunetop -b --host -d 1` costs at 1 Hz with HOST_1HZ_THREADS (550)
# matched threads, in % of one CPU, against `top -b -H -d 1 -p PID` over the same time. A
# helper process holds the threads, idle, named as bench/host_scale.sh names matched ones
# (pmd-c01/id:1, kworker/u9:2: host_thread_pick takes them by name, so tunetop finds them in
# its scan of /proc as on a real host; top follows the helper's pid). Each runs
# HOST_1HZ_WARM (3) s, then CPU is the growth of utime+stime in /proc/PID/stat (the whole
# process) over HOST_1HZ_SECS (20) s. The two alternate, the order swapped each round,
# HOST_1HZ_ROUNDS (3) rounds; figures are medians, the ratio the median of each round's.
set -u
: "${TUNETOP:?run through bench/run.sh or set TUNETOP}"
command -v top >/dev/null || { echo "no top (procps): skipped"; exit 0; }
python3 - "$TUNETOP" "${HOST_1HZ_THREADS:-550}" "${HOST_1HZ_WARM:-3}" "${HOST_1HZ_SECS:-20}" \
	"${HOST_1HZ_ROUNDS:-3}" <<'PY'
import json, os, statistics, subprocess, sys, tempfile, time

tt, nthreads, warm, secs, rounds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), \
    float(sys.argv[4]), int(sys.argv[5])
HZ = os.sysconf("SC_CLK_TCK")
helper = subprocess.Popen([sys.executable, "-c", """
import sys, threading
threading.stack_size(65536)
ev = threading.Event()
ts = [threading.Thread(target=ev.wait, daemon=True) for _ in range(int(sys.argv[1]))]
for i, t in enumerate(ts):
    t.start()
    name = "pmd-c%02d/id:%d" % (i % 100, i) if i % 2 else "kworker/u9:%d" % i
    with open("/proc/self/task/%d/comm" % t.native_id, "w") as f:
        f.write(name[:15])
print("ready", flush=True)
sys.stdin.read()
""", str(nthreads)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
helper.stdout.readline()


def host_threads():
    """Threads on the host, and those host_thread_pick takes by name (besides the helper's)."""
    n = m = 0
    for p in filter(str.isdigit, os.listdir("/proc")):
        try:
            pcomm = open(f"/proc/{p}/comm").read().strip()
            for t in os.listdir(f"/proc/{p}/task"):
                c = open(f"/proc/{p}/task/{t}/comm").read().strip()
                n += 1
                m += pcomm == "ovs-vswitchd" or c.startswith(("ipvs-e:", "pmd", "kworker",
                                                               "ksoftirqd"))
        except OSError:
            pass
    return n, m


def ticks(pid):
    with open(f"/proc/{pid}/stat") as f:
        v = f.read().rsplit(")", 1)[1].split()
    return int(v[11]) + int(v[12])  # utime, stime: fields 14 and 15


out = tempfile.NamedTemporaryFile(prefix="tt-host1hz.", suffix=".jsonl")
kinds = {"tunetop": [tt, "--host", "-b", "-d", "1"],
         "top": ["top", "-b", "-H", "-d", "1", "-p", str(helper.pid)]}
res = {k: [] for k in kinds}
matched, ratios = [], []


def measure(k):
    with open(out.name, "w") as f:
        p = subprocess.Popen(kinds[k], stdout=f, stderr=subprocess.DEVNULL)
    try:
        time.sleep(warm)
        t0, c0 = time.monotonic(), ticks(p.pid)
        time.sleep(secs)
        return (ticks(p.pid) - c0) / HZ / (time.monotonic() - t0) * 100
    finally:
        p.terminate()
        p.wait()


try:
    n, m = host_threads()
    print(f"host with the helper: {n} threads, {m} of them matched by name ({nthreads} the "
          f"helper's: the rest is the host's own)")
    print(f"helper pid {helper.pid}: {nthreads} idle threads named to match; {secs:g} s windows "
          f"after {warm:g} s, {rounds} rounds alternated (order swapped each round)")
    for r in range(rounds):
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
        for k in (list(kinds) if r % 2 == 0 else list(kinds)[::-1]):
            res[k].append(measure(k))
            if k == "tunetop":
                lines = [l for l in open(out.name) if l.strip()]
                matched.append(json.loads(lines[-1])["host"]["threads_matched"] if lines else 0)
        ratios.append(res["tunetop"][-1] / res["top"][-1] if res["top"][-1] else float("nan"))
        print(f"   round {r + 1}: load {load}; CPU %: tunetop {res['tunetop'][-1]:.2f} "
              f"({matched[-1]} matched), top {res['top'][-1]:.2f}")
finally:
    helper.stdin.close()
    helper.wait()
med = statistics.median
print(f"median of {rounds}: tunetop -b --host -d 1 {med(res['tunetop']):.2f} % of one CPU "
      f"({med(matched)} threads matched; goal < 1 %); top -b -H -d 1 -p PID "
      f"{med(res['top']):.2f} %")
print(f"tunetop/top CPU, same round: median {med(ratios):.2f}x "
      f"({' '.join('%.2f' % x for x in ratios)})")
print(f"load at the end: {' '.join('%.2f' % x for x in os.getloadavg())}")
PY
