#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_host_ovs_counters.sh: OVS counters turned into interval figures (a python3 fake OVS,
# tests/lib/fake_ovs.py, whose pmd-stats-show and ovsdb Interface statistics move one step a
# read): the hit shares are each lookup's share of the interval's datapath passes, equal to
# the deltas of the totals; upcalls/s and lost upcalls/s likewise; a counter that goes back
# (pmd-stats-clear, an interface reset) gives null, never a negative or huge figure; each
# interface drop counter ovsdb holds is in the JSON with its rate, null where ovsdb has none.
set -u
. "$(dirname "$0")/../lib/assert.sh"
. "$(dirname "$0")/../lib/fake_ovs.sh" tt-ovscnt

# pmd-stats-show, one text a call: 1000 packets a step, of which 600 simple match, 200 EMC,
# 100 SMC, 50 megaflow, 40 upcalls, 10 lost; 100 recirculations (so 1100 passes) a step;
# the 4th text is after a pmd-stats-clear (every counter back near 0), then it grows again.
python3 - "$dir/stats.txt" <<'PY'
import sys
def text(n):
    return f"""pmd thread numa_id 0 core_id 1:
  packets received: {1000 * n}
  packet recirculations: {100 * n}
  avg. datapath passes per packet: 1.10
  phwol hits: 0
  mfex opt hits: 0
  simple match hits: {600 * n + 100 * n}
  emc hits: {200 * n}
  smc hits: {100 * n}
  megaflow hits: {50 * n}
  avg. subtable lookups per megaflow hit: 1.00
  miss with success upcall: {40 * n}
  miss with failed upcall: {10 * n}
  idle cycles: {20000000 * n} (90.00%)
  processing cycles: {2000000 * n} (10.00%)
main thread:
  packets received: 0
"""
steps = [5, 6, 7, 1, 2, 3, 4, 5, 6, 7, 8]
open(sys.argv[1], "w").write("====\n".join(text(n) for n in steps))
PY
# ovsdb Interface statistics, one set a read: p0 has DPDK's drop counters, p1 only netdev's.
python3 - "$dir/ifaces.json" <<'PY'
import json, sys
seq = []
for n in [1, 2, 3, 0, 1, 2, 3, 4, 5, 6, 7, 8]:
    seq.append({"p0": {"rx_packets": 100 * n, "rx_dropped": 3 * n, "tx_dropped": 0,
                       "rx_missed_errors": 7 * n, "ovs_rx_qos_drops": 0,
                       "ovs_tx_failure_drops": 5 * n, "ovs_tx_mtu_exceeded_drops": 0,
                       "ovs_tx_qos_drops": 0, "ovs_tx_invalid_hwol_drops": 0},
                "p1": {"rx_packets": n, "rx_dropped": n, "tx_dropped": 2 * n}})
json.dump(seq, open(sys.argv[1], "w"))
PY
FAKE_OVS_STATS=$dir/stats.txt start_fake ctl ok
FAKE_OVSDB_IFACES=$dir/ifaces.json start_fake db ovsdb
TUNETOP_OVS_SOCKET=$dir/ctl.sock TUNETOP_OVS_DB=unix:$dir/db.sock timeout 60 "$TUNETOP" --host -b -n 9 -d 0.3 \
	>"$dir/out.json" 2>"$dir/err"
rc=$?
check "batch against the fake OVS exits 0 (rc $rc: $(head -c 200 "$dir/err"))" test "$rc" -eq 0

