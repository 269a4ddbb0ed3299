#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_host_confirm_keys.sh: on the live host with --write a key's knob change is shown and
# waits for Enter: blk.rq_affinity of a loop device (r, and F7 in the blk view) stays in
# sysfs while the question is up (two frames later too), Enter writes it, Esc leaves it.
set -u
. "$(dirname "$0")/../lib/assert.sh"

LOOP_MB=16
. "$(dirname "$0")/../lib/loopdev.sh"
cleanup() {
	[ -n "${TT_DIR:-}" ] && tt_cleanup
	loop_cleanup
}
echo 1 >"$knob"

. "$(dirname "$0")/../tui/lib/tmux.sh"
trap cleanup EXIT # tmux.sh set its own; cleanup calls tt_cleanup
tt_start 150 30 "TUNETOP_BLK_DEV=$name $TUNETOP --host --write -d 0.2; sleep 60"
tt_wait 'frame [0-9]+' 10
# The key steps from the value the source read: wait until the header shows it.
tt_wait '^blk rq_affinity 1 ' 10
frame() { tt_cap | sed -n 's/.* frame \([0-9]*\).*/\1/p' | tail -n 1; }
# two_frames: until the console has drawn two more samples (a write sent would be done).
two_frames() {
	local f0 i=0
	f0=$(frame)
	while [ "$(frame)" -lt $((f0 + 2)) ]; do
		i=$((i + 1))
		[ "$i" -lt 100 ] || fail "no new frames"
		sleep 0.1
	done
}

tt_keys r
tt_wait 'blk\.rq_affinity 1 -> 2: Enter applies, Esc cancels' 5
two_frames
check "r: sysfs still 1 while the question is up (reads $(cat "$knob"))" test "$(cat "$knob")" = 1
tt_keys Enter
tt_wait 'blk\.rq_affinity = 2' 5
check "Enter: sysfs reads 2 (reads $(cat "$knob"))" test "$(cat "$knob")" = 2

tt_keys 4
tt_keys F7
tt_wait 'blk\.rq_affinity 2 -> 1: Enter applies, Esc cancels' 5
tt_keys Escape
tt_wait 'cancelled: nothing changed' 5
two_frames
check "Esc: sysfs still 2 (reads $(cat "$knob"))" test "$(cat "$knob")" = 2
tt_keys q
finish
