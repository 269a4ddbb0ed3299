#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_host_ovs_write.sh: a max sleep write is done only once ovs-vswitchd has taken it, read
# back (a python3 fake ovsdb and a fake ovs-vswitchd that follows it with a delay,
# tests/lib/fake_ovs.py). The console says "setting pmd.maxsleep_us 500 -> 1000..." and keeps
# showing 500 until the fake takes the value; with the fake stopped (SIGSTOP) the write ends
# "not applied" with the old value shown; an ovsdb text OVS applies otherwise ("99999") shows
# as "ovsdb 99999 -> applied 10000us"; with ovsdb gone a write says the value still in force;
# view 2 and help on the host suggest no engine knob.
set -u
. "$(dirname "$0")/../lib/assert.sh"
. "$(dirname "$0")/../lib/fake_ovs.sh" tt-ovswrite
command -v tmux >/dev/null || { echo "skip: no tmux"; exit 77; }

. "$here/../tui/lib/tmux.sh"
trap cleanup EXIT # tmux.sh set its own; cleanup calls tt_cleanup
console() { # console CTL DB: tunetop --host --write on those fakes
	tt_start 160 30 "TUNETOP_OVS_SOCKET=$dir/$1.sock TUNETOP_OVS_DB=unix:$dir/$2.sock $TUNETOP --host --write -d 0.5; sleep 60"
}
header() { tt_cap | grep -m1 '^pmd '; }

# 1. ovs-vswitchd takes the write 2 s after ovsdb has it: "setting" until then, the old value
# in the header, then the value read back.
start_fake db ovsdb FAKE_OVSDB_CONFIG=pmd-maxsleep=500
start_fake ctl ok FAKE_OVS_DB="$dir/db.sock" FAKE_OVS_APPLY_S=2
ctl=$last
console ctl db
tt_wait "^pmd .*maxsleep 500us" 10
tt_keys 3
tt_wait "maxsleep 500us \(ovsdb" 5
tt_keys F8 # the pmd view's knob up; on the machine it waits for Enter
tt_wait "pmd.maxsleep_us 500 -> 1000: Enter applies" 3
tt_keys Enter
tt_wait "setting pmd.maxsleep_us 500 -> 1000\.\.\." 1
ok "after F8, Enter: 'setting pmd.maxsleep_us 500 -> 1000...'"
sleep 1 # the fake takes it 2 s after the key
check "while ovs-vswitchd has not taken it, the header keeps 500 ($(header))" grep -q "maxsleep 500us" <<<"$(header)"
check "... and the status still says setting" tt_wait "setting pmd.maxsleep_us 500 -> 1000" 1
tt_wait "pmd.maxsleep_us = 1000" 8
ok "then the value read back: pmd.maxsleep_us = 1000"
tt_wait "^pmd .*maxsleep 1000us" 3
ok "and the header shows 1000 ($(header))"
tt_keys 5
tt_wait "pmd.maxsleep_us: 500 -> 1000" 3
ok "the events log the write with the value read back"

# 2. ovs-vswitchd stopped: the write ends "not applied", 1000 still shown.
kill -STOP "$ctl"
tt_keys 3
tt_keys F7
tt_wait "Enter applies" 3
tt_keys Enter
tt_wait "setting pmd.maxsleep_us 1000 -> 500" 2
ok "stopped vswitchd: 'setting' while waiting"
tt_wait "not applied \(vswitchd not answering\); 1000 still in force" 20
ok "stopped vswitchd: $(tt_cap | grep -o 'pmd.maxsleep_us: not applied.*' | head -c 150)"
check "the header keeps the value in force, 1000 ($(header))" grep -q "maxsleep 1000us" <<<"$(header)"
kill -CONT "$ctl"
tt_keys q

# 3. An ovsdb text OVS applies otherwise: both on screen; a key steps from the applied value.
start_fake db2 ovsdb FAKE_OVSDB_CONFIG=pmd-maxsleep=99999
db2=$last
start_fake ctl2 ok FAKE_OVS_DB="$dir/db2.sock"
console ctl2 db2
tt_wait "^pmd .*maxsleep 10000us" 10
tt_keys 3
tt_wait "maxsleep ovsdb 99999 -> applied 10000us" 5
ok "pmd view: 'ovsdb 99999 -> applied 10000us'"
check "the header names both ($(header))" grep -q "maxsleep 10000us (ovsdb 99999)" <<<"$(header)"

# 4. Host mode: view 2 suggests no engine knob the host refuses.
tt_keys 2
tt_wait "est is not running" 3
if tt_cap | grep -q ":set est.enabled=on"; then bad "host view 2 suggests :set est.enabled=on"; else ok "host view 2 suggests no :set est.enabled=on"; fi
check "and says why ($(tt_cap | grep -o 'est is not running.*'))" tt_wait "est is not running: an engine knob" 1
tt_keys h
tt_wait "est\.recalibrate \(not on this source\)" 3
ok "help: the engine's keys say they are not on this source"
tt_keys Escape
tt_wait "^pmd " 3

# 5. ovsdb gone: a write says the value still in force (10000), not 0.
kill "$db2"
tt_keys 3
tt_wait "ovsdb: " 8
tt_keys F7
tt_wait "Enter applies" 3
tt_keys Enter
tt_wait "stays 10000\)" 10
ok "ovsdb down: $(tt_cap | grep -o 'error.*stays.*' | head -c 160)"
tt_keys q
finish
