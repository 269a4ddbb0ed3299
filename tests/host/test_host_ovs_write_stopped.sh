#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tt-timeout: 240
# test_host_ovs_write_stopped.sh: a max sleep write to a SIGSTOPped ovs-vswitchd (the real one,
# tests/lib/ovs.sh) waits on a thread of its own (tt-writer): the console's sampler keeps its
# -d 0.5 interval meanwhile (no gap between the recorded samples' uptime_s as long as half the
# write's 6 s wait, which a sampler that waited for the write would leave: a bound that holds at
# any speed short of a stall), the status says "setting" until the write ends, the write fails naming the value
# still in force and the header keeps it. After SIGCONT a write succeeds, is read back, and
# OVS itself logs it; quitting while a write waits ends while vswitchd stays stopped.
# Before the writer thread, no sample came for the write's 6 s wait.
set -u
. "$(dirname "$0")/../lib/assert.sh"

[ "$(id -u)" = 0 ] || { echo "skip: needs root (ovs-vswitchd)"; exit 77; }
command -v ovs-vswitchd >/dev/null && command -v ovsdb-server >/dev/null ||
	{ echo "skip: no ovs-vswitchd (openvswitch-switch)"; exit 77; }
command -v tmux >/dev/null || { echo "skip: no tmux"; exit 77; }
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
schema=/usr/share/openvswitch/vswitch.ovsschema
[ -f "$schema" ] || { echo "skip: $schema missing"; exit 77; }
# Half the write's own deadline (6 s): a sampler blocked by the write shows a gap of all of it.
GAP_MAX=3.0
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d /tmp/tt-ovsstop.XXXXXX)
. "$here/../lib/ovs.sh"
ovs_cleanup() { # ovs.sh's, after a SIGCONT: a stopped daemon would not hear "exit"
	[ -f "$run/ovs-vswitchd.pid" ] && kill -CONT "$(cat "$run/ovs-vswitchd.pid")" 2>/dev/null
	cleanup
}
trap ovs_cleanup EXIT
mask=0x1
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] && mask=0x2
ovs-vsctl --timeout=10 --no-wait set Open_vSwitch . other_config:pmd-cpu-mask=$mask \
	other_config:pmd-maxsleep=300
ovs_start_vswitchd
vpid=$(cat "$run/ovs-vswitchd.pid")
log=$dir/log/ovs-vswitchd.log
rec=$dir/rec.jsonl
. "$here/../tui/lib/tmux.sh"
trap 'tt_cleanup; ovs_cleanup' EXIT
header() { tt_cap | grep -m1 '^pmd '; }
lines() { wc -l <"$rec" 2>/dev/null || echo 0; }
# gaps FROM TO: the largest uptime_s step between recorded samples FROM..TO (1-based lines).
gaps() {
	python3 - "$rec" "$1" "$2" <<'EOF'
import json, sys
rows = open(sys.argv[1]).read().splitlines()[int(sys.argv[2]) - 1:int(sys.argv[3])]
t = [json.loads(r)["uptime_s"] for r in rows if r.strip()]
print("%.2f %d" % (max((b - a for a, b in zip(t, t[1:])), default=99), len(t)))
EOF
}

tt_start 200 40 "OVS_RUNDIR=$run $TUNETOP --host --write -d 0.5 --record $rec; sleep 60"
tt_wait "^pmd .*maxsleep 300us" 15
ok "tunetop shows the max sleep OVS runs with: $(header | head -c 80)"

# 1. vswitchd stopped: the sampler notices, then a write waits on it.
kill -STOP "$vpid"
tt_wait "^pmd Open vSwitch: .*(no reply|within)" 10
ok "stopped vswitchd: $(header | head -c 100)"
tt_keys 3
tt_keys F8
tt_wait "pmd.maxsleep_us 300 -> [0-9]*: Enter applies" 5
want=$(tt_cap | grep -o 'pmd.maxsleep_us 300 -> [0-9]*' | awk '{print $4}' | head -n 1)
n0=$(lines)
tt_keys Enter
tt_wait "setting pmd.maxsleep_us 300 -> $want" 2
ok "the status says 'setting pmd.maxsleep_us 300 -> $want...'"
sleep 2 # the write waits for vswitchd meanwhile (6 s)
check "while the write waits, the header keeps 300 ($(header | head -c 120))" \
	grep -q "maxsleep 300us" <<<"$(header)"
