#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_golden_host.sh: golden screens of a host-mode recording, tests/tui/data/host8.jsonl (8
# samples of `tunetop -b --host -n 8 -d 0.5 --record FILE` on a 2-CPU VM: kernel threads, no
# cpufreq, no OVS, no est), replayed to its end at 80x24: every view (est and pmd say why they
# are empty), the help screen and a frozen sample, in tests/tui/golden/host/. What the screens
# show comes from the recording alone (times in TZ=UTC), so nothing is masked.
. "$(dirname "$0")/lib/tmux.sh"
. "$(dirname "$0")/lib/golden.sh"

export TZ=UTC LANG=C.UTF-8
gold_replay 80 24 LANG=C.UTF-8 "$TT_TOP/tests/tui/data/host8.jsonl" --no-color
gold_views host
echo ok
