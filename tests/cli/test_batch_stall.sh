#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_batch_stall.sh: a -b process that was stopped (SIGSTOP, as a starved or swapped-out
# process is) takes its next sample no sooner than half a -d after the late one
# (clock_next_due): no line holds rates counted over a moment (interval_s 0.0 with times in
# the same millisecond, which also made a --from of such a line's time take the line
# before), no catch-up burst, and every line's time is later than the one before.
set -u
. "$(dirname "$0")/../lib/assert.sh"
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -CONT "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
("$TUNETOP" -b -n 80 -d 0.05 > "$tmp/out.jsonl" 2>/dev/null; echo $? > "$tmp/rc") &
# The subshell's child is tunetop: stop that, not the subshell.
deadline=$((SECONDS + 30))
while [ -z "$pid" ] && [ $SECONDS -lt $deadline ]; do
	pid=$(pgrep -P $! -x tunetop || true)
	[ -z "$pid" ] && sleep 0.05
done
[ -n "$pid" ] || bad "tunetop -b started"
lines() { wc -l < "$tmp/out.jsonl"; }
while [ "$(lines)" -lt 5 ] && [ $SECONDS -lt $deadline ]; do sleep 0.05; done
for i in 1 2 3; do
	kill -STOP "$pid"
	sleep 0.2
	kill -CONT "$pid"
	want=$(($(lines) + 4))
	while [ "$(lines)" -lt "$want" ] && [ $SECONDS -lt $deadline ]; do sleep 0.05; done
done
wait
pid=
check "tunetop -b exits 0 after being stopped three times" test "$(cat "$tmp/rc")" = 0
python3 - "$tmp/out.jsonl" <<'PY'
import datetime, json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
bad = []
if len(lines) != 80:
    bad.append(f"{len(lines)} lines, not 80")
for a, b in zip(lines, lines[1:]):
    iv = b["interval_s"]
    if iv is None or iv < 0.02:
        bad.append(f"seq {b['seq']}: interval_s {iv} after a stall (under half of -d 0.05)")
    if b["time"] <= a["time"]:
        bad.append(f"seq {b['seq']}: time {b['time']} not after {a['time']}")
longest = max(l["interval_s"] or 0 for l in lines[1:])
print(f"ok   {len(lines)} lines, intervals {min(l['interval_s'] for l in lines[1:])}"
      f" .. {longest} s" if not bad else "FAIL " + "\nFAIL ".join(bad[:8]))
if longest < 0.15:
    print(f"FAIL no interval of the stop's length (longest {longest} s): the test stopped nothing")
    sys.exit(1)
sys.exit(1 if bad else 0)
PY
[ $? -eq 0 ] && ok "no line closer than half a -d to the one before" || bad "intervals after a stall"
finish
