#!/usr/bin/env bash
# test_host_probe.sh: the eBPF sleep probe is put into the kernel only when asked. Read-only
# `--host` (and `--host --write`) holds no eBPF program (no bpf-prog descriptor in
# /proc/PID/fd, host.bpf_probe false); `--set pmd.sleep_probe=on` loads it, logs the change
# as an event and, when it hooks raw sys_enter/sys_exit (no tracefs), says every system call
# pays for it. Skips (77) unless root with a probe that can load.
set -u
. "$(dirname "$0")/../lib/assert.sh"

[ "$(id -u)" = 0 ] || { echo "skip: needs root (eBPF)"; exit 77; }
dir=$(mktemp -d /tmp/tt-probe.XXXXXX)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	rm -rf "$dir"
}
trap cleanup EXIT
# progs PID: how many eBPF programs the process holds open.
progs() { ls -l "/proc/$1/fd" 2>/dev/null | grep -c 'bpf-prog'; }
# wait_lines FILE N: until FILE has N lines (15 s at most).
wait_lines() {
	for _ in $(seq 150); do [ "$(wc -l <"$1")" -ge "$2" ] && return 0; sleep 0.1; done
	return 1
}
field() {
	python3 -c 'import json,sys; l=[json.loads(x) for x in open(sys.argv[1]) if x.strip()]; o=l[int(sys.argv[2])]; print(eval(sys.argv[3]))' "$@" 2>&1
}

for mode in "" "--write"; do
	"$TUNETOP" --host $mode -b -n 20 -d 0.3 >"$dir/ro.json" 2>/dev/null &
	pid=$!
	pids+=($pid)
	wait_lines "$dir/ro.json" 2
	n=$(progs $pid)
	check "--host $mode: no eBPF program loaded by default ($n)" test "$n" -eq 0
	res=$(field "$dir/ro.json" -1 '(o["host"]["bpf_probe"], o["knobs"]["pmd.sleep_probe"])')
	check "--host $mode: JSON says the probe is off (got $res)" test "$res" = "(False, False)"
	kill $pid
	wait $pid 2>/dev/null
done

"$TUNETOP" --host -b -n 20 -d 0.3 --set pmd.sleep_probe=on >"$dir/on.json" 2>"$dir/on.err" &
pid=$!
pids+=($pid)
wait_lines "$dir/on.json" 2
if grep -q "pmd.sleep_probe" "$dir/on.err"; then
	echo "skip: the probe cannot load here: $(head -c 200 "$dir/on.err")"
	exit 77
fi
n=$(progs $pid)
check "--set pmd.sleep_probe=on: the programs are loaded ($n)" test "$n" -ge 2
ev=$(python3 -c 'import json,sys; print("\n".join(e["text"] for l in open(sys.argv[1]) if l.strip() for e in json.loads(l)["events"]))' "$dir/on.json")
check "the load is an event ($(head -1 <<<"$ev"))" grep -q "pmd.sleep_probe: off -> on" <<<"$ev"
ev_id=events/syscalls/sys_enter_clock_nanosleep/id
if [ ! -e /sys/kernel/tracing/$ev_id ] && [ ! -e /sys/kernel/debug/tracing/$ev_id ]; then
	check "raw sys_enter/sys_exit: the events say every system call pays" grep -q "every system call" <<<"$ev"
fi
kill $pid
wait $pid 2>/dev/null
finish
