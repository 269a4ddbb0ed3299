#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tt-sanitize: two recorders' writer threads beside their sampling loops
# test_record_lock.sh: one recorder per file and per store (docs/recording.md): while one
# tunetop records into a --record-dir store, a second into the same store exits 1 saying
# another one records there; while one writes --record FILE, a second of the same FILE exits 1
# saying another process writes it, and the first one's lines are still there (not truncated).
. "$(dirname "$0")/../lib/assert.sh"
# wait_for CMD...: until CMD succeeds, at most 30 s.
wait_for() {
	for _ in $(seq 300); do
		"$@" && return 0
		sleep 0.1
	done
	return 1
}
lines() { wc -l <"$1" 2>/dev/null || echo 0; }

store=$TMPDIR/store
"$TUNETOP" -b -d 0.1 -n 3000 -o /dev/null --record-dir "$store" 2>"$TMPDIR/a.err" &
a=$!
check "the first recorder made its file" wait_for eval 'ls "$store"/tunetop-*.jsonl.zst >/dev/null 2>&1'
rc=0
timeout 30 "$TUNETOP" -b -d 0.1 -n 5 -o /dev/null --record-dir "$store" 2>"$TMPDIR/b.err" || rc=$?
cat "$TMPDIR/b.err"
check "a second recorder into the store: exit 1 (rc $rc)" test "$rc" = 1
check "it says another one records there" grep -q "another tunetop records into it" "$TMPDIR/b.err"
check "the first is still running" kill -0 "$a"
kill "$a"
wait "$a"
check "the first ended cleanly" test "$?" = 0

rec=$TMPDIR/rec.jsonl
"$TUNETOP" -b -d 0.1 -n 3000 -o /dev/null --record "$rec" 2>"$TMPDIR/a.err" &
a=$!
check "the first recorder wrote lines" wait_for eval 'test "$(lines "$rec")" -ge 2'
first=$(head -1 "$rec")
rc=0
timeout 30 "$TUNETOP" -b -d 0.1 -n 5 -o /dev/null --record "$rec" 2>"$TMPDIR/b.err" || rc=$?
cat "$TMPDIR/b.err"
check "a second recorder of the file: exit 1 (rc $rc)" test "$rc" = 1
check "it says another process writes it" grep -q "another process is writing it" "$TMPDIR/b.err"
check "the file was not truncated: its first line is the first recorder's" \
	test "$(head -1 "$rec")" = "$first"
kill "$a"
wait "$a"
finish
