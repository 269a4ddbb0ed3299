#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_host_maxsleep.sh: the max sleep tunetop --host shows is the one ovs-vswitchd applies,
# as OVS itself logs it ("PMD max sleep request is N usecs."), not the ovsdb string: 3.1
# clamps "99999" to 10000, wraps "-1" to its largest value (10000), and reads a 3.3-style
# list "50,1:100" as no number at all (0, sleeping off). A write from there (--set, as the
# `m` key does) stores the one number this OVS reads, and OVS applies it.
set -u
. "$(dirname "$0")/../lib/assert.sh"

[ "$(id -u)" = 0 ] || { echo "skip: needs root (ovs-vswitchd)"; exit 77; }
command -v ovs-vswitchd >/dev/null && command -v ovsdb-server >/dev/null ||
	{ echo "skip: no ovs-vswitchd (openvswitch-switch)"; exit 77; }
schema=/usr/share/openvswitch/vswitch.ovsschema
[ -f "$schema" ] || { echo "skip: $schema missing"; exit 77; }
dir=$(mktemp -d /tmp/tt-maxsleep.XXXXXX)
. "$(dirname "$0")/../lib/ovs.sh"
mask=0x1
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] && mask=0x2
ovs-vsctl --timeout=10 --no-wait set Open_vSwitch . other_config:pmd-cpu-mask=$mask \
	other_config:pmd-maxsleep=300
ovs_start_vswitchd
log=$dir/log/ovs-vswitchd.log
if ovs-appctl dpif-netdev/pmd-sleep-show >/dev/null 2>&1; then
	echo "skip: this OVS ($(ovs-vswitchd --version | awk 'NR==1 {print $NF}')) reports its max sleep itself (pmd-sleep-show)"
	exit 77
fi

# applied N: wait (5 s at most) until OVS's log names N as its latest max sleep.
applied() {
	local got=""
	for _ in $(seq 100); do
		got=$(grep -o 'PMD max sleep request is [0-9]* usecs' "$log" | tail -n 1 | awk '{print $6}')
		[ "$got" = "$1" ] && break
		sleep 0.05
	done
	echo "$got"
}
shown() {
	"$TUNETOP" --host -b -n 1 -d 0.1 2>"$dir/err" |
		python3 -c 'import json,sys; o=json.loads(sys.stdin.readline()); print(o["pmd"]["maxsleep_us"], o["host"]["ovs_maxsleep_source"])'
}

check "OVS applies 300 at start (its log: $(applied 300))" test "$(applied 300)" = 300
# value in ovsdb -> what OVS 3.1 applies (each differs from the one before: OVS logs changes)
for pair in 99999:10000 '"50,1:100"':0 -- -1:10000 300:300; do
	[ "$pair" = -- ] && continue
	val=${pair%:*} want=${pair##*:}
	ovs-vsctl --timeout=10 set Open_vSwitch . other_config:pmd-maxsleep="$val"
	got=$(applied "$want")
	check "other_config:pmd-maxsleep=$val: OVS logs $want (got '$got')" test "$got" = "$want"
	s=$(shown)
	check "other_config:pmd-maxsleep=$val: tunetop shows what OVS applies, $want (got '$s')" test "${s%% *}" = "$want"
done

# From a list OVS 3.1 cannot read, a write must store a number it can.
ovs-vsctl --timeout=10 set Open_vSwitch . other_config:pmd-maxsleep='"50,1:100"'
applied 0 >/dev/null
"$TUNETOP" --host --write -b -n 1 -d 0.1 --set pmd.maxsleep_us=100 >"$dir/set.json" 2>"$dir/set.err"
rc=$?
check "--write --set pmd.maxsleep_us=100 exits 0 (rc $rc: $(head -c 200 "$dir/set.err"))" test "$rc" -eq 0
db=$(ovs-vsctl --timeout=10 get Open_vSwitch . other_config:pmd-maxsleep | tr -d '"')
check "ovsdb holds the one number 3.1 reads (got '$db')" test "$db" = 100
got=$(applied 100)
check "OVS applies 100 (its log: '$got')" test "$got" = 100

# ovsdb goes down while tunetop runs: vswitchd keeps what it applied, and so does the value
# shown (a key steps from it), beside the ovsdb error; never the table's default 0.
"$TUNETOP" --host -b -n 1000 -d 0.4 >"$dir/down.json" 2>"$dir/down.err" &
cons=$!
wait_lines "$dir/down.json" 2 30
stop_pid "$run/ovsdb-server.pid"
check "with ovsdb down: the ovsdb error shown, with a pmd section" \
	wait_json "$dir/down.json" 30 'o["host"]["ovsdb_error"] and "pmd" in o'
kill -TERM "$cons"
wait "$cons"
# Every sample since: 100 kept (a sample whose read of vswitchd timed out has no pmd section).
res=$(python3 -c '
import json, sys
down = [o for o in map(json.loads, open(sys.argv[1])) if o["host"]["ovsdb_error"]]
print(sorted({(o["knobs"]["pmd.maxsleep_us"], o["pmd"]["maxsleep_us"] if "pmd" in o else 100) for o in down}))' "$dir/down.json" 2>&1)
check "with ovsdb down: knob and pmd section keep 100 in every sample (got '$res')" test "$res" = "[(100, 100)]"
finish
