#!/usr/bin/env bash
# test_golden.sh: golden screens, as tmux's regress/ compares whole panes: the fixed recording
# tests/tui/data/replay8.jsonl replayed to its end in an 80x24 terminal, then every view and
# the help screen, each compared character for character with tests/tui/golden/NAME.txt.
# Nothing is masked: replay shows the recorded self cpu/render figures, times are the
# recording's (TZ=UTC), and the status line is captured after its message has faded.
# `make golden` (TT_GOLDEN_UPDATE=1) rewrites the files after an intended layout change.
. "$(dirname "$0")/lib/tmux.sh"

data=$TT_TOP/tests/tui/data/replay8.jsonl
gold=$TT_TOP/tests/tui/golden
export TZ=UTC LANG=C.UTF-8

tt_start 80 24 "TZ=UTC LANG=C.UTF-8 TERM=xterm-256color $(tt_wrap --replay "$data" --no-color)"
tt_wait 'replay replay8\.jsonl 8/8 \(end\)' 15
# The end-of-recording message fades after 5 s: the screens are taken without it.
tt_wait_gone 'end of the recording' 10

# shot NAME KEYS...: press KEYS, then wait until the pane equals the golden file (the
# frame may take a moment); on a mismatch, show the diff.
shot() {
	local name=$1 i=0; shift
	tt_keys "$@"
	if [ "${TT_GOLDEN_UPDATE:-0}" = 1 ]; then
		sleep 1
		tt_cap > "$gold/$name.txt"
		echo "wrote $gold/$name.txt"
		return
	fi
	[ -f "$gold/$name.txt" ] || fail "no $gold/$name.txt (make golden)"
	while [ $i -lt 30 ]; do
		tt_cap | cmp -s - "$gold/$name.txt" && { echo "ok $name"; return; }
		sleep 0.1
		i=$((i + 1))
	done
	tt_cap | diff -u "$gold/$name.txt" - | head -40
	fail "screen $name differs from $gold/$name.txt (run 'make golden' if the change is intended)"
}

mkdir -p "$gold"
shot overview 1
shot est 2
shot pmd 3
shot blk 4
shot events 5
shot help F1
tt_keys q
shot frozen Space '[' '['
tt_keys q
tt_wait_exit 5
echo ok
