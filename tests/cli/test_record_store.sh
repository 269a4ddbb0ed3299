#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tt-sanitize: the recorder's rotation beside the sampler, --follow
# test_record_store.sh: --record-dir rotates (at 20 KB here) into files named in time order,
# deletes the oldest beyond --record-max-size, refuses a symlinked DIR; --replay DIR plays every
# line of every file in time order; a flipped byte in a zstd frame is reported (its checksum)
# while what came before plays; --replay --follow sees what a writer appends (a file, a DIR).
set -u
. "$(dirname "$0")/../lib/assert.sh"
command -v zstd >/dev/null || { echo "zstd not installed"; exit 77; }
tmp=$(mktemp -d)
writer=
trap '[ -n "$writer" ] && kill "$writer" 2>/dev/null; rm -rf "$tmp"' EXIT

# wait_for SECONDS COMMAND...: until the command succeeds, else false.
wait_for() {
	local end=$((SECONDS + $1)); shift
	until "$@"; do
		[ "$SECONDS" -ge "$end" ] && return 1
		sleep 0.1
	done
}
# Lines in the store's files, counted apart from tunetop (zstd, then python3's json).
store_lines() {
	python3 - "$1" <<'PY'
import json, os, subprocess, sys
d = sys.argv[1]
n = 0
for f in sorted(os.listdir(d)):
    out = subprocess.run(["zstd", "-dc", os.path.join(d, f)], capture_output=True, check=True).stdout
    n += sum(1 for l in out.decode().splitlines() if l.strip() and json.loads(l))
print(n)
PY
}

# Rotation and retention: 20 KB files, 60 KB in all.
store=$tmp/store
"$TUNETOP" -b -n 200 -d 0.05 --record-dir "$store" --record-rotate 20KB \
	--record-max-size 60KB > "$tmp/all.jsonl"
check "the store's directory is made 0750" test "$(stat -c %a "$store")" = 750
names=$(ls "$store")
count=$(echo "$names" | wc -l)
check "more than one file after 20 KB rotations (got $count)" test "$count" -ge 2
echo "$names" | grep -qvE '^tunetop-[0-9]{8}-[0-9]{6}(_[0-9]{3})?\.jsonl\.zst$' &&
	bad "a file not named tunetop-YYYYMMDD-HHMMSS.jsonl.zst: $names" || ok "the files are named by their start"
