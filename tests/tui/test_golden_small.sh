#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_golden_small.sh: the golden screens of test_golden.sh at the minimum size, 60x16 (what
# is cut and what is dropped when space is short), from the same recording replayed to its end:
# every view, the help screen and a frozen sample, in tests/tui/golden/60x16/. Nothing masked.
. "$(dirname "$0")/lib/tmux.sh"
. "$(dirname "$0")/lib/golden.sh"

export TZ=UTC LANG=C.UTF-8
gold_replay 60 16 LANG=C.UTF-8 "$TT_TOP/tests/tui/data/replay8.jsonl" --no-color
gold_views 60x16
echo ok
