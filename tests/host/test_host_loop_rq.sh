#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_host_loop_rq.sh: blk.rq_affinity on a real loop device through tunetop --host, with
# real IO: each value 0/1/2 is written and read back in sysfs, the JSON shows it, and direct
# writes to the loop device move the BLOCK row of /proc/softirqs (loop completes through
# BLOCK_SOFTIRQ: docs/blk.md §7) and the blk section's per-CPU counts.
set -u
. "$(dirname "$0")/../lib/assert.sh"

. "$(dirname "$0")/../lib/loopdev.sh"
ok "attached $dev (rq_affinity was $orig)"

block_sum() { awk '$1 == "BLOCK:" { s = 0; for (i = 2; i <= NF; i++) s += $i; print s }' /proc/softirqs; }

for v in 0 2 1; do
	out=$(TUNETOP_BLK_DEV=$name "$TUNETOP" --host --write -b -n 1 -d 0.1 --set blk.rq_affinity=$v 2>&1)
	rc=$?
	check "--set blk.rq_affinity=$v exits 0 (rc $rc: ${out:0:200})" test "$rc" -eq 0
	check "sysfs reads $v after the set" test "$(cat "$knob")" = "$v"
	got=$(printf '%s\n' "$out" | tail -n 1 | python3 -c 'import json,sys; o=json.load(sys.stdin); print(o["blk"]["rq_affinity"], o["host"]["blk_dev"])' 2>&1)
	check "JSON blk.rq_affinity is $v on $name (got '$got')" test "$got" = "$v $name"
done

# Real IO while tunetop samples: BLOCK moves, and the blk section sees it.
before=$(block_sum)
TUNETOP_BLK_DEV=$name "$TUNETOP" --host --write -b -n 3 -d 0.5 --set blk.rq_affinity=2 >"$work/out.json" 2>"$work/err" &
tt=$!
sleep 0.3
dd if=/dev/zero of="$dev" bs=4k count=4000 oflag=direct status=none
sync
wait $tt
check "tunetop during IO exits 0 ($(head -c 200 "$work/err"))" test $? -eq 0
after=$(block_sum)
check "/proc/softirqs BLOCK moved with direct IO ($before -> $after)" test "$after" -gt "$before"
res=$(python3 - "$work/out.json" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
last = lines[-1]["blk"]
soft = sum(c["block_softirq"] for c in last["per_cpu"])
iops = max(l["blk"]["iops"] for l in lines)
t = last["totals"]
print(len(lines), last["rq_affinity"], 1 if soft > 0 else 0, 1 if iops > 0 else 0,
      1 if t["submitted"] == t["completed"] + t["in_flight"] else 0, 1 if t["completed"] >= 4000 else 0)
PY
)
check "3 lines, rq_affinity 2, BLOCK counted per CPU, iops > 0, s = c + i, >= 4000 completions (got '$res')" \
	test "$res" = "3 2 1 1 1 1"

# The knob is read back every sample. A writer behind tunetop's back
# (echo > sysfs) changes the value while tunetop samples; knobs.blk.rq_affinity and
# blk.rq_affinity agree on every line, and both follow sysfs.
( for i in $(seq 1 60); do echo $((i % 3)) >"$knob"; sleep 0.03; done ) &
writer=$!
TUNETOP_BLK_DEV=$name "$TUNETOP" --host -b -n 25 -d 0.1 >"$work/race.json" 2>"$work/race.err"
wait $writer
res=$(python3 - "$work/race.json" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
pairs = [(l["knobs"]["blk.rq_affinity"], l["blk"]["rq_affinity"]) for l in lines]
print(len(lines), sum(1 for k, b in pairs if k != b), len(set(b for _, b in pairs)))
PY
)
set -- $res
check "25 lines with a writer behind tunetop's back (got ${1:-none})" test "${1:-0}" = 25
check "knobs.blk.rq_affinity == blk.rq_affinity on every line (${2:-?} disagree)" test "${2:-1}" = 0
check "the read-back followed sysfs (${3:-0} distinct values seen)" test "${3:-0}" -ge 2

# Two writers at once: each reply is what sysfs held when that writer read it back, and the
# one that wrote last (the value sysfs keeps) reported that value.
for round in 1 2 3; do
	TUNETOP_BLK_DEV=$name "$TUNETOP" --host --write -b -n 1 -d 0.05 --set blk.rq_affinity=0 >"$work/w0.json" 2>&1 &
	a=$!
	TUNETOP_BLK_DEV=$name "$TUNETOP" --host --write -b -n 1 -d 0.05 --set blk.rq_affinity=2 >"$work/w2.json" 2>&1 &
	b=$!
	wait $a; ra=$?
	wait $b; rb=$?
	final=$(cat "$knob")
	ka=$(tail -n 1 "$work/w0.json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["knobs"]["blk.rq_affinity"])' 2>&1)
	kb=$(tail -n 1 "$work/w2.json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["knobs"]["blk.rq_affinity"])' 2>&1)
	check "round $round: both writers exit 0 ($ra, $rb: $(grep -h "^tunetop:" "$work/w0.json" "$work/w2.json" | tr "\n" " "))" test "$ra" = 0 -a "$rb" = 0
	check "round $round: sysfs kept one of them ($final)" test "$final" = 0 -o "$final" = 2
	# Each writer's JSON is read back after the other may have written: it shows a value
	# sysfs really held (0 or 2), never one it did not, and the last line agrees with sysfs
	# for the writer whose value won.
	check "round $round: writer 0 reports a real value ($ka)" test "$ka" = 0 -o "$ka" = 2
	check "round $round: writer 2 reports a real value ($kb)" test "$kb" = 0 -o "$kb" = 2
	if [ "$final" = 0 ]; then w=$ka; else w=$kb; fi
	check "round $round: the winner reports what sysfs kept ($w vs $final)" test "$w" = "$final"
done

# A value the kernel ignores (3) is refused before it reaches sysfs; a missing device too.
was=$(cat "$knob")
out=$(TUNETOP_BLK_DEV=$name "$TUNETOP" --host --write -b -n 1 --set blk.rq_affinity=3 2>&1)
rc=$?
case "$out" in *"3 is not 0, 1 or 2"*) ok "blk.rq_affinity=3 refused: $out" ;; *) bad "blk.rq_affinity=3: $out" ;; esac
out=$(TUNETOP_BLK_DEV=$name "$TUNETOP" --host --write -b -n 1 --set blk.rq_affinity=4294967295 2>&1)
case "$out" in *"4294967295 is not 0, 1 or 2"*) ok "the refusal names the value: $out" ;; *) bad "blk.rq_affinity=4294967295: $out" ;; esac
# Read-only without --write: refused with exit 2 naming --write, sysfs untouched.
out=$(TUNETOP_BLK_DEV=$name "$TUNETOP" --host -b -n 1 --set blk.rq_affinity=0 2>&1)
rc=$?
check "without --write: exit 2 (rc $rc)" test "$rc" -eq 2
case "$out" in *--write*) ok "without --write: says --write" ;; *) bad "without --write: $out" ;; esac
check "without --write: sysfs unchanged" test "$(cat "$knob")" = "$was"
check "blk.rq_affinity=3 fails (rc $rc)" test "$rc" -ne 0
check "sysfs unchanged after the refused 3" test "$(cat "$knob")" = "$was"
out=$(TUNETOP_BLK_DEV=nosuchdisk0 "$TUNETOP" --host -b -n 1 2>&1)
case "$out" in *"no such device"*) ok "missing device named: $out" ;; *) bad "missing device: $out" ;; esac
finish
