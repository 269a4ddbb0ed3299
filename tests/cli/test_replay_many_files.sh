#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_replay_many_files.sh: --replay DIR reads a store of more files than the descriptors it
# may open (docs/recording.md): 300 files under `ulimit -n 64` replay, each file open only
# while it is indexed or played (core/zread.h), where every file held open failed with
# "Too many open files".
. "$(dirname "$0")/../lib/assert.sh"
store=$TMPDIR/store
"$TUNETOP" -b -n 2 -d 0.2 -o /dev/null --record-dir "$store" 2>"$TMPDIR/err" ||
	bad "a store of one file: $(cat "$TMPDIR/err")"
one=$(ls "$store"/tunetop-*.jsonl.zst | head -1)
check "the recorder made a file" test -f "$one"
# 300 more names for the same file, one an hour from 2025-01-01 (the store's name order).
python3 - "$one" "$store" <<'PY'
import datetime, os, sys
src, store = sys.argv[1], sys.argv[2]
t = datetime.datetime(2025, 1, 1)
for i in range(300):
    name = (t + datetime.timedelta(hours=i)).strftime("tunetop-%Y%m%d-%H%M%S.jsonl.zst")
    os.link(src, os.path.join(store, name))
PY
rc=0
(ulimit -n 64 && exec "$TUNETOP" --replay "$store" -b -n 3) >"$TMPDIR/out" 2>"$TMPDIR/err" || rc=$?
cat "$TMPDIR/err"
check "301 files under ulimit -n 64: exit 0 (rc $rc)" test "$rc" = 0
check "3 lines written" test "$(wc -l <"$TMPDIR/out")" = 3
check "no 'Too many open files'" eval '! grep -q "Too many open files" "$TMPDIR/err"'
finish
