#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/probe_tax.sh: what the eBPF sleep probe costs the rest of the machine: ns of CPU per
# getppid() in an unrelated process (bench_getppid.c) without tunetop and with
# `tunetop --host --set pmd.sleep_probe=on` running, alternated, PROBE_TAX_ROUNDS (5) rounds,
# medians and their ratio; the goal is 1.03 at most (docs/pmd.md "Timer slack, run-queue
# delay and the eBPF sleep probe"). TUNETOP_BPF_HOOK=fentry|kprobe|sched|tp|raw picks
# one hook; the hook taken is printed (the load event's words).
set -u
rounds=${PROBE_TAX_ROUNDS:-5}
loop="$TT_BUILD/bench/bench_getppid"
[ "$(id -u)" = 0 ] || { echo "probe_tax: needs root (eBPF); not measured"; exit 0; }
[ -x "$loop" ] || { echo "probe_tax: $loop missing (make bench builds it)"; exit 1; }
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
# attached PID: until PID holds an eBPF program (15 s at most).
attached() {
	for _ in $(seq 150); do
		ls -l "/proc/$1/fd" 2>/dev/null | grep -q bpf-prog && return 0
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}
off=() on=()
for r in $(seq "$rounds"); do
	off+=("$("$loop")")
	"$TUNETOP" --host -b -n 100000 -d 1 --set pmd.sleep_probe=on >/dev/null 2>"$tmp/err" &
	pid=$!
	if ! attached "$pid"; then
		echo "probe_tax: the probe did not attach: $(head -c 300 "$tmp/err")"
		exit 0
	fi
	on+=("$("$loop")")
	kill "$pid"
	wait "$pid" 2>/dev/null
	pid=
done
# The hook it took, from the load event (docs/pmd.md: cheapest for the rest of the host first).
hook=$("$TUNETOP" --host -b -n 2 -d 0.2 --set pmd.sleep_probe=on 2>/dev/null |
	grep -o 'eBPF sleep probe loaded on [^)"]*' | head -1)
echo "hook: ${hook#eBPF sleep probe loaded on }"
python3 - "${off[*]}" "${on[*]}" "$(cat /proc/loadavg)" <<'PY'
import statistics, sys
off = [float(x) for x in sys.argv[1].split()]
on = [float(x) for x in sys.argv[2].split()]
a, b = statistics.median(off), statistics.median(on)
print("getppid() ns of CPU, median of %d: without tunetop %.1f, with the probe on %.1f" % (len(off), a, b))
print("  rounds off: %s" % " ".join("%.0f" % x for x in off))
print("  rounds on:  %s" % " ".join("%.0f" % x for x in on))
print("ratio on/off %.3f (goal <= 1.03; load %s)" % (b / a, sys.argv[3].split()[0]))
PY
# And per sleep of a watched thread (bench_bpf.c), the module taken from this build.
if [ -x "$TT_BUILD/bench/bench_bpf" ]; then
	echo
	TUNETOP_LIBDIR="$TT_BUILD" "$TT_BUILD/bench/bench_bpf"
fi
