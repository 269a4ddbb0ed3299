#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tt-sanitize: the console and its sampler under a key storm
# test_soak.sh: a bounded random-key soak: a few hundred random keys (every key the console
# knows, plus random text) in fast bursts, with resizes down to 1x1 in between, some while a
# prompt or the help is open. The console must stay alive, draw a whole frame again at 80x24,
# quit on q and leave a sane terminal. The seed is printed so a failure can be replayed
# (TT_SOAK_SEED=N). Keys that would quit or load the shared machine are left out: q Q F10
# C-c C-\ C-z (exits), Enter (a ':' line of random text could set a knob to anything), and
# + = a (offered load and estimators only go up). The state is random, not the checks.
. "$(dirname "$0")/lib/tmux.sh"

seed=${TT_SOAK_SEED:-$(( ($$ + $(date +%s)) % 32768 ))}
echo "seed $seed"
RANDOM=$seed
nkeys=${TT_SOAK_KEYS:-300}

keys=(Up Down Left Right PageUp PageDown Home End Tab BTab Escape BSpace DC IC Space
	F1 F2 F3 F4 F5 F6 F7 F8 F9 F11 F12 C-u C-l C-a C-e C-w C-k
	1 2 3 4 5 h '?' / '\' : '<' '>' , . I n g m M s r - A c
	b d e f i j k l o p t u v w x y z '_' '|' '"' "'" '*' '#' '~' '%' '(' ')' '[' ']')
sizes=("1 1" "10 3" "59 15" "60 16" "61 17" "80 24" "132 40" "40 10" "200 60" "2 30" "300 2")

rm -f "$TT_DIR/rc" "$TT_DIR/after"
tt_start 80 24 "$(tt_wrap -d 0.2 --scenario default)"
tt_wait 'F10Quit'
pid=$(cat "$TT_DIR/pid")

sent=0
while [ "$sent" -lt "$nkeys" ]; do
	# A burst of 1..6 keys in one send-keys: as fast as key repeat, or faster.
	n=$((RANDOM % 6 + 1))
	burst=()
	for _ in $(seq "$n"); do burst+=("${keys[RANDOM % ${#keys[@]}]}"); done
	tt_keys -- "${burst[@]}" || fail "send-keys"
	sent=$((sent + n))
	if [ $((RANDOM % 12)) -eq 0 ]; then
		set -- ${sizes[RANDOM % ${#sizes[@]}]}
		tt_tmux resize-window -x "$1" -y "$2"
	fi
	# Mostly no pause; now and then long enough for a sample and a frame in that state.
	case $((RANDOM % 16)) in
	0 | 1 | 2) sleep 0.0$((RANDOM % 5)) ;;
	3) sleep 0.25 ;;
	esac
	kill -0 "$pid" 2>/dev/null || fail "tunetop died after $sent keys (seed $seed)"
done

# Back to a normal size and a known state: Esc closes a prompt or the help.
tt_tmux resize-window -x 80 -y 24
sleep 0.3
tt_keys Escape
sleep 0.1
tt_keys Escape
i=0
until tt_line 24 | grep -q 'F1Help.*F10Quit' && tt_line 1 | grep -q '^ tunetop'; do
	i=$((i + 1))
	[ $i -gt 50 ] && fail "no whole frame at 80x24 after the soak (seed $seed)"
	sleep 0.1
done
kill -0 "$pid" 2>/dev/null || fail "tunetop died (seed $seed)"
tt_keys q
tt_wait_exit 10
grep -q 'rc=0$' "$TT_DIR/rc" || fail "exit $(cat "$TT_DIR/rc") (seed $seed)"
tt_check_sane
kill -0 "$pid" 2>/dev/null && fail "process $pid still there"
echo ok
