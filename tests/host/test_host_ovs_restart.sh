#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_host_ovs_restart.sh: the ovs-vswitchd behind the socket stops, then another starts on
# the same socket (a restart: another pid): tunetop --host -b says each in an event, with the
# pids (the socket's peer), and names its PMD thread's tid in pmd.threads[] (null where the
# thread is not listed: the python3 fake has no pmd-c* thread).
set -u
. "$(dirname "$0")/../lib/assert.sh"
. "$(dirname "$0")/../lib/fake_ovs.sh" tt-ovsrestart

# wait_for EXPR: until a line of out.json makes the python expression over its object o true,
# 20 s at most; prints that line's expression value.
wait_for() {
	python3 - "$dir/out.json" "$1" <<'PY'
import json, sys, time
end = time.monotonic() + 20
while time.monotonic() < end:
    for x in open(sys.argv[1]):
        try:
            o = json.loads(x)
        except ValueError:
            continue  # a line being written
        if eval(sys.argv[2]):
            print("yes")
            sys.exit(0)
    time.sleep(0.05)
print("no")
PY
}
texts='[e["text"] for e in o.get("events", [])]'

start_fake a ok
first=$last
TUNETOP_OVS_SOCKET=$dir/a.sock "$TUNETOP" --host -b -n 400 -d 0.2 >"$dir/out.json" 2>"$dir/err" &
tt=$!
res=$(wait_for '"pmd" in o')
check "the fake's PMD is read (got $res)" test "$res" = yes
res=$(wait_for '"pmd" in o and "tid" in o["pmd"]["threads"][0] and o["pmd"]["threads"][0]["tid"] is None')
check "pmd.threads[].tid is there, null for a thread not listed (got $res)" test "$res" = yes

kill "$first"
wait "$first" 2>/dev/null
res=$(wait_for "any(t.startswith('ovs-vswitchd (pid $first) stopped answering') for t in $texts)")
check "an event when the vswitchd stops answering (got $res)" test "$res" = yes

start_fake a ok
second=$last
res=$(wait_for "any(t.startswith('ovs-vswitchd restarted: pid $second, was $first') for t in $texts)")
check "an event when another vswitchd answers on the socket (got $res)" test "$res" = yes
n=$(grep -c "restarted\|stopped answering" "$dir/out.json")
check "one event each, not one a sample (lines with one: $n)" test "$n" -eq 2

kill "$tt"
wait "$tt" 2>/dev/null
finish
