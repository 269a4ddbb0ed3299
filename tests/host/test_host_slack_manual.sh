#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_host_slack_manual.sh: with --write and pmd.timer_slack_ns set, a slack the operator
# then writes by hand onto an existing PMD thread (echo > /proc/TID/timerslack_ns) is kept:
# tunetop shows the PMD as differing, and neither reverts it nor logs it as a new thread.
# Only a PMD thread OVS starts after the set gets the value (test_host_slack.sh checks that).
# tt-lock: ovs-pmd-slack: it writes a PMD's slack by hand, which test_host_slack.sh would see
set -u
. "$(dirname "$0")/../lib/assert.sh"

[ "$(id -u)" = 0 ] || { echo "skip: needs root (ovs-vswitchd, /proc/TID/timerslack_ns)"; exit 77; }
command -v ovs-vswitchd >/dev/null && command -v ovsdb-server >/dev/null ||
	{ echo "skip: no ovs-vswitchd (openvswitch-switch)"; exit 77; }
schema=/usr/share/openvswitch/vswitch.ovsschema
[ -f "$schema" ] || { echo "skip: $schema missing"; exit 77; }
dir=$(mktemp -d /tmp/tt-slackman.XXXXXX)
. "$(dirname "$0")/../lib/ovs.sh"
mask=0x1
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] && mask=0x2
ovs-vsctl --timeout=10 --no-wait set Open_vSwitch . other_config:pmd-cpu-mask=$mask \
	other_config:pmd-maxsleep=100 other_config:pmd-sleep-max=100
ovs_start_vswitchd
vpid=$(cat "$run/ovs-vswitchd.pid")
tid=""
for t in /proc/$vpid/task/*; do grep -q '^pmd' "$t/comm" 2>/dev/null && tid=$(basename "$t") && break; done
check "a PMD thread (tid '$tid')" test -n "$tid"
[ -n "$tid" ] || finish

"$TUNETOP" --host --write -b -n 12 -d 0.5 --set pmd.timer_slack_ns=1000 >"$dir/out.json" 2>"$dir/err" &
cons=$!
for _ in $(seq 100); do [ "$(cat /proc/$tid/timerslack_ns)" = 1000 ] && break; sleep 0.05; done
check "--set pmd.timer_slack_ns=1000 reached the PMD ($(cat /proc/$tid/timerslack_ns))" test "$(cat /proc/$tid/timerslack_ns)" = 1000
# Two samples later, by hand:
for _ in $(seq 100); do [ "$(wc -l <"$dir/out.json")" -ge 2 ] && break; sleep 0.05; done
echo 50000 >/proc/$tid/timerslack_ns
wait $cons
rc=$?
check "tunetop exits 0 (rc $rc: $(head -c 200 "$dir/err"))" test "$rc" -eq 0
check "the slack written by hand is kept (got $(cat /proc/$tid/timerslack_ns))" test "$(cat /proc/$tid/timerslack_ns)" = 50000
! grep -q "applied to new PMD thread $tid" "$dir/out.json"
check "no event calls PMD $tid new" test $? -eq 0
res=$(python3 -c 'import json,sys; o=json.loads(open(sys.argv[1]).read().splitlines()[-1]); print(o["pmd"]["timer_slack_differs"], o["pmd"]["threads"][0]["timer_slack_ns"])' "$dir/out.json" 2>&1)
check "the PMD shows as differing, at its own 50000 (got '$res')" test "$res" = "1 50000"
finish
