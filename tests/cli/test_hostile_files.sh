#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_hostile_files.sh: files that would trick a writer or a reader (core/safefile.h): a planted
# temp-file symlink, symlinks, FIFOs, devices and /proc as targets, /dev/zero and decompression
# bombs as recordings, and an experiment's picture path checked before its run. Each case has a
# deadline (a FIFO used to hang the open forever) and nothing outside the test's directory is
# written.
set -u
. "$(dirname "$0")/../lib/assert.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# Old builds read /dev/zero until the machine ran out of memory: cap the address space, except
# under a sanitizer (its shadow memory needs terabytes of it).
limit=()
# Not under a sanitizer: ASan and TSan reserve terabytes of address space at start.
if ! nm -an "$TUNETOP" 2>/dev/null | grep -qE '__asan_init|__tsan_init'; then
	limit=(prlimit --as=$((3 << 30)))
fi

# expect STATUS "message fragment" ARGS...: tunetop ends within 10 s with STATUS and says it.
expect() {
	local want=$1 frag=$2 out rc
	shift 2
	out=$(timeout -k 2 10 "${limit[@]}" "$TUNETOP" "$@" 2>&1 </dev/null)
	rc=$?
	check "[$*] exits $want (got $rc)" test "$rc" -eq "$want"
	case "$out" in
	*"$frag"*) ok "[$*] says '$frag'" ;;
	*) bad "[$*] should say '$frag', said: $(printf '%s' "$out" | head -c 300)" ;;
	esac
}
exp_ab=(experiment ab --knob blk.rq_affinity --values 0,1 --passes 2 --seconds 0.3 --warmup 0.1
	--scenario blk-steer)

# A planted symlink at the temporary name of -o FILE --format prometheus (FILE.tmp.PID was
# predictable): the link's target keeps its text, FILE is a regular file of metrics.
mkdir shared_tf
echo "ROOT OWNED VICTIM" > victim.txt
"$TUNETOP" -b -d 0.3 -n 4 --format prometheus -o shared_tf/t.prom 2>/dev/null &
tp=$! # tunetop's own pid, as ps shows it
ln -s "$tmp/victim.txt" "shared_tf/t.prom.tmp.$tp"
for _ in $(seq 100); do kill -0 $tp 2>/dev/null || break; sleep 0.1; done # a 10 s deadline
kill $tp 2>/dev/null
wait $tp
check "-o prometheus: planted temp link: exit 0" test $? -eq 0
check "-o prometheus: the planted link's target is untouched" grep -qx "ROOT OWNED VICTIM" victim.txt
check "-o prometheus: FILE is a regular file" test -f shared_tf/t.prom -a ! -L shared_tf/t.prom
check "-o prometheus: FILE holds the metrics" grep -q '^tunetop_' shared_tf/t.prom
check "-o prometheus: no temporary file is left" test "$(ls -A shared_tf | grep -vx "t.prom.tmp.$tp" | wc -l)" -eq 1

# Symlinks (to a file, dangling), devices and /proc as write targets: refused, nothing written.
echo PRECIOUS > precious.txt
ln -s precious.txt link.jsonl
ln -s created.txt dang.jsonl
ln -s precious.txt olink.json
ln -s precious.txt link.png
expect 2 "link.jsonl: is a symlink" -b -n 2 -d 0.1 --record link.jsonl
expect 2 "dang.jsonl: is a symlink" -b -n 2 -d 0.1 --record dang.jsonl
expect 2 "olink.json: is a symlink" -b -n 2 -d 0.1 -o olink.json
expect 2 "link.png: is a symlink" "${exp_ab[@]}" --png link.png
check "nothing was written through a link" grep -qx PRECIOUS precious.txt
check "a dangling link's target was not created" test ! -e created.txt
expect 2 "/dev/zero: is a device" -b -n 1 --record /dev/zero
expect 2 "/dev/zero: is a device" -b -n 1 -o /dev/zero
expect 2 "/proc/self/mem: is under /proc" -b -n 2 -d 0.1 -o /proc/self/mem
expect 2 "/proc/self/comm: is under /proc" -b -n 1 --record /proc/self/comm
# /dev/null stays a fine -o (the systemd unit's --serve runs with -o /dev/null).
expect 0 "" -b -n 1 -o /dev/null

