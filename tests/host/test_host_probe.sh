#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_host_probe.sh: the eBPF sleep probe is put into the kernel only when asked. Read-only
# `--host` (and `--host --write`) holds no eBPF program (no bpf-prog descriptor in
# /proc/PID/fd, host.bpf_probe false); `--set pmd.sleep_probe=on` loads it, logs the change
# as an event naming its hook and, when that is a syscall tracepoint (no fentry or kprobes),
# says every system call pays for it. libbpf lives in the module tunetop-bpf.so: the binary
# does not link it, a run with the probe off maps neither it nor the module, a run with it
# on maps the module, and without the module the probe says why (rc 1 for --set). Skips (77)
# unless root with a probe that can load.
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
# maps_bpf PID: the eBPF libraries and module PID has mapped, one line.
maps_bpf() { grep -oE 'lib(bpf|elf)[^/ ]*\.so[^ ]*|tunetop-bpf\.so' "/proc/$1/maps" 2>/dev/null | sort -u | tr '\n' ' '; }
linked=$(ldd "$TUNETOP" 2>/dev/null | grep -oE 'lib(bpf|elf)[^ ]*' | tr '\n' ' ')
check "the binary links no libbpf or libelf ($linked)" test -z "$linked"
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
	m=$(maps_bpf $pid)
	check "--host $mode: maps no libbpf, libelf or tunetop-bpf.so by default ($m)" test -z "$m"
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
m=$(maps_bpf $pid)
check "--set pmd.sleep_probe=on: the module is mapped ($m)" grep -q "tunetop-bpf.so" <<<"$m"
kill $pid
wait $pid 2>/dev/null
ev=$(python3 -c 'import json,sys; print("\n".join(e["text"] for l in open(sys.argv[1]) if l.strip() for e in json.loads(l)["events"]))' "$dir/on.json")
check "the load is an event naming its hook ($(grep -m1 'off -> on' <<<"$ev"))" \
	grep -qE "pmd.sleep_probe: off -> on \(eBPF sleep probe loaded on [a-z]" <<<"$ev"
if grep -qE "loaded on (raw sys_enter|syscalls:)" <<<"$ev"; then
	check "a syscall tracepoint: the events say every system call pays" grep -q "every system call" <<<"$ev"
fi

# The sched hook (timer and scheduler raw tracepoints, by BTF): loads where fentry and
# kprobes do not, names itself, and no system call pays for it.
TUNETOP_BPF_HOOK=sched "$TUNETOP" --host -b -n 20 -d 0.3 --set pmd.sleep_probe=on >"$dir/sched.json" 2>"$dir/sched.err" &
pid=$!
pids+=($pid)
wait_lines "$dir/sched.json" 2
n=$(progs $pid)
check "TUNETOP_BPF_HOOK=sched: its three programs are loaded ($n; $(head -c 200 "$dir/sched.err"))" test "$n" -ge 3
kill $pid
wait $pid 2>/dev/null
ev=$(python3 -c 'import json,sys; print("\n".join(e["text"] for l in open(sys.argv[1]) if l.strip() for e in json.loads(l)["events"]))' "$dir/sched.json")
check "the sched hook's load event names it ($(grep -m1 'off -> on' <<<"$ev"))" \
	grep -q "loaded on sched_switch and hrtimer_start/cancel" <<<"$ev"
check "the sched hook: no event says every system call pays" bash -c "! grep -q 'every system call' <<<\"\$1\"" _ "$ev"
hook=$(python3 -c 'import json,sys; print([json.loads(l)["host"].get("bpf_probe_hook") for l in open(sys.argv[1]) if l.strip()][-1])' "$dir/sched.json")
check "the sched hook is named in JSON, host.bpf_probe_hook ($hook)" test "$hook" = "sched_switch and hrtimer_start/cancel"

# Without the module: the reason, never a crash.
mkdir "$dir/empty"
TUNETOP_LIBDIR="$dir/empty" "$TUNETOP" --host -b -n 1 -d 0.2 --set pmd.sleep_probe=on >/dev/null 2>"$dir/nomod.err"
rc=$?
check "no module: --set pmd.sleep_probe=on exits 1 saying so (rc $rc: $(head -c 200 "$dir/nomod.err"))" \
	sh -c "[ $rc = 1 ] && grep -q 'no eBPF module (TUNETOP_LIBDIR=$dir/empty).*tunetop-bpf.so' '$dir/nomod.err'"
TUNETOP_LIBDIR="$dir/empty" "$TUNETOP" -b -n 1 -d 0.2 --set pmd.enabled=on --set pmd.sleep_probe=on >"$dir/nomod.json" 2>&1
rc=$?
why=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).read().splitlines()[-1])["pmd"]["sleep_probe"]["error"])' "$dir/nomod.json" 2>&1)
check "no module: the engine runs (rc $rc) and the probe's status says why ($why)" \
	bash -c "[ $rc = 0 ] && grep -q 'no eBPF module' <<<'$why'"
finish