total=$(du -cb "$store"/* | tail -n 1 | cut -f1)
check "the store holds at most 60 KB (got $total)" test "$total" -le 61440
kept=$(store_lines "$store")
check "the oldest files were deleted (kept $kept of 200 lines)" test "$kept" -lt 200 -a "$kept" -gt 0
# The kept files are the newest: their lines are the last ones written.
first=$(zstd -dc "$store/$(ls "$store" | head -n 1)" | head -n 1 |
	python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["seq"])')
check "what is kept ends the recording (first kept seq $first = 200 - $kept + 1)" \
	test "$first" -eq $((200 - kept + 1))
for f in "$store"/*; do
	zstd -lv "$f" 2>&1 | grep -q 'Check: XXH64' || bad "$f: its frame has no checksum"
done
ok "every frame carries a checksum"

# Retention by age: a store file last written in 2020 goes at the first rotation, other names stay.
aged=$tmp/aged
mkdir -m 700 "$aged"
printf 'x' > "$aged/tunetop-20200101-000000.jsonl.zst"
printf 'x' > "$aged/notes.txt"
printf 'x' > "$aged/tunetop-20200101-000000.jsonl.zst.bak"
touch -d 2020-01-01T01:00:00 "$aged"/*
"$TUNETOP" -b -n 3 -d 0.05 --record-dir "$aged" --record-keep 1d > /dev/null
check "a file older than --record-keep is deleted" test ! -e "$aged/tunetop-20200101-000000.jsonl.zst"
check "names that are not the store's stay" test -e "$aged/notes.txt" -a -e "$aged/tunetop-20200101-000000.jsonl.zst.bak"
check "the new file is there" test "$(ls "$aged" | grep -c '^tunetop-.*\.jsonl\.zst$')" -eq 1

# --replay DIR: every line of every file, in time order.
big=$tmp/big
"$TUNETOP" -b -n 150 -d 0.05 --record-dir "$big" --record-rotate 20KB > "$tmp/big.jsonl"
files=$(ls "$big" | wc -l)
want=$(store_lines "$big")
"$TUNETOP" --replay "$big" -b > "$tmp/replayed.jsonl"
check "--replay DIR ends with 0" test $? -eq 0
got=$(wc -l < "$tmp/replayed.jsonl")
check "--replay DIR plays all $want lines of its $files files (got $got)" test "$got" -eq "$want" -a "$files" -ge 3
python3 - "$tmp/replayed.jsonl" "$tmp/big.jsonl" <<'PY'
import json, sys
got = [json.loads(l) for l in open(sys.argv[1])]
want = [json.loads(l) for l in open(sys.argv[2])]
seq = [g["seq"] for g in got]
assert seq == sorted(seq) and seq == [w["seq"] for w in want], seq[:10]
assert [g["time"] for g in got] == [w["time"] for w in want]
PY
check "in time order, the lines written" test $? -eq 0

# A symlink as DIR is refused (exit 2), nothing written through it.
mkdir "$tmp/real"
ln -s "$tmp/real" "$tmp/link"
out=$("$TUNETOP" -b -n 1 --record-dir "$tmp/link" 2>&1 >/dev/null)
check "a symlinked --record-dir exits 2" test $? -eq 2
case "$out" in "tunetop: --record-dir: "*"is a symlink"*) ok "and says so, naming --record-dir" ;;
*) bad "says: $out" ;; esac
check "nothing was written through it" test -z "$(ls "$tmp/real")"

# A flipped byte in a zstd frame: reported by name, what came before still plays.
"$TUNETOP" -b -n 40 -d 0.05 --record "$tmp/c.zst" > /dev/null
size=$(stat -c %s "$tmp/c.zst")
cp "$tmp/c.zst" "$tmp/flip.zst"
python3 - "$tmp/flip.zst" $((size * 9 / 10)) <<'PY'
import sys
p, off = sys.argv[1], int(sys.argv[2])
b = bytearray(open(p, "rb").read())
b[off] ^= 0x55
open(p, "wb").write(b)
PY
n=$("$TUNETOP" --replay "$tmp/flip.zst" -b 2>"$tmp/flip.err" | wc -l)
msg=$(cat "$tmp/flip.err")
case "$msg" in *"damaged: "*"flip.zst: zstd: "*) ok "a flipped byte is reported ($msg)" ;;
*) bad "a flipped byte should be reported, stderr: $msg" ;; esac
check "what came before it plays (got $n of 40)" test "$n" -ge 20

# --follow on a file being written: lines appended after the start are seen.
"$TUNETOP" -b -n 100000 -d 0.1 --record "$tmp/live.zst" > /dev/null &
writer=$!
wait_for 10 test -s "$tmp/live.zst" || bad "the writer did not start"
"$TUNETOP" --replay "$tmp/live.zst" --follow -b > "$tmp/followed.jsonl" 2>/dev/null &
follower=$!
have=$(zstd -dc "$tmp/live.zst" 2>/dev/null | wc -l)
need=$((have + 15))
wait_for 30 sh -c "[ \$(wc -l < '$tmp/followed.jsonl') -ge $need ]"
check "--follow sees lines appended after it started ($have then, $need reached)" test $? -eq 0
kill "$follower" "$writer"
wait "$follower" "$writer" 2>/dev/null
writer=
python3 -c "
import json,sys
s=[json.loads(l)['seq'] for l in open('$tmp/followed.jsonl') if l.endswith('\n')]
assert s == list(range(1, len(s) + 1)), s[:20]
"
check "every line once, in order" test $? -eq 0

# --follow on a store: it moves on to each new file the writer rotates to.
fdir=$tmp/fstore
"$TUNETOP" -b -n 100000 -d 0.05 --record-dir "$fdir" --record-rotate 10KB > /dev/null &
writer=$!
wait_for 10 sh -c "ls '$fdir' 2>/dev/null | grep -q zst" || bad "the store writer did not start"
"$TUNETOP" --replay "$fdir" --follow -b > "$tmp/ffollowed.jsonl" 2>/dev/null &
follower=$!
start_files=$(ls "$fdir" | wc -l)
wait_for 30 sh -c "[ \$(ls '$fdir' | wc -l) -ge $((start_files + 3)) ] && [ \$(wc -l < '$tmp/ffollowed.jsonl') -ge 60 ]"
check "--follow DIR goes on across rotations ($(wc -l < "$tmp/ffollowed.jsonl") lines)" test $? -eq 0
kill "$follower" "$writer"
wait "$follower" "$writer" 2>/dev/null
writer=
python3 -c "
import json
s=[json.loads(l)['seq'] for l in open('$tmp/ffollowed.jsonl') if l.endswith('\n')]
assert all(b == a + 1 for a, b in zip(s, s[1:])), s
"
check "with no line lost or repeated between files" test $? -eq 0
finish
