#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_store_planted.sh: a --record-dir store others can write to is refused, to record into
# and to replay (exit 2); in a store, entries of a store file's name that are no regular file
# (a FIFO, a folder, a symlink to a recording elsewhere) are left out of --replay DIR, which
# plays the store's own samples, says how many it left out and exits 0 (docs/recording.md).
. "$(dirname "$0")/../lib/assert.sh"
ww=$TMPDIR/ww
mkdir "$ww"
chmod 1777 "$ww"
rc=0
timeout 30 "$TUNETOP" -b -n 1 -o /dev/null --record-dir "$ww" 2>"$TMPDIR/err" || rc=$?
cat "$TMPDIR/err"
check "recording into a mode 1777 store: exit 2 (rc $rc)" test "$rc" = 2
check "it says others can write to it" grep -q "others can write to it" "$TMPDIR/err"
rc=0
timeout 30 "$TUNETOP" --replay "$ww" -b 2>"$TMPDIR/err" >/dev/null || rc=$?
check "replaying a mode 1777 store: exit 2 (rc $rc)" test "$rc" = 2

store=$TMPDIR/store
"$TUNETOP" -b -n 3 -d 0.2 -o /dev/null --record-dir "$store" 2>"$TMPDIR/err" ||
	bad "a store: $(cat "$TMPDIR/err")"
"$TUNETOP" -b -n 5 -d 0.2 -o /dev/null --record "$TMPDIR/outside.jsonl" 2>"$TMPDIR/err" ||
	bad "a recording outside: $(cat "$TMPDIR/err")"
mkfifo "$store/tunetop-20200101-000000.jsonl.zst"
mkdir "$store/tunetop-20200101-000001.jsonl.zst"
ln -s "$TMPDIR/outside.jsonl" "$store/tunetop-20200101-000002.jsonl.zst"
rc=0
timeout 30 "$TUNETOP" --replay "$store" -b >"$TMPDIR/out" 2>"$TMPDIR/err" || rc=$?
cat "$TMPDIR/err"
check "the store with planted entries: exit 0 (rc $rc)" test "$rc" = 0
check "its own 3 samples, none of the outside recording's 5" test "$(wc -l <"$TMPDIR/out")" = 3
check "it says 3 entries were left out" grep -q "3 entries of a store file's name not a regular file" "$TMPDIR/err"
finish
