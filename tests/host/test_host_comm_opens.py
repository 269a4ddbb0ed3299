#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""test_host_comm_opens.py: with TASKSTATS at hand (root), `tunetop --host` picks threads by
the names TASKSTATS gives, batched (backends/host/host_tscomm.c), and opens nothing of a thread
its matcher passes over: of a helper's N threads, the M named like OVS PMDs are listed (with
their /proc names) and only theirs have their comm opened (strace), where one comm file was
opened per thread before. Skips (77) without root, strace or TASKSTATS."""
import json, os, re, shutil, subprocess, sys, threading

TUNETOP = os.environ.get("TUNETOP", "build/tunetop")
N, M = 600, 20


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


if os.geteuid() != 0:
    print("skip: needs root (TASKSTATS)")
    sys.exit(77)
if not shutil.which("strace"):
    print("skip: no strace")
    sys.exit(77)

threading.stack_size(64 * 1024)
stop = threading.Event()
ts = [threading.Thread(target=stop.wait, daemon=True) for _ in range(N)]
for t in ts:
    t.start()
tag = os.getpid() % 1000
names = {}
for i, t in enumerate(ts):
    name = ("pmd-co%d-%d" % (tag, i)) if i < M else ("w%d-%d" % (tag, i))
    with open("/proc/self/task/%d/comm" % t.native_id, "w") as f:
        f.write(name[:15])
    names[t.native_id] = name[:15]

base = "/tmp/tt-commopens.%d" % os.getpid()
fake = None


def traced(extra_env):
    """tunetop --host -b -n 2 under strace: its JSON lines and the trace of its opens."""
    # LeakSanitizer cannot run under ptrace (it stops the process with a fatal error), so
    # an ASan build is traced without it; its other checks stay on.
    env = dict(os.environ, **extra_env)
    env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")
    with open(base + ".json", "w") as out, open(base + ".err", "w") as err:
        rc = subprocess.call(["strace", "-f", "-qq", "-e", "trace=openat", "-o", base + ".st",
                              TUNETOP, "--host", "-b", "-n", "2", "-d", "0.2"],
                             stdout=out, stderr=err, env=env, timeout=60)
    if rc != 0:
        fail("tunetop under strace exited %d: %s" % (rc, open(base + ".err").read()[-600:]))
    return [json.loads(l) for l in open(base + ".json") if l.strip()], open(base + ".st").read()


def comm_opened(trace):
    opened = set()
    for m in re.finditer(r'openat\([^,]*, "(?:[^"]*/)?(\d+)/comm"', trace):
        if int(m.group(1)) in names:
            opened.add(int(m.group(1)))
    return opened


try:
    lines, trace = traced({})
    # With an OVS control socket the PMDs are looked for before any scan listed a thread
    # (the slack and the probe's tids): in the vswitchd's own task list, not by reading
    # every thread's name on the host (here the socket's peer is a fake, not a vswitchd).
    fake = subprocess.Popen([sys.executable, os.path.join(os.path.dirname(os.path.abspath(
        __file__)), "..", "lib", "fake_ovs.py"), base + ".sock", "ok", base + ".ready"])
    for _ in range(400):
        if os.path.exists(base + ".ready"):
            break
        threading.Event().wait(0.05)
    ovs_lines, ovs_trace = traced({"TUNETOP_OVS_SOCKET": base + ".sock"})
finally:
    stop.set()
    if fake:
        fake.kill()
        fake.wait()
    for ext in (".json", ".st", ".err", ".sock", ".ready"):
        if os.path.exists(base + ext):
            os.unlink(base + ext)

last = lines[-1]
if not last["host"].get("taskstats"):
    print("skip: TASKSTATS not usable here: %s" % last["host"].get("taskstats_error"))
    sys.exit(77)
listed = {t["tid"]: t["name"] for t in last["threads"] if t["tid"] in names}
want = {tid: n for tid, n in names.items() if n.startswith("pmd-")}
if listed != want:
    fail("listed %d of the helper's threads, want its %d PMD-named ones: %s" %
         (len(listed), len(want), sorted(set(listed) ^ set(want))[:10]))
print("ok   the %d PMD-named threads listed with their names, none of the %d others" % (M, N - M))
opened = comm_opened(trace)
extra = sorted(t for t in opened if t not in want)
if extra:
    fail("%d unmatched threads had their comm opened (%s ...)" % (len(extra), extra[:5]))
print("ok   comm opened for %d threads, all of them listed ones (of %d)" % (len(opened), N))
check_ovs = ovs_lines and ovs_lines[-1]["host"].get("ovs")
if not check_ovs:
    fail("the fake OVS was not read: %s" % (ovs_lines[-1]["host"].get("ovs_error") if ovs_lines else "no line"))
extra = sorted(t for t in comm_opened(ovs_trace) if t not in want)
if extra:
    fail("with an OVS socket, %d unmatched threads had their comm opened (%s ...)" %
         (len(extra), extra[:5]))
print("ok   with an OVS socket too: no name read of a thread the matcher passes over")
