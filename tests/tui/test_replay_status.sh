#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_replay_status.sh: the header says what a replay is doing: REPLAY at the speed chosen
# while it plays, END OF RECORDING once it has played out (never LIVE, nor the speed it had),
# and FOLLOWING under --follow, both while lines come and once the writer has stopped.
. "$(dirname "$0")/lib/tmux.sh"

rec=$TT_DIR/rec.jsonl
"$TUNETOP" -b -n 12 -d 0.25 --scenario default --record "$rec" > /dev/null || fail "record"
tt_start 132 30 "$(tt_wrap --replay "$rec")"
tt_wait 'up [0-9]+s  REPLAY 1x  governor'
tt_keys f f
tt_wait 'up [0-9]+s  REPLAY 4x  governor' 3
tt_wait 'replay rec\.jsonl 12/12 \(end\)' 15
tt_wait 'up [0-9]+s  END OF RECORDING  governor' 3
tt_cap | grep -Eq '  (LIVE|REPLAY) ' && fail "played out, the header still says LIVE or REPLAY"
echo "ok   REPLAY 1x, REPLAY 4x, then END OF RECORDING"
tt_keys q
tt_wait_exit 5

# --follow: a writer appends a line every 0.3 s; the follower says FOLLOWING, its count grows.
live=$TT_DIR/live.jsonl
"$TUNETOP" -b -d 0.3 --scenario default --record "$live" > /dev/null 2>&1 &
writer=$!
stop_writer() { kill "$writer" 2>/dev/null; wait "$writer" 2>/dev/null; }
trap 'stop_writer; tt_cleanup' EXIT
for _ in $(seq 100); do [ -s "$live" ] && break; sleep 0.1; done
tt_start 132 30 "$(tt_wrap --replay "$live" --follow)"
tt_wait 'follow live\.jsonl [0-9]+' 10
count() { tt_cap | grep -oE 'follow live\.jsonl [0-9]+' | grep -oE '[0-9]+$'; }
tt_wait 'up [0-9]+s  FOLLOWING  governor' 5
a=$(count)
for _ in $(seq 100); do [ "$(count)" -gt "$a" ] && break; sleep 0.1; done
[ "$(count)" -gt "$a" ] || fail "no new line followed after $a"
tt_wait 'up [0-9]+s  FOLLOWING  governor' 3
echo "ok   FOLLOWING while lines come ($a, then $(count))"
tt_keys f
tt_wait '^error: speed: --follow plays each line as it is appended' 3
stop_writer
b=$(count)
sleep 1.5 # (five polls with nothing new: it waits, it has not ended)
tt_wait 'up [0-9]+s  FOLLOWING  governor' 3
tt_cap | grep -q 'END OF RECORDING' && fail "--follow said the recording ended"
echo "ok   FOLLOWING once the writer stopped (at $b)"
tt_keys q
tt_wait_exit 5
grep -q 'rc=0' "$TT_DIR/rc" || fail "exit: $(cat "$TT_DIR/rc")"
echo "all ok"
