#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""tunetop --host -b: a followed thread's state is read when it ran, at -d 0.2.

The host backend reads a thread's stat file (its state and last CPU) when the thread ran since
the last refresh, and the others' at most every 0.9 s (docs/pmd.md, "What it costs beside top
and htop"). A thread of host.pid spins 1.3 s and sleeps 1.3 s in turn (out of step with the 0.9 s
re-reads, so a state kept too long would show); from its CPU time alone:
- a line whose CPU time grew in its interval and in the next one (10 ms or more each, the two
  under 1.2 s together) was taken while it spun: a sleep of 1.3 s around the line would have
  covered one of the two whole. Its state is R (running or runnable: on a loaded machine a
  spinner waits for a CPU, but it does not sleep);
- a line whose CPU time did not move since the line before, nor up to the line after, was
  taken while it slept: its state is S, not the R of a read made while it last spun.
"""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from ttcheck import check, finish  # noqa: E402

TUNETOP = os.environ.get("TUNETOP", "./tunetop")
CHILD = r"""
import threading, time, sys
def work():
    while True:
        end = time.monotonic() + 1.3
        while time.monotonic() < end:
            pass
        time.sleep(1.3)
t = threading.Thread(target=work, daemon=True)
t.start()
print(t.native_id, flush=True)
time.sleep(60)
"""

child = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True)
try:
    tid = int(child.stdout.readline())
    r = subprocess.run([TUNETOP, "--host", "-b", "-n", "40", "-d", "0.2", "--set",
                        "host.pid=%d" % child.pid], capture_output=True, text=True, timeout=60)
finally:
    child.kill()
    child.wait()
check(r.returncode == 0, "tunetop --host -b exits 0 (rc %d, stderr %r)" % (r.returncode, r.stderr[:300]))
rows = []  # (interval_s, cpu_ns, state) of the worker per line
for line in r.stdout.splitlines():
    o = json.loads(line)
    me = [t for t in o["threads"] if t["tid"] == tid]
    check(len(me) == 1, "the worker (tid %d) listed once" % tid)
    if me:
        rows.append((o["interval_s"], me[0]["cpu_ns"], me[0]["state"]))
spun = slept = 0
for i in range(1, len(rows) - 1):
    d0 = rows[i][1] - rows[i - 1][1]
    d1 = rows[i + 1][1] - rows[i][1]
    if d0 >= 0.01e9 and d1 >= 0.01e9 and rows[i][0] + rows[i + 1][0] < 1.2:
        spun += 1
        check(rows[i][2] == "R", "line %d: spinning through it, state %s" % (i, rows[i][2]))
    elif d0 == 0 and d1 == 0:
        slept += 1
        check(rows[i][2] == "S", "line %d: asleep through it, state %s" % (i, rows[i][2]))
check(spun >= 3 and slept >= 3,
      "the worker seen spinning (%d lines) and asleep (%d lines)" % (spun, slept))
finish()
