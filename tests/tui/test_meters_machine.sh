#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_meters_machine.sh: the engine's meters say "emulated"; '#' swaps them for this machine's
# own CPUs, one meter per CPU /proc/stat lists, each saying "machine", and back; on a host
# (whose meters are the machine's already) '#' says so and changes nothing (docs/reference.md
# "The console").
. "$(dirname "$0")/lib/tmux.sh"

ncpu=$(grep -c '^cpu[0-9]' /proc/stat)
tt_start 120 30 "$(tt_wrap -d 0.5 --scenario idle)"
tt_wait '^ +0\[.* emulated\]'
tt_wait_gone '^ +0\[.* machine\]'
tt_keys '#'
tt_wait 'meters: this machine.s real CPUs'
tt_wait '^ +0\[.*% .*machine\]'
shown=$(tt_cap | grep -oE '[0-9]+\[[^]]*machine\]' | wc -l)
more=$(tt_cap | grep -oE '\+[0-9]+ more' | head -1 | tr -dc 0-9)
[ "$((shown + ${more:-0}))" -eq "$ncpu" ] || fail "$shown machine meters (+${more:-0}) for $ncpu CPUs"
tt_cap | grep -q 'emulated\]' && fail "emulated meters left beside the machine's"
tt_keys '#'
tt_wait 'meters: the engine.s emulated CPUs'
tt_wait '^ +0\[.* emulated\]'
tt_keys F10
tt_wait_exit
grep -q "rc=0$" "$TT_DIR/rc" || fail "exit $(cat "$TT_DIR/rc")"
echo ok
