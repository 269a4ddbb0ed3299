# SPDX-License-Identifier: GPL-2.0-or-later
# tests/tui/lib/golden.sh: golden screens (sourced after lib/tmux.sh by tests/tui/test_golden*.sh):
# a replay run to its end and a shot that compares the pane with tests/tui/golden/NAME.txt,
# character for character, or rewrites the file under TT_GOLDEN_UPDATE=1 (`make golden`).
GOLD_DIR=$TT_TOP/tests/tui/golden
# A sed -E script applied to every capture before it is compared or written: a test sets it to
# blank the few fields that vary from run to run (none by default).
GOLD_MASK=${GOLD_MASK:-}

gold_cap() { tt_cap | sed -E -e "$GOLD_MASK"; }

# gold_replay W H ENV FILE ARGS...: replay FILE (a recording under tests/tui/data/) to its end in
# a WxH terminal with ENV (e.g. LANG=C.UTF-8) and ARGS, then wait for the end-of-recording
# message to fade (5 s), so that every shot is of the same frozen last sample.
gold_replay() {
	local w=$1 h=$2 env=$3 file=$4 base
	shift 4
	base=$(basename "$file")
	# export: an assignment in front of the wrapper's first word (a builtin) would not reach
	# tunetop.
	tt_start "$w" "$h" "export TZ=UTC $env TERM=xterm-256color; $(tt_wrap --replay "$file" "$@")"
	# The status line may be cut at a narrow width: match its start only.
	tt_wait "replay ${base//./\\.} ([0-9]+)/\\1 \\(end\\)" 15
	tt_wait_gone 'end of the recording' 10
}

# gold_steady: until two captures 0.5 s apart are the same, twice in a row (a frame drawn after
# the keys arrived), within 15 s.
gold_steady() {
	local a b i=0 same=0
	a=$(gold_cap)
	while [ "$i" -lt 30 ]; do
		sleep 0.5
		b=$(gold_cap)
		if [ "$a" = "$b" ]; then
			same=$((same + 1))
			[ "$same" -ge 2 ] && return 0
		else
			same=0
		fi
		a=$b
		i=$((i + 1))
	done
	fail "the screen did not settle"
}

# gold_shot NAME KEYS...: press KEYS, then wait until the (masked) pane equals
# $GOLD_DIR/NAME.txt (the frame may take a moment); on a mismatch, show the diff and fail.
# NAME may name a subfolder (60x16/overview). Under TT_GOLDEN_UPDATE=1, write the file from the
# settled pane instead.
gold_shot() {
	local name=$1 file i=0
	shift
	file=$GOLD_DIR/$name.txt
	[ $# -gt 0 ] && tt_keys "$@"
	if [ "${TT_GOLDEN_UPDATE:-0}" = 1 ]; then
		mkdir -p "$(dirname "$file")"
		gold_steady
		gold_cap > "$file"
		echo "wrote $file"
		return
	fi
	[ -f "$file" ] || fail "no $file (make golden)"
	while [ $i -lt 30 ]; do
		gold_cap | cmp -s - "$file" && { echo "ok $name"; return; }
		sleep 0.1
		i=$((i + 1))
	done
	gold_cap | diff -u "$file" - | head -40
	fail "screen $name differs from $file (run 'make golden' if the change is intended)"
}

# gold_views [DIR]: the replay's views and help, and a frozen sample two back, as [DIR/]NAME;
# then quits.
gold_views() {
	local d=${1:+$1/}
	gold_shot "${d}overview" 1
	gold_shot "${d}est" 2
	gold_shot "${d}pmd" 3
	gold_shot "${d}blk" 4
	gold_shot "${d}events" 5
	gold_shot "${d}help" F1
	tt_keys q
	gold_shot "${d}frozen" Space '[' '['
	tt_keys q
	tt_wait_exit 5
}
