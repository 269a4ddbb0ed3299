#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/replay.sh: replay start-up for a 1-hour recording at 1 Hz (3600 lines of the default
# scenario: 20 real snapshots repeated with their times moved 1 s apart, bench/make_hour.py),
# plain and .zst, as CPU seconds (user + sys: wall time on a shared machine says more about the neighbours)
# and peak RSS; then the bytes a 10-minute console history holds (the JSON lines it keeps).
# Env: TT_BENCH_RUNS (3) runs each; figures are medians.
set -u
: "${TUNETOP:?run through bench/run.sh or set TUNETOP}"
runs=${TT_BENCH_RUNS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$TUNETOP" -b -n 20 -d 1 --scenario default > "$tmp/20.jsonl" || exit 1
python3 "$(dirname "$0")/make_hour.py" "$tmp/20.jsonl" "$tmp/hour.jsonl" || exit 1
zstd -q "$tmp/hour.jsonl" -o "$tmp/hour.jsonl.zst"
median() { sort -n | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
for f in hour.jsonl hour.jsonl.zst; do
	for _ in $(seq "$runs"); do
		/usr/bin/time -f "%U %S %M" "$TUNETOP" --replay "$tmp/$f" -b -n 1 2>&1 >/dev/null | tail -1
	done > "$tmp/t"
	cpu=$(awk '{print $1 + $2}' "$tmp/t" | median)
	rss=$(awk '{print $3}' "$tmp/t" | median)
	echo "replay start-up, 1 h at 1 Hz ($f, $(stat -c %s "$tmp/$f") bytes): ${cpu} s CPU, ${rss} KB peak RSS"
done
bytes=$(awk '{n += length($0) + 1} END {printf "%.0f", n / NR * 600}' "$tmp/20.jsonl")
echo "history, 10 minutes at 1 s (600 lines of $(awk '{n += length($0)} END {printf "%.0f", n / NR}' "$tmp/20.jsonl") B): $bytes bytes of JSON + $((600 * 40)) bytes of ring"
