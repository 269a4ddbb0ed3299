#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# tt-sanitize: the agent's reader and sampler threads
"""`tunetop --agent`: the first snapshot whole, then deltas that rebuild the same object;
a reply line per command ({"reply":...}, never mistaken for a snapshot); a bad command gets
an error reply and the agent goes on; `set` changes the knob (read back in the JSON);
stdin closed -> exit 0 within one interval, no thread or child left; --host works too."""
import json
import os
import select
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from agentproto import apply  # noqa: E402
from ttcheck import check, finish  # noqa: E402

TUNETOP = os.environ.get("TUNETOP", "./tunetop")


class Agent:
    def __init__(self, *args):
        self.p = subprocess.Popen([TUNETOP, "--agent", *args], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  bufsize=1)
        self.snap = None

    def line(self, timeout=10):
        r, _, _ = select.select([self.p.stdout], [], [], timeout)
        if not r:
            return None
        l = self.p.stdout.readline()
        return json.loads(l) if l else None

    def next(self, want, timeout=10):
        """Read lines until one of kind want ('snap' or 'reply'); snapshots are applied."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            o = self.line(end - time.monotonic())
            if o is None:
                return None
            if "reply" in o:
                if want == "reply":
                    return o
                continue
            if "delta" in o:
                if self.snap is not None:
                    apply(self.snap, o["delta"])
            else:
                self.snap = o
            if want == "snap" and self.snap is not None:
                return self.snap
        return None

    def send(self, cmd):
        self.p.stdin.write(cmd + "\n")
        self.p.stdin.flush()


mark = 3000 + os.getpid() % 5000
a = Agent("-d", "0.3", "--set", f"engine.watchdog_ms={mark}")
first = a.line()
check(first is not None and first.get("schema") == 1 and "delta" not in first,
      "the first line is a whole schema-1 snapshot")
a.snap = first
s = a.next("snap")
check(s is not None and s["seq"] == 2, "a delta rebuilds the next snapshot (seq 2)")
check(s and sorted(s.keys()) == sorted(first.keys()), "the rebuilt snapshot has every section")

a.send("bogus command")
r = a.next("reply")
check(r is not None and r["reply"] == "error" and r["ok"] is False and "unknown command" in r["error"],
      f"a bad command gets an error reply: {r}")
s = a.next("snap")
check(a.p.poll() is None and s is not None, "the agent goes on after a bad command")
a.send("set pmd.maxsleep_us 99999")
r = a.next("reply")
check(r and r["ok"] is False and "0 to 10000" in r.get("error", ""), f"an out-of-range set is refused: {r}")
a.send("set pmd.maxsleep_us 1000")
r = a.next("reply")
check(r and r["ok"] is True and r["knob"] == "pmd.maxsleep_us" and r["value"] == "1000",
      f"set replies with the value stored: {r}")
for _ in range(3):
    s = a.next("snap")
check(s and s["knobs"]["pmd.maxsleep_us"] == 1000 and s["pmd"]["maxsleep_us"] == 1000,
      "the snapshots (rebuilt from deltas) carry the new max sleep")
a.send("interval 5")
r = a.next("reply")
check(r and r["ok"] is True, "interval 5 is taken")
a.send("interval fast")
r = a.next("reply")
check(r and r["ok"] is False, "interval fast is refused")

# stdin closed: exit 0 within half an interval (5 s: not at the next sample, with room for
# a sanitizer's teardown on a loaded machine), and nothing of it left.
t0 = time.monotonic()
a.p.stdin.close()
try:
    rc = a.p.wait(timeout=10)
except subprocess.TimeoutExpired:
    rc = None
dt = time.monotonic() - t0
check(rc == 0 and dt < 2.5, f"stdin closed: exit {rc} after {dt:.2f} s (interval 5 s)")
left = subprocess.run(["pgrep", "-f", f"engine.watchdog_ms={mark}"], capture_output=True,
                      text=True).stdout.split()
check(not left, f"no tunetop --agent left behind: {left}")

# quit: a reply, then exit 0.
a = Agent("-d", "0.3")
a.next("snap")
a.send("quit")
r = a.next("reply")
check(r and r["reply"] == "quit" and r["ok"], "quit replies")
check(a.p.wait(timeout=5) == 0, "quit exits 0")

# The host source through the same protocol.
a = Agent("--host", "-d", "0.3")
s = a.next("snap")
check(s is not None and s["backend"] == "host", "--agent --host sends host snapshots")
a.p.stdin.close()
check(a.p.wait(timeout=5) == 0, "--agent --host exits 0 at EOF")

r = subprocess.run([TUNETOP, "--agent", "-b"], capture_output=True, text=True)
check(r.returncode == 2, "--agent -b is a usage error")
finish()
