#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/tui.sh: what the console costs: bytes written to the terminal per second at 80x24 and a
# 1 s refresh (default scenario) against htop and `top -H` on the same tmux pty in the same run,
# CPU% of each program's drawing thread, and tunetop's render time per frame with ~200 threads.
# Env: TT_BENCH_WINDOWS (3) windows of TT_BENCH_SECONDS (3) each; figures are medians.
set -u
: "${TUNETOP:?run through bench/run.sh or set TUNETOP}"
windows=${TT_BENCH_WINDOWS:-3}
secs=${TT_BENCH_SECONDS:-3}
command -v tmux >/dev/null || { echo "tmux missing (make deps)"; exit 1; }
. "$(dirname "$0")/lib/peer.sh"
bench_peer_install htop # without it, top alone is measured
sock="tt-bench-$$"
tm() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'tm kill-server 2>/dev/null; rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$sock"' EXIT
tm new -d -x80 -y24 "exec bash --norc --noprofile" || exit 1
pane_tty=$(tm display -p '#{pane_tty}')
hz=$(getconf CLK_TCK)

median() { sort -n | awk '{v[NR]=$1} END {if (NR) print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2); else print "n/a"}'; }
# The newest process on the pane's tty whose command is $1.
find_pid() {
	local i
	for i in $(seq 50); do
		p=$(pgrep -n -t "${pane_tty#/dev/}" -x "$1") && { echo "$p"; return 0; }
		sleep 0.1
	done
	return 1
}
# wchar and CPU ticks of the thread that draws (the main thread; tunetop's engine threads are
# separate tasks and do not write to the terminal).
io_w() { awk '/^wchar/ {print $2}' "/proc/$1/task/$1/io"; }
ticks() { awk '{print $14 + $15}' "/proc/$1/task/$1/stat"; }

# measure NAME COMMAND...: run on the pane, warm up, then per-window bytes/s and CPU%.
measure() {
	local name=$1 comm=$2; shift 2
	tm send-keys "$*" Enter
	local pid
	pid=$(find_pid "$comm") || { echo "$name: did not start"; return 1; }
	sleep 1.5
	local bps=() w0 t0 s0 w1 t1 s1 tstart sstart
	tstart=$(ticks "$pid"); sstart=$(date +%s.%N)
	for _ in $(seq "$windows"); do
		w0=$(io_w "$pid"); s0=$(date +%s.%N)
		sleep "$secs"
		w1=$(io_w "$pid"); s1=$(date +%s.%N)
		bps+=("$(awk -v a="$w0" -v b="$w1" -v s="$s0" -v e="$s1" 'BEGIN {print (b - a) / (e - s)}')")
	done
	t1=$(ticks "$pid")
	M_BPS=$(printf '%s\n' "${bps[@]}" | median)
	# CPU over the whole measurement: clock ticks are too coarse for one short window.
	M_CPU=$(awk -v a="$tstart" -v b="$t1" -v s="$sstart" -v e="$s1" -v hz="$hz" \
		'BEGIN {print 100 * (b - a) / hz / (e - s)}')
	[ -n "${HOOK:-}" ] && $HOOK
	tm send-keys q
	for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	kill "$pid" 2>/dev/null
	sleep 0.3
	printf '%-34s %10.0f %8.2f\n' "$name" "$M_BPS" "$M_CPU"
}
quit_wait() {
	tm send-keys q
	for _ in $(seq 50); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
}
# The console's own figures from its debug line: median of "render N us", "self cpu X%".
debug_medians() {
	local n=$1 r=() c=() b=() line
	for _ in $(seq "$n"); do
		line=$(tm capture-pane -p | grep '^self cpu')
		r+=("$(echo "$line" | sed -n 's/.*render \([0-9]*\) us.*/\1/p')")
		c+=("$(echo "$line" | sed -n 's/^self cpu \([0-9.]*\)%.*/\1/p')")
		b+=("$(echo "$line" | sed -n 's/.*(\([0-9]*\) B\/s).*/\1/p')")
		sleep 0.5
	done
	D_RENDER=$(printf '%s\n' "${r[@]}" | median)
	D_CPU=$(printf '%s\n' "${c[@]}" | median)
	D_BPS=$(printf '%s\n' "${b[@]}" | median)
}

echo "terminal 80x24 (tmux pty $pane_tty), refresh 1 s, median of $windows windows of ${secs} s"
printf '%-34s %10s %8s\n' "program" "tty B/s" "CPU%"
if command -v htop >/dev/null; then
	measure "htop -d 10 (baseline)" htop htop -d 10
else
	echo "htop: not installed"
fi
measure "top -H -d 1 (baseline)" top top -H -d 1
HOOK="debug_medians 4" measure "tunetop -d 1 (default scenario)" tunetop "$TUNETOP" -d 1 --scenario default
echo "  tunetop's own debug line: tty $D_BPS B/s, self cpu $D_CPU% (the control thread: sampling, rendering, writing)"

# Render time per frame: the default scenario, then ~200 threads (load.sleep_threads adds them).
tm send-keys "$TUNETOP -d 0.5 --scenario default" Enter
tpid=$(find_pid tunetop); sleep 1.5
n0=$(ls "/proc/$tpid/task" | wc -l)
debug_medians 8
r0=$D_RENDER
quit_wait "$tpid"
tm send-keys "$TUNETOP -d 0.5 --scenario default --set load.sleep_threads=190" Enter
tpid=$(find_pid tunetop); sleep 2
n1=$(ls "/proc/$tpid/task" | wc -l)
debug_medians 8
quit_wait "$tpid"
echo
printf '%-34s %10s\n' "render time per frame (median)" "us"
printf '%-34s %10s\n' "default scenario, $n0 threads" "$r0"
printf '%-34s %10s\n' "with load.sleep_threads=190, $n1 thr" "$D_RENDER"
