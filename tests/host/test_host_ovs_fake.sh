#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_host_ovs_fake.sh: tunetop --host against control sockets that misbehave (a python3
# fake, tests/lib/fake_ovs.py): silent, never accepting, garbage, a 50 MB reply, one that
# stops accepting after a restart. None may hang tunetop or stall the console: batch runs
# end on time with the OVS error in JSON; in the console a key reaches the screen within a
# frame (the console's own "key N us (max M)" debug figure stays under 50 ms), the pmd view
# shows OVS's error, and a knob write to a silent ovsdb shows "setting..." then the error.
set -u
. "$(dirname "$0")/../lib/assert.sh"
. "$(dirname "$0")/../lib/fake_ovs.sh" tt-ovsfake

# field FILE LINE EXPR: a python expression over the JSON object o of line LINE (-1 last).
field() {
	python3 -c 'import json,sys; l=[json.loads(x) for x in open(sys.argv[1]) if x.strip()]; o=l[int(sys.argv[2])]; print(eval(sys.argv[3]))' "$@" 2>&1
}

# 1. A listener that never accepts, named at start: a clear error, exit 1, at once.
start_fake noaccept noaccept
s=$SECONDS
TUNETOP_OVS_SOCKET=$dir/noaccept.sock timeout 20 "$TUNETOP" --host -b -n 2 -d 0.2 >"$dir/na.json" 2>"$dir/na.err"
rc=$?
check "never-accepting listener: exit 1, not a hang (rc $rc)" test "$rc" -eq 1
check "never-accepting listener: says so ($(cat "$dir/na.err"))" grep -q "accepts no connection" "$dir/na.err"
check "never-accepting listener: within 5 s ($((SECONDS - s)) s)" test $((SECONDS - s)) -le 5

# 1b. A named socket with no daemon behind it yet: tunetop starts, says so, and finds the
# daemon once it is up (as without TUNETOP_OVS_SOCKET), rather than exit 1.
TUNETOP_OVS_SOCKET=$dir/late.sock "$TUNETOP" --host -b -n 1000 -d 0.5 >"$dir/late.json" 2>"$dir/late.err" &
late=$!
wait_lines "$dir/late.json" 1 30
start_fake late ok
check "once the daemon is up, its PMDs are read" wait_json "$dir/late.json" 30 '"pmd" in o'
kill -TERM "$late"
wait "$late"
rc=$?
check "named socket, daemon not up yet: runs (rc $rc, $(head -c 200 "$dir/late.err"))" test "$rc" -eq 0
res=$(field "$dir/late.json" 0 '"late.sock" in (o["host"]["ovs_error"] or "")')
check "first sample names the socket it waits for (got $res)" test "$res" = True

# 2. One that answers, then stops accepting (a wedged restart): reconnecting must not block.
start_fake okthen "okthen:6"
TUNETOP_OVS_SOCKET=$dir/okthen.sock timeout 30 "$TUNETOP" --host -b -n 6 -d 0.2 >"$dir/ok.json" 2>"$dir/ok.err"
rc=$?
check "server that stops accepting: batch finishes (rc $rc, $(head -c 200 "$dir/ok.err"))" test "$rc" -eq 0
res=$(field "$dir/ok.json" 0 '"pmd" in o')
check "first sample read the pmd section from the fake (got $res)" test "$res" = True
res=$(field "$dir/ok.json" -1 '("pmd" in o, "accepts no connection" in (o["host"]["ovs_error"] or ""))')
check "last sample: no pmd section, the connect error (got $res)" test "$res" = "(False, True)"
# The first sample of a counter has no rate: null, not lifetime totals.
res=$(field "$dir/ok.json" 0 '[o["pmd"]["threads"][0][k] for k in ("rx_pps","iterations","busy_pct","sleep_iter_pct")]')
check "first sample: rates are null (got $res)" test "$res" = "[None, None, None, None]"
res=$(field "$dir/ok.json" 0 '(o["host"]["ovs_rxqs"][0]["port"], o["host"]["ovs_pmds"][0]["isolated"])')
check "pmd-rxq-show in JSON (got $res)" test "$res" = "('p0', False)"

# 3. Silent, garbage, 50 MB: each sample ends with the reason, on time.
for mode in silent garbage big; do
	start_fake "$mode" "$mode"
	s=$SECONDS
	TUNETOP_OVS_SOCKET=$dir/$mode.sock timeout 30 "$TUNETOP" --host -b -n 3 -d 0.2 >"$dir/$mode.json" 2>"$dir/$mode.err"
	rc=$?
	check "$mode server: batch finishes (rc $rc) in $((SECONDS - s)) s" test "$rc" -eq 0
	err=$(field "$dir/$mode.json" -1 'o["host"]["ovs_error"]')
	case $mode in
	silent) want="no reply within" ;;
	garbage) want="bad JSON-RPC reply" ;;
	big) want="reply larger than|no complete reply within" ;; # under load the deadline may bite first
	esac
	check "$mode server: ovs_error says '$want' (got '$err')" grep -Eq "$want" <<<"$err"
	smax=$(python3 -c 'import json,sys; print(max(json.loads(x)["self"]["sample_us"] for x in open(sys.argv[1]) if x.strip()))' "$dir/$mode.json")
	check "$mode server: one sample costs at most 1.5 s (max $smax us)" test "$smax" -lt 1500000
