#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tt-sanitize: the console recording from its sampler thread
# test_replay.sh: record 10 s in the console, replay it: frozen on a sample, the screen shows
# that line's figures (seq, uptime, CPU load, pmd drop%, blk p99), and [ ] { } move exactly
# one or ten samples; a recording with a cut last line and a garbage line plays with
# "2 lines skipped"; knob keys are refused naming the recording; .zst and .gz record and read.
. "$(dirname "$0")/lib/tmux.sh"

rec=$TT_DIR/rec.jsonl
tt_start 132 30 "$(tt_wrap -d 0.5 --scenario default --record "$rec")"
tt_wait 'F10Quit'
# The recording console's title says REC (docs/recording.md).
tt_wait '^ tunetop [0-9.]+ +up [0-9]+s  LIVE 0.5s  REC  governor'
start=$SECONDS
# 10 s of samples: wait for the 20th line in the file (one a line, flushed per line).
for _ in $(seq 200); do
	[ "$(wc -l < "$rec" 2>/dev/null || echo 0)" -ge 20 ] && break
	sleep 0.1
done
tt_keys q
tt_wait_exit 5
grep -q 'rc=0' "$TT_DIR/rc" || fail "the recording console's exit: $(cat "$TT_DIR/rc")"
n=$(wc -l < "$rec")
[ "$n" -ge 20 ] || fail "recorded $n lines in $((SECONDS - start)) s"
python3 -c "import json,sys; [json.loads(l) for l in open('$rec')]" || fail "a recorded line is not JSON"
echo "recorded $n lines"

# What the screen must show for line K (1-based) of FILE: a regex per field.
expect() {
	python3 - "$1" "$2" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
s = lines[int(sys.argv[2]) - 1]
print("frame %d( |$)" % s["seq"])
print(" up %.0fs " % s["uptime_s"])
print(r"^ +0\[[| ]*%.1f%% %dMHz emulated\]" % (s["cpu"]["cpus"][0]["load_pct"], s["cpu"]["cpus"][0]["freq_mhz"]))
print(r" drop %.2f%% maxsleep %dus" % (s["pmd"]["drop_pct"], s["knobs"]["pmd.maxsleep_us"]))
print(r" p99 %.0fus " % s["blk"]["lat_us"]["p99"])
PY
}
check_sample() { # check_sample FILE K
	local re
	while IFS= read -r re; do
		tt_wait "$re" 3
	done < <(expect "$1" "$2")
	tt_wait "^ tunetop [0-9.]+ +up [0-9]+s  FROZEN $2/[0-9]+ " 3
}

tt_start 132 30 "$(tt_wrap --replay "$rec")"
tt_wait 'F10Quit'
# A recording says so: REPLAY at its speed, not LIVE.
tt_wait 'up [0-9]+s  REPLAY 1x  governor'
tt_keys f f f # 8x: the 10 s play in about 1.3 s
tt_wait "replay rec.jsonl $n/$n \(end\)" 10
tt_keys Space
check_sample "$rec" "$n"
tt_keys '['
check_sample "$rec" $((n - 1))
tt_keys '['
check_sample "$rec" $((n - 2))
tt_keys ']'
check_sample "$rec" $((n - 1))
tt_keys '{'
check_sample "$rec" $((n - 11))
tt_keys '}'
check_sample "$rec" $((n - 1))
# Played out, the header says END OF RECORDING; a big step that reaches the newest goes live.
tt_keys '}'
tt_wait 'up [0-9]+s  END OF RECORDING  governor' 3
tt_keys Space '{'
check_sample "$rec" $((n - 10))
tt_keys '}'
tt_wait 'up [0-9]+s  END OF RECORDING  governor' 3
tt_keys Space '['
check_sample "$rec" $((n - 1))
# Sorting and views work on the frozen sample; it stays frozen.
tt_keys 3
tt_wait "  FROZEN $((n - 1))/"
tt_keys 1 '<'
tt_wait "  FROZEN $((n - 1))/"
# Knob keys are refused, naming the recording.
tt_keys F8
tt_wait 'a recording is read-only \(replaying rec\.jsonl\)'
tt_keys Escape
tt_wait '  END OF RECORDING  '
tt_keys q
tt_wait_exit 5
grep -q 'rc=0' "$TT_DIR/rc" || fail "replay exit: $(cat "$TT_DIR/rc")"

# A garbage line in the middle and a cut last line: 2 lines skipped, the rest plays.
bad=$TT_DIR/bad.jsonl
{ head -n 3 "$rec"; echo 'this is not json {'; sed -n 4,6p "$rec"; sed -n 7p "$rec" | head -c 700; } > "$bad"
tt_start 132 30 "$(tt_wrap --replay "$bad")"
tt_wait 'replay bad\.jsonl [0-9]+/6.*, 2 lines skipped' 10
tt_keys q
tt_wait_exit 5
"$TUNETOP" --replay "$bad" -b 2>"$TT_DIR/err" | wc -l | grep -qx 6 || fail "batch replay of bad.jsonl"
grep -q '2 lines skipped' "$TT_DIR/err" || fail "batch replay does not report the skipped lines"

# Compressed recordings: the batch output is the recording; both read back identically.
for ext in zst gz; do
	"$TUNETOP" -b -n 3 -d 0.1 --record "$TT_DIR/c.$ext" > "$TT_DIR/c.$ext.plain" || fail "record .$ext"
	"$TUNETOP" --replay "$TT_DIR/c.$ext" -b | cmp -s - "$TT_DIR/c.$ext.plain" || fail ".$ext replay differs"
done
# --from/--to slice by seconds into the recording.
m=$("$TUNETOP" --replay "$rec" -b --from 2 --to 4 | wc -l)
[ "$m" -ge 3 ] && [ "$m" -le 6 ] || fail "--from 2 --to 4 gave $m lines"
echo ok
