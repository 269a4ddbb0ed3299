# SPDX-License-Identifier: GPL-2.0-or-later
# tests/tui/lib/tmux.sh: drive tunetop in a private tmux server (sourced by tests/tui/*.sh).
# Each test gets its own socket (-L) and temp dir; both go away on exit.
set -u
: "${TUNETOP:?TUNETOP must point at the binary under test}"
command -v tmux >/dev/null || { echo "tmux not installed"; exit 77; }
TT_SOCK_BASE="tt-tui-$$-$RANDOM"
TT_SOCK="$TT_SOCK_BASE-0"
TT_NSOCK=0
TT_DIR=$(mktemp -d /tmp/tt-tui.XXXXXX)
# The console's settings file (docs/settings.md): each start gets a fresh directory (tt_start),
# so a view or sort chosen in one run never reaches the next run's screen, nor the runner's
# ~/.config; a test about the settings sets TT_CONFIG to keep one directory across starts.
TT_CONFIG=${TT_CONFIG:-}
tt_tmux() { tmux -L "$TT_SOCK" -f /dev/null "$@"; }
tt_cleanup() {
	local i
	for i in $(seq 0 "$TT_NSOCK"); do
		tmux -L "$TT_SOCK_BASE-$i" kill-server 2>/dev/null
		rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$TT_SOCK_BASE-$i"
	done
	rm -rf "$TT_DIR"
}
trap tt_cleanup EXIT

fail() { echo "FAIL: $*"; echo "--- screen ($(tt_tmux display -p "#{pane_width}x#{pane_height}" 2>/dev/null)):"; tt_cap 2>/dev/null; exit 1; }

# tt_start W H COMMAND: a new detached session running COMMAND (a shell string).
tt_start() {
	local w=$1 h=$2; shift 2
	# A fresh server each time: a dying one refuses new sessions.
	tt_tmux kill-server 2>/dev/null
	# A previous run's exit status and terminal state must not stand for this run's.
	rm -f "$TT_DIR/rc" "$TT_DIR/after" "$TT_DIR/pid"
	TT_NSOCK=$((TT_NSOCK + 1))
	TT_SOCK="$TT_SOCK_BASE-$TT_NSOCK"
	export XDG_CONFIG_HOME="${TT_CONFIG:-$TT_DIR/config-$TT_NSOCK}"
	tt_tmux new -d -x "$w" -y "$h" "$*" || fail "tmux new"
}
tt_cap() { tt_tmux capture-pane -p; }
tt_line() { tt_cap | sed -n "${1}p"; }
# tt_wait REGEX [SECONDS]: until the screen matches (extended regex), else fail.
tt_wait() {
	local re=$1 t=${2:-8} i=0
	while [ "$i" -lt $((t * 10)) ]; do
		tt_cap | grep -Eq -- "$re" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	fail "timed out waiting for /$re/"
}
# tt_wait_gone REGEX [SECONDS]
tt_wait_gone() {
	local re=$1 t=${2:-8} i=0
	while [ "$i" -lt $((t * 10)) ]; do
		tt_cap | grep -Eq -- "$re" || return 0
		sleep 0.1
		i=$((i + 1))
	done
	fail "timed out waiting for /$re/ to go away"
}
tt_keys() { tt_tmux send-keys "$@"; }
# A shell command that records the terminal state around tunetop and the exit status.
# Usage: tt_start 80 24 "$(tt_wrap ARGS...)"; the pid of tunetop lands in $TT_DIR/pid.
tt_wrap() {
	printf '%s' "trap '' INT; stty -a > $TT_DIR/before; sh -c 'echo \$\$ > $TT_DIR/pid; exec $TUNETOP $*'; echo rc=\$? > $TT_DIR/rc; stty -a > $TT_DIR/after; echo EXITED; sleep 600"
}
# Wait for the wrapper to report tunetop's exit.
tt_wait_exit() {
	local t=${1:-8} i=0
	while [ "$i" -lt $((t * 10)) ]; do
		[ -s "$TT_DIR/rc" ] && [ -s "$TT_DIR/after" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	fail "tunetop did not exit"
}
# The terminal after tunetop: same stty settings, cursor visible, main screen, keypad off.
tt_check_sane() {
	# The size may differ (a resize test); every mode and control character must not.
	sed -i 's/rows [0-9]*; columns [0-9]*;//' "$TT_DIR/before" "$TT_DIR/after"
	cmp -s "$TT_DIR/before" "$TT_DIR/after" || { diff "$TT_DIR/before" "$TT_DIR/after"; fail "stty -a changed"; }
	local f
	f=$(tt_tmux display -p '#{cursor_flag} #{alternate_on} #{keypad_cursor_flag} #{mouse_any_flag}')
	[ "$f" = "1 0 0 0" ] || fail "terminal not restored: cursor_flag alternate_on keypad_cursor mouse = $f"
}
# tt_resize W H: resize, then wait until the program has drawn for the new size (tmux may
# apply a pane's new size to its pty a little later than the command returns).
tt_resize() {
	tt_tmux resize-window -x "$1" -y "$2"
	local i=0
	while [ "$i" -lt 80 ]; do
		if [ "$2" -ge 16 ] && [ "$1" -ge 60 ]; then
			tt_line "$2" | grep -q 'F10Quit' && return 0
		else
			tt_cap | grep -q 'terminal too small' && return 0
		fi
		sleep 0.1
		i=$((i + 1))
	done
	fail "no redraw for ${1}x${2}"
}
