#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_host_ovs_hits.sh: what an OVS operator reads in pmd-stats-show, from tunetop --host on a
# real ovs-vswitchd (the dummy datapath, a dummy-pmd port, packets sent with
# netdev-dummy/receive): with a single in_port drop flow every pass after the first is a simple
# match, so the simple-match share is ~100 % where EMC and megaflow are 0; tunetop's totals are
# pmd-stats-show's; ovsdb's Interface statistics are in the JSON as ovsdb holds them. On the
# console at 80 columns the sleep-probe table shows the whole PMD name and OVS's threads are
# labelled ovs, not engine. Skips (77) without root or OVS.
set -u
. "$(dirname "$0")/../lib/assert.sh"

[ "$(id -u)" = 0 ] || { echo "skip: needs root (ovs-vswitchd)"; exit 77; }
command -v ovs-vswitchd >/dev/null && command -v ovsdb-server >/dev/null ||
	{ echo "skip: no ovs-vswitchd"; exit 77; }
schema=/usr/share/openvswitch/vswitch.ovsschema
[ -f "$schema" ] || { echo "skip: $schema missing"; exit 77; }

dir=$(mktemp -d /tmp/tt-ovshits.XXXXXX)
. "$(dirname "$0")/../lib/ovs.sh"
mask=0x1
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] && mask=0x2
ovs-vsctl --timeout=10 --no-wait set Open_vSwitch . other_config:pmd-cpu-mask=$mask \
	other_config:pmd-maxsleep=300 other_config:pmd-sleep-max=300 other_config:pmd-perf-metrics=true
ovs_start_vswitchd
check "a PMD polls p0" sh -c 'ovs-appctl dpif-netdev/pmd-rxq-show | grep -q "port: p0"'
ovs-ofctl add-flow br0 in_port=p0,actions=drop || bad "drop flow"
# A UDP frame; 50 of them a call.
pkt=ffffffffffff00000000000108004500001c00010000401100000a0000010a00000200350035000800000000
burst=$(for _ in $(seq 50); do printf '%s ' "$pkt"; done)
ovs-appctl dpif-netdev/pmd-stats-clear >/dev/null
# OVS logs its suspicious iterations with this on (and pmd-perf-metrics=true).
ovs-appctl dpif-netdev/pmd-perf-log-set on >/dev/null || bad "pmd-perf-log-set on"

# Packets after the first sample, then three samples more (1.5 s at -d 0.5, however long the
# machine takes to write them) with none sent: the last JSON line's totals are what
# pmd-stats-show says after. SIGTERM ends the run (exit 0).
"$TUNETOP" --host -b -n 1000 -d 0.5 >"$dir/out.json" 2>"$dir/err" &
tt=$!
wait_lines "$dir/out.json" 1 20
for _ in $(seq 20); do
	ovs-appctl netdev-dummy/receive p0 $burst >/dev/null
done
wait_lines "$dir/out.json" $(($(wc -l <"$dir/out.json") + 3)) 30
kill -TERM $tt
wait $tt
rc=$?
check "tunetop --host exits 0 ($(head -c 200 "$dir/err"))" test "$rc" -eq 0
ovs-appctl dpif-netdev/pmd-stats-show >"$dir/stats.txt"
ovs-appctl dpif-netdev/pmd-perf-show -nh >"$dir/perf.txt"
for i in br0 p0; do
	printf '%s %s\n' "$i" "$(ovs-vsctl --timeout=10 get Interface "$i" statistics)"
done >"$dir/ifstats.txt"

res=$(python3 - "$dir/out.json" "$dir/stats.txt" <<'PY'
import json, re, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
text = open(sys.argv[2]).read().split("main thread:")[0]
ovs = {k: int(v) for k, v in re.findall(r"^\s*([a-z ]+[a-z]):\s+(\d+)\s*$", text, re.M)}
last = lines[-1]["host"]["ovs_pmds"][0]
pairs = [("packets", "packets received"), ("simple_hits", "simple match hits"),
         ("emc_hits", "emc hits"), ("megaflow_hits", "megaflow hits"),
         ("upcalls", "miss with success upcall"), ("lost_upcalls", "miss with failed upcall")]
bad = [(a, last[a], ovs.get(b)) for a, b in pairs if last[a] != ovs.get(b)]
# netdev-dummy queues at most 100 packets a port and drops the rest before OVS counts them,
# so how many of the 1000 arrive depends on how soon the PMD polls (330-411 under load).
if ovs.get("packets received", 0) < 100:
    bad.append(("too few packets", ovs.get("packets received")))
# Every interval with packets: simple ~100 %, EMC and megaflow 0 (one upcall at the start).
busy = [o["host"]["ovs_pmds"][0] for o in lines[1:] if (o["host"]["ovs_pmds"][0]["passes"] or 0) > 0]
for x in busy:
    if x["simple_pct"] is None or x["simple_pct"] < 97 or x["emc_pct"] != 0 or x["megaflow_pct"] != 0:
        bad.append(("shares", x["simple_pct"], x["emc_pct"], x["megaflow_pct"], x["passes"]))
total = lines[-1]["host"]["ovs_pmds_total"]
if total["simple_hits"] != last["simple_hits"]:
    bad.append(("total", total["simple_hits"]))
print("ok" if not bad and len(busy) >= 1 else (bad[:4], len(busy)))
PY
)
check "hit totals equal pmd-stats-show's, simple match ~100 % of each busy interval (got $res)" test "$res" = ok

