#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/tui_views.sh: the console's render time per frame in each view with graphs (1 overview,
# 2 est, 3 pmd, and 3 with the `t` trade-off curve) at 80x24 and 120x40, as its debug line
# reports it ("render N us"): the median and the minimum of TT_BENCH_SAMPLES (16) readings
# 0.3 s apart.
# TT_BENCH_BIN=other/tunetop compares another build in the same run (before/after a change).
set -u
: "${TUNETOP:?run through bench/run.sh or set TUNETOP}"
samples=${TT_BENCH_SAMPLES:-16}
command -v tmux >/dev/null || { echo "tmux missing (make deps)"; exit 1; }
sock="tt-bench-views-$$"
tm() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'tm kill-server 2>/dev/null; rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$sock"' EXIT
median() { sort -n | awk '{v[NR]=$1} END {if (NR) print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2); else print "n/a"}'; }
render() {
	local r=() i
	for i in $(seq "$samples"); do
		r+=("$(tm capture-pane -p | sed -n 's/^self cpu.* render \([0-9]*\) us.*/\1/p')")
		sleep 0.3
	done
	# The median, and the minimum: the least disturbed frame on a shared machine.
	echo "$(printf '%s\n' "${r[@]}" | grep . | median) $(printf '%s\n' "${r[@]}" | grep . | sort -n | head -1)"
}
run() { # BIN LABEL
	local bin=$1 label=$2 size w h v
	for size in 80x24 120x40; do
		w=${size%x*} h=${size#*x}
		tm kill-server 2>/dev/null
		tm new -d -x"$w" -y"$h" "$bin -d 0.3 --scenario default" || return 1
		sleep 2
		for v in 1 2 3; do
			tm send-keys "$v"
			sleep 1
			printf '%-10s %-8s view %-12s %6s us (min %s)\n' "$label" "$size" "$v" $(render)
		done
		tm send-keys t
		sleep 2
		printf '%-10s %-8s view %-12s %6s us (min %s)\n' "$label" "$size" "3 + t curve" $(render)
		tm send-keys q
		sleep 0.5
	done
}
echo "render time per frame (median of $samples), default scenario, -d 0.3; $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg)"
run "$TUNETOP" this
[ -n "${TT_BENCH_BIN:-}" ] && run "$TT_BENCH_BIN" other
exit 0
