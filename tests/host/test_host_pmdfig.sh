#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_host_pmdfig.sh: the host source's PMD figures from pmd-perf-show (a python3 fake OVS,
# tests/lib/fake_ovs.py, whose counters move each call): sleep_iters is the interval's
# (900 a sample), sleep_iters_total the running count; a sleep time beyond the interval
# (OVS's own figure on some VMs) is capped at 100 % and named in host.absent, never 1e11 %.
set -u
. "$(dirname "$0")/../lib/assert.sh"
. "$(dirname "$0")/../lib/fake_ovs.sh" tt-pmdfig

# field FILE LINE EXPR: a python expression over the JSON object o of line LINE (-1 last).
field() {
	python3 -c 'import json,sys; l=[json.loads(x) for x in open(sys.argv[1]) if x.strip()]; o=l[int(sys.argv[2])]; t=o["pmd"]["threads"][0]; print(eval(sys.argv[3]))' "$@" 2>&1
}

for mode in grow nonsense; do
	start_fake $mode $mode
	TUNETOP_OVS_SOCKET=$dir/$mode.sock timeout 30 "$TUNETOP" --host -b -n 4 -d 0.2 >"$dir/$mode.json" 2>"$dir/$mode.err"
	rc=$?
	check "$mode: batch finishes (rc $rc $(head -c 200 "$dir/$mode.err"))" test "$rc" -eq 0
	res=$(field "$dir/$mode.json" -1 '(t["sleep_iters"], t["sleep_iters_total"] - t["sleep_iters"] == l[-2]["pmd"]["threads"][0]["sleep_iters_total"])')
	check "$mode: sleep_iters is the interval's, sleep_iters_total the sum so far (got $res)" test "$res" = "(900, True)"
	# A figure the host names absent is null (never a number that reads as measured).
	res=$(field "$dir/$mode.json" -1 'all((x["pmd"]["threads"][0][k] is None and "pmd." + k in x["host"]["absent"]) or 0 <= x["pmd"]["threads"][0][k] <= 100 for x in l[1:] for k in ("asleep_pct", "sleep_iter_pct"))')
	check "$mode: asleep_pct and sleep_iter_pct within 0..100, or null when absent (got $res; last $(field "$dir/$mode.json" -1 't["asleep_pct"]'))" test "$res" = True
	res=$(field "$dir/$mode.json" -1 '(t["sleep_us_avg"] is None and "pmd.sleep_us_avg" in o["host"]["absent"]) or t["sleep_us_avg"] <= 0.2e6 * 1.5 / 900')
	check "$mode: sleep_us_avg no more than the interval over its sleeps, or null when absent (got $(field "$dir/$mode.json" -1 't["sleep_us_avg"]'))" test "$res" = True
done
res=$(field "$dir/nonsense.json" -1 '"pmd.asleep_pct" in o["host"]["absent"]')
check "nonsense: the capped figure is named in host.absent (got $res)" test "$res" = True
res=$(field "$dir/grow.json" -1 '("pmd.asleep_pct" in o["host"]["absent"], 3 < t["asleep_pct"] < 8)')
check "grow: a plausible sleep time is kept as it is, not flagged (got $res)" test "$res" = "(False, True)"
finish
