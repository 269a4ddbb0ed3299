#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_host_tune.sh: `tunetop experiment tune --host` against a real ovs-vswitchd (the dummy
# datapath and a dummy-pmd port, tests/lib/ovs.sh): refused without --write (status 2), and
# with --write but no terminal to ask without --yes; with --write --yes it steps pmd-maxsleep
# through each value, every write logged (the host source's events, in the JSON) and read
# back (each step's stored value, the ovsdb key at the end, ovs-vswitchd's own log).
# tt-timeout: 240
set -u
. "$(dirname "$0")/../lib/assert.sh"

[ "$(id -u)" = 0 ] || { echo "skip: needs root (ovs-vswitchd, TASKSTATS)"; exit 77; }
if ! command -v ovs-vswitchd >/dev/null || ! command -v ovsdb-server >/dev/null; then
	echo "skip: no ovs-vswitchd / ovsdb-server"
	exit 77
fi
schema=/usr/share/openvswitch/vswitch.ovsschema
[ -f "$schema" ] || { echo "skip: $schema missing"; exit 77; }

dir=$(mktemp -d /tmp/tt-ovstune.XXXXXX)
. "$(dirname "$0")/../lib/ovs.sh"
mask=0x1
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] && mask=0x2
# Sleeping from the start: an idle PMD with max sleep 0 burns a whole core.
ovs-vsctl --timeout=10 --no-wait set Open_vSwitch . other_config:pmd-cpu-mask=$mask \
	other_config:pmd-maxsleep=300 other_config:pmd-sleep-max=300
ovs_start_vswitchd
check "a PMD polls p0" sh -c 'ovs-appctl dpif-netdev/pmd-rxq-show | grep -q "port: p0"'
key=pmd-maxsleep
ovs-appctl dpif-netdev/pmd-sleep-show >/dev/null 2>&1 && key=pmd-sleep-max
ok "ovs-vswitchd $(ovs-vswitchd --version | awk 'NR==1 {print $NF}') up (max sleep in $key)"
dbval() { ovs-vsctl --timeout=10 get Open_vSwitch . other_config:$key | tr -d '"'; }

tune=(experiment tune --host --budget drop=1% --window 1 --warmup 0.2 --steps 100,200,400)
"$TUNETOP" "${tune[@]}" </dev/null >"$dir/no.out" 2>"$dir/no.err"
rc=$?
check "without --write: status 2 ($rc: $(head -c 200 "$dir/no.err"))" test "$rc" = 2
check "... saying it needs --write" grep -q -- "needs --write" "$dir/no.err"
check "... and nothing written (ovsdb $key is $(dbval))" test "$(dbval)" = 300

"$TUNETOP" "${tune[@]}" --write </dev/null >"$dir/ask.out" 2>"$dir/ask.err"
rc=$?
check "--write with no terminal and no --yes: status 2 ($rc: $(head -c 200 "$dir/ask.err"))" test "$rc" = 2
check "... saying add --yes" grep -q -- "add --yes" "$dir/ask.err"
check "... and nothing written (ovsdb $key is $(dbval))" test "$(dbval)" = 300

"$TUNETOP" "${tune[@]}" --write --yes --json </dev/null >"$dir/tune.json" 2>"$dir/tune.err"
rc=$?
check "--write --yes: status 0 ($rc: $(head -c 300 "$dir/tune.err"))" test "$rc" = 0
res=$(python3 - "$dir/tune.json" <<'PY'
import json, sys
o = json.loads(open(sys.argv[1]).read())
steps = o["steps"]
out = ["backend=%s" % o["backend"], "start=%s" % o["start"],
       "steps=%s" % ",".join(str(s["value"]) for s in steps),
       "stored=%s" % all(s["stored"] == s["value"] for s in steps),
       "measured=%s" % all(s["window_s"] >= 1 and s["verdict"] in ("ok", "best") for s in steps),
       "result=%s" % o["result"], "final_is_best=%s" % (o["final"] == o["best"])]
knob = [e["text"] for e in o["events"] if e["kind"] == "knob" and "pmd.maxsleep_us" in e["text"]]
prev, logged = o["start"], []
for s in steps:
    logged.append(any(t.startswith("pmd.maxsleep_us: %d -> %d" % (prev, s["value"])) for t in knob))
    prev = s["value"]
out.append("logged=%s" % all(logged))
print(" ".join(out))
print(o["final"])
PY
)
summary=$(head -n 1 <<<"$res")
final=$(tail -n 1 <<<"$res")
check "the trace: every step set, read back, measured, logged, ended on the best (got '$summary')" \
	test "$summary" = "backend=host start=300 steps=100,200,400 stored=True measured=True result=done final_is_best=True logged=True"
check "ovsdb $key holds the value it ended on ($(dbval), final $final)" test "$(dbval)" = "$final"
for v in 100 200 400; do
	check "ovs-vswitchd logged max sleep $v" \
		grep -q "max sleep request is $v\b\|max sleep: *$v\b" "$dir/log/ovs-vswitchd.log"
done
python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); [print("  ", s["step"], s["value"], s["window_s"], s["drop_pct"], s["cpu_pct"], s["cpu_ns_per_pkt"], s["verdict"]) for s in o["steps"]]; print("  ", o["why"])' "$dir/tune.json"

# The console's A on the live machine: refused without --write; with it, Enter before the
# first step, then the steps follow; Esc puts the start value back in ovsdb.
ovs-vsctl --timeout=10 set Open_vSwitch . other_config:$key=300
. "$(dirname "$0")/../tui/lib/tmux.sh"
trap 'tt_cleanup; cleanup' EXIT # tmux.sh set its own
tt_start 160 40 "$TUNETOP --host -d 0.3; sleep 60"
tt_wait "maxsleep 300us" 10
tt_keys 3
tt_wait "^PMD +rx pps" 10
tt_keys A
tt_wait "A: the tuner changes this machine's pmd.maxsleep_us: start tunetop with --write" 5
ok "console without --write: A refused"
tt_start 160 40 "$TUNETOP --host --write -d 0.3; sleep 60"
tt_wait "maxsleep 300us" 10
tt_keys 3
tt_wait "^PMD +rx pps" 10
tt_keys A
tt_wait "A: tune pmd.maxsleep_us on this machine through [0-9]+ values.*Enter starts" 5
ok "console --write: A asks first"
check "... and nothing is written before Enter ($(dbval))" test "$(dbval)" = 300
tt_keys Enter
# The steps follow: ovsdb leaves 300 for the first step (the status line says so too, but
# the source's answer to each write takes its place for a while: the store is what stays).
for _ in $(seq 300); do
	got=$(dbval)
	[ "$got" != 300 ] && break
	sleep 0.1
done
check "after Enter the steps follow without a question: ovsdb $key follows them (now $got)" \
	test "$got" != 300
tt_keys Escape
tt_wait "tune pmd\.maxsleep_us: stopped: 300 put back" 10
for _ in $(seq 50); do [ "$(dbval)" = 300 ] && break; sleep 0.1; done
check "Esc: ovsdb $key is 300 again ($(dbval))" test "$(dbval)" = 300
tt_keys 5
tt_wait "pmd\.maxsleep_us: 300 -> 0" 5
ok "the events view logs the steps (300 -> 0)"
tt_keys q
finish
