#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""test_serve_idle.py: an exporter nobody scrapes costs nothing between scrapes. With
`tunetop --host --serve 127.0.0.1:0 -b -o /dev/null` (it samples at scrape time,
docs/metrics.md), after one scrape every thread of the process sleeps until the next one or a
signal: strace over 3 idle seconds sees at most a handful of system calls, where the old batch
loop woke every 50 ms to look at its quit flag and the connection guard every 250 ms (about 70
calls in 3 s). SIGTERM still ends it at once. Skips (77) without strace or ptrace, and under
TSan, whose own background thread wakes the process."""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

TUNETOP = os.environ.get("TUNETOP", "build/tunetop")
IDLE_S = 3
MAX_CALLS = 10


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


if not shutil.which("strace"):
    print("skip: no strace")
    sys.exit(77)
if os.path.basename(os.environ.get("TT_BUILD", "").rstrip("/")) == "tsan":
    print("skip: TSan's background thread wakes the process on its own")
    sys.exit(77)

env = dict(os.environ)
# LeakSanitizer cannot run in a process that was traced; the other ASan checks stay on.
env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")
tmp = tempfile.mkdtemp(prefix="tt-serveidle.")
errpath = os.path.join(tmp, "err")
trace = os.path.join(tmp, "trace")
with open(errpath, "w") as err:
    p = subprocess.Popen([TUNETOP, "--host", "--serve", "127.0.0.1:0", "-b", "-o", "/dev/null"],
                         stdout=subprocess.DEVNULL, stderr=err, env=env)
try:
    port, end = None, time.monotonic() + 30
    while port is None and time.monotonic() < end and p.poll() is None:
        m = re.search(r"serving /metrics on port (\d+)", open(errpath).read())
        port = int(m.group(1)) if m else None
        time.sleep(0.05)
    if port is None:
        fail("no port announced: rc %s, %s" % (p.poll(), open(errpath).read()[-400:]))
    body = urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=20).read()
    if b"tunetop_info" not in body:
        fail("the scrape has no tunetop_info: %r" % body[:200])
    time.sleep(0.5)  # the scrape's sample and its connection's close are done
    st = subprocess.Popen(["strace", "-f", "-qq", "-o", trace, "-p", str(p.pid)],
                          stderr=subprocess.PIPE, text=True)
    # strace says nothing once attached; its trace file appears at once, then a settle time
    # for its own attach (it interrupts every thread's wait once: restart_syscall lines).
    end = time.monotonic() + 10
    while not os.path.exists(trace) and time.monotonic() < end and st.poll() is None:
        time.sleep(0.02)
    if st.poll() is not None:
        print("skip: strace cannot attach: %s" % st.stderr.read().strip()[-300:])
        sys.exit(77)
    time.sleep(0.3)
    start = sum(1 for _ in open(trace))
    time.sleep(IDLE_S)
    lines = open(trace).read().splitlines()[start:]
    st.send_signal(signal.SIGINT)
    st.wait(timeout=10)
    # A wait strace's attach interrupted comes back as restart_syscall, however late.
    calls = [l for l in lines if "resumed>" not in l and "+++" not in l and "---" not in l
             and "restart_syscall" not in l]
    print("idle %d s after a scrape: %d system calls" % (IDLE_S, len(calls)))
    for l in calls[:10]:
        print("   " + l)
    if len(calls) > MAX_CALLS:
        fail("%d system calls in %d idle seconds (at most %d)" % (len(calls), IDLE_S, MAX_CALLS))
    # A quit signal still reaches the waiting loop at once (the self-pipe, tui/sig.c).
    t0 = time.monotonic()
    p.send_signal(signal.SIGTERM)
    rc = p.wait(timeout=10)
    took = time.monotonic() - t0
    print("SIGTERM: exit %d after %.2f s" % (rc, took))
    if rc != 0:
        fail("exit %d after SIGTERM: %s" % (rc, open(errpath).read()[-400:]))
finally:
    if p.poll() is None:
        p.kill()
        p.wait()
    shutil.rmtree(tmp, ignore_errors=True)
print("ok")
