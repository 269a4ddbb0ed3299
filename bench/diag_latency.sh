#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# diag_latency.sh: seconds from a condition to its finding on the console's screen, per rule
# (docs/diag.md): the console in a private tmux server at -d 1; each condition made with ':'
# (or present from the start, for pmd-seed), then the screen read every 0.1 s until the
# finding list (D, which shows every active finding where the line under the header shows
# the worst) names the rule. Medians of RUNS (default 3). The hysteresis is 3 samples, so
# about 3 s is the floor at -d 1; a loaded machine adds its own delay.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
TUNETOP=${TUNETOP:-$top/tunetop}
. "$top/tests/tui/lib/tmux.sh"
runs=${RUNS:-3}

now() { date +%s.%N; }
# one "SCENARIO [--set K=V]" RULE COMMAND: secs = seconds from COMMAND (":"-line, or "" for
# none) to RULE on screen. Not in a subshell: tmux.sh counts its servers to clean them up.
one() {
	local sc=$1 rule=$2 cmd=$3 t0 i=0
	tt_start 120 40 "$TUNETOP --no-config -d 1 --scenario $sc; sleep 30"  # $sc may carry --set
	until tt_cap | grep -Eq '^ tunetop .*up [1-9]'; do sleep 0.1; done
	if [ "${sc%% *}" = est-only ]; then # a calibration under performance first
		until tt_cap | grep -Eq 'chain_max [1-9]'; do sleep 0.2; done
	fi
	t0=$(now)
	[ -n "$cmd" ] && tt_keys : "$cmd" Enter
	tt_keys D
	while ! tt_cap | grep -Eq "^(critical|warning|info) +$rule +since"; do
		sleep 0.1
		i=$((i + 1))
		[ $i -gt 600 ] && break
	done
	if [ $i -gt 600 ]; then secs=nan; else secs=$(echo "$(now) $t0" | awk '{printf "%.1f", $1 - $2}'); fi
	tt_tmux kill-server 2>/dev/null
}
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print (NR ? a[int((NR+1)/2)] : "nan")}'; }

printf '%-28s %-22s %s\n' rule condition "seconds (median of $runs, each)"
while IFS='|' read -r sc rule cmd what; do
	all=""
	for _ in $(seq "$runs"); do
		one "$sc" "$rule" "$cmd"
		all="$all $secs"
	done
	printf '%-28s %-22s %s  (%s)\n' "$rule" "$what" "$(echo "$all" | median)" "${all# }"
done <<'ROWS'
pmd-seed|pmd.sleep_outlasts_ring||50 us slack at start
default|pmd.polling_idle|set pmd.maxsleep_us=0|max sleep 0
est-only --set est.cpus=128|est.tick_miscalibrated|set cpu.governor=ondemand|governor changed
blk-steer|blk.stranded_completions|set blk.fault_lost_kick=on|lost-kick fault on
blk-steer|blk.ipi_costly|set blk.rq_affinity=2|rq_affinity 2
default|host.cpu_taken|set load.spin_threads=6|6 spinners
ROWS
echo "load: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
