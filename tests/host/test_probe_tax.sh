#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_probe_tax.sh: the eBPF sleep probe watches only the sleeps: a getppid() loop in an
# unrelated process (bench/bench_getppid.c, ns of its own CPU per call) costs the same with
# `tunetop --host --set pmd.sleep_probe=on` running as without, within 10 %, 5 rounds
# alternated, medians. Where the kernel refuses fentry and kprobes the probe hooks a syscall
# tracepoint and says every system call pays (its event): then the figure is reported, not
# held to. Report-only too when the load is above the CPUs (other jobs' preemption and
# cache traffic move both sides) unless TT_TAX_STRICT=1. Skips (77) unless root with a probe.
set -u
. "$(dirname "$0")/../lib/assert.sh"

[ "$(id -u)" = 0 ] || { echo "skip: needs root (eBPF)"; exit 77; }
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(mktemp -d /tmp/tt-tax.XXXXXX)
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT
cc -O2 -o "$dir/getppid" "$top/bench/bench_getppid.c" || { bad "cannot build bench_getppid.c"; finish; }
# attached PID: until PID holds an eBPF program (15 s at most), false when it exits first.
attached() {
	for _ in $(seq 150); do
		ls -l "/proc/$1/fd" 2>/dev/null | grep -q bpf-prog && return 0
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}
off="" on=""
for r in 1 2 3 4 5; do
	off="$off $("$dir/getppid")"
	"$TUNETOP" --host -b -n 100000 -d 0.3 --set pmd.sleep_probe=on >"$dir/on$r.json" 2>"$dir/err" &
	pid=$!
	if ! attached "$pid"; then
		echo "skip: the probe cannot load here: $(head -c 200 "$dir/err")"
		exit 77
	fi
	on="$on $("$dir/getppid")"
	kill "$pid"
	wait "$pid" 2>/dev/null
	pid=
done
ratio=$(python3 -c 'import statistics,sys; print("%.3f" % (statistics.median(map(float, sys.argv[2].split())) / statistics.median(map(float, sys.argv[1].split()))))' "$off" "$on")
ev=$(python3 -c 'import json,sys; print("\n".join(e["text"] for l in open(sys.argv[1]) if l.strip() for e in json.loads(l)["events"]))' "$dir/on1.json" 2>/dev/null)
hook=$(grep -m1 -oE 'loaded on [^)]*' <<<"$ev")
busy=$(python3 -c "import os; print(1 if os.getloadavg()[0] > os.cpu_count() else 0)")
fig="getppid ns off [$off ] on [$on ], ratio $ratio, probe $hook"
if grep -q "no fentry or kprobes here" <<<"$ev"; then
	ok "tax not held to: the kernel refuses fentry and kprobes, the probe says every system call pays ($fig)"
elif [ "$busy" = 1 ] && [ "${TT_TAX_STRICT:-0}" != 1 ]; then
	ok "tax not checked, load $(cut -d' ' -f1 /proc/loadavg) above $(nproc) CPUs: $fig"
else
	check "an unrelated process's syscalls cost within 10 % ($fig)" \
		python3 -c "import sys; sys.exit(0 if $ratio <= 1.10 else 1)"
fi
finish
