#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""test_host_fds.py: `tunetop --host` keeps a listed thread's timerslack_ns (and, past the
TASKSTATS threads, schedstat) open from one refresh to the next, and closes them once the
thread exits (backends/host/host_sched.c). A helper process here runs threads named like OVS PMDs
(which the host matcher follows); tunetop's /proc/PID/fd links are what is checked."""
import json, os, re, signal, subprocess, sys, threading, time

TUNETOP = os.environ.get("TUNETOP", "build/tunetop")
N, GONE = 80, 40  # more than HOST_SNAP_MAX_ACCT (64): some threads read schedstat
DEADLINE = 30.0


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


threading.stack_size(64 * 1024)
stops = [threading.Event() for _ in range(N)]
ts = [threading.Thread(target=e.wait, daemon=True) for e in stops]
for t in ts:
    t.start()
tag = os.getpid() % 1000
for i, t in enumerate(ts):
    with open("/proc/self/task/%d/comm" % t.native_id, "w") as f:
        f.write("pmd-fd%d-%d" % (tag, i))
tids = [t.native_id for t in ts]

out = "/tmp/tt-hostfds.%d.json" % os.getpid()
tt = subprocess.Popen([TUNETOP, "--host", "-b", "-d", "0.2", "-n", "100000", "-o", out],
                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def held():
    """tids whose timerslack_ns / schedstat tunetop holds open now."""
    slack, sched = set(), set()
    d = "/proc/%d/fd" % tt.pid
    for fd in os.listdir(d):
        try:
            link = os.readlink(os.path.join(d, fd))
        except OSError:
            continue
        m = re.fullmatch(r"/proc/(\d+)/timerslack_ns", link)
        if m:
            slack.add(int(m.group(1)))
        m = re.fullmatch(r"/proc/\d+/task/(\d+)/schedstat", link)
        if m:
            sched.add(int(m.group(1)))
    return slack, sched


def wait_for(cond, what):
    end = time.monotonic() + DEADLINE
    while time.monotonic() < end:
        if tt.poll() is not None:
            fail("tunetop exited (%d) while waiting for %s" % (tt.returncode, what))
        if cond():
            return
        time.sleep(0.05)
    fail("no %s within %d s: slack fds %d, schedstat fds %d" %
         ((what, DEADLINE) + tuple(len(s & set(tids)) for s in held())))


def listed():
    """Our threads in tunetop's last line (it lists 1024 threads at most, by tid)."""
    try:
        lines = [l for l in open(out) if l.strip()]
        return {t["tid"] for t in json.loads(lines[-1])["threads"]} & set(tids)
    except (OSError, ValueError, IndexError, KeyError):
        return set()


try:
    end = time.monotonic() + DEADLINE
    while len(listed()) < N and time.monotonic() < end:
        time.sleep(0.1)
    if len(listed()) < N:
        print("SKIP: tunetop lists %d of our %d threads (a host with more than 1024 matched)"
              % (len(listed()), N))
        sys.exit(77)
    wait_for(lambda: set(tids) <= held()[0], "timerslack_ns fd kept for every thread")
    # The first refresh asks TASKSTATS of every thread (none has a baseline yet); from the
    # second, the threads past the first 64 read schedstat.
    wait_for(lambda: held()[1] & set(tids), "schedstat fd kept past the TASKSTATS threads")
    first = held()
    time.sleep(0.6)  # three refreshes: still the same files, none reopened for good
    if not set(tids) <= held()[0]:
        fail("a thread's timerslack_ns fd went away while it lived")
    for e in stops[:GONE]:
        e.set()
    for t in ts[:GONE]:
        t.join()
    gone, alive = set(tids[:GONE]), set(tids[GONE:])
    wait_for(lambda: not (held()[0] | held()[1]) & gone, "fds of the exited threads closed")
    if not alive <= held()[0]:
        fail("the living threads lost their fds")
    print("ok: %d slack and %d schedstat fds kept at first; %d threads exited, theirs closed"
          % (len(first[0] & set(tids)), len(first[1] & set(tids)), GONE))
finally:
    tt.send_signal(signal.SIGTERM)
    try:
        tt.wait(10)
    except subprocess.TimeoutExpired:
        tt.kill()
        tt.wait()
    for e in stops:
        e.set()
    if os.path.exists(out):
        os.unlink(out)
