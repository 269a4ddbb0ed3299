#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_cli.sh: the command line's bad inputs end with status 2 and a message naming what is
# valid; the good ones work; nothing crashes.
set -u
. "$(dirname "$0")/../lib/assert.sh"

expect() { # expect STATUS "message fragment" ARGS...
	local want=$1 frag=$2; shift 2
	local out rc
	out=$("$TUNETOP" "$@" 2>&1 </dev/null)
	rc=$?
	check "[$*] exits $want (got $rc)" test "$rc" -eq "$want"
	if [ -n "$frag" ]; then
		case "$out" in
		*"$frag"*) ok "[$*] says '$frag'" ;;
		*) bad "[$*] should say '$frag', said: $out" ;;
		esac
	fi
}

expect 2 "valid: 0.05 to 3600" -d abc
expect 2 "valid: 0.05 to 3600" -d -1
expect 2 "valid: 0.05 to 3600" -d 0
expect 2 "valid: 0.05 to 3600" -d 1e9
expect 2 "valid: 0.05 to 3600" -d nan
expect 2 "valid: a whole number >= 1" -n 0
expect 2 "valid: a whole number >= 1" -n -3
expect 2 "valid: a whole number >= 1" -n 1x
expect 2 "needs a value" -d
expect 2 "unknown option '--frobnicate'" --frobnicate
expect 2 "unknown option '-z'" -z
expect 2 "unexpected argument 'extra'" -b extra
expect 2 "unknown knob 'pmd.nope'" -b -n 1 --set pmd.nope=1
expect 2 "0 to 10000 us" -b -n 1 --set pmd.maxsleep_us=10001
expect 2 "not a whole number" -b -n 1 --set pmd.maxsleep_us=fast
expect 2 "performance|powersave|ondemand|schedutil" -b -n 1 --set cpu.governor=turbo
expect 2 "power of two" -b -n 1 --set pmd.rxq_size=1000
expect 2 "is not KNOB=VALUE" -b -n 1 --set pmd.maxsleep_us
expect 2 "unknown scenario 'nosuch'" -b -n 1 --scenario nosuch
expect 2 "valid: engine, host" --backend moon
expect 2 "missing NAME" experiment

# Broken scenario files: reported with the file and line, status 2.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'pmd.enabled = on\n# comment\nthis line is wrong\n' >"$tmp/bad1.scn"
expect 2 "bad1.scn:3: expected 'knob = value'" -b -n 1 --scenario "$tmp/bad1.scn"
printf 'pmd.maxsleep_us = 99999\n' >"$tmp/bad2.scn"
expect 2 "bad2.scn:1: pmd.maxsleep_us: 99999 is out of range" -b -n 1 --scenario "$tmp/bad2.scn"
printf 'scenario = nosuch\n' >"$tmp/bad3.scn"
expect 2 "unknown scenario 'nosuch'" -b -n 1 --scenario "$tmp/bad3.scn"
printf 'scenario = %s\n' "$tmp/loop.scn" >"$tmp/loop.scn"
expect 2 "nest too deeply" -b -n 1 --scenario "$tmp/loop.scn"
head -c 3000 /dev/urandom >"$tmp/binary.scn"
out=$("$TUNETOP" -b -n 1 --scenario "$tmp/binary.scn" 2>&1); rc=$?
check "binary scenario file is a usage error (got $rc)" test "$rc" -eq 2
expect 2 "No such file" -b -n 1 --scenario "$tmp/missing/x.scn"

# Good inputs.
expect 0 "Usage: tunetop" --help
expect 0 "tunetop " -V
expect 0 "pmd.maxsleep_us" --list-knobs
expect 0 "pmd-seed" --list-scenarios
printf 'scenario = idle\n# a comment\n\npmd.maxsleep_us = 250   # trailing comment\n' >"$tmp/good.scn"
line=$("$TUNETOP" -b -n 1 -d 0.05 --scenario "$tmp/good.scn")
check "scenario file applied (maxsleep 250 in knobs)" grep -q '"pmd.maxsleep_us":250' <<<"$line"

# -o - is standard output, as for curl and tar: no file named "-".
(cd "$tmp" && "$TUNETOP" -b -n 1 -d 0.05 --scenario idle -o - >"$tmp/dash.out" 2>&1); rc=$?
check "-b -o - exits 0 (got $rc)" test "$rc" -eq 0
check "-b -o - writes its line to stdout" grep -q '"knobs"' "$tmp/dash.out"
check "-b -o - makes no file named -" test ! -e "$tmp/-"
(cd "$tmp" && "$TUNETOP" -b -n 1 -d 0.05 --scenario idle --format prometheus -o - \
	>"$tmp/dash.prom" 2>&1); rc=$?
check "-b --format prometheus -o - exits 0 (got $rc)" test "$rc" -eq 0
check "-b --format prometheus -o - writes the text to stdout" grep -q '^# TYPE ' "$tmp/dash.prom"
check "-b --format prometheus -o - makes no file named -" test ! -e "$tmp/-"

# Every knob of --list-knobs appears in the JSON knobs object, and nothing else does.
names=$("$TUNETOP" --list-knobs | awk '{print $1}' | sort)
json_names=$("$TUNETOP" -b -n 1 -d 0.05 --scenario idle |
	python3 -c 'import json,sys; print("\n".join(sorted(json.loads(sys.stdin.readline())["knobs"])))')
check "--list-knobs and JSON knobs agree" test "$names" = "$json_names"

finish