# FIFOs: refused at once (the open used to block until a signal came).
mkfifo fifo1
expect 2 "fifo1: is a FIFO" -b -n 2 -d 0.1 -o fifo1
expect 2 "fifo1: is a FIFO" -b -n 2 -d 0.1 --record fifo1
expect 2 "fifo1: a FIFO, not a regular file" --replay fifo1 -b
expect 2 "fifo1: is a FIFO" "${exp_ab[@]}" --svg fifo1

# Reading: a device is refused (it ran the machine out of memory); bombs stop at a cap that
# the message names, quickly and in bounded memory.
expect 2 "/dev/zero: a device, not a regular file" --replay /dev/zero -b
# 16 MiB of newlines packed once, then the member (frame) repeated: 512 MiB when expanded.
head -c $((16 << 20)) /dev/zero | tr '\0' '\n' > nl16
gzip -9 -c nl16 > one.gz
zstd -q -19 -c nl16 > one.zst
rm nl16
for i in $(seq 32); do cat one.gz; done > bomb.gz
for i in $(seq 32); do cat one.zst; done > bomb.zst
expect 1 "bomb.gz: expands to more than 100 times its compressed size (the caps for gzip: 100x its size, 1 GiB in all)" \
	--replay bomb.gz -b
expect 1 "bomb.zst: expands to more than 4000 times its compressed size (the caps for zstd: 4000x its size, 1 GiB in all)" \
	--replay bomb.zst -b
for b in bomb.gz bomb.zst; do
	rss=$(timeout -k 2 10 "${limit[@]}" /usr/bin/time -f %M "$TUNETOP" --replay "$b" -b 2>&1 >/dev/null | tail -n 1)
	check "$b: peak RSS ${rss} kB stays under 300 MB" test "${rss:-999999}" -lt 300000
done
# Real recordings stay well inside the ratios: an hour at 1 Hz of 20 snapshots repeated (as in
# bench/replay.sh) is 20 MB, 573x as .zst and 14x as .gz.
"$TUNETOP" -b -n 20 -d 0.05 > 20.jsonl
python3 - 20.jsonl hour.jsonl <<'PY'
import datetime, json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
t0 = datetime.datetime(2026, 12, 1)
with open(sys.argv[2], "w") as out:
    for i in range(3600):
        o = lines[i % len(lines)]
        o["time"] = (t0 + datetime.timedelta(seconds=i)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        o["seq"], o["interval_s"] = i + 1, 1.0
        out.write(json.dumps(o, separators=(",", ":")) + "\n")
PY
zstd -q hour.jsonl -o hour.zst
gzip -9 -k hour.jsonl
for f in hour.zst hour.jsonl.gz; do
	n=$(timeout 20 "$TUNETOP" --replay "$f" -b --from 3590 2>/dev/null | wc -l)
	check "$f ($(stat -c %s "$f") bytes, $(stat -c %s hour.jsonl) expanded) replays (got $n of 10 lines)" test "$n" -eq 10
done
# A file with no newline at all stops at the line cap.
head -c $((20 << 20)) /dev/zero > zeros.bin
expect 1 "zeros.bin: line 1 is longer than the cap of 16 MiB" --replay zeros.bin -b

# A recording that fails part way (the file-size limit here, as a full disk) fails -b with the
# reason, not "a write failed".
out=$( (trap '' XFSZ; ulimit -f 64; timeout 20 "$TUNETOP" -b -n 30 -d 0.05 --record small.jsonl) 2>&1 >/dev/null)
check "--record past the size limit: exit 1" test $? -eq 1
case "$out" in
*"small.jsonl: write: File too large"*) ok "--record failure names its reason" ;;
*) bad "--record failure should say 'write: File too large', said: $out" ;;
esac

# An experiment checks its picture paths before the first pass, with the real reason.
mkdir adir
out=$(timeout 10 "$TUNETOP" "${exp_ab[@]}" --png adir 2>&1)
check "--png DIR: exit 2" test $? -eq 2
case "$out" in
*"adir: is a directory"*) ok "--png DIR says 'is a directory'" ;;
*) bad "--png DIR should say 'is a directory', said: $out" ;;
esac
case "$out" in
*"pass 1"*) bad "--png DIR ran a pass before refusing: $out" ;;
*) ok "--png DIR refused before any pass" ;;
esac
expect 2 "nodir/x.png: No such file or directory" "${exp_ab[@]}" --png nodir/x.png

finish
