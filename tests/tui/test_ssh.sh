#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_ssh.sh: tunetop over a real ssh session (sshd on 127.0.0.1 with a throwaway host key and
# user key), driven by a key through `ssh -tt` in tmux; killing the ssh client must end
# tunetop (SIGHUP from the dropped pty) and leave no process behind.
. "$(dirname "$0")/lib/tmux.sh"

. "$(dirname "$0")/../lib/sshd.sh"

D=$SSHD_DIR
# A login with a terminal: no motd or last-login lines over the console's first screen, and
# the LANG a client sends (SendEnv) taken.
sshd_start 1 "PrintMotd no" "PrintLastLog no" "AcceptEnv LANG"
port=${SSHD_PORT[1]}

# A marker only this run's tunetop has on its command line, to find it on the far side.
mark=$((3000 + RANDOM % 5000))
remote="TERM=xterm-256color LANG=C.UTF-8 ASAN_OPTIONS=${ASAN_OPTIONS:-} exec $TUNETOP -d 0.3 --scenario default --set engine.watchdog_ms=$mark"
tt_start 80 24 "ssh -tt -i $D/user -p $port -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR root@127.0.0.1 '$remote'; echo ended > $TT_DIR/ssh-ended; sleep 600"
tt_wait '^ tunetop [0-9.]+ +up' 15
tt_wait 'F10Quit'
tt_keys 3 F8
tt_wait 'pmd\.maxsleep_us = 1000$'
tt_wait 'maxsleep 1000us'

pid=$(pgrep -f "^$TUNETOP .*engine.watchdog_ms=$mark" | head -1)
[ -n "$pid" ] || fail "tunetop not found on the server side"
nthreads=$(ls /proc/"$pid"/task | wc -l)
[ "$nthreads" -gt 3 ] || fail "expected engine threads, found $nthreads"
client=$(pgrep -f "^ssh -tt -i $D/user" | head -1)
[ -n "$client" ] || fail "ssh client not found"
kill -9 "$client"
# The shell notes the end in a file: a marker on screen can wrap after the shell's
# "Killed ..." line and never match.
for _ in $(seq 50); do
	[ -s "$TT_DIR/ssh-ended" ] && break
	sleep 0.1
done
[ -s "$TT_DIR/ssh-ended" ] || fail "the ssh client did not end 5 s after kill -9"
for _ in $(seq 50); do
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
kill -0 "$pid" 2>/dev/null && fail "tunetop ($pid) still running 5 s after the ssh client died"
left=$(pgrep -f "^$TUNETOP .*engine.watchdog_ms=$mark")
[ -z "$left" ] && echo "tunetop exited with $nthreads threads joined; nothing left" || fail "left behind: $left"
echo ok
