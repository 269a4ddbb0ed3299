#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_goto.sh: ':goto' in a replay moves its position: 10:12 (that clock time on the sample's
# day, local: TZ=UTC here), -5m and +30s from the sample shown, a full ISO time; the header's
# uptime and the source's line follow, and a time outside the recording is refused by name.
. "$(dirname "$0")/lib/tmux.sh"

rec=$TT_DIR/g.jsonl
# 120 samples 10 s apart from 10:00:00 UTC; uptime_s is the seconds since 10:00.
"$TUNETOP" -b -n 1 -d 0.1 > "$TT_DIR/one.jsonl" || fail "record"
python3 - "$TT_DIR/one.jsonl" "$rec" <<'PY'
import json, sys, datetime
s = json.loads(open(sys.argv[1]).readline())
t0 = datetime.datetime(2026, 12, 1, 10, 0, 0, tzinfo=datetime.timezone.utc)
with open(sys.argv[2], "w") as out:
    for i in range(120):
        s["seq"] = i + 1
        s["uptime_s"] = i * 10
        s["interval_s"] = 10
        s["time"] = (t0 + datetime.timedelta(seconds=10 * i)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        out.write(json.dumps(s) + "\n")
PY

goto() { # goto TIME: the ':' command line
	tt_keys : "goto $1" Enter
}
tt_start 132 30 "TZ=UTC $(tt_wrap --replay "$rec")"
tt_wait 'F10Quit'
tt_wait 'up 0s  REPLAY 1x'
goto 10:12
tt_wait 'goto: at 10:12:00 \(sample 73 of 120\)' 5
tt_wait 'up 720s  REPLAY' 5
tt_wait 'replay g\.jsonl 73/120' 5
goto -5m
tt_wait 'goto: at 10:07:00 \(sample 43 of 120\)' 5
tt_wait 'up 420s  REPLAY' 5
goto +30s
tt_wait 'goto: at 10:07:30 \(sample 46 of 120\)' 5
tt_wait 'up 450s  REPLAY' 5
goto 2026-12-01T10:01:40Z
tt_wait 'goto: at 10:01:40 \(sample 11 of 120\)' 5
tt_wait 'up 100s  REPLAY' 5
goto 11:30
tt_wait 'goto 11:30: out of the recording \(10:00:00 \.\. 10:19:50\)' 5
tt_wait 'up 100s  REPLAY' 2
goto soon
tt_wait "goto: 'soon' is not a time" 5
# The last sample: played out at once; a goto back from the end plays on from there (END OF
# RECORDING goes).
goto 10:19:50
tt_wait 'up 1190s  END OF RECORDING' 5
goto 10:19:00
tt_wait 'up 1140s  REPLAY 1x' 5
tt_keys q
tt_wait_exit 5
grep -q 'rc=0' "$TT_DIR/rc" || fail "exit: $(cat "$TT_DIR/rc")"
echo "ok goto"
