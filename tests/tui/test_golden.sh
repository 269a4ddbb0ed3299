#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_golden.sh: golden screens, as tmux's regress/ compares whole panes: the fixed recording
# tests/tui/data/replay8.jsonl replayed to its end in an 80x24 terminal, then every view and
# the help screen, each compared character for character with tests/tui/golden/NAME.txt.
# Nothing is masked: the debug line shows the recording's cpu/sample/render figures ("rec:";
# this console's own, which vary, come after column 80: test_replay_self.sh checks them),
# times are the recording's (TZ=UTC), and the status line is captured after its message has
# faded.
# `make golden` (TT_GOLDEN_UPDATE=1) rewrites the files after an intended layout change; the
# other test_golden_*.sh add the minimum size, ASCII, a host-mode recording and the fleet.
. "$(dirname "$0")/lib/tmux.sh"
. "$(dirname "$0")/lib/golden.sh"

export TZ=UTC LANG=C.UTF-8
gold_replay 80 24 LANG=C.UTF-8 "$TT_TOP/tests/tui/data/replay8.jsonl" --no-color
# A thread row wider than the screen ends in the cut marker: cut at 80 columns without it, the
# pmd row's "sleep 1" (of "sleep 1%") read as a whole figure.
tt_keys 1
tt_wait '^ +[0-9]+ pmd-c:0 +pmd .* sleep …$' 5
gold_views
echo ok
