#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_diag_console.sh: the diagnoses in the console (docs/diag.md "Where it runs"): the line
# under the header names the worst finding and its fix, D lists the evidence, X applies the fix
# on the engine and the finding clears (with its events in the events view); a frozen screen
# keeps its sample's findings; an idle scenario shows no finding line.
. "$(dirname "$0")/lib/tmux.sh"

tt_start 100 30 "$(tt_wrap -d 0.3 --scenario pmd-seed)"
tt_wait '^pmd .* slack 50000ns'
# About 3 samples of hysteresis at -d 0.3: well within the deadline.
tt_wait '^(critical|warning) pmd\.sleep_outlasts_ring: .*fix: pmd\.timer_slack_ns=1000, key X' 15
# D: one block per finding with its evidence (figure = value unit); Esc closes.
tt_keys D
tt_wait '^Diagnoses, live sample: [0-9]+ active'
tt_wait '^(critical|warning) pmd\.sleep_outlasts_ring +since sample [0-9]+'
tt_wait '^  fix: pmd\.timer_slack_ns=1000$'
tt_wait '^  pmd\.threads\[[0-9]+\]\.timer_slack_ns = 50000\.00 ns$'
tt_wait '^  pmd\.threads\[[0-9]+\]\.ring_fill_us = [0-9.]+ us$'
tt_keys Escape
tt_wait_gone '^Diagnoses, '
tt_wait '^ tunetop [0-9.]+ +up'
# X on the engine: the fix at once; the header shows the new slack and the finding clears.
tt_keys X
tt_wait 'pmd\.timer_slack_ns = 1000$'
tt_wait '^pmd .* slack 1000ns'
# X applied the fix the finding named: it no longer names that fix. Whether 1 us slack alone
# keeps every sleep within the ring is a matter of the machine's speed (on a slow build the rule
# rightly names its next fix, busy polling); busy polling sleeps not at all, so at max sleep 0
# the finding clears at any speed, with its clear event.
tt_wait_gone 'sleep_outlasts_ring: .*fix: pmd\.timer_slack_ns=1000' 15
tt_keys : "set pmd.maxsleep_us=0" Enter
tt_wait '^pmd .* maxsleep 0us'
tt_wait_gone 'pmd\.sleep_outlasts_ring: ' 15
# Frozen and stepped back to a sample before the fix: that sample's findings, not the live
# ones (a few samples back; at most 20).
tt_keys Space
tt_wait 'FROZEN'
i=0
until tt_cap | grep -Eq '^(critical|warning) pmd\.sleep_outlasts_ring: '; do
	[ "$i" -lt 20 ] || fail "no frozen sample with the finding"
	at=$(tt_cap | sed -n 's/.*FROZEN \([0-9]*\)\/.*/\1/p')
	tt_keys '['
	tt_wait "FROZEN $((at - 1))/"
	i=$((i + 1))
done
tt_keys D
tt_wait '^Diagnoses, frozen sample: [0-9]+ active'
tt_keys q Escape
tt_wait 'LIVE'
tt_wait_gone 'pmd\.sleep_outlasts_ring: '
# The events view has the start and the clear, once each.
tt_keys 5
tt_wait 'diag +diagnosis pmd\.sleep_outlasts_ring cleared'
n=$(tt_cap | grep -c 'diagnosis pmd\.sleep_outlasts_ring started')
[ "$n" = 1 ] || fail "the start event shows $n times"
tt_keys q
tt_wait_exit

# Nothing to find: no finding line for some seconds (the header is followed by the table).
tt_start 80 24 "$(tt_wrap -d 0.2 --scenario idle)"
tt_wait 'TID +NAME +SUBSYS'
i=0
while [ "$i" -lt 30 ]; do
	tt_cap | grep -Eq '^(critical|warning|info) [a-z]+\.[a-z_]+: ' && fail "a finding on an idle engine"
	sleep 0.1
	i=$((i + 1))
done
tt_keys D
tt_wait '^  none: every rule of docs/diag\.md is quiet'
tt_keys q
tt_wait_gone '^Diagnoses, '
tt_keys q
tt_wait_exit
echo ok
