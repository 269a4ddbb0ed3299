#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# tt-sanitize: host sampling (the host source's threads)
"""tunetop --host -b: valid JSON lines with the host's threads and CPUs, checked against /proc.

Every line is one object with schema 1, backend "host", a cpus[] entry per CPU in /proc/stat,
threads picked by name (kworker/ksoftirqd always exist), a host section saying which sources
answered; a process given by host.pid is followed, and its spinning thread's cpu_pct is its
cpu_ns delta over the interval (no absolute speed: the machine is shared).
Knobs the host cannot take are refused with exit 1 and a message naming the knob.
"""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from ttcheck import check, finish  # noqa: E402

TUNETOP = os.environ.get("TUNETOP", "./tunetop")



def run(args, env=None, timeout=30):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([TUNETOP] + args, capture_output=True, text=True, timeout=timeout, env=e)


ncpu_stat = sum(1 for line in open("/proc/stat") if line.startswith("cpu") and line[3].isdigit())

# A spinner to follow by pid: one busy thread, the main one.
spin = subprocess.Popen([sys.executable, "-c", "while True: pass"])
try:
    time.sleep(0.2)
    r = run(["--host", "-b", "-n", "3", "-d", "0.4", "--set", "host.pid=%d" % spin.pid])
finally:
    spin.kill()
    spin.wait()
check(r.returncode == 0, "tunetop --host -b -n 3 exits 0 (rc %d, stderr %r)" % (r.returncode, r.stderr[:300]))
lines = [l for l in r.stdout.splitlines() if l.strip()]
check(len(lines) == 3, "3 JSON lines (got %d)" % len(lines))
objs = []
for l in lines:
    try:
        objs.append(json.loads(l))
    except ValueError as e:
        check(False, "line parses as JSON: %s" % e)
for i, o in enumerate(objs):
    check(o.get("schema") == 1 and o.get("backend") == "host", "line %d: schema 1, backend host" % i)
    cpus = o["cpu"]["cpus"]
    check(len(cpus) >= ncpu_stat, "line %d: %d cpus (/proc/stat has %d)" % (i, len(cpus), ncpu_stat))
    check(all(0 <= c["load_pct"] <= 100 for c in cpus), "line %d: load_pct within 0..100" % i)
    check(all(c["freq_mhz"] >= 0 for c in cpus), "line %d: freq_mhz present" % i)
    names = [t["name"] for t in o["threads"]]
    check(any(n.startswith("ksoftirqd") for n in names), "line %d: ksoftirqd threads listed" % i)
    check(all(t["subsystem"] in ("engine", "est", "pmd", "blk", "ovs", "kernel", "other")
              for t in o["threads"]),
          "line %d: subsystem strings valid" % i)
    check(all(t["subsystem"] == "blk" for t in o["threads"] if t["name"].startswith("ksoftirqd")),
          "line %d: ksoftirqd guessed as blk" % i)
    h = o.get("host")
    check(isinstance(h, dict), "line %d: host section present" % i)
    if not isinstance(h, dict):
        continue
    check(h["thread_source"] in ("taskstats", "procfs"), "line %d: thread_source says which" % i)
    check(h["thread_source"] == "taskstats" or h["taskstats_error"], "line %d: a reason when no taskstats" % i)
    check(h["links_ok"] and any(l["name"] == "lo" for l in h["links"]), "line %d: rtnetlink links with lo" % i)
    check(all(l["rx_drop_per_s"] >= 0 and l["tx_drop_per_s"] >= 0 for l in h["links"]),
          "line %d: drop rates per second" % i)
    check(h["pid"] == spin.pid, "line %d: host.pid followed" % i)
    if "blk" in o:
        check(len(o["blk"]["per_cpu"]) >= 1, "line %d: blk per_cpu from /proc/softirqs" % i)
        check(o["blk"]["totals"]["submitted"] == o["blk"]["totals"]["completed"] + o["blk"]["totals"]["in_flight"],
              "line %d: blk totals s = c + i" % i)
        check("blk.lat_us" in h["absent"], "line %d: latency reported absent, not invented" % i)
    if i > 0:
        me = [t for t in o["threads"] if t["tid"] == spin.pid]
        check(len(me) == 1, "line %d: spinner (pid %d) listed" % (i, spin.pid))
        prev = [t for t in objs[i - 1]["threads"] if t["tid"] == spin.pid]
        if me and prev:
            # The machine is shared: assert it runs, and that cpu_pct is the cpu_ns delta
            # over the interval (taskstats' exact ns), not an absolute speed.
            pct = 100.0 * (me[0]["cpu_ns"] - prev[0]["cpu_ns"]) / (o["interval_s"] * 1e9)
            # At any load a busy loop gets some CPU in 0.4 s; how much is the machine's.
            check(me[0]["cpu_ns"] > prev[0]["cpu_ns"] and me[0]["cpu_pct"] > 0,
                  "line %d: spinner runs (%.1f%%)" % (i, me[0]["cpu_pct"]))
            check(abs(me[0]["cpu_pct"] - pct) < 5,
                  "line %d: cpu_pct %.1f matches the cpu_ns delta %.1f" % (i, me[0]["cpu_pct"], pct))

# Knobs the host has no equivalent for are a usage error with a message, from --set and
# from a scenario alike (never a silent ignore).
r = run(["--host", "-b", "-n", "1", "--set", "est.count=5"])
check(r.returncode == 2 and "est.count: an engine knob" in r.stderr,
      "est.count refused on the host (rc %d, %r)" % (r.returncode, r.stderr.strip()))
r = run(["--host", "-b", "-n", "1", "--scenario", "default"])
check(r.returncode == 2 and "an engine knob" in r.stderr,
      "an engine scenario refused on the host (rc %d, %r)" % (r.returncode, r.stderr.strip()))
# Host mode is read-only unless --write: a host knob names it, exit 2, nothing written.
r = run(["--host", "-b", "-n", "1", "--set", "pmd.maxsleep_us=100"])
check(r.returncode == 2 and "--write" in r.stderr,
      "a host knob without --write names --write (rc %d, %r)" % (r.returncode, r.stderr.strip()))
# A device name that could escape /sys/block is refused at start.
r = run(["--host", "-b", "-n", "1"], env={"TUNETOP_BLK_DEV": "../../etc"})
# A usage error: exit 2, as README says.
check(r.returncode == 2 and "not a valid name" in r.stderr, "TUNETOP_BLK_DEV=../../etc refused (%r)" % r.stderr.strip())
r = run(["--host", "-b", "-n", "1"], env={"TUNETOP_OVS_SOCKET": "/nonexistent/ovs.ctl"})
check(r.returncode == 1 and "TUNETOP_OVS_SOCKET" in r.stderr, "a bad TUNETOP_OVS_SOCKET is an error (%r)" % r.stderr.strip())
# Without cpufreq (most VMs) the governor knob says why.
if not os.path.exists("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"):
    r = run(["--host", "--write", "-b", "-n", "1", "--set", "cpu.governor=powersave"])
    check(r.returncode == 1 and "no cpufreq policy" in r.stderr, "cpu.governor without cpufreq: %r" % r.stderr.strip())

finish()
