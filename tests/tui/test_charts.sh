#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_charts.sh: the multi-row graphs explain: a y-axis with figures, the goal drawn as a
# line (tick time 4.8 ms, kthread 12.5%), a marker with the knob's name and new value right
# after m or s, ASCII under LANG=C; the views fill a 120x40 screen and fit 80x24 whole; the
# t key sweeps maxsleep x slack in the background, draws the curve as it fills in, and Esc
# cancels it with the knobs restored.
. "$(dirname "$0")/lib/tmux.sh"

utf8=C.UTF-8
locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$' || utf8=en_US.UTF-8
start() { # W H LANG ARGS...
	local w=$1 h=$2 lang=$3; shift 3
	tt_start "$w" "$h" "env LANG=$lang LC_ALL=$lang sh -c '$(tt_wrap -d 0.3 "$@" | sed "s/'/'\\\\''/g")'"
	tt_wait 'F10Quit'
}
quit() {
	tt_keys q
	tt_wait_exit
	grep -q 'rc=0' "$TT_DIR/rc" || fail "exit status $(cat "$TT_DIR/rc")"
	rm -f "$TT_DIR/rc" "$TT_DIR/after"
}
# The graph rows of the screen (the axis character is on each).
rows() { tt_cap | grep -E "$1"; }

# --- UTF-8, 80x24: pmd view, the marker after m and after s.
start 80 24 "$utf8" --scenario default
tt_keys 3
tt_wait '^drop% pmd-c:0 [0-9.]+%'
tt_wait 'CPU% pmd-c:0 [0-9.]+%$'    # the right graph's title whole at 80 columns
tt_wait '^ +[0-9.]+%┤'               # a y-axis with its figures
tt_wait '^ +0(\.0)?%┤'
rows '┤' | grep -q 'maxsleep_us=' && fail "a marker before any knob changed"
tt_keys F8
tt_wait 'maxsleep [0-9]+us  sleep_inc'
tt_wait '┤.*maxsleep_us=[0-9]+' 5
new=$(tt_cap | sed -n 's/^offered .*maxsleep \([0-9]*\)us .*/\1/p')
mark=$(rows '┤' | grep -o 'maxsleep_us=[0-9]*' | head -1)
[ "$mark" = "maxsleep_us=$new" ] || fail "marker '$mark' is not the value in force ($new)"
rows '┤' | grep -q '│' || fail "no marker line"
tt_keys W
tt_wait '┤.*timer_slack_ns=[0-9]+' 5
# The pmd table's figures are not cut at 80 columns.
tt_wait '^pmd-c:0 +[0-9.]+k? +[0-9.]+k? .* [0-9]+\.[0-9]$'

# est view: tick time against the 4.8 ms goal, the kthread CPU against 12.5%, both drawn as
# a line of ┄ across the graph (on the row of the goal's value).
tt_keys 2
tt_wait 'tick [0-9.]+(us|ms) goal 4.8ms'
tt_wait 'kt CPU [0-9.]+% goal 12.5%'
# Each graph has its goal line; they share a row only when both goals round to the same one.
goal_lines() { tt_cap | grep -oE '┤ *┄{8,}|┄{8,}' | wc -l; }
for _ in $(seq 80); do [ "$(goal_lines)" -ge 2 ] && break; sleep 0.1; done
[ "$(goal_lines)" -ge 2 ] || fail "no goal line on both graphs"
tt_wait '^kthreads +KT' # the tables still show at 80x24
# chain_max per calibration names the governor of each run of calibrations: g then c adds a
# powersave bar, and the governor change is a marker on the tick and kthread graphs too.
tt_wait 'chain_max/calib [0-9]+'
tt_wait '┤.*performance'
tt_keys g
tt_wait '┤.*powersave.*┤.*powersave.*┤' 5 # 26 columns: the value alone fits
tt_keys E
tt_wait '┤.*powersave' 10
tt_wait 'calibration #2: .* powersave' 10
quit

# --- LANG=C: the same in ASCII: '-' goal line, '|' axis and marker, '#' '.' data.
start 80 24 C --scenario default
tt_keys 2
tt_wait 'goal 4.8ms'
tt_wait '^ +[0-9.]+ms\|.*-{8}'
tt_keys 3
tt_wait '^drop% pmd-c:0'
tt_keys F8
tt_wait '^ +[0-9.]*%?\|.*maxsleep_us=[0-9]+' 5
if tt_cap | LC_ALL=C grep -q $'[\x80-\xff]'; then fail "LANG=C: non-ASCII on screen"; fi
quit

# --- 120x40: the views use the screen (most body rows drawn), in est and pmd.
start 120 40 "$utf8" --scenario default
for v in 2 3; do
	tt_keys "$v"
	sleep 1.5
	used=$(tt_cap | sed -n '6,37p' | grep -c '[^ ]')
	[ "$used" -ge 26 ] || fail "view $v at 120x40 uses $used of 32 body rows"
done
tt_keys g # 40 columns a graph: the marker says name and value
tt_wait '┤.*governor=powersave.*┤.*governor=powersave' 5
quit

# --- t: the trade-off sweep runs in the background and fills the curve; Esc cancels it.
# A 1 s refresh: each setting takes 2 snapshots or more, so it runs long enough to watch.
D=1 start 100 30 "$utf8" --scenario pmd-light
tt_keys 3
tt_wait '^offered .*maxsleep [0-9]+us .*slack [0-9]+ns'
orig=$(tt_cap | sed -n 's/^offered .*\(maxsleep [0-9]*us  sleep_inc [0-9]*us  slack [0-9]*ns\).*/\1/p')
tt_keys o
tt_wait 'trade-off: drop% vs PMD CPU%.*measuring 1 of 7'
tt_wait 'measuring 2 of 7' 10       # the loop steps it: no key needed
# The first point, labelled maxsleep/slack: beside its marker on either side, or a row off
# (tui/chart.c, chart_grid_label), as its measured place leaves room; not 50/1k or 200/1k.
tt_wait '(^|[^0-9])0/1k( best| aside)?' 5
tt_wait '^ +[0-9.]+%┤'               # its y axis
tt_wait '┤.*maxsleep_us=50' 8 # the knobs really are set (a marker says so)
tt_wait 'measuring [3-6] of 7' 10
frames1=$(tt_cap | sed -n 's/.*frame \([0-9]*\).*/\1/p')
tt_keys Escape
tt_wait 'trade-off cancelled: maxsleep [0-9]+ us, slack [0-9]+ ns restored'
tt_wait "$orig"
frames2=$(tt_cap | sed -n 's/.*frame \([0-9]*\).*/\1/p')
[ "${frames2:-0}" -gt "${frames1:-0}" ] || fail "frames did not advance ($frames1 -> $frames2)"
tt_wait '\(o runs it again\)'
# o again starts over; o once more cancels.
tt_keys o
tt_wait 'measuring 1 of 7'
tt_keys o
tt_wait 'trade-off cancelled'
tt_wait "$orig"
quit
echo ok