res=$(python3 - "$dir/out.json" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
bad, seen_back, seen_ok = [], 0, 0
KEYS = ("simple", "emc", "smc", "megaflow")
for i, o in enumerate(lines):
    h = o["host"]
    for x in h["ovs_pmds"] + [h["ovs_pmds_total"]]:
        prev = None
        if i:
            p = lines[i - 1]["host"]
            prev = p["ovs_pmds"][0] if x is not h["ovs_pmds_total"] else p["ovs_pmds_total"]
        back = prev is None or x["packets"] < prev["packets"]
        if back:
            if any(x[k + "_pct"] is not None for k in KEYS) or x["passes"] is not None \
               or x["upcalls_per_s"] is not None or x["lost_upcalls_per_s"] is not None:
                bad.append(("not null without a baseline", i, x))
            seen_back += i > 0
            continue
        passes = x["packets"] + x["recirculations"] - prev["packets"] - prev["recirculations"]
        if x["passes"] != passes:
            bad.append(("passes", i, x["passes"], passes))
        for k in KEYS:
            want = round(100.0 * (x[k + "_hits"] - prev[k + "_hits"]) / passes, 2)
            if x[k + "_pct"] is None or abs(x[k + "_pct"] - want) > 0.01:
                bad.append((k, i, x[k + "_pct"], want))
        if x["phwol_pct"] != 0:
            bad.append(("phwol", i, x["phwol_pct"]))
        u, lu = x["upcalls_per_s"], x["lost_upcalls_per_s"]
        # 40 and 10 a read over the time between two replies: -d 0.3 here, but a late sample
        # (a loaded machine, a sanitizer) stretches one and shortens the next, so the exact
        # check is the ratio; the rate's own arithmetic is test_host_ovs_fake.sh's, whose
        # fake clock moves 1 s a reply.
        if u is None or lu is None or abs(u / lu - 4) > 0.01 or not 40 / 5 < u < 40 / 0.01:
            bad.append(("upcalls/s", i, u, lu))
        seen_ok += 1
print("ok" if not bad and seen_back == 2 and seen_ok >= 10 else (bad[:3], seen_back, seen_ok))
PY
)
check "hit shares, passes and upcall rates are the totals' deltas; null after the counters go back (got $res)" test "$res" = ok

res=$(python3 - "$dir/out.json" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
bad, back, moved = [], 0, 0
for i, o in enumerate(lines):
    ifs = {f["name"]: f for f in o["host"]["ovs_interfaces"]}
    if sorted(ifs) != ["p0", "p1"]:
        bad.append(("names", i, sorted(ifs)))
        continue
    p1 = ifs["p1"]["drops"]
    if p1["rx_missed_errors"] is not None or ifs["p1"]["drops_per_s"]["ovs_tx_failure_drops"] is not None:
        bad.append(("p1 has no DPDK counters: null", i))
    if not i:
        if any(v is not None for f in ifs.values() for v in f["drops_per_s"].values()):
            bad.append(("a rate on the first read", i))
        continue
    pifs = {f["name"]: f for f in lines[i - 1]["host"]["ovs_interfaces"]}
    # over the time between the two ovsdb reads, not the samples' (a slow read moves it)
    dt = o["host"]["ovsdb_interval_s"]
    for n, f in ifs.items():
        for k, v in f["drops"].items():
            r, pv = f["drops_per_s"][k], pifs[n]["drops"][k]
            if v is None:
                if r is not None:
                    bad.append(("rate of an absent counter", i, n, k))
            elif v < pv:
                back += 1
                if r is not None:
                    bad.append(("a rate after going back", i, n, k, r))
            # both printed to 2 decimals: the product is within r x 0.005 + dt x 0.005
            elif r is None or dt is None or abs(r * dt - (v - pv)) > 0.005 * (r + dt) + 1e-4:
                bad.append(("rate", i, n, k, r, v - pv, dt))
            else:
                moved += v > pv
print("ok" if not bad and back >= 3 and moved >= 10 else (bad[:3], back, moved))
PY
)
check "interface drop counters: totals, rates over the interval, null where absent or gone back (got $res)" test "$res" = ok

# The exporter: the same counters as _total, a drop counter per device and counter name, only
# those the interface has.
TUNETOP_OVS_SOCKET=$dir/ctl.sock TUNETOP_OVS_DB=unix:$dir/db.sock timeout 30 "$TUNETOP" --host -b -n 1 \
	--format prometheus >"$dir/out.prom" 2>"$dir/prom.err"
prom=$(grep -c '^tunetop_host_ovs_interface_drops_total{device="p0",counter="rx_missed_errors"} [0-9]' "$dir/out.prom")
none=$(grep -c '^tunetop_host_ovs_interface_drops_total{device="p1",counter="rx_missed_errors"}' "$dir/out.prom")
hits=$(grep -c '^tunetop_host_ovs_pmd_hits_total{pmd="pmd-c01",lookup="simple"} [0-9]' "$dir/out.prom")
check "exporter: p0's rx_missed_errors, none for p1, the simple-match hits (got $prom $none $hits)" \
	test "$prom $none $hits" = "1 0 1"
finish
