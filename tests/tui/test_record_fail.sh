#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_record_fail.sh: a --record that stops being written (here the file-size limit, as a full
# disk does) shows its reason on the console's status line, and the console exits 1.
. "$(dirname "$0")/lib/tmux.sh"

rec=$TT_DIR/con.jsonl
# SIGXFSZ ignored: a write past the limit then fails with EFBIG, as one on a full disk fails
# with ENOSPC. 64 blocks hold a few lines.
tt_start 132 30 "trap '' XFSZ; ulimit -f 64; $(tt_wrap -d 0.3 --scenario default --record "$rec")"
tt_wait 'F10Quit'
tt_wait 'con\.jsonl: write: File too large' 30
tt_keys q
tt_wait_exit 10
grep -q 'rc=1$' "$TT_DIR/rc" || fail "a failed recording should exit 1, got $(cat "$TT_DIR/rc")"
echo "the status line named the error; exit 1"
