#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tt-sanitize: recording and replay beside the sampler
# test_record_cli.sh: the command line of --record/--replay/--agent/--remote: bad inputs end
# with status 2 (usage) or 1 (a file that cannot be read) and a message naming what is wrong;
# a compressed recording cut mid-stream still replays what was flushed before the cut.
set -u
. "$(dirname "$0")/../lib/assert.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

expect() { # expect STATUS "message fragment" ARGS...
	local want=$1 frag=$2; shift 2
	local out rc
	out=$("$TUNETOP" "$@" 2>&1 </dev/null)
	rc=$?
	check "[$*] exits $want (got $rc)" test "$rc" -eq "$want"
	case "$out" in
	*"$frag"*) ok "[$*] says '$frag'" ;;
	*) bad "[$*] should say '$frag', said: $out" ;;
	esac
}

"$TUNETOP" -b -n 4 -d 0.1 > "$tmp/r.jsonl" || bad "record"
expect 2 "need --replay" -b --from 3
expect 2 "is not a time" --replay "$tmp/r.jsonl" -b --from yesterday
expect 1 "No such file" --replay "$tmp/none.jsonl" -b
expect 2 "read-only (replaying r.jsonl)" --replay "$tmp/r.jsonl" -b --set pmd.maxsleep_us=10
expect 2 "pick one" --replay "$tmp/r.jsonl" --remote h1
expect 2 "not with -b" --agent -b
expect 2 "unclosed ' quote" --remote h1 --ssh "ssh -F 'x" -b -n 1
expect 1 "no snapshot between --from and --to" --replay "$tmp/r.jsonl" -b --from 100
printf 'junk\n{"schema":7}\n' > "$tmp/junk.jsonl"
expect 1 "no snapshot in it (2 lines skipped" --replay "$tmp/junk.jsonl" -b
expect 1 "" --record /nonexistent/dir/x.jsonl -b -n 1

# A .zst recording cut mid-stream (a crash): the lines flushed before the cut replay.
"$TUNETOP" -b -n 6 -d 0.1 --record "$tmp/c.zst" > "$tmp/c.plain"
size=$(stat -c %s "$tmp/c.zst")
head -c $((size * 3 / 4)) "$tmp/c.zst" > "$tmp/cut.zst"
n=$("$TUNETOP" --replay "$tmp/cut.zst" -b 2>/dev/null | wc -l)
check "a .zst cut at 3/4 replays 3..5 of its 6 lines (got $n)" test "$n" -ge 3 -a "$n" -le 5
"$TUNETOP" --replay "$tmp/cut.zst" -b 2>/dev/null | cmp -s - <(head -n "$n" "$tmp/c.plain")
check "and they are the recorded lines" test $? -eq 0
"$TUNETOP" -b -n 6 -d 0.1 --record "$tmp/c.gz" > "$tmp/g.plain"
size=$(stat -c %s "$tmp/c.gz")
head -c $((size * 3 / 4)) "$tmp/c.gz" > "$tmp/cut.gz"
n=$("$TUNETOP" --replay "$tmp/cut.gz" -b 2>/dev/null | wc -l)
check "a .gz cut at 3/4 replays 3..5 of its 6 lines (got $n)" test "$n" -ge 3 -a "$n" -le 5
finish
