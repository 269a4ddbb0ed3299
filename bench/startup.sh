#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/startup.sh: what a run loads and what starting costs. Shared objects the binary needs
# (ldd) and those mapped by -b and by --serve once each is running (/proc/PID/maps); CPU
# (user + system, from wait4) of `tunetop -b -n 1` in the engine (idle scenario, and the default
# one, whose workload threads run until the first sample) and with --host against
# `top -b -n 1`, alternated run by run, medians of STARTUP_RUNS (5).
set -u
runs=${STARTUP_RUNS:-5}
# top's own CPU grows with the processes it reads (/proc/PID/stat and more, each): the
# ratio's denominator; --host's with the threads (loadavg's total).
tasks() {
    echo "$(find /proc -maxdepth 1 -name '[0-9]*' | wc -l) processes," \
        "$(cut -d' ' -f4 /proc/loadavg | cut -d/ -f2) threads"
}
echo "-- shared objects (load: $(cut -d' ' -f1-3 /proc/loadavg), $(tasks))"
echo "   ldd tunetop: $(ldd "$TUNETOP" | grep -c '=>\|ld-linux') objects"
python3 - "$TUNETOP" <<'PY'
import socket, subprocess, sys, time, urllib.request

tt = sys.argv[1]


def mapped(pid):
    with open(f"/proc/{pid}/maps") as f:
        objs = {l.split()[-1] for l in f if ".so" in l.split()[-1]}
    return objs


def count(label, args, ready):
    p = subprocess.Popen([tt] + args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        end = time.monotonic() + 20
        while not ready(p) and time.monotonic() < end:
            time.sleep(0.05)
        objs = mapped(p.pid)
        heavy = sorted(o.rsplit("/", 1)[-1] for o in objs
                       if any(k in o for k in ("microhttpd", "gnutls", "yaml", "crypt.so")))
        print(f"   {label}: {len(objs)} objects mapped; exporter's: {' '.join(heavy) or 'none'}")
    finally:
        p.kill()
        p.wait()


count("-b", ["-b", "-d", "0.1", "-n", "600", "--scenario", "idle"],
      lambda p: p.stdout.readline() != b"")
s = socket.socket()
s.bind(("127.0.0.1", 0))
port = s.getsockname()[1]
s.close()


def served(p):
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=1).read()
        return True
    except OSError:
        return False


count("--serve -b", ["--serve", f"127.0.0.1:{port}", "-b", "-o", "/dev/null", "-d", "0.1",
                     "-n", "600", "--scenario", "idle"], served)
PY
echo "-- start-up CPU of -b -n 1 against top -b -n 1 (user+sys ms, alternated, median of $runs;" \
    "load: $(cut -d' ' -f1-3 /proc/loadavg), $(tasks))"
python3 - "$TUNETOP" "$runs" <<'PY'
import os, statistics, subprocess, sys

tt, runs = sys.argv[1], int(sys.argv[2])
cmds = {"tunetop -b -n 1": [tt, "-b", "-n", "1", "-d", "0.1", "--scenario", "idle"],
        # The default scenario: its workload threads run until the first sample (0.1 s).
        "tunetop -b -n 1 (default)": [tt, "-b", "-n", "1"],
        "tunetop -b -n 1 --host": [tt, "-b", "-n", "1", "-d", "0.1", "--host"],
        "top -b -n 1": ["top", "-b", "-n", "1"]}
cpu = {k: [] for k in cmds}
for _ in range(runs):
    for k, c in cmds.items():
        p = subprocess.Popen(c, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, _, ru = os.wait4(p.pid, 0)
        cpu[k].append((ru.ru_utime + ru.ru_stime) * 1000)
top = statistics.median(cpu["top -b -n 1"])
for k, v in cpu.items():
    m = statistics.median(v)
    print(f"   {k:28} {m:6.1f} ms  {m / top if top else float('nan'):5.2f}x top")
PY
