#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/tui_rss.sh: the console's resident memory against htop's. Each program runs alone in a
# fresh tmux window of TUI_RSS_COLS x TUI_RSS_ROWS (120x40) at a 1 s refresh (`tunetop -d 1`
# in the engine's default scenario, `tunetop --host -d 1`, `htop -d 10`), with its own empty
# settings folder; after TUI_RSS_WAIT (4) s VmRSS and VmHWM of the process come from
# /proc/PID/status. The three alternate, the order rotated each round, TUI_RSS_ROUNDS (3)
# rounds; figures are medians, ratios the median of each round's tunetop/htop (goal <= 2).
set -u
: "${TUNETOP:?run through bench/run.sh or set TUNETOP}"
cols=${TUI_RSS_COLS:-120}
rows=${TUI_RSS_ROWS:-40}
wait_s=${TUI_RSS_WAIT:-4}
rounds=${TUI_RSS_ROUNDS:-3}
command -v tmux >/dev/null || { echo "tmux missing (make deps)"; exit 1; }
. "$(dirname "$0")/lib/peer.sh"
bench_peer htop
sock="tt-bench-rss-$$"
tmp=$(mktemp -d)
tm() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'tm kill-server 2>/dev/null; rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$sock"; rm -rf "$tmp"' EXIT
median() { sort -n | awk '{v[NR]=$1} END {if (NR) print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2); else print "n/a"}'; }

# rss KEY COMMAND: run COMMAND in a fresh window; append "rss hwm" (KiB) to $tmp/KEY.
rss() {
	local key=$1 pid i lines
	shift
	tm kill-server 2>/dev/null
	rm -rf "$tmp/home"
	mkdir -p "$tmp/home/.config"
	tm new -d -x "$cols" -y "$rows" \
		"exec env HOME=$tmp/home XDG_CONFIG_HOME=$tmp/home/.config LANG=C.UTF-8 $*" || return 1
	pid=$(tm display -p '#{pane_pid}')
	sleep "$wait_s"
	lines=$(tm capture-pane -p | grep -c '[^ ]')
	if ! kill -0 "$pid" 2>/dev/null || [ "$lines" -lt 5 ]; then
		echo "   $key: did not draw ($lines lines on screen)"
		return 1
	fi
	awk '/^VmRSS/ {r = $2} /^VmHWM/ {h = $2} END {print r, h}' "/proc/$pid/status" >> "$tmp/$key"
	tm kill-server 2>/dev/null
	for i in $(seq 30); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
}

keys=(htop engine host)
declare -A cmd=([htop]="htop -d 10" [engine]="$TUNETOP -d 1 --scenario default"
	[host]="$TUNETOP --host -d 1")
echo "tmux ${cols}x${rows}, ${wait_s} s after start, $rounds rounds alternated (order rotated)"
for r in $(seq 0 $((rounds - 1))); do
	load=$(cut -d' ' -f1-3 /proc/loadavg)
	for j in 0 1 2; do
		k=${keys[$(((r + j) % 3))]}
		rss "$k" ${cmd[$k]}
	done
	# Each round's ratio, from the lines this round appended (a failed start leaves none).
	for k in engine host; do
		[ -s "$tmp/$k" ] && [ -s "$tmp/htop" ] || continue
		paste -d' ' <(tail -1 "$tmp/$k") <(tail -1 "$tmp/htop") |
			awk '{printf "%.3f\n", $1 / $3}' >> "$tmp/$k.ratio"
	done
	echo "   round $((r + 1)): load $load; RSS KiB htop $(tail -1 "$tmp/htop" | cut -d' ' -f1)," \
		"engine $(tail -1 "$tmp/engine" | cut -d' ' -f1), host $(tail -1 "$tmp/host" | cut -d' ' -f1)"
done
printf '%-36s %10s %10s %s\n' "median of $rounds" "VmRSS KiB" "VmHWM KiB" "tunetop/htop RSS (rounds)"
for k in htop engine host; do
	[ -s "$tmp/$k" ] || continue
	ratio=""
	[ "$k" != htop ] && [ -s "$tmp/$k.ratio" ] &&
		ratio="$(median < "$tmp/$k.ratio")x ($(tr '\n' ' ' < "$tmp/$k.ratio" | sed 's/ $//'))  (goal <= 2)"
	printf '%-36s %10s %10s %s\n' "${cmd[$k]##*/}" "$(cut -d' ' -f1 "$tmp/$k" | median)" \
		"$(cut -d' ' -f2 "$tmp/$k" | median)" "$ratio"
done
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
