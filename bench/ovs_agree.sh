#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/ovs_agree.sh: tunetop --host's PMD figures beside OVS's own over the same run, on a
# private ovs-vswitchd (dummy datapath, one dummy-pmd port, a drop flow; tests/lib/ovs.sh) at
# three loads: idle, loaded (bursts of 50 packets every 50 ms) and busy (bursts back to back
# from two senders). Each load: pmd-stats-clear, a second of load, then one interval of
# `tunetop --host -b -n 2 -d 5` with pmd-perf-show and pmd-stats-show read just after each of
# its two lines: OVS's figures are the deltas of its counters between the two reads (over its
# own Measurement duration), the window of tunetop's second line but for the few ms a read
# takes. Needs root and OVS.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/lib/assert.sh"
[ "$(id -u)" = 0 ] || { echo "skipped: needs root (ovs-vswitchd)"; exit 0; }
command -v ovs-vswitchd >/dev/null && command -v ovsdb-server >/dev/null ||
	{ echo "skipped: no ovs-vswitchd"; exit 0; }
schema=/usr/share/openvswitch/vswitch.ovsschema
d_s=${OVS_AGREE_D:-5}
dir=$(mktemp -d /tmp/tt-ovsagree.XXXXXX)
. "$top/tests/lib/ovs.sh"
mask=0x1
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] && mask=0x2
ovs-vsctl --timeout=10 --no-wait set Open_vSwitch . other_config:pmd-cpu-mask=$mask \
	other_config:pmd-maxsleep=300 other_config:pmd-perf-metrics=true
ovs_start_vswitchd
ovs-ofctl add-flow br0 in_port=p0,actions=drop
pkt=ffffffffffff00000000000108004500001c00010000401100000a0000010a00000200350035000800000000
burst=$(for _ in $(seq 50); do printf '%s ' "$pkt"; done)
sender() { # sender GAP: bursts of 50 until killed, GAP s apart
	while :; do
		ovs-appctl netdev-dummy/receive p0 $burst >/dev/null 2>&1
		[ "$1" = 0 ] || sleep "$1"
	done
}
printf '%-8s %-26s %14s %14s %s\n' load figure tunetop OVS "OVS's tool (delta over tunetop's window)"
ovs_read() { # ovs_read NAME: pmd-perf-show and pmd-stats-show now
	ovs-appctl dpif-netdev/pmd-perf-show >"$dir/$1.perf"
	ovs-appctl dpif-netdev/pmd-stats-show >"$dir/$1.stats"
}
for load in idle loaded busy; do
	ovs-appctl dpif-netdev/pmd-stats-clear >/dev/null
	pids=
	case $load in
	loaded) sender 0.05 & pids=$! ;;
	busy)
		sender 0 & pids=$!
		sender 0 & pids="$pids $!"
		;;
	esac
	sleep 1
	"$TUNETOP" --host -b -n 2 -d "$d_s" >"$dir/$load.json" 2>"$dir/$load.err" &
	tt=$!
	for _ in $(seq 100); do [ -s "$dir/$load.json" ] && break; sleep 0.02; done
	ovs_read "$load.a"
	wait "$tt"
	ovs_read "$load.b"
	# shellcheck disable=SC2086
	[ -n "$pids" ] && kill $pids 2>/dev/null
	wait 2>/dev/null
	python3 - "$load" "$dir/$load" <<'PY'
import json, re, sys
load, base = sys.argv[1:]
lines = [json.loads(l) for l in open(base + ".json") if l.strip()]
def read(which):
    perf = open(f"{base}.{which}.perf").read()
    stats = open(f"{base}.{which}.stats").read().split("main thread:")[0]
    def num(pat, text):
        m = re.search(pat, text, re.M)
        return float(m.group(1)) if m else 0.0
    return {"dur": num(r"Measurement duration:\s+([\d.]+) s", perf),
            "rx": num(r"packets received:\s+(\d+)", stats),
            "proc": num(r"processing cycles:\s+(\d+)", stats),
            "idle": num(r"idle cycles:\s+(\d+)", stats),
            "upcalls": num(r"miss with success upcall:\s+(\d+)", stats),
            "simple": num(r"simple match hits:\s+(\d+)", stats),
            "passes": num(r"packet recirculations:\s+(\d+)", stats)}
a, b = read("a"), read("b")
d = {k: b[k] - a[k] for k in a}
d["passes"] += d["rx"]  # a pass per packet, and one more per recirculation
# tunetop: its intervals after the first line (the one OVS's first read follows).
def mean(get, weight=lambda o: o["interval_s"]):
    xs = []
    for o in lines[1:]:
        try:
            v = get(o)
        except (KeyError, IndexError, TypeError):
            v = None
        if v is not None and v >= 0:
            xs.append((weight(o), v))
    w = sum(x for x, _ in xs)
    return sum(x * v for x, v in xs) / w if xs and w > 0 else None
pmd = lambda o: o["pmd"]["threads"][0]
opmd = lambda o: o["host"]["ovs_pmds"][0]
def f(v, fmt="%.1f"):
    return "-" if v is None else fmt % v
def ratio(x, y):
    return x / y if y else None
rows = [
    ("rx pps", f(mean(lambda o: pmd(o)["rx_pps"])), f(ratio(d["rx"], d["dur"])),
     "packets received / Measurement duration"),
    ("busy % (of proc+idle cyc)", f(mean(lambda o: pmd(o)["busy_pct"])),
     f(ratio(100 * d["proc"], d["proc"] + d["idle"])), "processing / (processing + idle) cycles"),
    ("cycles/pkt", f(mean(lambda o: opmd(o)["cycles_per_pkt"],
                          lambda o: pmd(o)["rx_pps"] * o["interval_s"]), "%.0f"),
     f(ratio(d["proc"], d["rx"]), "%.0f"), "processing cycles / packets received"),
    ("simple-match % of passes", f(mean(lambda o: opmd(o)["simple_pct"],
                                        lambda o: pmd(o)["rx_pps"] * o["interval_s"])),
     f(ratio(100 * d["simple"], d["passes"])), "simple match hits / passes"),
    ("upcalls/s", f(mean(lambda o: opmd(o)["upcalls_per_s"]), "%.2f"),
     f(ratio(d["upcalls"], d["dur"]), "%.2f"), "miss with success upcall / duration"),
]
for name, x, y, src in rows:
    print("%-8s %-26s %14s %14s %s" % (load, name, x, y, src))
PY
done