res=$(python3 - "$dir/out.json" "$dir/ifstats.txt" <<'PY'
import json, re, sys
last = {f["name"]: f for f in json.loads(open(sys.argv[1]).read().splitlines()[-1])["host"]["ovs_interfaces"]}
bad = []
for line in open(sys.argv[2]):
    name, st = line.split(" ", 1)
    st = dict((k, int(v)) for k, v in re.findall(r"(\w+)=(\d+)", st))
    f = last.get(name)
    if not f:
        bad.append(("missing", name))
        continue
    for k, v in f["drops"].items():
        if v != st.get(k):  # null where ovsdb has no such key (the dummy has none)
            bad.append((name, k, v, st.get(k)))
print("ok" if not bad else bad[:4])
PY
)
check "interface drop counters as ovsdb holds them, null where it has none (got $res)" test "$res" = ok
# pmd-perf-metrics=true: pmd-perf-show's histograms per PMD, 32 bins each, ">" last (null).
res=$(python3 -c 'import json,sys; x=json.loads(open(sys.argv[1]).read().splitlines()[-1])["host"]["ovs_pmds"][0]; print([(g["name"], len(g["counts"]), g["edges"][-1], sum(g["counts"]) > 0) for g in x["histograms"]])' "$dir/out.json" 2>&1)
check "histograms from pmd-perf-show (got $res)" test "$res" = "[('cycles/it', 32, None, True), ('packets/it', 32, None, True)]"

# Suspicious iterations on the dummy datapath: OVS never measures its TSC there (tsc_hz stays
# 1, no "TSC frequency" in its log), so its threshold is 0 cycles and it logs iterations as
# suspicious; tunetop derives the same 1 Hz from pmd-perf-show's figures and shows no count.
res=$(python3 - "$dir/out.json" "$dir/perf.txt" <<'PY'
import json, re, sys
s = json.loads(open(sys.argv[1]).read().splitlines()[-1])["host"]["ovs_pmds"][0]["suspicious_iterations"]
t = open(sys.argv[2]).read()
d = float(re.search(r"Measurement duration: ([\d.]+) s", t).group(1))
u, p = re.search(r"Used TSC cycles: +(\d+) +\( *([\d.]+) % of total", t).groups()
hz = 100.0 * int(u) / (d * float(p))
ok = s["tsc_hz"] is not None and abs(s["tsc_hz"] / hz - 1) < 0.01 and s["min"] is None \
     and s["max"] is None and "no TSC rate" in (s["why"] or "")
print("ok" if ok else (s, hz))
PY
)
check "TSC rate as pmd-perf-show's own figures give it (OVS's 1 Hz), no count and why (got $res)" test "$res" = ok
check "OVS never measured the TSC on the dummy datapath" \
	sh -c "! grep -q 'TSC frequency' '$dir/log/ovs-vswitchd.log'"
check "so OVS itself calls its iterations suspicious" \
	grep -q "Suspicious iteration (Excessive total cycles)" "$dir/log/ovs-vswitchd.log"

# The console at 80 columns: the sleep-probe table's PMD name whole, OVS's threads "ovs".
. "$(dirname "$0")/../tui/lib/tmux.sh"
trap 'tt_cleanup; cleanup' EXIT # tmux.sh set its own
# 120 rows: the histogram charts above it take as many rows as OVS filled bins.
tt_start 80 120 "$TUNETOP --host -d 0.5; sleep 60"
tt_keys 3
tt_wait "hits % of passes" 10
tt_wait "late-p50us" 5
scr=$(tt_cap)
row=$(grep -A1 "late-p50us" <<<"$scr" | tail -n 1)
check "sleep-probe row at 80 columns has the whole PMD name (got '$row')" \
	grep -Eq "^pmd-c[0-9]+/id:[0-9]+ " <<<"$row"
check "a hit-share row per PMD and a total" grep -Eq "^total " <<<"$scr"
check "a suspicious-iterations line per PMD saying why there is no count" \
	grep -Eq "^pmd-c[0-9]+/id:[0-9]+ +- +\(OVS has no TSC rate" <<<"$scr"
# The histograms as charts (docs/pmd.md "Histograms as bar charts"): each PMD's cycles/it
# chart opens with its title (n and p50), or says why it has none.
check "a histogram chart per PMD (cycles/it), titled" \
	grep -Eq "^pmd-c[0-9]+/id:[0-9]+ cycles/it  (n [0-9.]+[kM]?  p50 (<=|>) [0-9]+|-: )" <<<"$scr"
tt_keys 1
tt_keys F4
tt_keys -l revalidator
tt_keys Enter
tt_wait "revalidator" 5
sleep 0.6
scr=$(tt_cap)
check "OVS's revalidator thread labelled ovs, not engine ($(grep -m1 revalidator <<<"$scr"))" \
	grep -Eq "revalidator[^ ]* +ovs " <<<"$scr"
tt_keys q
finish
