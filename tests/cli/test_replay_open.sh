#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_replay_open.sh: replay holds an index of a recording, not its text (docs/recording.md
# "How replay reads a file"): opening a 4-hour recording takes no more memory than a 1-hour
# one (plain and .zst), both stay under 10 MB peak RSS (the text of an hour is 21 MB), the
# first sample played is the recording's first line, and :goto-style slicing (--from) and a
# whole replay give back the recorded lines in order, through tunetop's own 60-line frames; a
# single file is indexed as it is played (its first sample does not wait for its end).
# The recordings repeat 20 real snapshots with their times 1 s apart, as bench/replay.sh.
set -u
. "$(dirname "$0")/../lib/assert.sh"
case "$(basename "${TT_BUILD:-build}")" in
asan | tsan)
	echo "SKIP: peak RSS of a sanitizer's build measures the sanitizer"
	exit 77
	;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$TUNETOP" -b -n 20 -d 0.2 > "$tmp/20.jsonl" 2>/dev/null || bad "record 20 snapshots"
python3 - "$tmp" <<'PY'
import datetime, json, sys
lines = [json.loads(l) for l in open(sys.argv[1] + "/20.jsonl")]
t0 = datetime.datetime(2026, 12, 1)
for hours in (1, 4):
    with open(f"{sys.argv[1]}/h{hours}.jsonl", "w") as out:
        for i in range(3600 * hours):
            o = lines[i % len(lines)]
            o["time"] = (t0 + datetime.timedelta(seconds=i)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
            o["seq"], o["interval_s"] = i + 1, 1.0
            out.write(json.dumps(o, separators=(",", ":")) + "\n")
PY
for h in 1 4; do zstd -q "$tmp/h$h.jsonl" -o "$tmp/h$h.jsonl.zst"; done

rss() { /usr/bin/time -f %M "$TUNETOP" --replay "$1" -b -n 1 2>&1 >"$tmp/first" | tail -n 1; }
for ext in jsonl jsonl.zst; do
	r1=$(rss "$tmp/h1.$ext")
	r4=$(rss "$tmp/h4.$ext")
	check "h1.$ext opens in $r1 KB peak RSS (under 10 MB)" test "$r1" -lt 10240
	check "h4.$ext opens in $r4 KB, within 2 MB of h1's $r1 KB" test "$r4" -lt $((r1 + 2048))
	seq1=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["seq"])' "$tmp/first")
	check "h4.$ext plays its first line first (seq $seq1)" test "$seq1" = 1
done

# A single file is indexed as it is played: the first sample needs only its start. An hour whose
# end is a line past the cap plays its first sample (a whole index would refuse it at open);
# played through, it gives every line and says where it ends.
{ cat "$tmp/h1.jsonl"; head -c $((17 << 20)) /dev/zero; } | zstd -q -o "$tmp/tail.zst"
out=$("$TUNETOP" --replay "$tmp/tail.zst" -b -n 1 2>&1 >/dev/null)
rc=$?
check "tail.zst: -b -n 1 plays before the bad end is read (rc $rc: $out)" test $rc -eq 0
n=$("$TUNETOP" --replay "$tmp/tail.zst" -b 2>"$tmp/tail.err" | wc -l)
check "tail.zst plays its 3600 lines (got $n)" test "$n" -eq 3600
check "tail.zst then says the line past the cap ($(cat "$tmp/tail.err"))" \
	grep -q 'replay tail.zst 3600/3600 (end), damaged: .*tail.zst: line 3601 is longer than the cap of 16 MiB' "$tmp/tail.err"

# tunetop's own .zst: 200 lines in 60-line frames; the whole replay and a slice from the
# middle give back the recorded lines.
"$TUNETOP" -b -n 200 -d 0.05 --record "$tmp/own.zst" > "$tmp/own.plain" 2>/dev/null
frames=$(zstd -lv "$tmp/own.zst" 2>&1 | sed -n 's/^# Zstandard Frames: *//p')
check "own.zst holds a frame per 60 lines (got ${frames:-none} for 200)" test "${frames:-0}" -eq 4
"$TUNETOP" --replay "$tmp/own.zst" -b > "$tmp/own.back" 2>/dev/null
check "own.zst replays byte for byte" cmp "$tmp/own.plain" "$tmp/own.back"
# The slice starts at the first line from 150 on whose time is later than the line before's
# (an ISO --from takes every line of its millisecond).
read -r k t150 < <(python3 -c '
import json, sys
t = [json.loads(l)["time"] for l in open(sys.argv[1])]
k = next(i for i in range(149, len(t)) if t[i] > t[i - 1])
print(k + 1, t[k])' "$tmp/own.plain")
"$TUNETOP" --replay "$tmp/own.zst" -b --from "$t150" > "$tmp/own.tail" 2>/dev/null
got=$(wc -l < "$tmp/own.tail")
# The rules run again on what is replayed (docs/design.md "After a sample"), and a slice starts
# their hysteresis afresh: a finding the whole run had since line 140 starts later in it. So the
# lines are compared without diagnoses[] and the diag events (test_diag.c judges those); on a
# machine where no rule fires they are byte for byte the same anyway.
strip='import json, sys
for l in sys.stdin:
    o = json.loads(l)
    o.pop("diagnoses", None)
    o["events"] = [e for e in o.get("events", []) if e.get("kind") != "diag"]
    print(json.dumps(o, sort_keys=True))'
check "--from line $k's time gives lines $k to 200 (got $got lines)" cmp <(python3 -c "$strip" < "$tmp/own.tail") <(sed -n "$k,\$p" "$tmp/own.plain" | python3 -c "$strip")
finish
