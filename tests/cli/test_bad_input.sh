#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tt-sanitize: every engine thread started and stopped on bad input (LeakSanitizer)
# test_bad_input.sh: careless and hostile inputs, each ending in a clear error and
# the right exit status, never a hang or a silent change: FIFOs for files, over-long
# and action values, usage errors that exit 2, wrong messages, file content never
# echoed, BOMs, relative includes, the man page's variables.
set -u
. "$(dirname "$0")/../lib/assert.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run STATUS FRAGMENT ARGS...: at most 10 s (a hang fails), status and message checked.
run() {
	local want=$1 frag=$2; shift 2
	local out rc
	out=$(timeout -k 2 10 "$TUNETOP" "$@" 2>&1 </dev/null)
	rc=$?
	check "[${*:0:200}] exits $want (got $rc${out:+: ${out:0:160}})" test "$rc" -eq "$want"
	if [ -n "$frag" ]; then
		case "$out" in
		*"$frag"*) ok "says '$frag'" ;;
		*) bad "should say '$frag', said: ${out:0:300}" ;;
		esac
	fi
	LAST_OUT=$out
}

# Item 2: a FIFO (or any non-regular file) is refused at once, not read forever.
mkfifo "$tmp/f"
run 2 "FIFO, not a regular file" -b -n 1 --scenario "$tmp/f"
printf 'scenario = %s\n' "$tmp/f" >"$tmp/inc.scn"
run 2 "FIFO, not a regular file" -b -n 1 --scenario "$tmp/inc.scn"
run 2 "FIFO, not a regular file" -n 1 --theme "$tmp/f"
run 2 "directory" -b -n 1 --scenario "$tmp/"
run 2 "device" -b -n 1 --scenario /dev/zero

# Item 7: values are never cut to fit; an action takes its one form.
zeros=$(printf '0%.0s' $(seq 300))
run 2 "value too long" -b -n 1 --set "est.count=${zeros}5"
spaces=$(printf ' %.0s' $(seq 300))
run 2 "value too long" -b -n 1 --set "pmd.enabled=on${spaces}junk"
printf 'est.count = %s5\n' "$zeros" >"$tmp/long.scn"
run 2 "value too long" -b -n 1 --scenario "$tmp/long.scn"
run 2 "est.recalibrate: '5x' is not valid" -b -n 1 --set est.recalibrate=5x
run 2 "is not valid" -b -n 1 --set est.recalibrate=off
run 0 "" -b -n 1 -d 0.05 --scenario idle --set est.recalibrate=1

# Item 9: knobs that can never run together are usage errors (2), as README says.
run 2 "MiB of per-CPU counters" -b -n 1 --scenario idle --set est.enabled=on \
	--set est.count=2000000 --set est.cpus=4096
run 2 "blk.irq_cpu 100: only" -b -n 1 --scenario idle --set blk.enabled=on --set blk.irq_cpu=100
TUNETOP_BLK_DEV=nosuchdev run 2 "nosuchdev" -b -n 1 --host
# cpu.nodes reads back the nodes there are.
line=$(timeout 10 "$TUNETOP" -b -n 1 -d 0.05 --scenario idle --set cpu.count=1 --set cpu.nodes=64)
got=$(python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["knobs"]["cpu.nodes"])' <<<"$line")
check "cpu.count=1 cpu.nodes=64 reads back 1 node (got $got)" test "$got" = 1

# Item 9: the host follows only a process that exists; rq_affinity names the value given.
if timeout 10 "$TUNETOP" -b -n 1 --host >/dev/null 2>&1; then
	run 2 "no process 4194304" -b -n 1 --host --set host.pid=4194304
	run 0 "" -b -n 1 --host --set host.pid=$$
	run 2 "4294967295 is not 0, 1 or 2" -b -n 1 --host --write --set blk.rq_affinity=4294967295
	case "$LAST_OUT" in *"3 is not"*) bad "rq_affinity message names 3: $LAST_OUT" ;; esac
