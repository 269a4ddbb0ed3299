# SPDX-License-Identifier: GPL-2.0-or-later
"""agentproto.py: the far side of `tunetop --agent` for the Python tests: the delta lines
(JSON Pointer paths, RFC 6901 escapes) applied to the last whole snapshot, by this code and
not tunetop's, and an Agent that spawns tunetop, reads its snapshots with a deadline and sends
commands (the protocol: docs/reference.md "Agent, remote hosts and the fleet view")."""
import json
import os
import select
import subprocess
import sys
import time

TUNETOP = os.environ.get("TUNETOP", "./tunetop")


def unescape(seg):
    return seg.replace("~1", "/").replace("~0", "~")


def apply(base, delta):
    """Apply one delta line's {path: value} to base in place ("/" replaces the whole)."""
    for path, v in delta.items():
        if path == "/":
            base.clear()
            base.update(v)
            continue
        segs = [unescape(s) for s in path.split("/")]
        node = base
        for s in segs[:-1]:
            node = node[int(s)] if isinstance(node, list) else node[s]
        last = segs[-1]
        if isinstance(node, list):
            if int(last) == len(node):
                node.append(v)
            else:
                node[int(last)] = v
        else:
            node[last] = v


class Agent:
    """tunetop --agent ARGS; snapshot() rebuilds each one from its delta. Every snapshot must
    carry diagnoses[]; worst_host keeps the most the host took of a PMD or est thread (the
    PMDs' stolen_pct, the threads' run-queue delay), for tests that cannot hold on a machine
    whose host takes most of the CPU."""

    def __init__(self, *args):
        self.p = subprocess.Popen([TUNETOP, "--agent", *args], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  bufsize=1)
        self.snap = None
        self.worst_host = 0.0

    def snapshot(self, timeout=15):
        """The next snapshot (rebuilt from its delta), a copy through json; None at timeout."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            r, _, _ = select.select([self.p.stdout], [], [], max(0, end - time.monotonic()))
            if not r:
                return None
            line = self.p.stdout.readline()
            if not line:
                return None
            o = json.loads(line)
            if "reply" in o:
                if not o.get("ok"):
                    sys.exit(f"agent refused a command: {o}")
                continue
            if "delta" in o:
                apply(self.snap, o["delta"])
            else:
                self.snap = o
            s = json.loads(json.dumps(self.snap))
            if "diagnoses" not in s:
                sys.exit(f"a snapshot without diagnoses[] (seq {s.get('seq')})")
            self.worst_host = max(self.worst_host, host_taken_pct(s))
            return s
        return None

    def send(self, cmd):
        self.p.stdin.write(cmd + "\n")
        self.p.stdin.flush()

    def until(self, pred, timeout):
        """Snapshots until pred(s) holds: (s, the snapshots read); s None at the deadline."""
        end = time.monotonic() + timeout
        seen = []
        while time.monotonic() < end:
            s = self.snapshot(end - time.monotonic())
            if s is None:
                break
            seen.append(s)
            if pred(s):
                return s, seen
        return None, seen

    def close(self):
        try:
            self.send("quit")
        except BrokenPipeError:
            pass
        try:
            self.p.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()


def host_taken_pct(s):
    """The most the host took of a PMD or est thread in snapshot s, read from the figures the
    snapshot carries (not from the finding): the PMDs' stolen_pct, the run-queue delay of the
    pmd and est threads, and the share of the est kthreads' ticks they waited for a CPU (the
    tick time per estimator by the clock against their CPU per estimator visited, docs/diag.md
    "The host first"). 0 when none is known."""
    worst = 0.0
    for t in (s.get("pmd") or {}).get("threads", []):
        worst = max(worst, t.get("stolen_pct") or 0)
    for t in s.get("threads", []):
        if t.get("subsystem") in ("pmd", "est"):
            worst = max(worst, t.get("runq_delay_pct") or 0)
    e = s.get("est") or {}
    per_est, visits = (e.get("tick_ns") or {}).get("per_est"), e.get("visits")
    if per_est and visits:
        cpu = sum(k.get("cpu_pct") or 0 for k in e.get("kthread", []))
        cpv = cpu / 100 * s.get("interval_s", 1) * 1e9 / visits
        worst = max(worst, 100 * (1 - cpv / per_est) if cpv < per_est else 0)
    return worst
