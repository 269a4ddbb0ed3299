#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_golden_ascii.sh: the golden screens of test_golden.sh drawn in ASCII only, at 80x24 from
# the same recording: under LANG=C (a locale without UTF-8: golden/langc/) and with --ascii in
# a UTF-8 locale (golden/ascii/); every view, the help screen and a frozen sample. The charts'
# braille and box drawing become ASCII; nothing else may change. Nothing masked.
. "$(dirname "$0")/lib/tmux.sh"
. "$(dirname "$0")/lib/golden.sh"

# The locale tunetop sees is LANG's alone.
unset LC_ALL LC_CTYPE
export TZ=UTC LANG=C.UTF-8
data=$TT_TOP/tests/tui/data/replay8.jsonl
gold_replay 80 24 LANG=C "$data" --no-color
gold_views langc
rm -f "$TT_DIR/rc" "$TT_DIR/after"
gold_replay 80 24 LANG=C.UTF-8 "$data" --no-color --ascii
gold_views ascii
echo ok
