#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_screen.sh: the console in tmux at 80x24: header, table, every knob key (on screen and in
# the engine's own event log), the ':' prompt and its refusals, search/filter/sort, views, help,
# the too-small screen on resize, and q from the too-small screen leaving a sane terminal.
. "$(dirname "$0")/lib/tmux.sh"

tt_start 80 24 "$(tt_wrap -d 0.3 --scenario default)"
tt_wait '^ tunetop [0-9.]+ +up'
tt_wait 'TID +NAME +SUBSYS +CPU +CPU% +S +RUNQ% +DETAIL'
tt_wait 'F1Help.*F10Quit'
tt_wait '^est [0-9]+ ests'
tt_wait '^pmd .* maxsleep 500us slack 1000ns'
tt_wait '^blk rq_affinity 1 '
tt_wait 'governor performance \((emulated|cpufreq)\)'
tt_wait '^ +[0-9]+ pmd-c:0 +pmd'
tt_wait '^self cpu [0-9.]+%  sample [0-9]+ us  render [0-9]+ us  tty [0-9]+ B'

# key EXPECTED-STATUS EXPECTED-HEADER: the status line reads the value back from the engine.
key() {
	tt_keys -- "$1"
	tt_wait "$2"
	tt_wait "$3"
}
tt_keys 3 # F7 / F8 step the view's knob: pmd.maxsleep_us in the pmd view
# The changed value flashes (default theme: flash = 16 on 226) for 1.5 s, then settles: each
# looked for in the screen's colours as it comes, with a deadline.
flash=$'maxsleep \e\\[1m\e\\[38;5;16m\e\\[48;5;226m1000'
tt_keys F8
seen=0
for _ in $(seq 80); do tt_tmux capture-pane -p -e | grep -q "$flash" && seen=1 && break; sleep 0.05; done
[ "$seen" = 1 ] ||
	fail "no flash on the changed value: $(tt_tmux capture-pane -p -e | grep maxsleep | cat -v)"
tt_wait 'pmd\.maxsleep_us = 1000$'
tt_wait 'maxsleep 1000us'
for _ in $(seq 80); do tt_tmux capture-pane -p -e | grep -q '48;5;226m1000' || break; sleep 0.1; done
tt_tmux capture-pane -p -e | grep -q '48;5;226m1000' && fail "the flash did not end within 8 s"
key F7 'pmd\.maxsleep_us = 500$' 'maxsleep 500us'
key W 'pmd\.timer_slack_ns = 50000$' 'slack 50000ns'
key W 'pmd\.timer_slack_ns = 1000$' 'slack 1000ns'
key r 'blk\.rq_affinity = 2$' '^blk rq_affinity 2 '
key g 'cpu\.governor = powersave$' 'governor powersave'
tt_keys 1 # the overview's knob: gen.rate_pps
key F8 'gen\.rate_pps = 50000$' '\(50000/src\)|/50\.0k: host took'
key F7 'gen\.rate_pps = 20000$' '\(20000/src\)|/20\.0k: host took'
tt_keys 2 # the est view's knob: est.count
key F8 'est\.count = 3000$' '^est 3000 ests'
key F7 'est\.count = 2000$' '^est 2000 ests'
key E 'est\.recalibrate: done' '^est '
tt_keys 1

# The ':' prompt: refusals show the engine's message; completion; a good value lands.
tt_keys : 'set pmd.maxsleep_us=99999' Enter
tt_wait '^error: pmd\.maxsleep_us: 99999 is out of range \(valid: 0 to 10000 us\)'
tt_keys : 'set cpu.count=4' Enter
tt_wait '^error: cpu\.count can only be set at start'
tt_keys : 'set nosuch.knob=1' Enter
tt_wait "^error: unknown knob 'nosuch\.knob'"
tt_keys : 'set gen.pattern=zigzag' Enter
tt_wait "^error: gen\.pattern: 'zigzag' is not valid \(valid: constant\|bursty\|on-off\)"
tt_keys : 'set pmd.maxs' Tab
tt_wait '^:set pmd\.maxsleep_us=$'
tt_keys 700 Enter
tt_wait 'pmd\.maxsleep_us = 700$'
tt_keys : 'set cpu.governor=ond' Tab
tt_wait '^:set cpu\.governor=ondemand$'
tt_keys Enter
tt_wait 'cpu\.governor = ondemand$'
tt_keys : 'set cpu.governor=p' Tab
tt_wait 'performance powersave$'
tt_keys C-u 'pmd.maxsleep_us' Enter
tt_wait 'pmd\.maxsleep_us = 700 \(0 to 10000 us\)$'
tt_wait 'maxsleep 700us'

# The engine logged each change itself (events view, on a taller terminal to see them all).
tt_resize 80 50
tt_keys 5
for e in 'pmd\.maxsleep_us: 500 -> 1000' 'pmd\.timer_slack_ns: 1000 -> 50000' \
	'blk\.rq_affinity: 1 -> 2' 'cpu\.governor: performance -> powersave' \
	'gen\.rate_pps: 20000 -> 50000' 'est\.count: 2000 -> 3000' 'est\.recalibrate' \
	'pmd\.maxsleep_us: 500 -> 700'; do
	tt_wait "knob +$e"
done
tt_resize 80 24

# Views.
tt_keys 2
tt_wait '^calibration #[0-9]+: chain_max'
tt_keys 3
tt_wait '^PMD +rx pps'
tt_wait '^pmd-c:0 '
tt_keys 4
tt_wait 'CPU LLC +BLOCK runs'
tt_keys Tab
tt_wait '^no events yet|knob'
tt_keys 1
tt_wait 'TID +NAME'

# Help is generated from the knob table.
tt_keys h
tt_wait '^Keys \(htop'
tt_wait 'pmd\.maxsleep_us \(3, 0 fleet\), blk\.rq_affinity \(4\)'
tt_keys End
tt_wait 'blk\.fault_lost_kick'
tt_keys q
tt_wait 'TID +NAME'

# Search, filter, sort, pause.
tt_keys / watch
tt_wait '^Search: watch$'
tt_keys Enter
tt_wait "search 'watch'"
tt_keys '\' blk Enter
tt_wait "filter 'blk'"
rows=$(tt_cap | sed -n '/TID  *NAME/,/^error:\|^[0-9] overview/p' | grep -E '^ +[0-9]+ ' )
[ -n "$rows" ] || fail "no rows under the filter"
echo "$rows" | grep -vq ' blk ' && fail "filter let through: $(echo "$rows" | grep -v ' blk ')"
tt_keys '\' Escape
tt_wait_gone "filter 'blk'"
tt_wait '^ +[0-9]+ pmd-c:0 '
tt_keys '>'
tt_wait 'sort by S$'
tt_keys '<' '<'
tt_wait 'sort by CPU$'
tt_keys Space
tt_wait '^ tunetop [0-9.]+ +up [0-9]+s  FROZEN [0-9]+/[0-9]+ '
tt_keys Space
tt_wait 'up [0-9]+s  LIVE 0.3s  governor'

# Resize below the minimum and back; q works from the too-small screen.
tt_resize 40 10
tt_wait 'terminal too small: 40x10'
tt_resize 80 24
tt_wait 'TID +NAME'
tt_resize 40 10
tt_keys q
tt_wait_exit
grep -q 'rc=0' "$TT_DIR/rc" || fail "exit status $(cat "$TT_DIR/rc")"
tt_tmux resize-window -x 80 -y 24
tt_check_sane
echo "ok"
