#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tt-sanitize: sampling and recording go on behind a frozen screen
# test_frozen.sh: frozen is frozen: while sampling goes on behind it (the --record file grows),
# the frozen screen stays the same byte for byte, its graphs and their time axis included, in
# the blk, pmd and est views; a knob key while frozen goes live first and says so.
. "$(dirname "$0")/lib/tmux.sh"

rec=$TT_DIR/rec.jsonl
lines() { if [ -f "$rec" ]; then wc -l < "$rec"; else echo 0; fi; }
# wait_lines N SECONDS: until the recording holds N lines (samples taken), else fail.
wait_lines() {
	local n=$1 t=$2 i=0
	while [ "$i" -lt $((t * 10)) ]; do
		[ "$(lines)" -ge "$n" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	fail "sampling stopped: $(lines) lines recorded, waited for $n"
}
# still VIEW: the frozen screen of VIEW now and once 3 s and 6 more samples have gone by.
# The frame after a key shows that key's latency on the self-cost line (measured once the
# frame is out): two samples first, so the key's figure is on screen before the first capture.
still() {
	local view=$1 a b n0 start
	wait_lines $(($(lines) + 2)) 30
	a=$(tt_cap)
	n0=$(lines)
	start=$SECONDS
	wait_lines $((n0 + 6)) 60
	while [ $((SECONDS - start)) -lt 3 ]; do sleep 0.2; done
	b=$(tt_cap)
	[ "$a" = "$b" ] || {
		diff <(echo "$a") <(echo "$b")
		fail "the frozen $view view changed while sampling went on"
	}
	echo "ok frozen $view view unchanged over $(($(lines) - n0)) samples"
}

tt_start 100 40 "$(tt_wrap -d 0.5 --scenario default --record "$rec")"
tt_wait 'F10Quit'
tt_keys 4
tt_wait '^rq_affinity [0-9]'
tt_keys r
tt_wait 'blk\.rq_affinity = '
wait_lines 8 30
tt_keys Space '[' '['
tt_wait '^frozen: '
tt_wait 'FROZEN [0-9]+/[0-9]+ '
# The status message fades after 5 s: wait for it, so the captures differ in nothing else.
tt_wait_gone '^frozen: ' 15
still blk
tt_wait ' -[0-9]+s +0s' # the time axis, from the frozen sample
tt_keys 3
tt_wait '^offered '
still pmd
tt_keys 2
tt_wait '^ests '
still est

# A knob key while frozen: live first, said on the status line, the new value live.
tt_keys 4
tt_wait '^rq_affinity [0-9]'
tt_keys r
tt_wait '^back to live: a knob change needs live figures; blk\.rq_affinity = '
tt_wait '  LIVE '
tt_keys q
tt_wait_exit 5
echo ok
