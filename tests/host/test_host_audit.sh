#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_host_audit.sh: the audit trail of live writes. Without a syslog socket (/dev/log absent,
# or hidden in a private mount namespace) `--write` says so on stderr at start and in the
# events. With a private ovsdb-server + ovs-vswitchd (tests/lib/ovs.sh) holding max sleep 300,
# a start-up `--set pmd.maxsleep_us=700` logs "300 -> 700" (the value read from ovsdb before
# the write, not the default 0 of "no sample yet"), and a second run "700 -> 300". The events
# carry the very line syslog gets. Part 2 skips (77 overall if part 1 cannot run) without OVS.
set -u
. "$(dirname "$0")/../lib/assert.sh"

[ "$(id -u)" = 0 ] || { echo "skip: needs root (--write, ovs-vswitchd)"; exit 77; }
dir=$(mktemp -d /tmp/tt-audit.XXXXXX)
trap 'rm -rf "$dir"' EXIT
# events FILE: the texts of every line's events, one a line.
events() {
	python3 -c 'import json,sys; [print(e["text"]) for l in open(sys.argv[1]) if l.strip() for e in json.loads(l)["events"]]' "$1"
}

# 1. No syslog socket. /dev/log absent here, or hidden by /dev/null bound over it in a
# private mount namespace (connect() to a device fails as to nothing).
run_nolog() {
	if [ -e /dev/log ]; then
		unshare -m sh -c 'mount --bind /dev/null /dev/log && exec "$@"' sh "$@"
	else
		"$@"
	fi
}
if [ -e /dev/log ] && ! unshare -m true 2>/dev/null; then
	echo "note: /dev/log exists and unshare -m does not work: part 1 not run"
else
	run_nolog timeout 30 "$TUNETOP" --host --write -b -n 1 -d 0.2 >"$dir/nolog.json" 2>"$dir/nolog.err"
	rc=$?
	check "--write without syslog: runs (rc $rc)" test "$rc" -eq 0
	check "--write without syslog: says so on stderr ($(head -c 200 "$dir/nolog.err"))" \
		grep -q "warning: --write: no syslog" "$dir/nolog.err"
	check "--write without syslog: says so in the events" sh -c "$(declare -f events); events '$dir/nolog.json' | grep -q 'no syslog'"
	timeout 30 "$TUNETOP" --host -b -n 1 -d 0.2 >/dev/null 2>"$dir/ro.err"
	check "read-only --host: no such warning ($(head -c 200 "$dir/ro.err"))" test ! -s "$dir/ro.err"
fi

# 2. The old value of a start-up --set is the host's.
schema=/usr/share/openvswitch/vswitch.ovsschema
if ! command -v ovs-vswitchd >/dev/null || ! command -v ovsdb-server >/dev/null || [ ! -f "$schema" ]; then
	echo "note: no Open vSwitch: part 2 not run"
	finish
fi
. "$(dirname "$0")/../lib/ovs.sh"
mask=0x1
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] && mask=0x2
ovs-vsctl --timeout=10 --no-wait set Open_vSwitch . other_config:pmd-cpu-mask=$mask \
	other_config:pmd-maxsleep=300 other_config:pmd-sleep-max=300
ovs_start_vswitchd
timeout 30 "$TUNETOP" --host --write -b -n 2 -d 0.3 --set pmd.maxsleep_us=700 >"$dir/a.json" 2>"$dir/a.err"
rc=$?
check "--set pmd.maxsleep_us=700: rc 0 (rc $rc: $(head -c 200 "$dir/a.err"))" test "$rc" -eq 0
line=$(events "$dir/a.json" | grep "^pmd.maxsleep_us:" | head -1)
check "the write is logged with the old value ovsdb held: 300 -> 700 (got '$line')" test "$line" = "pmd.maxsleep_us: 300 -> 700"
timeout 30 "$TUNETOP" --host --write -b -n 2 -d 0.3 --set pmd.maxsleep_us=300 >"$dir/b.json" 2>"$dir/b.err"
line=$(events "$dir/b.json" | grep "^pmd.maxsleep_us:" | head -1)
check "and back: 700 -> 300 (got '$line')" test "$line" = "pmd.maxsleep_us: 700 -> 300"
finish