check "... and the status still says setting" tt_wait "setting pmd.maxsleep_us 300 -> $want" 1
tt_wait "not applied \(vswitchd not answering\); 300 still in force" 20
ok "the write fails: $(tt_cap | grep -o 'pmd.maxsleep_us: not applied.*' | head -c 140)"
check "the header keeps the value in force, 300 ($(header | head -c 120))" \
	grep -q "maxsleep 300us" <<<"$(header)"
tt_wait_lines() { for _ in $(seq 40); do [ "$(lines)" -gt "$1" ] && return 0; sleep 0.1; done; }
n1=$(lines)
tt_wait_lines "$n1"
read -r gap n < <(gaps "$n0" "$((n1 + 1))")
echo "largest gap between samples while the write waited: $gap s over $n samples (-d 0.5)"
check "no gap between samples above $GAP_MAX s while the write waited (largest $gap s, $n samples)" \
	python3 -c "import sys; sys.exit(not ($gap < $GAP_MAX and $n >= 3))"

# 2. vswitchd running again: it takes what ovsdb holds (the error said so); then a write
# succeeds, read back, and OVS logs it.
kill -CONT "$vpid"
held=$want
tt_wait "^pmd .*maxsleep ${held}us" 15
ok "vswitchd continued and took what ovsdb held: $(header | head -c 80)"
tt_keys F8
tt_wait "pmd.maxsleep_us $held -> [0-9]*: Enter applies" 5
want=$(tt_cap | grep -o "pmd.maxsleep_us $held -> [0-9]*" | awk '{print $4}' | head -n 1)
tt_keys Enter
tt_wait "pmd.maxsleep_us = $want" 10
ok "the write is read back: pmd.maxsleep_us = $want"
tt_wait "^pmd .*maxsleep ${want}us" 3
ok "and the header shows it ($(header | head -c 80))"
got=""
for _ in $(seq 100); do
	got=$(grep -o 'PMD max sleep request is [0-9]* usecs' "$log" | tail -n 1 | awk '{print $6}')
	[ "$got" = "$want" ] && break
	sleep 0.05
done
check "OVS's log: its max sleep is $want (got '$got')" test "$got" = "$want"

# 3. The same through --agent (what a --remote console reads): snapshots go on at -d 0.5 while
# the set waits on the stopped vswitchd, the reply says not applied with the value in force,
# and after SIGCONT a set is read back.
held=$want
TT_LIB=$here/../lib python3 - "$vpid" "$held" "$GAP_MAX" "$run" <<'EOF2' >"$dir/agent.out" 2>&1
import json, os, select, signal, subprocess, sys, time
sys.path.insert(0, os.environ["TT_LIB"])
import agentproto
vpid, held, gap_max = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
env = dict(os.environ, OVS_RUNDIR=sys.argv[4])
p = subprocess.Popen([agentproto.TUNETOP, "--agent", "--host", "--write", "-d", "0.5"],
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1, env=env)
snap, bad = None, 0
def line(timeout):
    """("snap", uptime_s, snapshot) or ("reply", reply) or None at the deadline."""
    global snap
    r, _, _ = select.select([p.stdout], [], [], timeout)
    if not r:
        return None
    o = json.loads(p.stdout.readline())
    if "reply" in o:
        return ("reply", o)
    if "delta" in o:
        agentproto.apply(snap, o["delta"])
    else:
        snap = o
    return ("snap", snap["uptime_s"], snap)
def check(what, cond):
    global bad
    print(("ok   " if cond else "FAIL ") + what)
    bad += not cond
