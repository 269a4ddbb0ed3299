#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_host_took.sh: with spinning threads taking the PMDs' CPUs (load.spin_threads), the
# header and the pmd view say how much the host took and the offered load against the target
# ("offered 322.1k of 600.0k: host took 40%"; the header "offered 322.1k/600.0k"), and the pmd view's cost line gives each PMD's
# CPU ns per packet and CPU share of the time the host left it (docs/pmd.md "CPU that can be
# compared"), and the traffic lost to the host on a line of its own ("lost to the host 277.9k/s
# (46%)", docs/pmd.md "What the host took"). At 80 columns, so the phrase must show whole where
# the lines are cut.
. "$(dirname "$0")/lib/tmux.sh"

# Four spinners per CPU of this machine: the two PMDs get far less than their cores.
spin=$((4 * $(nproc)))
tt_start 80 24 "$(tt_wrap -d 0.5 --scenario pmd-seed --set load.spin_threads=$spin)"
tt_wait 'F10Quit'
tt_keys 3
ht='offered [0-9.]+[kM]? of 600\.0k: host took [0-9]+%'
# The header's pmd line (the short form, so the knobs after it fit: their values whole),
# then the pmd view's first line.
# (A knob that does not fit whole is left out with the marker: slack 50000ns at 500k pps.)
tt_wait "^pmd offered [0-9.]+[kM]?/600\.0k: host took [0-9]+% drop [0-9.]+% maxsleep [0-9]+us( slack [0-9]+ns)?( |$)" 30
tt_wait "^$ht  maxsleep [0-9]+us" 30
# The traffic lost to the host, beside drop % (the part the knobs control).
tt_wait "^lost to the host [0-9.]+[kM]?/s \([0-9]+%\), not offered" 30
# Per PMD and all: numbers once the PMDs have a baseline (the first sample has none).
num='[0-9]+(\.[0-9])?'
whole="^cost: ns/pkt [0-9]+/[0-9]+ all [0-9]+  cpu-left% $num/$num all $num  host took [0-9]+%/[0-9]+%"
# On a slow build (TSan: 1800 ns/pkt and more) the line outgrows 80 columns: its last group
# is then left out behind the marker, never cut: either form.
cut="^cost: ns/pkt [0-9]+/[0-9]+ all [0-9]+  cpu-left% $num/$num all $num …\$"
tt_wait "$whole|$cut" 30
line=$(tt_cap | grep -E "$whole|$cut" | head -n 1)
if ! grep -Eq "$whole" <<<"$line"; then
	echo "note: at 80 columns the cost line's last group did not fit whole: $line"
fi
tt_keys q
tt_wait_exit 10
grep -q 'rc=0' "$TT_DIR/rc" || fail "exit: $(cat "$TT_DIR/rc")"
echo PASS