done

# 3b. Rates over OVS's own interval: each pmd-perf-show reply is 1.000 s of OVS time later at
# exactly 20 kpps, 90 % asleep, whatever tunetop's pace (-d 0.2). A rate divided by the time
# between tunetop's samples would read 100 kpps and 450 % asleep.
start_fake clock "clock:1"
TUNETOP_OVS_SOCKET=$dir/clock.sock timeout 30 "$TUNETOP" --host -b -n 6 -d 0.2 >"$dir/clock.json" 2>"$dir/clock.err"
rc=$?
check "OVS-clock server: batch finishes (rc $rc, $(head -c 200 "$dir/clock.err"))" test "$rc" -eq 0
res=$(python3 -c '
import json, sys
rows = [json.loads(x)["pmd"]["threads"][0] for x in open(sys.argv[1]) if x.strip()]
rates = [(t["rx_pps"], t["asleep_pct"]) for t in rows if t["rx_pps"] is not None]
print("ok" if len(rates) >= 4 and all(abs(p - 20000) < 1 and abs(a - 90) < 0.01 for p, a in rates) else rates)
' "$dir/clock.json" 2>&1)
check "rx_pps 20000 and asleep_pct 90 on every rated sample, over OVS's interval (got $res)" test "$res" = ok

# 3c. What the host lacks is null, never 0: every figure host.absent names, on every line,
# and the interval figures of the first line (no baseline yet).
res=$(python3 -c '
import json, sys
lines = [json.loads(x) for x in open(sys.argv[1]) if x.strip()]
bad = []
def at(o, path):
    """Every value at the dotted path, through arrays."""
    out = [o]
    for k in path.split("."):
        nxt = []
        for v in out:
            for w in (v if isinstance(v, list) else [v]):
                if isinstance(w, dict) and k in w:
                    nxt.append(w[k])
        out = nxt
    return out
def numbers(v):
    if isinstance(v, bool): return []
    if isinstance(v, (int, float)): return [v]
    if isinstance(v, dict): return [n for x in v.values() for n in numbers(x)]
    if isinstance(v, list): return [n for x in v for n in numbers(x)]
    return []
for n, o in enumerate(lines):
    for name in o["host"]["absent"]:
        for v in at(o, name):
            if numbers(v):
                bad.append("line %d: %s = %r, listed absent" % (n, name, v))
t = lines[0]["pmd"]["threads"][0]
for k in ("asleep_pct", "drops_while_asleep_pct"):
    if t[k] is not None:
        bad.append("first line: %s = %r" % (k, t[k]))
if numbers(t["sleep_overshoot_us"]):
    bad.append("first line: sleep_overshoot_us = %r" % t["sleep_overshoot_us"])
print("ok" if not bad else "; ".join(bad[:5]))
' "$dir/clock.json" 2>&1)
check "absent figures and first-line interval figures are null (got $res)" test "$res" = ok

# 4. The console with a silent and a 50 MB server: keys reach the screen within a frame.
# Sanitizer builds run everything 5 to 15 times slower on a shared 2-core machine: 10x there.
key_ms=50
case ${TT_BUILD:-} in *san*) key_ms=500 ;; esac
. "$here/../tui/lib/tmux.sh"
trap cleanup EXIT # tmux.sh set its own; cleanup calls tt_cleanup
for mode in silent big; do
	tt_start 150 30 "TUNETOP_OVS_SOCKET=$dir/$mode.sock $TUNETOP --host -d 0.5; sleep 60"
	tt_wait "key [0-9]+ us" 8
	tt_keys 3
	tt_wait "Open vSwitch: " 5
	if tt_cap | grep -q "pmd is not running"; then bad "$mode: pmd view shows the engine's hint"; else ok "$mode: pmd view shows OVS's own error"; fi
	for k in 1 2 3 1 2 3 1 2 3; do
		tt_keys "$k"
		sleep 0.15
	done
	tt_keys 1
	sleep 0.3
	tt_keys 2
	sleep 0.3
	max=$(tt_cap | sed -n 's/.*key [0-9]* us (max \([0-9]*\)).*/\1/p' | tail -n 1)
	check "$mode: key to screen at most $key_ms ms (max ${max:-none} us)" test "${max:-999999}" -lt $((key_ms * 1000))
	tt_keys q
done

# 5. A knob write to a silent ovsdb: "setting..." at once, then the error with the value kept.
start_fake ctl ok
start_fake db silent
tt_start 150 30 "TUNETOP_OVS_SOCKET=$dir/ctl.sock TUNETOP_OVS_DB=unix:$dir/db.sock $TUNETOP --host --write -d 0.5; sleep 60"
tt_wait "key [0-9]+ us" 8
tt_keys 3
# A key before the first sample is refused (the value in force is not known yet): the first
# sample is in once the view shows the silent ovsdb's error.
tt_wait "ovsdb: transact: no reply" 10
tt_keys F8 # the pmd view's knob; on the machine it waits for Enter
tt_wait "pmd.maxsleep_us [0-9]+ -> [0-9]+: Enter applies" 5
tt_keys Enter
tt_wait "setting pmd.maxsleep_us " 1
ok "a knob write says 'setting' while it is under way"
tt_wait "error: .*stays" 5
ok "then the error, with the value kept ($(tt_cap | grep -o 'error: .*' | head -c 160))"
tt_keys q
finish
