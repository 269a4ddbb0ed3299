#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_host_crowd.sh: more picked threads than the host lists (1024), started before
# ovs-vswitchd so that its PMD has the higher pid (1100 idle threads named kworker/*, as an
# unprivileged user could start): the PMD row of the daemon behind the socket keeps its thread,
# full name, CPU and slack, and the list holds every thread of that daemon. The crowd's process
# wakes every 10 ms: a process of more than 1024 threads is read at the first full rescan (10 s)
# after it ran (HOST_TSCAN_BIG_THREADS, backends/host/host_threads.h), so two samples 10.5 s
# apart.
set -u
. "$(dirname "$0")/../lib/assert.sh"

[ "$(id -u)" = 0 ] || { echo "skip: needs root (ovs-vswitchd)"; exit 77; }
command -v ovs-vswitchd >/dev/null && command -v ovsdb-server >/dev/null ||
	{ echo "skip: no ovs-vswitchd (openvswitch-switch)"; exit 77; }
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
schema=/usr/share/openvswitch/vswitch.ovsschema
[ -f "$schema" ] || { echo "skip: $schema missing"; exit 77; }

dir=$(mktemp -d /tmp/tt-crowd.XXXXXX)
python3 - "$dir/crowd.ready" <<'PY' &
import ctypes, sys, threading
libc = ctypes.CDLL(None)
stop = threading.Event()
def idle(i):
    libc.prctl(15, ("kworker/u9:%d" % i).encode(), 0, 0, 0)  # PR_SET_NAME
    stop.wait()
for i in range(1100):
    threading.Thread(target=idle, args=(i,), daemon=True).start()
open(sys.argv[1], "w").write("ready\n")
for _ in range(30000):
    if stop.wait(0.01):
        break
PY
crowd=$!
for _ in $(seq 600); do [ -f "$dir/crowd.ready" ] && break; sleep 0.05; done
. "$(dirname "$0")/../lib/ovs.sh"
trap 'kill "$crowd" 2>/dev/null; cleanup' EXIT
check "1100 idle threads started ($(ls "/proc/$crowd/task" | wc -l))" test -f "$dir/crowd.ready"
ovs_start_vswitchd
vpid=$(cat "$run/ovs-vswitchd.pid")
ptid=""
for _ in $(seq 100); do
	for t in /proc/$vpid/task/*; do grep -q '^pmd' "$t/comm" 2>/dev/null && ptid=$(basename "$t"); done
	[ -n "$ptid" ] && break
	sleep 0.1
done
check "ovs-vswitchd $vpid has a PMD thread ($ptid)" test -n "$ptid"

# vswitchd's threads before the run: one it starts later (a handler, a revalidator) may come
# after the last sample, so only those there before and after are owed a row.
ls "/proc/$vpid/task" >"$dir/before"
"$TUNETOP" -b --host -n 2 -d 10.5 >"$dir/out.json" 2>"$dir/err"
rc=$?
check "batch runs (rc $rc: $(head -c 200 "$dir/err"))" test "$rc" -eq 0
res=$(python3 - "$dir/out.json" "$vpid" "$ptid" "$dir/before" <<'PY'
import json, os, sys
lines = [json.loads(x) for x in open(sys.argv[1]) if x.strip()]
vpid, ptid = int(sys.argv[2]), int(sys.argv[3])
o = lines[-1]
bad = []
if o["host"]["threads_matched"] <= 1100:
    bad.append(f"matched {o['host']['threads_matched']}")
if len(o["threads"]) > 1024:
    bad.append(f"{len(o['threads'])} listed")
listed = {t["tid"] for t in o["threads"]}
before = {int(t) for t in open(sys.argv[4]).read().split()}
ours = before & {int(t) for t in os.listdir(f"/proc/{vpid}/task")}
missing = ours - listed
if missing:
    bad.append(f"vswitchd threads not listed: {sorted(missing)[:5]}")
row = o.get("pmd", {}).get("threads", [{}])[0]
if row.get("tid") != ptid or "/id:" not in (row.get("name") or ""):
    bad.append(f"PMD row {row.get('name')} tid {row.get('tid')}, want tid {ptid}")
if row.get("cpu_pct") is None or row.get("timer_slack_ns") is None:
    bad.append(f"PMD row cpu {row.get('cpu_pct')} slack {row.get('timer_slack_ns')}")
print("ok" if not bad else "; ".join(bad))
PY
)
check "the PMD and every vswitchd thread listed among 1100 more ($res)" test "$res" = ok
finish
