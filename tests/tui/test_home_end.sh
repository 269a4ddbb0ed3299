#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_home_end.sh: Home and End under TERM=xterm-256color inside tmux, which sends its own
# "Esc [ 1 ~" and "Esc [ 4 ~" (xterm-256color's terminfo knows "Esc O H"/"Esc O F" only), and
# rxvt's "Esc [ 7 ~"/"Esc [ 8 ~": each moves the events view to its oldest or newest line,
# and none reads as Esc and text (which froze the console on '[' and went to view 1 on '1').
. "$(dirname "$0")/lib/tmux.sh"

tt_start 80 24 "env TERM=xterm-256color sh -c '$(tt_wrap -d 0.3 --scenario default | sed "s/'/'\\\\''/g")'"
tt_wait 'F10Quit'
# The first sample: "pmd 19.2k pps", or "pmd offered 18.9k/20.0k: host took 6%" when the
# host took enough to show (that depends on the machine's load, so either will do).
tt_wait '^pmd (offered )?[0-9]'
# More events than lines: each knob key logs one (the pmd view's knob, pmd.maxsleep_us).
tt_keys 3
for _ in $(seq 12); do tt_keys F8 F7; done
tt_keys 5
tt_wait 'knob +pmd\.maxsleep_us: 1000 -> 500'
oldest='kthread_start +starting estimator thread 0'
tt_wait_gone "$oldest"

# still_live WHAT: the key was read as one key: not frozen, still the events view.
still_live() {
	tt_cap | grep -q '  FROZEN ' && fail "$1 froze the console (read as Esc and text)"
	tt_cap | grep -q '^ *TID +NAME' && fail "$1 switched to the overview (read as Esc and text)"
	return 0
}
# home_end NAME-HOME NAME-END KEYS-HOME... -- KEYS-END...: the oldest line shows, then goes.
home_end() {
	local h=$1 e=$2 home=() end=()
	shift 2
	while [ "$1" != -- ]; do home+=("$1"); shift; done
	shift
	end=("$@")
	tt_keys "${home[@]}"
	tt_wait "$oldest" 5
	still_live "$h"
	tt_keys "${end[@]}"
	tt_wait_gone "$oldest" 5
	tt_wait 'knob +pmd\.maxsleep_us: 1000 -> 500'
	still_live "$e"
	echo "ok   $h shows the oldest event, $e the newest"
}
home_end Home End Home -- End                                     # tmux: Esc [ 1 ~, Esc [ 4 ~
home_end 'Esc [ 1 ~' 'Esc [ 4 ~' -H 1b 5b 31 7e -- -H 1b 5b 34 7e # the same, sent raw
home_end 'Esc [ 7 ~' 'Esc [ 8 ~' -H 1b 5b 37 7e -- -H 1b 5b 38 7e # rxvt
home_end 'Esc O H' 'Esc O F' -H 1b 4f 48 -- -H 1b 4f 46           # xterm-256color's own

# Scrolled back, the view holds its lines while events come (as less does): a knob set at the
# prompt logs one below them (on a busy machine a finding's start or clear may log more).
tt_keys Home
tt_wait "$oldest" 5
tt_keys : "set pmd.maxsleep_us=700" Enter
tt_wait '^pmd .*maxsleep 700us' 10
tt_keys End
tt_wait 'knob +pmd\.maxsleep_us: 500 -> 700' 10
tt_keys Home
tt_wait "$oldest" 5
tt_keys : "set pmd.maxsleep_us=800" Enter
tt_wait '^pmd .*maxsleep 800us' 10
# (a capture may catch a frame half drawn: the oldest must be back on the next whole one)
tt_wait "$oldest" 3
echo "ok   the events view scrolled back holds still while an event comes"

tt_keys q
tt_wait_exit 5
grep -q 'rc=0' "$TT_DIR/rc" || fail "exit: $(cat "$TT_DIR/rc")"
tt_check_sane
echo "all ok"
