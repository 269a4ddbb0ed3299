#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_htop_keys.sh: htop's habits write no knob. Every key htop uses (but its nice keys
# F7/F8 and quitting), sent in each view on the engine, leaves every knob as it was: the
# engine's own event log shows no knob change, the ':' prompt reads each value back
# unchanged, and the console is still up.
. "$(dirname "$0")/lib/tmux.sh"

tt_start 120 40 "$(tt_wrap -d 0.3 --scenario default)"
tt_wait '^ tunetop [0-9.]+ +up'
tt_wait 'F10Quit'

knobs="pmd.maxsleep_us pmd.timer_slack_ns blk.rq_affinity cpu.governor gen.rate_pps est.count"
# value NAME: what the ':' prompt reads back for NAME.
value() {
	tt_keys : "$1" Enter
	tt_wait "$1 = [^ ]+"
	tt_cap | grep -oE "$1 = [^ ]+" | tail -n 1 | sed 's/.* = //'
}
before=""
for k in $knobs; do before="$before $k=$(value "$k")"; done

# live: Esc until the header says LIVE (an Esc may first end something a key started). First
# a marker: once the prompt of ':' shows, every key sent before it has been read, so LIVE on
# screen is not the header from before the burst.
live() {
	local n i
	tt_keys :
	tt_wait '^:$' 20
	tt_keys Escape
	tt_wait_gone '^:$'
	for n in 1 2 3; do
		tt_keys Escape
		for i in $(seq 30); do
			tt_cap | grep -q '  LIVE ' && return 0
			sleep 0.1
		done
	done
	fail "not live after three Esc"
}
# Keys htop binds with no prompt or screen of their own, as tmux names them.
plain=(Space Space Z Z '#' '*' + , - . '<' = '>' F H I K M N O P T U Y '[' ']' a b c e i k l m
	p s t u w x F5 F5 F6 F9 BSpace Tab BTab C-l)
for view in 1 2 3 4 5; do
	tt_keys "$view"
	for key in "${plain[@]}"; do tt_keys -- "$key"; done
	# Back to live (the [ ] steps may leave it frozen, which would show an old sample).
	live
	# Keys that open something: help, the search and filter prompts, the setup screen.
	for key in h '?' F1; do
		tt_keys -- "$key"
		tt_wait ' help: Esc'
		tt_keys Escape
		tt_wait_gone ' help: Esc'
	done
	# htop's prompts: F3 and / search, F4 and \ filter (docs/reference.md "The console").
	for key in / F3 '\' F4; do
		case $key in /|F3) prompt=Search ;; *) prompt=Filter ;; esac
		tt_keys -- "$key"
		tt_wait "^$prompt:"
		tt_keys Escape
		tt_wait_gone "^$prompt:"
	done
	for key in F2 S C; do
		tt_keys -- "$key"
		tt_wait 'setup'
		tt_keys Escape
		tt_wait '^ tunetop [0-9.]+ '
	done
done
tt_keys 1
tt_wait 'F10Quit'
echo "ok   every htop key sent in views 1 to 5"

# htop's Z pauses the display: the header says FROZEN, and Z again says LIVE.
live
tt_keys Z
tt_wait '  FROZEN [0-9]+/[0-9]+ '
tt_keys Z
tt_wait '  LIVE '
echo "ok   Z freezes the display and Z again goes live"

# The engine logs each knob change (docs/reference.md "The console"): none may be there.
tt_keys 5
tt_wait '^[0-9]{2}:[0-9]{2}:[0-9]{2} [a-z_]+ ' # the events view's lines, drawn
tt_wait '  LIVE '
tt_cap | grep -E 'knob +[a-z]+\.[a-z_]+' && fail "an htop key changed a knob (events view above)"
echo "ok   the engine logged no knob change"
tt_keys 1
after=""
for k in $knobs; do after="$after $k=$(value "$k")"; done
[ "$before" = "$after" ] || fail "knobs changed:$before ->$after"
echo "ok   knobs as they were:$after"

tt_keys q
tt_wait_exit
tt_check_sane
echo "all ok"
