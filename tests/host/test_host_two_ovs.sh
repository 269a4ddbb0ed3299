#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_host_two_ovs.sh: two ovs-vswitchd on one host whose PMDs poll the same core, so both
# are named "pmd-c01/id:N" (a test's dummy switch beside the real one, a container's). The
# foreign one busy-polls (max sleep 0); ours sleeps (max sleep 10 ms). tunetop --host, told
# ours through OVS_RUNDIR as ovs-appctl is, must show our PMD: its thread's name, its CPU as
# the thread table measures that thread (not the sum with the foreign one), and its slack.
# tt-lock: ovs-pmd-slack: it writes a PMD's slack by hand, which test_host_slack.sh would see
set -u
. "$(dirname "$0")/../lib/assert.sh"

[ "$(id -u)" = 0 ] || { echo "skip: needs root (ovs-vswitchd)"; exit 77; }
command -v ovs-vswitchd >/dev/null && command -v ovsdb-server >/dev/null ||
	{ echo "skip: no ovs-vswitchd (openvswitch-switch)"; exit 77; }
schema=/usr/share/openvswitch/vswitch.ovsschema
[ -f "$schema" ] || { echo "skip: $schema missing"; exit 77; }
mask=0x1
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] && mask=0x2

dir=$(mktemp -d /tmp/tt-two-ovs.XXXXXX)
f=$dir/foreign
mkdir -p "$f/run" "$f/db" "$f/log" "$f/etc"
# The foreign switch first, so its threads come first in /proc: a match by name alone
# would meet it before ours.
fenv() { OVS_RUNDIR=$f/run OVS_DBDIR=$f/db OVS_LOGDIR=$f/log OVS_SYSCONFDIR=$f/etc "$@"; }
fenv ovsdb-tool create "$f/db/conf.db" "$schema" || { bad "foreign ovsdb-tool create"; finish; }
fenv ovsdb-server "$f/db/conf.db" --remote=punix:"$f/run/db.sock" --pidfile="$f/run/ovsdb-server.pid" \
	--detach --log-file="$f/log/ovsdb-server.log" || { bad "foreign ovsdb-server starts"; finish; }
fenv ovs-vsctl --timeout=10 --no-wait init
fenv ovs-vsctl --timeout=10 --no-wait set Open_vSwitch . other_config:pmd-cpu-mask=$mask \
	other_config:pmd-maxsleep=0 other_config:pmd-sleep-max=0
netns=""
unshare --net true 2>/dev/null && netns="unshare --net --"
fenv $netns ovs-vswitchd unix:"$f/run/db.sock" --enable-dummy=override --disable-system \
	--pidfile="$f/run/ovs-vswitchd.pid" --detach --log-file="$f/log/ovs-vswitchd.log" ||
	{ bad "foreign ovs-vswitchd starts"; finish; }
fenv ovs-vsctl --timeout=10 add-br br0 -- set bridge br0 datapath_type=dummy fail-mode=secure \
	-- add-port br0 p0 -- set Interface p0 type=dummy-pmd options:n_rxq=1 ||
	{ bad "foreign bridge with a dummy-pmd port"; finish; }

. "$(dirname "$0")/../lib/ovs.sh" # ours: OVS_* point at $dir/run from here on
stop_foreign() {
	local p
	for n in ovs-vswitchd ovsdb-server; do
		p=$(cat "$f/run/$n.pid" 2>/dev/null) || continue
		grep -qa "$f" "/proc/$p/cmdline" 2>/dev/null && kill -TERM "$p" 2>/dev/null
	done
}
trap 'stop_foreign; cleanup' EXIT
ovs-vsctl --timeout=10 --no-wait set Open_vSwitch . other_config:pmd-cpu-mask=$mask \
	other_config:pmd-maxsleep=10000 other_config:pmd-sleep-max=10000
ovs_start_vswitchd

pmd_tid() { for t in /proc/$1/task/*; do grep -q '^pmd' "$t/comm" 2>/dev/null && { basename "$t"; return; }; done; }
ours=$(cat "$run/ovs-vswitchd.pid") theirs=$(cat "$f/run/ovs-vswitchd.pid")
otid="" ftid=""
for _ in $(seq 100); do
	otid=$(pmd_tid "$ours") ftid=$(pmd_tid "$theirs")
	[ -n "$otid" ] && [ -n "$ftid" ] && break
	sleep 0.1
done
check "both switches have a PMD (ours $otid, foreign $ftid)" test -n "$otid" -a -n "$ftid"
[ -n "$otid" ] && [ -n "$ftid" ] || finish
ok "PMD names: ours '$(cat /proc/$otid/comm)', foreign '$(cat /proc/$ftid/comm)'"
echo 77777 >/proc/$ftid/timerslack_ns # a slack ours does not have

"$TUNETOP" --host -b -n 5 -d 0.5 >"$dir/out.json" 2>"$dir/err"
rc=$?
check "tunetop --host exits 0 (rc $rc: $(head -c 300 "$dir/err"))" test "$rc" -eq 0
res=$(python3 - "$dir/out.json" "$otid" "$ftid" "$(cat /proc/$otid/comm)" "$(cat /proc/$otid/timerslack_ns)" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
otid, ftid, oname, oslack = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
bad = []
for o in lines[2:]:
    row = o["pmd"]["threads"][0]
    th = {t["tid"]: t for t in o["threads"]}
    mine, theirs = th.get(otid), th.get(ftid)
    if row["name"] != oname:
        bad.append("row name %r, ours %r" % (row["name"], oname))
    if mine is None or theirs is None:
        bad.append("thread table lacks a PMD (ours %s, foreign %s)" % (mine is not None, theirs is not None))
        continue
    if row["cpu_pct"] is None or abs(row["cpu_pct"] - mine["cpu_pct"]) > 2:
        bad.append("row cpu %s, our PMD thread %.1f, foreign %.1f" % (row["cpu_pct"], mine["cpu_pct"], theirs["cpu_pct"]))
    if o["pmd"]["timer_slack_ns"] != oslack:
        bad.append("slack %s, ours %d" % (o["pmd"]["timer_slack_ns"], oslack))
print("ok" if not bad and len(lines) >= 4 else "; ".join(bad[:4]) or "too few lines")
PY
)
check "the PMD row is our switch's PMD: name, CPU, slack (got $res)" test "$res" = ok
finish
