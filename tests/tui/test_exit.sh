#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tt-sanitize: every thread stopped by each way out
# test_exit.sh: every way out restores the terminal (stty -a unchanged, cursor visible, main
# screen, keypad and mouse off) and leaves no process: q, F10, Ctrl-C (SIGINT), SIGTERM,
# SIGHUP, a crash (SIGSEGV, SIGABRT through the async-signal-safe handler), Ctrl-\ and SIGQUIT
# (the same handler), and -n COUNT.
. "$(dirname "$0")/lib/tmux.sh"

# way LABEL EXPECTED-RC ACTION...: start, act, check.
way() {
	local label=$1 want=$2; shift 2
	rm -f "$TT_DIR/rc" "$TT_DIR/after" "$TT_DIR/pid"
	tt_start 80 24 "$(tt_wrap -d 0.3 --mouse --scenario default)"
	tt_wait 'F10Quit'
	[ "$(tt_tmux display -p '#{alternate_on} #{cursor_flag}')" = "1 0" ] ||
		fail "$label: not on the alternate screen with the cursor hidden while running"
	local pid
	pid=$(cat "$TT_DIR/pid")
	"$@" "$pid"
	tt_wait_exit 10
	grep -q "rc=$want\$" "$TT_DIR/rc" || fail "$label: exit $(cat "$TT_DIR/rc"), wanted $want"
	tt_check_sane
	kill -0 "$pid" 2>/dev/null && fail "$label: process $pid still there"
	tt_wait '^EXITED' 3
	echo "$label: ok"
}
key() { tt_keys "$1"; }
sig() { kill "-$1" "$2"; }

way q 0 key q
way F10 0 key F10
way Ctrl-C 0 key C-c
way SIGTERM 0 sig TERM
way SIGHUP 0 sig HUP
way SIGSEGV 139 sig SEGV
way SIGABRT 134 sig ABRT
# Ctrl-\ sends SIGQUIT (curses keeps ISIG): a core-dumping exit, restored like a crash.
way 'Ctrl-\' 131 key 'C-\'
way SIGQUIT 131 sig QUIT

# An ignored SIGQUIT (as a shell script's `&` job inherits it) stays ignored.
rm -f "$TT_DIR/rc" "$TT_DIR/after" "$TT_DIR/pid"
tt_start 80 24 "trap '' QUIT; $(tt_wrap -d 0.3 --scenario idle)"
tt_wait 'F10Quit'
pid=$(cat "$TT_DIR/pid")
kill -QUIT "$pid"
sleep 0.5
kill -0 "$pid" 2>/dev/null || fail "an ignored SIGQUIT ended tunetop"
tt_keys q
tt_wait_exit 10
grep -q 'rc=0$' "$TT_DIR/rc" || fail "ignored SIGQUIT: exit $(cat "$TT_DIR/rc")"
tt_check_sane
echo "ignored SIGQUIT: ok"

# -n COUNT ends by itself.
rm -f "$TT_DIR/rc" "$TT_DIR/after"
tt_start 80 24 "$(tt_wrap -d 0.1 -n 3 --scenario idle)"
tt_wait_exit 10
grep -q 'rc=0$' "$TT_DIR/rc" || fail "-n 3: exit $(cat "$TT_DIR/rc")"
tt_check_sane
echo ok
