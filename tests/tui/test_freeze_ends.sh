#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_freeze_ends.sh: the ends of the frozen history, as htop's and atop's history behave:
# } or ] past the newest sample goes live again and says so; a { that lands on the oldest
# sample kept stays there and says so at once, and so does every { after it.
. "$(dirname "$0")/lib/tmux.sh"

tt_start 100 30 "$(tt_wrap -d 0.3 --scenario default)"
tt_wait 'F10Quit'
# The first sample: "pmd 19.2k pps", or "pmd offered 18.9k/20.0k: host took 6%" when the
# host took enough to show (that depends on the machine's load, so either will do).
tt_wait '^pmd (offered )?[0-9]'
# label: the frozen sample's place "K/N", or nothing when live.
label() { tt_cap | grep -oE '  FROZEN [0-9]+/[0-9]+ ' | grep -oE '[0-9]+/[0-9]+'; }

# } from the newest, and from three back (a big step that passes it): live, and said.
for keys in "Space }" "Space [ [ [ }" "Space ]"; do
	# shellcheck disable=SC2086
	tt_keys $keys
	tt_wait '^past the newest sample: live again' 5
	tt_wait '  LIVE ' 5
	echo "ok   $keys: past the newest sample: live again"
	tt_keys Escape
	tt_wait_gone '^past the newest sample' 8
done

# { until the oldest: the press that lands there says so, before any further press.
sleep 1 # (a few more samples in the window than one big step)
tt_keys Space
tt_wait '  FROZEN [0-9]+/[0-9]+ '
tt_wait_gone '^frozen: ' 8
n=0
while :; do
	before=$(label)
	tt_keys '{'
	for _ in $(seq 50); do [ "$(label)" != "$before" ] && break; sleep 0.1; done
	n=$((n + 1))
	[ "$n" -gt 100 ] && fail "{ never reached the oldest sample"
	case $(label) in
	1/*) break ;;
	"$before") fail "{ did not move from $before" ;;
	esac
	tt_cap | grep -q '^the oldest sample kept' && fail "oldest said at $(label)"
done
tt_wait '^the oldest sample kept \([0-9]+ in the window\)' 2
echo "ok   { landed on the oldest ($(label)) after $n presses and said so"
tt_keys '{'
tt_wait '^the oldest sample kept' 2
[[ "$(label)" == 1/* ]] || fail "moved off the oldest: $(label)"
echo "ok   { at the oldest stays there ($(label))"

tt_keys q
tt_wait_exit 5
grep -q 'rc=0' "$TT_DIR/rc" || fail "exit: $(cat "$TT_DIR/rc")"
echo "all ok"