else
	echo "skip host checks: --host does not open here"
fi

# Item 9: a file that is not a scenario never has its content printed (as root,
# --scenario /etc/shadow printed root's password hash).
printf 'root:$6$SECRETSALT$SECRETHASH:19000:0:99999:7:::\n' >"$tmp/shadow"
run 2 "shadow:1: expected 'knob = value'" -b -n 1 --scenario "$tmp/shadow"
case "$LAST_OUT" in *SECRET*) bad "the file's content was echoed: $LAST_OUT" ;; *) ok "content not echoed" ;; esac
printf 'user=$6$SECRETSALT$SECRETHASH\n' >"$tmp/kv"
run 2 "kv:1:" -b -n 1 --scenario "$tmp/kv"
case "$LAST_OUT" in *SECRET*) bad "the file's content was echoed: $LAST_OUT" ;; *) ok "content not echoed" ;; esac
printf 'pass$word:SECRET = 1\n' >"$tmp/kv2"
run 2 "kv2:1:" -b -n 1 --scenario "$tmp/kv2"
case "$LAST_OUT" in *SECRET*) bad "the file's content was echoed: $LAST_OUT" ;; *) ok "content not echoed" ;; esac

# Item 9: a UTF-8 BOM is not part of the first knob's name.
printf '\xef\xbb\xbfpmd.maxsleep_us = 250\n' >"$tmp/bom.scn"
line=$(timeout 10 "$TUNETOP" -b -n 1 -d 0.05 --scenario "$tmp/bom.scn" 2>&1)
check "a scenario with a BOM applies (${line:0:120})" grep -q '"pmd.maxsleep_us":250' <<<"$line"

# Item 9: 'scenario = sub.scn' is found beside the including file, wherever tunetop runs.
mkdir -p "$tmp/set/inner"
printf 'pmd.maxsleep_us = 321\n' >"$tmp/set/inner/sub.scn"
printf 'scenario = idle\nscenario = inner/sub.scn\n' >"$tmp/set/main.scn"
line=$(cd / && timeout 10 "$TUNETOP" -b -n 1 -d 0.05 --scenario "$tmp/set/main.scn" 2>&1)
check "a relative include resolves against the including file (${line:0:120})" grep -q '"pmd.maxsleep_us":321' <<<"$line"

# Item 9: an unknown terminal is a runtime error that frees what it allocated (run under
# ASan, `make asan`, this is the LSan check).
# The console needs a terminal on stdout (else status 2): script(1) gives it a pty.
out=$(TERM=nosuchterm timeout -k 2 10 script -qec "$(printf '%q' "$TUNETOP") -n 1 --scenario idle" /dev/null 2>&1 </dev/null)
rc=$?
check "[TERM=nosuchterm -n 1] exits 1 (got $rc: ${out:0:160})" test "$rc" -eq 1
case "$out" in *"TERM=nosuchterm"*) ok "says 'TERM=nosuchterm'" ;; *) bad "should say 'TERM=nosuchterm', said: ${out:0:300}" ;; esac
LAST_OUT=$out
case "$LAST_OUT" in *LeakSanitizer*|*"detected memory leaks"*) bad "TERM=nosuchterm leaks: ${LAST_OUT:0:300}" ;; *) ok "TERM=nosuchterm: no leak report" ;; esac

# Item 9: the man page lists every TUNETOP_* variable the code reads.
vars=$(grep -rhoE 'getenv\("TUNETOP_[A-Z_]+"\)' "$top"/core "$top"/engine "$top"/backends "$top"/tui |
	sed -E 's/getenv\("(.*)"\)/\1/' | sort -u)
check "the code reads some TUNETOP_* variables" test -n "$vars"
for v in $vars; do
	check "tunetop.1 lists $v" grep -q -- "$v" "$top/tunetop.1"
done

finish
