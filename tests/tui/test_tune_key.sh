#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_tune_key.sh: the pmd view's `A` runs the live tuner on the engine's pmd-seed: the
# diagnosis's fix (the timer slack) first, then the max sleep; the status line counts the
# steps, the run ends on values within the budget (the ':' prompt reads back the max sleep the
# status line names), each step and why each value was kept are in the events view; Esc in
# the middle of a run puts the start value back; outside the pmd view `A` only says where
# it works.
# tt-timeout: 200
. "$(dirname "$0")/lib/tmux.sh"

tt_start 160 40 "$(tt_wrap -d 0.2 --scenario pmd-seed)"
tt_wait '^ tunetop [0-9.]+ +up'
tt_wait 'F10Quit'
# value NAME: what the ':' prompt reads back for NAME.
value() {
	tt_keys : "$1" Enter
	tt_wait "$1 = [^ ]+"
	tt_cap | grep -oE "$1 = [^ ]+" | tail -n 1 | sed 's/.* = //; s/us$//'
}

# Outside the pmd view the key says where it works and changes nothing.
tt_keys 1 A
tt_wait "A: the tuner runs in the pmd view \(3\)"
echo "ok   A outside the pmd view says where it runs"

# 1. A whole run: steps counted on the status line, then the value it ended on.
tt_keys 3
tt_wait '^pmd '
sleep 0.5 # a sample of the running PMDs
tt_keys A
tt_wait "tune pmd\.maxsleep_us: step 1/[0-9]+ pmd\.timer_slack_ns = 1000," 10
echo "ok   A starts with the diagnosis's fix (pmd.timer_slack_ns = 1000)"
# Step 2 may break the budget at its first sample: its line can be gone before a capture.
tt_wait "tune pmd\.maxsleep_us: (step 2/|ended on)" 30
echo "ok   the status line counts the steps"
tt_wait "tune pmd\.maxsleep_us: ended on pmd\.timer_slack_ns=[0-9]+ \(.*pmd\.maxsleep_us=[0-9]+ " 120
line=$(tt_cap | grep -oE "tune pmd\.maxsleep_us: .*" | head -n 1)
echo "ok   the run ended: $line"
best=$(grep -oE "pmd\.maxsleep_us=[0-9]+" <<<"$line" | grep -oE "[0-9]+$")
got=$(value pmd.maxsleep_us)
[ "$got" = "$best" ] || fail "the value in force is $got, not the $best the status line names"
echo "ok   pmd.maxsleep_us reads back $got, the value it ended on"
tt_keys 5
tt_wait "tune: pmd\.timer_slack_ns = [0-9]+ kept: " 5
tt_wait "tune: pmd\.maxsleep_us = [0-9]+ kept: " 5
echo "ok   the events view says why each value was kept"

# 2. Esc in the middle: the start value back.
tt_keys 3 : "set pmd.maxsleep_us=70" Enter
tt_wait "pmd\.maxsleep_us = 70"
sleep 0.5
tt_keys : "set pmd.timer_slack_ns=1000" Enter
tt_wait "pmd\.timer_slack_ns = 1000"
tt_keys A
tt_wait "tune pmd\.maxsleep_us: step 1/" 5
tt_keys Escape
tt_wait "tune pmd\.maxsleep_us: stopped: 70 put back" 5
echo "ok   Esc stops the run: 70 put back"
got=$(value pmd.maxsleep_us)
[ "$got" = 70 ] || fail "after Esc pmd.maxsleep_us is $got, not 70"
echo "ok   pmd.maxsleep_us reads back 70 after Esc"
# A second A (after the first) stops too.
tt_keys A
tt_wait "tune pmd\.maxsleep_us: step 1/" 5
tt_keys A
tt_wait "stopped: 70 put back" 5
echo "ok   A during a run stops it too"

tt_keys q
tt_wait_exit
tt_check_sane
echo "all ok"
