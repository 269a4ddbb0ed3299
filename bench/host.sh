#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/host.sh: cost of one host-backend refresh (self.sample_us) with TASKSTATS as root
# against the /proc-only fallback (same binary as an unprivileged user), and the engine
# backend's refresh as the baseline, all in this run; plus the OVS round trip when
# ovs-vswitchd answers. Medians over HOST_BENCH_N (20) refreshes at 0.1 s.
set -u
n=${HOST_BENCH_N:-20}
med() { # med FILE FIELD-EXPR: median over all lines but the first (no baseline yet)
	python3 - "$1" "$2" <<'PY'
import json, statistics, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()][1:]
vals = [eval(sys.argv[2], {}, {"o": o}) for o in lines]
print("%.0f" % statistics.median(vals) if vals else "-")
PY
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
"$TUNETOP" -b -n "$n" -d 0.1 >"$tmp/engine.json" 2>/dev/null
"$TUNETOP" --host -b -n "$n" -d 0.1 >"$tmp/ts.json" 2>/dev/null
have_user=0
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$TUNETOP" --host -b -n "$n" -d 0.1 \
		>"$tmp/proc.json" 2>/dev/null && have_user=1
fi
printf '%-34s %12s %10s %s\n' "refresh (median of $((n - 1)))" "sample_us" "threads" "source"
printf '%-34s %12s %10s %s\n' "engine backend (baseline)" "$(med "$tmp/engine.json" 'o["self"]["sample_us"]')" \
	"$(med "$tmp/engine.json" 'len(o["threads"])')" "thread CPU clocks"
printf '%-34s %12s %10s %s\n' "host, root" "$(med "$tmp/ts.json" 'o["self"]["sample_us"]')" \
	"$(med "$tmp/ts.json" 'len(o["threads"])')" "$(tail -n1 "$tmp/ts.json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["host"]["thread_source"])')"
[ "$have_user" = 1 ] && printf '%-34s %12s %10s %s\n' "host, unprivileged" "$(med "$tmp/proc.json" 'o["self"]["sample_us"]')" \
	"$(med "$tmp/proc.json" 'len(o["threads"])')" "$(tail -n1 "$tmp/proc.json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["host"]["thread_source"])')"
ovs=$(tail -n1 "$tmp/ts.json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["host"]["ovs"])')
echo "OVS unixctl answered: $ovs (the pmd section costs one or two JSON-RPC round trips per refresh)"
