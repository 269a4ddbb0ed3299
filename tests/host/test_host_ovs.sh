#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tt-sanitize: the console's sampler thread reading a real OVS
# test_host_ovs.sh: the OVS unixctl client against a real ovs-vswitchd (docs/pmd.md (Part 2)),
# here with the dummy datapath and a dummy-pmd port (OVS's own test-suite devices): one real
# PMD thread polling, no DPDK, no kernel module, no hugepages, in a private dir and netns.
# tunetop --host must read pmd-perf-show over JSON-RPC into the pmd section, set the max
# sleep through the ovsdb (the key this OVS reads), and report a server error as absent.
# Installs openvswitch-switch only if missing; skips (77) when it cannot.
set -u
. "$(dirname "$0")/../lib/assert.sh"

[ "$(id -u)" = 0 ] || { echo "skip: needs root (ovs-vswitchd, TASKSTATS)"; exit 77; }
if ! command -v ovs-vswitchd >/dev/null || ! command -v ovsdb-server >/dev/null; then
	command -v apt-get >/dev/null || { echo "skip: no ovs-vswitchd and no apt-get to install it"; exit 77; }
	echo "installing openvswitch-switch"
	DEBIAN_FRONTEND=noninteractive timeout 120 apt-get install -y -q openvswitch-switch >/dev/null 2>&1 ||
		{ echo "skip: openvswitch-switch cannot be installed here"; exit 77; }
fi
schema=/usr/share/openvswitch/vswitch.ovsschema
[ -f "$schema" ] || { echo "skip: $schema missing"; exit 77; }

dir=$(mktemp -d /tmp/tt-ovs.XXXXXX)
. "$(dirname "$0")/../lib/ovs.sh"
mask=0x1
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] && mask=0x2
# Start sleeping at once: an idle PMD with max sleep 0 burns a whole core.
ovs-vsctl --timeout=10 --no-wait set Open_vSwitch . other_config:pmd-cpu-mask=$mask \
	other_config:pmd-maxsleep=300 other_config:pmd-sleep-max=300
# A console started before ovs-vswitchd finds it later (it looks again every 5 s).
"$TUNETOP" --host -b -n 1000 -d 0.5 >"$dir/late.json" 2>"$dir/late.err" &
late=$!
wait_lines "$dir/late.json" 1 30
ovs_start_vswitchd
check "a PMD polls p0" sh -c 'ovs-appctl dpif-netdev/pmd-rxq-show | grep -q "port: p0"'
version=$(ovs-vswitchd --version | awk 'NR==1 {print $NF}')
ok "ovs-vswitchd $version up"
newkey=0
ovs-appctl dpif-netdev/pmd-sleep-show >/dev/null 2>&1 && newkey=1

# Found through OVS_RUNDIR like ovs-appctl does; set the max sleep live. The run lasts until a
# sample shows the PMD iterating under the new max sleep: on a loaded machine OVS itself can
# stall (its PMD ran no iteration and 0 % CPU for a 0.5 s interval, its main thread answered
# pmd-rxq-show after 500 ms), and such a sample rightly says 0 iterations, or has no pmd section.
"$TUNETOP" --host --write -d 0.5 -b -n 1000 --set pmd.maxsleep_us=700 >"$dir/out.json" 2>"$dir/err" &
wr=$!
ran='o["pmd"]["maxsleep_us"] == 700 and o["pmd"]["threads"][0]["iterations"] > 0'
check "a sample shows the PMD iterating under max sleep 700" wait_json "$dir/out.json" 30 "$ran"
kill -TERM $wr
wait $wr
rc=$?
check "tunetop --host with OVS exits 0 (rc $rc: $(head -c 300 "$dir/err"))" test "$rc" -eq 0
key=pmd-maxsleep
[ "$newkey" = 1 ] && key=pmd-sleep-max
got=$(ovs-vsctl --timeout=10 get Open_vSwitch . other_config:$key | tr -d '"')
check "ovsdb other_config:$key is 700 after --set pmd.maxsleep_us=700 (got $got)" test "$got" = 700
res=$(python3 - "$dir/out.json" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
out = []
# The last line in which the PMD ran (iterations counted by OVS in the interval).
ran = [l for l in lines if (l.get("pmd") or {}).get("threads") and
       (l["pmd"]["threads"][0].get("iterations") or 0) > 0]
last = ran[-1] if ran else lines[-1]
p, h = last.get("pmd"), last["host"]
out.append("ovs=%s" % h["ovs"])
if p:
    out.append("maxsleep=%d" % p["maxsleep_us"])
    out.append("pmds=%d" % len(p["threads"]))
    t = p["threads"][0] if p["threads"] else {}
    out.append("name=%s" % t.get("name", "")[:5])
    out.append("iters=%s" % ((t.get("iterations") or 0) > 0))
    out.append("sleeping=%s" % ((t.get("sleep_iter_pct") or 0) > 50))
    out.append("slack=%s" % p["timer_slack_ns"])
    out.append("cpu_low=%s" % ((t.get("cpu_pct") or 0) < 60))
    out.append("absent=%s" % ("pmd.totals" in h["absent"]))
print(" ".join(out))
PY
)
check "pmd section from pmd-perf-show (got '$res')" test "$res" = \
	"ovs=True maxsleep=700 pmds=1 name=pmd-c iters=True sleeping=True slack=1000 cpu_low=True absent=True"
