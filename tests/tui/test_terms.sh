#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_terms.sh: every TERM the console supports, TERM=dumb refused, LANG=C, --ascii, NO_COLOR/--no-color and --mouse:
# the screen is whole (header, table, function bar on the last line), nothing but printable
# text lands on it, the colour depth follows the terminal, and q leaves a sane terminal.
. "$(dirname "$0")/lib/tmux.sh"

utf8=C.UTF-8
locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$' || utf8=en_US.UTF-8

# run LABEL ENV... -- ARGS...: start, check the frame, leave it running for more checks.
run() {
	local label=$1; shift
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	tt_start 80 24 "env ${envs[*]} sh -c '$(tt_wrap -d 0.3 "$@" | sed "s/'/'\\\\''/g")'"
	tt_wait '^ tunetop [0-9.]+ +up' || fail "$label: no title"
	tt_wait 'TID +NAME +SUBSYS'
	tt_wait '^ +[0-9]+ pmd-c:0 +pmd'
	local i=0
	until tt_line 24 | grep -q 'F1Help.*F10Quit'; do
		i=$((i + 1)); [ $i -gt 50 ] && fail "$label: function bar not on the last line"
		sleep 0.1
	done
	# Only printable characters: no stray escapes, no half sequences, no line-drawing letters.
	if tt_cap | LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]'; then fail "$label: control characters on screen"; fi
	if tt_cap | grep -Eq '\[\?[0-9]|\^\[|\[[0-9;]+m'; then fail "$label: escape sequence text on screen"; fi
	tt_line 1 | grep -q '^ tunetop' || fail "$label: title not on line 1"
}
quit() {
	tt_keys q
	tt_wait_exit
	grep -q 'rc=0' "$TT_DIR/rc" || fail "$1: exit $(cat "$TT_DIR/rc")"
	tt_check_sane
	rm -f "$TT_DIR/rc" "$TT_DIR/after"
}
# colours: what the SGR sequences on screen say about the depth in use.
colours() { tt_tmux capture-pane -p -e | grep -Eo $'\e\\[[0-9;]*m' | sort -u | tr '\n' ' '; }

for term in xterm-256color xterm screen tmux-256color linux vt100; do
	run "TERM=$term" TERM=$term LANG=$utf8 -- --scenario default
	c=$(colours)
	case $term in
	xterm-256color | tmux-256color)
		echo "$c" | grep -q '38;5;' || fail "$term: no 256-colour foreground in use: $c" ;;
	xterm | screen | linux)
		echo "$c" | grep -q '38;5;' && fail "$term: 256 colours on an 8-colour terminal: $c"
		echo "$c" | grep -Eq '\[(3[0-7]|[0-9;]*;3[0-7])(;|m)' || fail "$term: no 8-colour fallback: $c" ;;
	vt100)
		echo "$c" | grep -Eq '(\[|;)3[0-7](;|m)|38;5' && fail "$term: colour on vt100: $c" ;;
	esac
	[ "$(tt_tmux display -p '#{mouse_any_flag}')" = 0 ] || fail "$term: mouse on without --mouse"
	quit "$term"
done

# LANG=C and --ascii: the charts are ASCII too (pmd view has sparklines).
for mode in "LANG=C --" "LANG=$utf8 -- --ascii"; do
	set -- $mode
	run "$mode" TERM=xterm-256color "$@" --scenario default
	tt_keys 3
	tt_wait '^drop% '
	sleep 1
	if tt_cap | LC_ALL=C grep -q $'[\x80-\xff]'; then fail "$mode: non-ASCII on screen"; fi
	quit "$mode"
done
# In UTF-8 the same view draws braille graphs on a box-drawing axis.
run utf8 TERM=xterm-256color LANG=$utf8 -- --scenario default
tt_keys 3
tt_wait '^drop% pmd-c:0 .*CPU% pmd-c:0' 6
tt_wait '%┤.*[⡀⣀⣄⣤⣦⣶⣷⣿⢀⢠⢰⢸⡄⡆⡇]' 6
quit utf8

# NO_COLOR and --no-color: monochrome (attributes only), still readable: errors say "error:".
for how in "NO_COLOR=1 --" "TERM=xterm-256color -- --no-color"; do
	set -- $how
	run "$how" TERM=xterm-256color LANG=$utf8 "$@" --scenario default
	c=$(colours)
	echo "$c" | grep -Eq '38;5|(\[|;)(3[0-7]|4[0-7])(;|m)' && fail "$how: colour in use: $c"
	echo "$c" | grep -Eq '(\[|;)7(;|m)' || fail "$how: no reverse video for the headings: $c"
	tt_keys : 'set pmd.maxsleep_us=-1' Enter
	tt_wait '^error: pmd\.maxsleep_us: -1 is out of range'
	quit "$how"
done

# TERM=dumb cannot address the cursor: a clear error and exit 1, the terminal left as it was
# (it used to draw the function bar alone on a blank screen, and exit 0).
tt_start 80 24 "env TERM=dumb LANG=$utf8 sh -c '$(tt_wrap -d 0.3 --scenario default | sed "s/'/'\\\\''/g")'"
tt_wait_exit
grep -q 'rc=1' "$TT_DIR/rc" || fail "TERM=dumb: exit $(cat "$TT_DIR/rc"), not 1"
tt_wait 'TERM=dumb cannot move the cursor' 3
tt_check_sane
rm -f "$TT_DIR/rc" "$TT_DIR/after"

# --mouse turns mouse reporting on (and q turns it off again).
run mouse TERM=xterm-256color LANG=$utf8 -- --mouse --scenario default
[ "$(tt_tmux display -p '#{mouse_any_flag}')" = 1 ] || fail "--mouse: mouse reporting is off"
quit mouse
echo ok
