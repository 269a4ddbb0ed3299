#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/core.sh: the foundation's figures: sampler cost per thread against /proc, time from
# start to the first JSON line, RSS of `tunetop -b` with the engine idle.
set -u
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

for n in 16 200; do
	echo "-- sampler, $n reference threads"
	"$TT_BUILD/bench/bench_sampler" "$n"
done

echo "-- time from start to the first JSON line (median of 9; -d 0.05)"
for sc in idle default; do
	for i in $(seq 9); do
		python3 - "$TUNETOP" "$sc" <<'PY'
import subprocess, sys, time
t0 = time.monotonic()
p = subprocess.Popen([sys.argv[1], "-b", "-d", "0.05", "-n", "1", "--scenario", sys.argv[2]],
                     stdout=subprocess.PIPE)
p.stdout.readline()
print(int((time.monotonic() - t0) * 1000))
p.wait()
PY
	done | median | xargs printf '   %-10s %s ms (the first line covers min(delay, 0.1 s))\n' "$sc"
done
echo "   baseline: /bin/true start to exit: $(for i in $(seq 9); do python3 -c '
import subprocess,time; t=time.monotonic(); subprocess.run(["true"]); print(int((time.monotonic()-t)*1e6))'; done | median) us"

echo "-- RSS of tunetop -b (median of 3 runs, after 2 s)"
for sc in idle default; do
	for i in 1 2 3; do
		"$TUNETOP" -b -d 1 --scenario "$sc" >/dev/null &
		pid=$!
		sleep 2
		awk '/VmRSS/ {print $2}' /proc/$pid/status
		kill $pid
		wait $pid 2>/dev/null
	done | median | xargs printf '   %-10s %s KiB\n' "$sc"
done
sleep 60 &
pid=$!
echo "   baseline: sleep(1) $(awk '/VmRSS/ {print $2}' /proc/$pid/status) KiB"
kill $pid