pmd_tid=$(python3 -c 'import json,sys; o=json.loads(open(sys.argv[1]).read().splitlines()[-1]); print([t["subsystem"] for t in o["threads"] if t["name"].startswith("pmd-c0")][0])' "$dir/out.json" 2>&1)
check "the PMD thread is listed as pmd (got '$pmd_tid')" test "$pmd_tid" = pmd
grep -q "max sleep request is 700\|max sleep:  700\|max sleep: 700" "$dir/log/ovs-vswitchd.log"
check "ovs-vswitchd logged the new max sleep" test $? -eq 0

check "the console started first finds ovs-vswitchd started after it" \
	wait_json "$dir/late.json" 30 '"pmd" in o and o["host"]["ovs"]'
kill -TERM "$late"
wait "$late"
check "the console started first ends with 0 on SIGTERM ($(head -c 200 "$dir/late.err"))" test $? -eq 0
res=$(python3 -c 'import json,sys; l=[json.loads(x) for x in open(sys.argv[1]) if x.strip()]; print("pmd" in l[0], l[0]["host"]["ovs"])' "$dir/late.json" 2>&1)
check "no pmd section before ovs-vswitchd (got '$res')" test "$res" = "False False"

# Figures an OVS operator can trust (docs/pmd.md, the closing part).
# Until a sample has busy% from cycle deltas (a sample in which OVS's PMD ran no iteration
# has none: null, as one that follows a read of OVS that timed out has no rate).
"$TUNETOP" --host -b -n 1000 -d 0.5 >"$dir/rates.json" 2>"$dir/rates.err" &
rt=$!
busy='o["pmd"]["threads"][0]["busy_pct"] is not None'
wait_json "$dir/rates.json" 30 "$busy"
kill -TERM $rt
wait $rt
res=$(python3 - "$dir/rates.json" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
keys = ("rx_pps", "iterations", "busy_pct", "idle_pct", "sleep_iter_pct")
# The first sample with a pmd section, and each after one without: no baseline, so no rate.
first = [[l["pmd"]["threads"][0][k] for k in keys] for i, l in enumerate(lines)
         if "pmd" in l and (i == 0 or "pmd" not in lines[i - 1])]
print(first[:1] if first and all(f == [None] * 5 for f in first) else first)
PY
)
check "first sample: no rate from lifetime totals, null (got $res)" test "$res" = "[[None, None, None, None, None]]"
res=$(python3 - "$dir/rates.json" <<'PY'
import json, sys
bad, n = [], 0
for l in open(sys.argv[1]):
    for t in json.loads(l).get("pmd", {}).get("threads", []):
        b, i = t["busy_pct"], t["idle_pct"]
        if b is None and i is None:
            continue
        n += 1
        if b is None or i is None or not (0 <= b <= 100 and 0 <= i <= 100 and abs(b + i - 100) < 0.1):
            bad.append((b, i))
print("ok" if not bad and n >= 1 else (bad, n))
PY
)
check "busy% and idle% from cycle deltas: within 0..100, summing to 100, both or neither (got $res)" test "$res" = ok
# (in the last sample that read OVS whole: the one with busy% the run waited for, or later)
res=$(python3 -c 'import json,sys; o=[x for x in map(json.loads, open(sys.argv[1])) if "pmd" in x and x["pmd"]["threads"][0]["busy_pct"] is not None][-1]; print(([q["port"] for q in o["host"]["ovs_rxqs"]], len(o["host"]["ovs_pmds"]), "p0" in [f["name"] for f in o["host"]["ovs_interfaces"]]))' "$dir/rates.json" 2>&1)
check "pmd-rxq-show, pmd-stats-show and ovsdb Interface rows in JSON (got $res)" test "$res" = "(['p0'], 1, True)"

# Max sleep read back every sample: a change made with ovs-vsctl behind tunetop's back shows.
# (A sample whose read of OVS timed out on a busy machine has no pmd section: waited past.)
"$TUNETOP" --host -b -n 1000 -d 0.5 >"$dir/behind.json" 2>&1 &
bg=$!
wait_lines "$dir/behind.json" 2 30
ovs-vsctl --timeout=10 set Open_vSwitch . other_config:$key=450
check "max sleep changed with ovs-vsctl is read back (450 in the pmd section and the knob)" \
	wait_json "$dir/behind.json" 30 'o["pmd"]["maxsleep_us"] == 450 and o["knobs"]["pmd.maxsleep_us"] == 450'
kill -TERM "$bg"
wait "$bg"

