#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""soak.py: the long soak (`make soak`, SOAK_SECONDS).

For each scenario in turn (default, then pmd-seed), for SECONDS / len(scenarios), two runs
each take a knob change every 100 ms, and every snapshot either of them makes is checked
(CHECKS below: counters never go backwards, the conservation bounds with in_flight counted in
the rings and queues, the engine's own invariant events):
- the ASan console in a private tmux server, changed through the ':' prompt. It records every
  snapshot it draws (--record), and the recording is read as it grows, so the checks see the
  very process whose knobs change. After every change the screen is read: the console still
  runs, and the control thread's worst sample, render and key (read to frame sent) on the
  debug line stay under SAMPLE_MAX_US and RENDER_MAX_US;
- the release build as an agent (--agent), changed through `set KNOB VALUE`. Each change must
  get a reply within 2 s; the value the reply names must be what the next snapshot's `knobs`
  shows (one writer per knob); its RSS (VmRSS) at the end may not exceed its RSS after warm-up (every
  value of every knob once, largest last) by more than 10%. The agent's deltas are applied here, by this script's own code, to rebuild each snapshot.
At the end the console quits with q: exit status 0 and no sanitizer report.
Then the fleet phase (--fleet-seconds): the release console with --remote to two fake far
sides (tests/lib/fake_far.py as --ssh): `good` (the real agent) and `hostile` (a flood of
snapshot lines, then garbage, then silence, a third of the time each; the garbage makes it
broken, tried again after 30 s). Every second: the good host's row is at most 2.5 s old,
a key (Down/Up) gets its frame within RENDER_MAX_US (the debug line's worst key), and at the
end the console's RSS is at most 10% (+2 MB) over its RSS 5 s in, and q quits with status 0.
Add a check by adding a row to MONOTONIC or EQUATIONS. Exit 0 when every check passed.
"""
import argparse
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

# Counters that may never decrease between two lines of one run ("a.b" paths; [*] = each).
MONOTONIC = [
    "seq",
    "pmd.totals.generated", "pmd.totals.forwarded", "pmd.totals.dropped",
    "pmd.totals.restart_dropped",
    "pmd.threads[*].rx_drops", "pmd.threads[*].tx_drops",
    "blk.totals.submitted", "blk.totals.completed",
    "blk.completions.direct", "blk.completions.local_softirq", "blk.completions.remote",
    "est.calibration.count",
]
# (name, function(snapshot) -> None or a message): in_flight is counted where the work is
# (rings, device queues, completion lists), independently of the counters it is checked with.
def _pmd_conserve(o):
    # in_flight is counted in the rings, independently of the three counters; live, the
    # packets in a PMD's hands are the remainder, which must lie within the capacity
    # (exact equality holds only with the PMDs paused: the engine's own check).
    t = o.get("pmd", {}).get("totals")
    if not t or "capacity" not in t:
        return None
    if t["in_flight"] < 0:
        return "pmd in_flight %d < 0" % t["in_flight"]
    u = t["generated"] - t["forwarded"] - t["dropped"] - t["in_flight"]
    if u < 0 or u > t["capacity"]:
        return "pmd generated %d - forwarded %d - dropped %d - in_flight %d = %d, outside 0..%d" % (
            t["generated"], t["forwarded"], t["dropped"], t["in_flight"], u, t["capacity"])
    return None

def _blk_conserve(o):
    # Likewise: requests found at the device, the interrupt CPU and the done lists; the rest
    # are in a submitter's hands, at most submitters x iodepth.
    t = o.get("blk", {}).get("totals")
    if not t:
        return None
    if t["in_flight"] < 0:
        return "blk in_flight %d < 0" % t["in_flight"]
    u = t["submitted"] - t["completed"] - t["in_flight"]
    bound = o["blk"].get("submitters", 0) * o.get("knobs", {}).get("blk.iodepth", 0)
    if bound and abs(u) > bound:
        return "blk submitted %d - completed %d - in_flight %d = %d, beyond %d" % (
            t["submitted"], t["completed"], t["in_flight"], u, bound)
    return None

def _no_invariant_event(o):
    for e in o.get("events", []):
        if e.get("kind") == "invariant":
            return "the engine's own check: %s" % e.get("text")
    return None

def _est_placed(o):
    e = o.get("est")
    if not e or "estimators" not in e or "placed" not in e or "pending" not in e:
        return None
    if e["estimators"] != e["placed"] + e["pending"]:
        return "est estimators %d != placed %d + pending %d" % (
            e["estimators"], e["placed"], e["pending"])
    return None

EQUATIONS = [("pmd conservation", _pmd_conserve), ("blk conservation", _blk_conserve),
             ("est placement", _est_placed), ("engine invariant", _no_invariant_event)]

# Knob changes sent through ':' (valid values: a refusal is counted, not a failure).
KNOBS = [
    ("pmd.maxsleep_us", [0, 10, 50, 100, 250, 500, 1000]),
    ("pmd.timer_slack_ns", [1000, 50000]),
    ("pmd.sleep_inc_us", [1, 2, 10]),
    ("gen.rate_pps", [0, 5000, 20000, 100000, 600000]),
    ("gen.pattern", ["constant", "bursty", "on-off"]),
    ("gen.burst", [1, 8, 32, 64]),
    ("est.count", [500, 1000, 2000, 4000]),
    ("est.traffic_pps", [0, 1000, 10000]),
    ("blk.rq_affinity", [0, 1, 2]),
    ("blk.service_us", [50, 100, 500]),
    ("blk.service_jitter_us", [0, 50, 100]),
    ("cpu.governor", ["performance", "powersave", "ondemand", "schedutil"]),
    ("est.recalibrate", [1]),
]


def get_paths(o, path):
    """Values at a dotted path; "[*]" walks every element of a list."""
    out = [(path, o)]
    for part in path.split("."):
        nxt = []
        for name, v in out:
            key, star = (part[:-3], True) if part.endswith("[*]") else (part, False)
            if not isinstance(v, dict) or key not in v:
                continue
            v = v[key]
            if star and isinstance(v, list):
                nxt.extend(("%s[%d]" % (name, i), x) for i, x in enumerate(v))
            elif not star:
                nxt.append((name, v))
        out = nxt
    return [(n, v) for n, v in out if isinstance(v, (int, float)) and not isinstance(v, bool)]


# The control thread's limits (ASan build, a loaded 2-core CI machine). A sample reads the
# source and must never wait on it; render includes writing to the terminal (doupdate()),
# which waits when tmux is slow to read, as any curses program does; a key is read to frame
# sent.
SAMPLE_MAX_US = int(os.environ.get("SOAK_SAMPLE_MAX_US", "500000"))
RENDER_MAX_US = int(os.environ.get("SOAK_RENDER_MAX_US", "2000000"))
# Knobs whose reply is not a value to read back (actions).
NO_READBACK = {"est.recalibrate"}


class SnapshotChecker:
    """Checks a stream of whole snapshots: MONOTONIC and EQUATIONS on every one."""

    def __init__(self, who):
        self.who = who
        self.n = self.checks = 0
        self.failures = []
        self.prev = {}

    def fail(self, msg):
        self.failures.append("%s snapshot %d: %s" % (self.who, self.n, msg))

    def check(self, o):
        self.n += 1
        now = {}
        for path in MONOTONIC:
            for name, v in get_paths(o, path):
                now[name] = v
                self.checks += 1
                if name in self.prev and v < self.prev[name]:
                    self.fail("%s went back %s -> %s" % (name, self.prev[name], v))
        self.prev.update(now)
        for name, fn in EQUATIONS:
            self.checks += 1
            msg = fn(o)
            if msg:
                self.fail("%s: %s" % (name, msg))


def _unescape(part):
    return part.replace("~1", "/").replace("~0", "~")


def apply_delta(base, delta):
    """The agent's {"path/to/leaf": value} delta (backends/remote/jdelta.h), applied to base in place:
    written here again, not taken from the C code, so a wrong delta cannot pass as right."""
    for path, v in delta.items():
        parts = [_unescape(x) for x in path.split("/")]
        node = base
        for part in parts[:-1]:
            node = node[int(part)] if isinstance(node, list) else node[part]
        last = parts[-1]
        if isinstance(node, list):
            node[int(last)] = v
        else:
            node[last] = v


def same_value(json_v, shown):
    """A knob's value in snapshot JSON against the text a reply shows."""
    if isinstance(json_v, bool):
        return shown in (("on", "true", "1") if json_v else ("off", "false", "0"))
    if isinstance(json_v, (int, float)):
        try:
            return float(shown) == float(json_v)
        except ValueError:
            return False
    return str(json_v) == shown


class Agent:
    """The release build as `--agent`: changes by command, every snapshot rebuilt and checked,
    each reply's value read back from the next snapshot, RSS recorded."""

    def __init__(self, binp, scenario, delay):
        self.p = subprocess.Popen([binp, "--agent", "-d", str(delay), "--scenario", scenario],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, bufsize=1)
        self.chk = SnapshotChecker("agent")
        self.snap = None
        self.lock = threading.Lock()
        self.replies = 0
        self.refused = 0
        self.readbacks = 0
        self.expect = {}  # knob -> value its last reply named, until a snapshot shows it
        self.rss = []  # (t, kB)
        self.t0 = time.monotonic()
        self.th = threading.Thread(target=self._run, daemon=True)
        self.th.start()

    def _rss_kb(self):
        try:
            with open("/proc/%d/status" % self.p.pid) as f:
                for ln in f:
                    if ln.startswith("VmRSS:"):
                        return int(ln.split()[1])
        except OSError:
            pass
        return None

    def _snapshot(self, o):
        self.chk.check(o)
        knobs = o.get("knobs", {})
        with self.lock:
            for k, v in self.expect.items():
                self.readbacks += 1
                if k in knobs and not same_value(knobs[k], v):
                    self.chk.fail("%s: the reply said %s, the next snapshot shows %s" % (
                        k, v, knobs[k]))
            self.expect.clear()
        kb = self._rss_kb()
        if kb:
            self.rss.append((time.monotonic() - self.t0, kb))

    def _run(self):
        for ln in self.p.stdout:
            try:
                o = json.loads(ln)
            except ValueError as e:
                self.chk.failures.append("agent: not JSON (%s): %.200s" % (e, ln))
                continue
            if "reply" in o:
                with self.lock:
                    self.replies += 1
                    if not o.get("ok"):
                        self.refused += 1
                    elif o.get("reply") == "set" and o.get("knob") not in NO_READBACK:
                        self.expect[o["knob"]] = o.get("value")
                continue
            if "delta" in o:
                if self.snap is None:
                    self.chk.failures.append("agent: a delta before any whole snapshot")
                    continue
                try:
                    apply_delta(self.snap, o["delta"])
                except (KeyError, IndexError, ValueError, TypeError) as e:
                    self.chk.failures.append("agent: a delta that does not fit (%r)" % e)
                    self.snap = None
                    self.p.stdin.write("full\n")
                    continue
            else:
                self.snap = o
            self._snapshot(self.snap)

    def send(self, knob, value):
        """One change; True when its reply came within 2 s."""
        with self.lock:
            want = self.replies + 1
        try:
            self.p.stdin.write("set %s %s\n" % (knob, value))
            self.p.stdin.flush()
        except (BrokenPipeError, OSError):
            return False
        t = time.monotonic() + 2
        while time.monotonic() < t:
            with self.lock:
                if self.replies >= want:
                    return True
            time.sleep(0.005)
        return False

    def stop(self):
        try:
            self.p.stdin.write("quit\n")
            self.p.stdin.close()
        except (BrokenPipeError, OSError):
            pass
        try:
            rc = self.p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.p.kill()
            rc = self.p.wait()
        self.th.join(timeout=5)
        if rc != 0:
            self.chk.failures.append("agent exited %d: %s" % (rc, self.p.stderr.read()[:300]))


class Recording:
    """Follows the console's --record file as it grows; checks every snapshot line."""

    def __init__(self, path):
        self.path = path
        self.chk = SnapshotChecker("console")
        # The console's own worst sample and render over every snapshot it recorded (the
        # debug line shows the last frame's only), to tell a slow step from a stalled one.
        self.worst_sample_us = self.worst_render_us = 0
        self.stop_ev = threading.Event()
        self.th = threading.Thread(target=self._run, daemon=True)
        self.th.start()

    def _run(self):
        f = None
        buf = ""
        while True:
            stopping = self.stop_ev.is_set()
            if f is None:
                try:
                    f = open(self.path)
                except OSError:
                    if stopping:
                        return
                    time.sleep(0.05)
                    continue
            chunk = f.read()
            if chunk:
                buf += chunk
                *lines, buf = buf.split("\n")
                for ln in lines:
                    if not ln:
                        continue
                    try:
                        o = json.loads(ln)
                        self.chk.check(o)
                        own = o.get("self") or {}
                        self.worst_sample_us = max(self.worst_sample_us,
                                                   own.get("sample_us") or 0)
                        self.worst_render_us = max(self.worst_render_us,
                                                   own.get("render_us") or 0)
                    except ValueError as e:
                        self.chk.failures.append("console recording: not JSON (%s)" % e)
            elif stopping:
                f.close()
                return
            else:
                time.sleep(0.05)

    def finish(self):
        self.stop_ev.set()
        self.th.join(timeout=30)


class Console:
    def __init__(self, binp, scenario, delay, tmp):
        self.sock = "tt-soak-%d-%d" % (os.getpid(), random.randrange(1 << 30))
        self.tmp = tmp
        self.err = os.path.join(tmp, "console.err")
        self.rc = os.path.join(tmp, "console.rc")
        self.rec = os.path.join(tmp, "console-%s.jsonl" % scenario)
        for f in (self.err, self.rc, self.rec):
            if os.path.exists(f):
                os.unlink(f)
        env = "ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 UBSAN_OPTIONS=halt_on_error=1"
        cmd = "%s %s -d %s --scenario %s --record %s 2>%s; echo $? > %s; sleep 600" % (
            env, binp, delay, scenario, self.rec, self.err, self.rc)
        self.tmux("new", "-d", "-x", "120", "-y", "40", cmd)

    def tmux(self, *a):
        return subprocess.run(["tmux", "-L", self.sock, "-f", "/dev/null"] + list(a),
                              capture_output=True, text=True, timeout=20)

    def screen(self):
        return self.tmux("capture-pane", "-p").stdout

    def send(self, *keys):
        self.tmux("send-keys", *keys)

    def exited(self):
        return os.path.exists(self.rc) and os.path.getsize(self.rc) > 0

    def close(self):
        self.tmux("kill-server")


FRAME_RE = re.compile(r"sample (\d+) us  render (\d+) us")
KEY_RE = re.compile(r"key \d+ us \(max (\d+)\)")


def warm_up(agent):
    """Every value of every knob once, largest last, then a few snapshots: what the agent
    allocates for the biggest settings is in its RSS before the baseline is taken, so growth
    past it is a leak, not a larger workload. Returns the baseline RSS (kB) or None."""
    for knob, vals in KNOBS:
        order = sorted(vals) if all(isinstance(v, int) for v in vals) else vals
        for v in order:
            if not agent.send(knob, v):
                return None
    n = agent.chk.n
    t = time.monotonic() + 10
    while agent.chk.n < n + 4 and time.monotonic() < t:
        time.sleep(0.05)
    return agent.rss[-1][1] if agent.rss else None


def soak_one(args, scenario, seconds, tmp, totals, rnd):
    print("soak: %s for %.0f s" % (scenario, seconds), flush=True)
    agent = Agent(args.release, scenario, args.delay)
    con = Console(args.asan, scenario, args.delay, tmp)
    rec = Recording(con.rec)
    fails = []
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and "F10Quit" not in con.screen():
        time.sleep(0.1)
    if "F10Quit" not in con.screen():
        fails.append("%s: the console never drew (%s)" % (scenario, con.screen()[-300:]))
    rss_base = warm_up(agent)
    if rss_base is None:
        fails.append("%s: the agent's warm-up got no reply or no RSS" % scenario)
    end = time.monotonic() + seconds
    changes = refused = agent_changes = 0
    worst_frame = (0, 0)
    worst_key = 0  # key read to frame sent, the console's own worst
    worst_sample = 0
    nxt = time.monotonic()
    sent = []  # the console's changes so far, for the note on a slow key
    slow_key = ""
    while time.monotonic() < end and not fails:
        knob, vals = rnd.choice(KNOBS)
        sent.append("%s=%s" % (knob, rnd.choice(vals)))
        con.send(":", "set " + sent[-1], "Enter")
        changes += 1
        knob, vals = rnd.choice(KNOBS)
        if not agent.send(knob, rnd.choice(vals)):
            fails.append("%s: the agent gave no reply to set %s within 2 s" % (scenario, knob))
            break
        agent_changes += 1
        scr = con.screen()
        totals["checks"] += 1
        if con.exited():
            fails.append("%s: the console exited after %d changes: %s" % (
                scenario, changes, open(con.err).read()[-2000:]))
            break
        if "error:" in scr:
            refused += 1
        k = KEY_RE.search(scr)
        if k:
            if int(k.group(1)) > RENDER_MAX_US and not slow_key:
                slow_key = "; the key over it came within the last changes %s; the screen's " \
                    "last line: %s" % (sent[-4:], scr.strip().splitlines()[-1:])
            worst_key = max(worst_key, int(k.group(1)))
        m = FRAME_RE.search(scr)
        if m:
            s_us, r_us = int(m.group(1)), int(m.group(2))
            worst_sample = max(worst_sample, s_us)
            if s_us + r_us > sum(worst_frame):
                worst_frame = (s_us, r_us)
        if rec.chk.failures or agent.chk.failures:
            break
        nxt += 0.1
        time.sleep(max(0, nxt - time.monotonic()))
    if worst_sample > SAMPLE_MAX_US:
        fails.append("%s: a sample took %d us on the control thread (over %d us)" % (
            scenario, worst_sample, SAMPLE_MAX_US))
    if worst_frame[1] > RENDER_MAX_US or worst_key > RENDER_MAX_US:
        fails.append("%s: a frame took render %d us, a key %d us to its frame (over %d us; the "
                     "recorded snapshots' worst sample %d us, render %d us%s)" % (
                         scenario, worst_frame[1], worst_key, RENDER_MAX_US,
                         rec.worst_sample_us, rec.worst_render_us, slow_key))
    con.send("Escape")
    con.send("q")
    t = time.monotonic() + 30
    while time.monotonic() < t and not con.exited():
        time.sleep(0.1)
    if not con.exited():
        fails.append("%s: the console did not quit on q" % scenario)
    else:
        rc = open(con.rc).read().strip()
        err = open(con.err).read()
        if rc != "0":
            fails.append("%s: the console exited %s: %s" % (scenario, rc, err[-2000:]))
        if "Sanitizer" in err or "runtime error" in err:
            fails.append("%s: sanitizer report: %s" % (scenario, err[-3000:]))
    con.close()
    rec.finish()
    agent.stop()
    if rec.chk.n == 0:
        fails.append("%s: the console recorded no snapshot" % scenario)
    if agent.chk.n == 0:
        fails.append("%s: the agent sent no snapshot" % scenario)
    fails += ["%s: %s" % (scenario, f) for f in (rec.chk.failures + agent.chk.failures)[:20]]
    rss_end = agent.rss[-1][1] if agent.rss else 0
    if rss_base and rss_end > rss_base * 1.10:
        fails.append("%s: RSS grew: %d kB after warm-up, %d kB at the end (over 10%%)" % (
            scenario, rss_base, rss_end))
    totals["changes"] += changes + agent_changes
    totals["refused"] += refused + agent.refused
    totals["checks"] += rec.chk.checks + agent.chk.checks + agent.readbacks
    totals["lines"] += rec.chk.n + agent.chk.n
    print("soak: %s: console %d changes (%d refused), %d snapshots; agent %d changes (%d "
          "refused), %d snapshots, %d read-backs; %d checks; release RSS %d -> %d kB; "
          "worst frame sample %d us + render %d us, worst key %d us; recorded worst sample %d "
          "us, render %d us" % (
              scenario, changes, refused, rec.chk.n, agent_changes, agent.refused, agent.chk.n,
              agent.readbacks, rec.chk.checks + agent.chk.checks + agent.readbacks, rss_base or 0,
              rss_end, worst_frame[0], worst_frame[1], worst_key, rec.worst_sample_us,
              rec.worst_render_us), flush=True)
    totals["worst_frame_us"] = max(totals["worst_frame_us"], sum(worst_frame), worst_key)
    return fails


FLEET_ROW_RE = re.compile(r"^good +up .* ([0-9.]+)s\s*$", re.M)


def _pane_rss_kb(con):
    """The console's VmRSS: the tmux pane runs sh, whose child is tunetop."""
    pane = con.tmux("display", "-p", "#{pane_pid}").stdout.strip()
    try:
        kids = subprocess.run(["pgrep", "-P", pane], capture_output=True, text=True).stdout.split()
        for pid in kids + [pane]:
            with open("/proc/%s/status" % pid) as f:
                st = f.read()
            if "tunetop" in open("/proc/%s/cmdline" % pid).read():
                return int(re.search(r"VmRSS:\s+(\d+)", st).group(1))
    except (OSError, AttributeError, ValueError):
        pass
    return 0


def soak_fleet(args, seconds, tmp):
    """The fleet phase (see the docstring); returns the failures."""
    print("soak: fleet (good + hostile) for %.0f s" % seconds, flush=True)
    fake = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "lib",
                        "fake_far.py")
    sock = "tt-soak-fleet-%d-%d" % (os.getpid(), random.randrange(1 << 30))
    rc_path = os.path.join(tmp, "fleet.rc")
    err_path = os.path.join(tmp, "fleet.err")
    env = "FAKE_BASE=%s/fleet-base.json FAKE_PHASE_S=%.1f" % (tmp, max(seconds / 3, 2))
    cmd = ("%s %s -d 1 --remote good --remote hostile --ssh 'python3 %s' --agent-path %s "
           "2>%s; echo $? > %s; sleep 600" % (env, args.release, fake, args.release, err_path,
                                              rc_path))
    con = Console.__new__(Console)
    con.sock, con.rc = sock, rc_path
    con.tmux("new", "-d", "-x", "140", "-y", "30", cmd)
    fails = []
    t = time.monotonic() + 20
    while time.monotonic() < t and not FLEET_ROW_RE.search(con.screen()):
        time.sleep(0.1)
    if not FLEET_ROW_RE.search(con.screen()):
        fails.append("fleet: the good host never came up: %s" % con.screen()[-600:])
    time.sleep(5)
    rss0 = _pane_rss_kb(con)
    end = time.monotonic() + seconds
    worst_age = worst_key = ticks = 0
    rss_max = rss0
    down = True
    while time.monotonic() < end and not fails:
        con.send("Down" if down else "Up")
        down = not down
        time.sleep(1)
        ticks += 1
        scr = con.screen()
        if con.exited():
            fails.append("fleet: the console exited: %s" % open(err_path).read()[-2000:])
            break
        m = FLEET_ROW_RE.search(scr)
        if not m:
            fails.append("fleet: the good host's row is gone after %d s: %s" % (ticks, scr[-900:]))
            break
        worst_age = max(worst_age, float(m.group(1)))
        k = KEY_RE.search(scr)
        if k:
            worst_key = max(worst_key, int(k.group(1)))
        rss_max = max(rss_max, _pane_rss_kb(con))
    if worst_age > 2.5:
        fails.append("fleet: the good host's row went %.1f s without an update" % worst_age)
    if worst_key > RENDER_MAX_US:
        fails.append("fleet: a key took %d us to its frame (over %d us)" % (worst_key,
                                                                         RENDER_MAX_US))
    rss1 = _pane_rss_kb(con)
    if rss0 and rss1 > rss0 * 1.10 + 2048:
        fails.append("fleet: console RSS grew: %d kB 5 s in, %d kB at the end" % (rss0, rss1))
    hostile = re.search(r"^hostile +(\S+) +(.*)$", con.screen(), re.M)
    con.send("q")
    t = time.monotonic() + 30
    while time.monotonic() < t and not con.exited():
        time.sleep(0.1)
    if not con.exited():
        fails.append("fleet: the console did not quit on q")
    elif open(rc_path).read().strip() != "0":
        fails.append("fleet: the console exited %s: %s" % (open(rc_path).read().strip(),
                                                           open(err_path).read()[-2000:]))
    con.close()
    print("soak: fleet: %d s, good host's worst age %.1f s, worst key %d us, console RSS %d -> "
          "%d kB (max %d), hostile at the end: %s" % (
              ticks, worst_age, worst_key, rss0, rss1, rss_max,
              " ".join(hostile.groups()) if hostile else "?"), flush=True)
    return fails


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--asan", required=True)
    ap.add_argument("--release", required=True)
    ap.add_argument("--seconds", type=float, default=600)
    ap.add_argument("--delay", type=float, default=0.5)
    ap.add_argument("--scenarios", default="default,pmd-seed")
    ap.add_argument("--seed", type=int, default=int(time.time()))
    ap.add_argument("--fleet-seconds", type=float, default=60,
                    help="the fleet phase's length (0: none)")
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    scenarios = [sc for sc in args.scenarios.split(",") if sc]
    totals = {"changes": 0, "refused": 0, "checks": 0, "lines": 0, "worst_frame_us": 0}
    fails = []
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="tt-soak.") as tmp:
        for sc in scenarios:
            fails += soak_one(args, sc, args.seconds / len(scenarios), tmp, totals, rnd)
        if args.fleet_seconds > 0:
            fails += soak_fleet(args, args.fleet_seconds, tmp)
    print("soak: %.1f min, seed %d, %d knob changes (%d refused), %d checks over %d snapshots, "
          "worst frame %d us" % ((time.monotonic() - t0) / 60, args.seed, totals["changes"],
                                  totals["refused"], totals["checks"], totals["lines"],
                                  totals["worst_frame_us"]))
    for f in fails:
        print("FAIL " + f)
    print("soak: %s" % ("FAILED" if fails else "passed"))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
