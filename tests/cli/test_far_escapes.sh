#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tt-sanitize: the remote source's links beside -b's loop
# test_far_escapes.sh: what a far side says reaches -b's stderr escaped (core/utf8.h): a far
# side writing a title, clear-screen and clipboard (OSC 52) sequence and a C1 CSI on its stderr
# before it exits (tests/lib/fake_far.py escerr) is named "down" with ESC as "^[", BEL as "^G"
# and the CSI as U+FFFD, and no ESC, BEL or C1 byte is printed; a --remote host name holding an escape sequence
# is a usage error (exit 2) whose message is escaped the same way.
. "$(dirname "$0")/../lib/assert.sh"
FAKE="python3 $(cd "$(dirname "$0")/../lib" && pwd)/fake_far.py"
export FAKE_BASE=$TMPDIR/base.json
err=$TMPDIR/err
raw() { LC_ALL=C grep -q $'[\x1b\x07]\|\xc2\x9b' "$1"; }

# A host that is down is tried again: -b runs on; its note is waited for, then it is stopped.
"$TUNETOP" --ssh "$FAKE" --agent-path "$TUNETOP" -b -n 1 --remote escerr >/dev/null 2>"$err" &
pid=$!
for _ in $(seq 300); do
	grep -q 'escerr: down' "$err" && break
	sleep 0.1
done
kill "$pid"
wait "$pid" 2>/dev/null
cat -v "$err"
check "escerr: its stderr is the reason, escaped" grep -qF 'escerr: down: ssh: ^[]0;PWNED-ERR^G^[[2J^[]52;c;cHduZWQ=^G'$'\xef\xbf\xbd''31m bad' "$err"
check "escerr: no ESC, BEL or C1 byte on stderr" eval '! raw "$err"'

rc=0
timeout 30 "$TUNETOP" --ssh "$FAKE" --agent-path "$TUNETOP" -b -n 1 \
	--remote $'good\e]0;HN\a' >/dev/null 2>"$err" || rc=$?
cat -v "$err"
check "a host name with an escape sequence: exit 2 (rc $rc)" test "$rc" = 2
check "its message says why, escaped" grep -qF "'good^[]0;HN^G': not a host name" "$err"
check "no ESC or BEL on stderr" eval '! raw "$err"'
finish
