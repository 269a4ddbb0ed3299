#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tt-timeout: 600
# test_host_ovs_quiet.sh: no false alarm on a quiet real Open vSwitch (docs/diag.md, "No false
# alarms"): ovs-vswitchd on the dummy datapath (as test_host_ovs.sh) with one sleeping PMD and
# a trickle of packets, watched by `tunetop --host -b` for TT_OVS_QUIET_SECONDS (30 in `make
# check`, 120 in CI's `make diag-soak`), while the operator changes the max sleep with
# ovs-vsctl behind tunetop's back. Every line's diagnoses[] is read by python3: a finding
# other than host.cpu_taken is a false alarm, and host.cpu_taken must stand on the line's own
# figures (a PMD's stolen_pct or a pmd thread's run-queue delay over 25 % in the last four).
set -u
. "$(dirname "$0")/../lib/assert.sh"

[ "$(id -u)" = 0 ] || { echo "skip: needs root (ovs-vswitchd, TASKSTATS)"; exit 77; }
if ! command -v ovs-vswitchd >/dev/null || ! command -v ovsdb-server >/dev/null; then
	command -v apt-get >/dev/null || { echo "skip: no ovs-vswitchd and no apt-get to install it"; exit 77; }
	DEBIAN_FRONTEND=noninteractive timeout 120 apt-get install -y -q openvswitch-switch >/dev/null 2>&1 ||
		{ echo "skip: openvswitch-switch cannot be installed here"; exit 77; }
fi
schema=/usr/share/openvswitch/vswitch.ovsschema
[ -f "$schema" ] || { echo "skip: $schema missing"; exit 77; }
secs=${TT_OVS_QUIET_SECONDS:-30}

dir=$(mktemp -d /tmp/tt-ovsq.XXXXXX)
. "$(dirname "$0")/../lib/ovs.sh"
mask=0x1
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] && mask=0x2
ovs-vsctl --timeout=10 --no-wait set Open_vSwitch . other_config:pmd-cpu-mask=$mask \
	other_config:pmd-maxsleep=300 other_config:pmd-sleep-max=300
ovs_start_vswitchd
check "a PMD polls p0" sh -c 'ovs-appctl dpif-netdev/pmd-rxq-show | grep -q "port: p0"'
key=pmd-maxsleep
ovs-appctl dpif-netdev/pmd-sleep-show >/dev/null 2>&1 && key=pmd-sleep-max

n=$(awk -v s="$secs" 'BEGIN { printf "%d", s }')
"$TUNETOP" --host -b -n "$n" -d 1 >"$dir/quiet.json" 2>"$dir/quiet.err" &
tt=$!
# A trickle (a packet every 0.2 s) and the operator's own max sleep changes, until tunetop ends.
pkt='in_port(1),eth(src=50:54:00:00:00:01,dst=50:54:00:00:00:02),eth_type(0x0800),ipv4(src=10.0.0.1,dst=10.0.0.2,proto=17,tos=0,ttl=64,frag=no),udp(src=1,dst=2)'
i=0
while kill -0 "$tt" 2>/dev/null; do
	ovs-appctl netdev-dummy/receive p0 "$pkt" >/dev/null 2>&1
	i=$((i + 1))
	case $((i % 50)) in
	10) ovs-vsctl --timeout=10 --no-wait set Open_vSwitch . other_config:$key=100 ;;
	30) ovs-vsctl --timeout=10 --no-wait set Open_vSwitch . other_config:$key=1000 ;;
	45) ovs-vsctl --timeout=10 --no-wait set Open_vSwitch . other_config:$key=300 ;;
	esac
	sleep 0.2
done
wait "$tt"
check "tunetop --host -b for $secs s exits 0 ($(head -c 300 "$dir/quiet.err"))" test $? -eq 0
res=$(python3 - "$dir/quiet.json" "$n" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
hist, false, host, pmd_lines, rx = [], [], 0, 0, 0
for o in lines:
    worst = 0.0
    for t in (o.get("pmd") or {}).get("threads", []):
        worst = max(worst, t.get("stolen_pct") or 0)
    for t in o.get("threads", []):
        if t.get("subsystem") in ("pmd", "est"):
            worst = max(worst, t.get("runq_delay_pct") or 0)
    hist = (hist + [worst])[-4:]
    pmd_lines += bool(o.get("pmd"))
    rx += sum(1 for t in (o.get("pmd") or {}).get("threads", []) if (t.get("rx_pps") or 0) > 0)
    for d in o["diagnoses"]:
        if d["id"] != "host.cpu_taken":
            false.append((o["seq"], d["id"], d["conclusion"]))
        elif max(hist) >= 25:
            host += 1
        else:
            false.append((o["seq"], d["id"], "with figures under 25 %: " + str(hist)))
print("lines=%d pmd=%d rx=%d false=%s" % (len(lines), pmd_lines, rx, false), file=sys.stderr)
print("ok" if len(lines) == int(sys.argv[2]) and pmd_lines >= len(lines) - 1 and rx and not false
      else "lines=%d pmd_lines=%d rx_lines=%d false=%s" % (len(lines), pmd_lines, rx, false[:3]))
print("host.cpu_taken on %d lines, every one on its figures" % host, file=sys.stderr)
PY
)
check "$n quiet seconds on a real OVS with max sleep changes: no false finding (got $res)" test "$res" = ok
finish
