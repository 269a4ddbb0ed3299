#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_idle_wakes.sh: an idle console sleeps until something is due, as top and htop do. At
# -d 30 the thread that reads keys and draws makes at most a handful of system calls over 3
# idle seconds (it polled every 100 ms before: about 30 polls and their checks), yet a resize
# is drawn at once and SIGTERM ends it at once, each woken by its signal's pipe (tui/sig.h).
# Skips (77) without strace or ptrace, and under TSan, whose own thread wakes the process.
. "$(dirname "$0")/lib/tmux.sh"

command -v strace >/dev/null || { echo "skip: no strace"; exit 77; }
case "${TT_BUILD:-}" in */tsan) echo "skip: TSan's background thread wakes the process"; exit 77 ;; esac
# LeakSanitizer cannot run in a process that was traced; the other ASan checks stay on.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

IDLE_S=3
MAX_CALLS=6
tt_start 80 24 "$(tt_wrap -d 30 --scenario idle)"
tt_wait 'F10Quit'
pid=$(cat "$TT_DIR/pid")
sleep 6 # past the start's status line and its fade (5 s), well before the next sample (30 s)
trace="$TT_DIR/trace"
# Without -f: the main thread only, the one that reads keys and draws.
strace -qq -o "$trace" -p "$pid" 2>"$TT_DIR/strace.err" &
st=$!
for _ in $(seq 100); do [ -e "$trace" ] && break; sleep 0.02; done
kill -0 "$st" 2>/dev/null || { echo "skip: strace cannot attach: $(tail -c 300 "$TT_DIR/strace.err")"; exit 77; }
sleep 0.3 # strace's attach interrupts the wait once (restart_syscall)
start=$(wc -l <"$trace")
sleep "$IDLE_S"
calls=$(tail -n +"$((start + 1))" "$trace" | grep -vE 'resumed>|^\+\+\+|^---|restart_syscall' || true)
kill -INT "$st"; wait "$st" 2>/dev/null
n=$(printf '%s' "$calls" | grep -c . || true)
echo "idle $IDLE_S s at -d 30: $n system calls on the console's thread"
printf '%s\n' "$calls" | head -8 | sed 's/^/   /'
[ "$n" -le "$MAX_CALLS" ] || fail "$n system calls in $IDLE_S idle seconds (at most $MAX_CALLS)"
echo "ok   idle: $n calls in $IDLE_S s"

# A resize is drawn at once, not at the next sample 30 s away.
t0=$(date +%s%N)
tt_tmux resize-window -x 100 -y 30
for _ in $(seq 30); do
	[ "$(tt_tmux display -p '#{pane_width}')" = 100 ] && tt_line 30 | grep -q 'F10Quit' && break
	sleep 0.1
done
tt_line 30 | grep -q 'F10Quit' || fail "resize not drawn within 3 s at -d 30"
echo "ok   resize drawn in $((($(date +%s%N) - t0) / 1000000)) ms"

# SIGTERM ends it at once, whichever thread the kernel gives the signal to.
t0=$(date +%s%N)
kill -TERM "$pid"
tt_wait_exit 3
echo "ok   SIGTERM: exited in $((($(date +%s%N) - t0) / 1000000)) ms"
grep -q 'rc=0' "$TT_DIR/rc" || fail "exit: $(cat "$TT_DIR/rc")"
echo "all ok"