# A per-PMD list survives a write from tunetop where this OVS reads lists (pmd-sleep-max,
# 3.3+): only the default part changes. 3.1's pmd-maxsleep holds one number: a list there is
# not read at all (sleeping off), so the write stores the number (test_host_maxsleep.sh).
ovs-vsctl --timeout=10 set Open_vSwitch . other_config:$key='"50,8:0"'
"$TUNETOP" --host --write -b -n 1 -d 0.2 --set pmd.maxsleep_us=60 >/dev/null 2>"$dir/list.err"
got=$(ovs-vsctl --timeout=10 get Open_vSwitch . other_config:$key | tr -d '"')
want=60,8:0
[ "$newkey" = 1 ] || want=60
check "max sleep list under $key: 50,8:0 -> $want (got $got; $(head -c 200 "$dir/list.err"))" test "$got" = "$want"
ovs-vsctl --timeout=10 set Open_vSwitch . other_config:$key=500

# The console: F8 in the pmd view steps from OVS's value (500 -> 1000) once Enter says yes, and
# the pmd view shows only what OVS has.
. "$(dirname "$0")/../tui/lib/tmux.sh"
trap 'tt_cleanup; cleanup' EXIT # tmux.sh set its own
tt_start 150 40 "$TUNETOP --host --write -d 0.5; sleep 60"
tt_wait "maxsleep 500us" 8
tt_keys 3 F8
tt_wait "pmd.maxsleep_us 500 -> 1000: Enter applies" 5
tt_keys Enter
tt_wait "pmd.maxsleep_us = 1000" 5
got=$(ovs-vsctl --timeout=10 get Open_vSwitch . other_config:$key | tr -d '"')
check "F8 stepped from OVS's 500 to 1000 (ovsdb has $got)" test "$got" = 1000
tt_keys 3
tt_wait "pmd-rxq-show" 5
tt_wait "pmd-c[0-9]+/id:[0-9]+" 10
scr=$(tt_cap)
for s in "/src)" "generated" "drop/s" "os-p99" "pmd is not running"; do
	if grep -qF -- "$s" <<<"$scr"; then bad "host pmd view shows engine-only '$s'"; else ok "host pmd view has no '$s'"; fi
done
check "PMD name not cut (pmd-c..../id:)" grep -Eq "pmd-c[0-9]+/id:[0-9]+" <<<"$scr"
# A stopped ovs-vswitchd takes nothing: the write ends "not applied", 1000 still shown.
vpid=$(cat "$run/ovs-vswitchd.pid")
kill -STOP "$vpid"
tt_keys 3
tt_keys F7
tt_wait "Enter applies" 3
tt_keys Enter
tt_wait "not applied \(vswitchd not answering\); 1000 still in force" 20
ok "stopped ovs-vswitchd: F7 is not applied, 1000 still in force"
kill -CONT "$vpid"
tt_wait "maxsleep 500us \(ovsdb" 10
ok "once it runs again, ovs-vswitchd takes 500 and the view shows it"
tt_keys q
ovs-vsctl --timeout=10 set Open_vSwitch . other_config:$key=300

# A pid-named control socket is followed through the pidfile when ovs-vswitchd restarts.
oldpid=$(cat "$run/ovs-vswitchd.pid")
TUNETOP_OVS_SOCKET=$run/ovs-vswitchd.$oldpid.ctl "$TUNETOP" --host -b -n 1000 -d 0.5 >"$dir/restart.json" 2>"$dir/restart.err" &
bg=$!
wait_lines "$dir/restart.json" 1 20
ovs-appctl -t "$run/ovs-vswitchd.$oldpid.ctl" exit >/dev/null 2>&1
for _ in $(seq 50); do [ -d "/proc/$oldpid" ] || break; sleep 0.1; done
$netns ovs-vswitchd unix:"$run/db.sock" --enable-dummy=override --disable-system \
	--pidfile="$run/ovs-vswitchd.pid" --detach --log-file="$dir/log/ovs-vswitchd.log" ||
	bad "ovs-vswitchd restarts"
newpid=$(cat "$run/ovs-vswitchd.pid")
check "after a restart ($oldpid -> $newpid) the new ovs-vswitchd.$newpid.ctl is followed ($(head -c 200 "$dir/restart.err"))" \
	wait_json "$dir/restart.json" 30 "o['host']['ovs'] and o['host']['ovs_socket'].endswith('.$newpid.ctl')"
kill -TERM "$bg"
wait "$bg"

# A unixctl server that does not know the command (ovsdb-server): a JSON-RPC error, no pmd.
ctl="$run/ovsdb-server.$(cat "$run/ovsdb-server.pid").ctl"
TUNETOP_OVS_SOCKET=$ctl "$TUNETOP" --host -b -n 1 -d 0.1 >"$dir/db.json" 2>&1
res=$(python3 -c 'import json,sys; o=json.loads(open(sys.argv[1]).read().splitlines()[-1]); print("pmd" in o, o["host"]["ovs"], "not a valid command" in (o["host"]["ovs_error"] or ""))' "$dir/db.json" 2>&1)
check "ovsdb-server's socket: error reported, no pmd section (got '$res')" test "$res" = "False False True"
finish
