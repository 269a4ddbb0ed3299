#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_option_conflicts.sh: options that cannot work together are a usage error (status 2)
# naming both, with nothing run, never one silently winning; --from/--to reject what is not
# a time, saturate rather than wrap, and their errors are usage errors; the console refuses
# a stdout that is not a terminal instead of writing escape codes into it.
set -u
. "$(dirname "$0")/../lib/assert.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run STATUS "fragment" ARGS...: at most 10 s (a hang fails), stdout kept in $tmp/out.
run() {
	local want=$1 frag=$2; shift 2
	local rc
	timeout -k 2 10 "$TUNETOP" "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
	rc=$?
	check "[$*] exits $want (got $rc: $(head -c 160 "$tmp/err"))" test "$rc" -eq "$want"
	if [ -n "$frag" ]; then
		if grep -qF -- "$frag" "$tmp/err"; then ok "says '$frag'"; else bad "should say '$frag', said: $(head -c 300 "$tmp/err")"; fi
	fi
}
# conflict A B ARGS...: status 2, both names in the message, nothing on stdout.
conflict() {
	local a=$1 b=$2; shift 2
	run 2 "$a" "$@"
	grep -qF -- "$b" "$tmp/err" || bad "[$*] message does not name $b: $(cat "$tmp/err")"
	check "[$*] writes nothing on stdout" test ! -s "$tmp/out"
}

"$TUNETOP" -b -n 4 -d 0.2 --scenario idle >"$tmp/r.jsonl" || bad "record a replay file"
check "the recording has 4 lines" test "$(wc -l <"$tmp/r.jsonl")" -eq 4

# A recording is the source: a second source or live writes are refused, in either order.
conflict --replay --host --replay "$tmp/r.jsonl" --host -b -n 1
conflict --replay --host --host --replay "$tmp/r.jsonl" -b -n 1
conflict --replay --backend --replay "$tmp/r.jsonl" --backend engine -b -n 1
conflict --replay --write --replay "$tmp/r.jsonl" --write -b -n 1
conflict --replay --scenario --replay "$tmp/r.jsonl" --scenario pmd-seed -b -n 1
# Options that only mean something with another: --write with the host or remote hosts,
# --ssh and --agent-path with --remote (all three were accepted and did nothing).
conflict --write "the engine" -b -n 1 --write
conflict --ssh "no --remote" -b -n 1 --ssh "ssh -p 2222"
conflict --agent-path "no --remote" -b -n 1 --agent-path /usr/bin/tunetop
# The agent neither serves nor records (both were accepted and did nothing).
conflict --agent --serve --agent --serve 127.0.0.1:0
conflict --agent --record --agent --record "$tmp/agent.jsonl"
check "--agent --record created no file" test ! -e "$tmp/agent.jsonl"
# -b --remote writes every host's JSON to stdout: the one-source outputs are refused.
conflict "-b --remote" --serve -b --remote h1 --serve 127.0.0.1:0
conflict "-b --remote" --format -b --remote h1 --format prometheus
# -o works there: the hosts' JSON lines go to FILE (it wrote nothing and stdout got them).
# A fake ssh runs the far command here: options skipped, the host dropped.
printf '#!/bin/sh\nwhile [ $# -gt 0 ]; do case "$1" in -o) shift 2;; -*) shift;; *) break;; esac; done\nshift\nexec sh -c "$*"\n' >"$tmp/ssh"
chmod +x "$tmp/ssh"
run 0 "" -b -n 2 -d 0.2 --remote h1 --ssh "$tmp/ssh" --agent-path "$TUNETOP" -o "$tmp/rem.out"
check "-b --remote -o: nothing on stdout" test ! -s "$tmp/out"
hosts=$(python3 -c 'import json,sys; print(" ".join(json.loads(l)["host"] for l in open(sys.argv[1])))' "$tmp/rem.out" 2>&1)
check "-b --remote -o FILE: 2 JSON lines of host h1 in FILE (got $hosts)" test "$hosts" = "h1 h1"

# --from/--to: seconds saturate at the end of time instead of wrapping; times are checked.
run 0 "" --replay "$tmp/r.jsonl" -b --to 17000000000
check "--to 17000000000 plays all 4 (got $(wc -l <"$tmp/out"))" test "$(wc -l <"$tmp/out")" -eq 4
run 0 "" --replay "$tmp/r.jsonl" -b --to 1e30
check "--to 1e30 plays all 4 (got $(wc -l <"$tmp/out"))" test "$(wc -l <"$tmp/out")" -eq 4
run 1 "no snapshot between" --replay "$tmp/r.jsonl" -b --from 18446744000
check "--from 18446744000 plays none (got $(wc -l <"$tmp/out"))" test ! -s "$tmp/out"
run 1 "no snapshot between" --replay "$tmp/r.jsonl" -b --to 1970-01-01T00:00:00Z
run 0 "" --replay "$tmp/r.jsonl" -b --from 1970-01-01T00:00:00Z
check "--from epoch 0 is a time: all 4 (got $(wc -l <"$tmp/out"))" test "$(wc -l <"$tmp/out")" -eq 4
run 2 "is not a time" --replay "$tmp/r.jsonl" -b --from 2026-13-45T99:99:99Z
run 2 "is not a time" --replay "$tmp/r.jsonl" -b --from 2026-02-30T00:00:00Z
run 2 "is not a time" --replay "$tmp/r.jsonl" -b --to 2026-12-01T10:00:00Zjunk
run 2 "is not a time" --replay "$tmp/r.jsonl" -b --to nan
run 2 "--from 1 is after --to 0.5" --replay "$tmp/r.jsonl" -b --from 1 --to 0.5

# The console on a file or a pipe: a clear error, status 2, no escape codes, nothing run.
run 2 "not a terminal" -n 2 --scenario idle
run 2 "not a terminal" -n 2 --replay "$tmp/r.jsonl"
check "no curses escapes written" test ! -s "$tmp/out"
run 0 "" -b -n 1 -d 0.05 --scenario idle
finish