def until(pred, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        x = line(end - time.monotonic())
        if x and x[0] == "snap" and pred(x[2]):
            return x[2]
    return None
def set_and_wait(value, timeout):
    """Send a set; the reply and the uptime_s of the snapshots until it."""
    p.stdin.write(f"set pmd.maxsleep_us {value}\n")
    p.stdin.flush()
    times, end = [], time.monotonic() + timeout
    while time.monotonic() < end:
        x = line(end - time.monotonic())
        if x and x[0] == "reply" and x[1].get("reply") == "set":
            return x[1], times
        if x and x[0] == "snap":
            times.append(x[1])
    return None, times
s = until(lambda s: (s.get("pmd") or {}).get("maxsleep_us") == held, 15)
check(f"agent: the max sleep in force, {held}", s is not None)
os.kill(vpid, signal.SIGSTOP)
s = until(lambda s: (s.get("host") or {}).get("ovs_error"), 10)
check("agent: the stopped vswitchd noticed (%s)" % ((s or {}).get("host") or {}).get("ovs_error"),
      s is not None)
t0 = time.monotonic()
r, times = set_and_wait(held + 100, 20)
took = time.monotonic() - t0
gaps = [b - a for a, b in zip(times, times[1:])]
gap = max(gaps) if gaps else 99
print(f"agent: the set waited {took:.2f} s; {len(times)} snapshots meanwhile, largest gap {gap:.2f} s")
check(f"agent: no gap between snapshots as long as half the set's wait, {took / 2:.2f} s "
      f"({gap:.2f} s)", gap < took / 2 and len(times) >= 3)
check("agent: the set fails, value in force %d (%s)" % (held, r),
      r is not None and r["ok"] is False and "still in force" in r.get("error", "") and
      r.get("value") == str(held))
os.kill(vpid, signal.SIGCONT)
s = until(lambda s: (s.get("pmd") or {}).get("maxsleep_us") == held + 100, 15)
check("agent: vswitchd continued and took what ovsdb held, %d" % (held + 100), s is not None)
r, _ = set_and_wait(held + 300, 15)
check("agent: a set is read back (%s)" % r,
      r is not None and r["ok"] is True and r.get("value") == str(held + 300))
s = until(lambda s: (s.get("pmd") or {}).get("maxsleep_us") == held + 300, 5)
check("agent: the next snapshot shows it", s is not None)
p.stdin.write("quit\n")
p.stdin.flush()
p.wait(timeout=15)
sys.exit(1 if bad else 0)
EOF2
arc=$?
cat "$dir/agent.out"
check "the --agent part passed (exit $arc)" test "$arc" = 0
kill -CONT "$vpid"

# 4. Quit while a write waits on a stopped vswitchd: the console ends while vswitchd stays
# stopped, so the quit is bounded by the write's own deadline (6 s for vswitchd to take it,
# 0.5 s to ask why), not by vswitchd. Judged by the end itself, not by a wall-clock bound near
# the deadline (8.7 s on a machine at load 8): a quit that waited for vswitchd would not end
# before the 15 s watch below.
kill -STOP "$vpid"
tt_wait "^pmd Open vSwitch: " 10
tt_keys F7
tt_wait "Enter applies" 5
tt_keys Enter
tt_wait "setting pmd.maxsleep_us" 2
t0=$(date +%s%N)
tpid=$(pgrep -P "$(tt_tmux display -p '#{pane_pid}')" -x tunetop)
tt_keys q
for _ in $(seq 150); do
	[ -n "$tpid" ] && [ -d "/proc/$tpid" ] || break
	[ "$(awk '{print $3}' "/proc/$tpid/stat" 2>/dev/null)" = Z ] && break
	sleep 0.1
done
took=$((($(date +%s%N) - t0) / 1000000))
echo "quit with a write in progress took $took ms"
check "tunetop's pid was found ($tpid)" test -n "$tpid"
gone=1
[ -d "/proc/$tpid" ] && [ "$(awk '{print $3}' "/proc/$tpid/stat" 2>/dev/null)" != Z ] && gone=0
check "quit with a write waiting ends while vswitchd stays stopped (${took} ms)" test "$gone" = 1
kill -CONT "$vpid"
finish
