#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_host_readonly.sh: the console on --host starts read-only: the header
# says so, a knob key explains how to enable writes and changes nothing, and a knob the host
# lacks shows '-' rather than a default.
. "$(dirname "$0")/lib/tmux.sh"

"$TUNETOP" --host -b -n 1 >/dev/null 2>&1 || { echo "skip: --host does not open here"; exit 77; }
tt_start 120 30 "$(tt_wrap -d 0.3 --host)"
tt_wait 'read-only \(--write to change\)'
tt_keys 3 # F8 steps the pmd view's knob, pmd.maxsleep_us
for k in r g F8; do
	tt_keys "$k"
	tt_wait 'host mode is read-only; start tunetop with --write'
	tt_keys C-l
done
echo "ok   r, g and F8 explain --write"
# The help screen lists knob values; one the host lacks reads '-'.
if ! "$TUNETOP" --host -b -n 1 2>/dev/null | grep -q '"cpu.governor":"'; then
	tt_keys h
	# The knob list follows the keys and the figures: page until its first row (cpu.governor)
	# shows (a bound, not a wait: each page is drawn before the next capture is compared).
	for _ in $(seq 60); do
		tt_cap | grep -Eq '^  cpu\.governor ' && break
		tt_keys NPage
	done
	tt_wait 'cpu\.governor +- '
	tt_keys q
	echo "ok   an absent host knob reads '-'"
fi
tt_keys q
tt_wait_exit
tt_check_sane
echo "all ok"
