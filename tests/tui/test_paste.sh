#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_paste.sh: bracketed paste. A multi-line paste into ':' runs each line as a command and
# never types a line as hotkeys; a paste with no prompt open changes nothing (a huge one is
# dropped at once), a long one is cut; the mode is turned off again on q and on SIGTERM.
# Also: below 60x16 a 'q' typed into an open prompt is a letter, not a quit.
. "$(dirname "$0")/lib/tmux.sh"

# The wrapper reads from the terminal after tunetop exits: with bracketed paste left on, a
# paste arrives wrapped in ESC[200~ ... ESC[201~ (cat -v shows ^[[200~).
wrap_paste() {
	printf '%s' "sh -c 'echo \$\$ > $TT_DIR/pid; exec $TUNETOP $*'; echo rc=\$? > $TT_DIR/rc; echo EXITED; stty -echo; bash -c \"read -t 60 -r l; printf %s \\\"\\\$l\\\" | cat -v > $TT_DIR/pasted.tmp; mv $TT_DIR/pasted.tmp $TT_DIR/pasted\"; sleep 600"
}
paste() { # paste TEXT: as a terminal would, marks included when the program asked for them
	tt_tmux set-buffer -- "$1"
	tt_tmux paste-buffer -p
}
after_exit_paste_check() {
	# The file is the shell's answer to this paste, not the last run's: gone before, and
	# written whole (renamed into place), so a read never sees it half-written.
	rm -f "$TT_DIR/pasted"
	tt_wait EXITED
	paste $'xyz\n'
	# A deadline, not a fixed wait: on a loaded machine the shell may take seconds to read.
	local i=0
	while [ $i -lt 300 ] && ! grep -q xyz "$TT_DIR/pasted" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
	grep -q xyz "$TT_DIR/pasted" || fail "the shell never got the paste after exit"
	grep -q '200~' "$TT_DIR/pasted" && fail "bracketed paste left on after $1: $(cat -v "$TT_DIR/pasted")"
	echo "ok   bracketed paste off after $1"
}

tt_start 80 24 "$(wrap_paste -d 0.3 --scenario default)"
tt_wait '^pmd .* maxsleep 500us slack 1000ns'
tt_wait '^est 2000 ests'

# Two lines pasted after ':': both run as commands; nothing of line 2 is a hotkey ('s' would
# toggle the slack, 'm' maxsleep, 'a' est.count, space pause).
tt_keys :
tt_wait '^:$'
paste $'set est.count=5\nset pmd.maxsleep_us=700 \n'
tt_wait '^est 5 ests'
tt_wait 'maxsleep 700us slack 1000ns'
tt_wait 'pmd\.maxsleep_us = 700'
sleep 0.7 # a frame or two: a stray key would show by now
tt_cap | grep -q 'slack 1000ns' || fail "a pasted line was read as keys (slack changed)"
tt_cap | grep -q 'PAUSED' && fail "a pasted space paused the console"
tt_cap | grep -Eq '^:' && fail "the prompt stayed open after a paste that ended with a newline"
echo "ok   a two-line paste into ':' ran both lines as commands"

# A last line without a newline stays in the prompt to edit.
tt_keys :
paste 'set gen.rate_pps=30000'
tt_wait '^:set gen\.rate_pps=30000$'
tt_keys Enter
tt_wait '\(30000/src\)|/30\.0k: host took'
echo "ok   a paste without newline waits in the prompt"

# With no prompt open, a paste is not keys.
paste 'smaAg+ r'
tt_wait 'paste ignored'
tt_cap | grep -q 'slack 1000ns' || fail "a paste outside the prompt was read as keys"
tt_cap | grep -q '^est 5 ests' || fail "a paste outside the prompt changed est.count"
echo "ok   a paste with no prompt open changes nothing"

# Below 60x16: 'q' inside the open prompt is a letter.
tt_keys :
tt_wait '^:$'
tt_resize 50 12
tt_keys q
sleep 0.5
[ -s "$TT_DIR/rc" ] && fail "'q' typed into the prompt below 60x16 quit tunetop"
tt_resize 80 24
tt_wait '^:q$'
tt_keys Escape
tt_wait_gone '^:q$'
echo "ok   'q' in a prompt below 60x16 does not quit"

# A 4 MB paste with no prompt open is dropped in large reads: the keys answer at once after
# it (byte by byte through curses it held them for about 20 s).
python3 -c 'import sys; sys.stdout.write(("qQ:set mmmm sss aaa \n" * 200000)[:4 << 20])' >"$TT_DIR/big"
tt_tmux load-buffer "$TT_DIR/big"
end=$((SECONDS + 10)) # wall clock: tt_wait's count of polls stretches under load
tt_tmux paste-buffer -p
until tt_cap | grep -q 'paste ignored (4194304 bytes)'; do
	[ $SECONDS -lt $end ] || fail "a 4 MB paste held the console for more than 10 s"
	sleep 0.1
done
echo "ok   a 4 MB paste is dropped at once"

# A paste into ':' is used up to 16 KiB (1024 commands here), the rest dropped and said.
python3 -c 'import sys; sys.stdout.write("set est.count=7\n" * 6400)' >"$TT_DIR/cmds"
tt_tmux load-buffer "$TT_DIR/cmds"
tt_keys :
tt_wait '^:$'
tt_tmux paste-buffer -p
tt_wait 'paste cut: 86016 bytes past the first 16384 were dropped' 8
tt_wait '^est 7 ests'
tt_keys Escape
tt_wait_gone '^:'
echo "ok   a long paste into ':' is cut at 16 KiB"

tt_keys q
after_exit_paste_check q

# SIGTERM: the same clean exit.
tt_start 80 24 "$(wrap_paste -d 0.3 --scenario idle)"
tt_wait 'F10Quit'
kill -TERM "$(cat "$TT_DIR/pid")"
after_exit_paste_check SIGTERM
echo "all ok"
