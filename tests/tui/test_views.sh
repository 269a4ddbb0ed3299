#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_views.sh: the detail views read right: the est view's kthreads table has its figures
# under their headings and the tick-time histogram labels its buckets as ranges; scrolling
# a view past its end is not stored, so one key back moves it again (events and est); the
# function bar keeps F10Quit at 60 columns; the help shows each knob's whole description.
. "$(dirname "$0")/lib/tmux.sh"

# The lines of the view body: under the 5 header lines (title, one meter row for the default
# 2 CPUs, est, pmd, blk), above the status, self-cost and function bar lines.
# The view's body: below the header (and below the diagnosis line, when a finding is active:
# on a loaded machine host.cpu_taken may be), above the frozen line and the function bar.
body() {
	tt_cap | sed -n "6,$(($(tt_tmux display -p '#{pane_height}') - 3))p" |
		sed -E '1{/^(critical|warning|info) [a-z]+\.[a-z_]+: /d}'
}
# settled [PREV]: the body once two captures 0.2 s apart agree and, given PREV, differ from it
# (the key's effect drawn), polled for up to 10 s rather than a fixed wait: a frozen view
# holds still, and a console under a sanitizer on a loaded machine draws late.
settled() {
	local a b i=0
	[ $# -eq 0 ] && sleep 0.6 # no change to wait for: at least the old fixed wait
	b=$(body)
	while [ "$i" -lt 50 ]; do
		sleep 0.2
		a=$b
		b=$(body)
		[ "$a" = "$b" ] && { [ $# -eq 0 ] || [ "$b" != "$1" ]; } && break
		i=$((i + 1))
	done
	printf '%s\n' "$b"
}

tt_start 80 24 "$(tt_wrap -d 0.3 --scenario default)"
tt_wait 'F10Quit'
tt_keys 2
tt_wait '^kthreads +KT +ESTS +ROWS +FULL +CPU%'
tt_wait '^ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+\.[0-9]$'
# Right-aligned columns: each heading's last letter sits over its figure's last digit.
cap=$(tt_cap)
head=$(echo "$cap" | grep -m1 '^kthreads +KT')
row=$(echo "$cap" | grep -A1 '^kthreads +KT' | sed -n 2p)
for word in KT ESTS ROWS FULL 'CPU%'; do
	pre=${head%%"$word"*}
	e=$((${#pre} + ${#word} - 1))
	[ "${row:$e:1}" != ' ' ] && [ "${row:$((e + 1)):1}" = ' ' -o $((e + 1)) -ge ${#row} ] ||
		fail "kthreads column $word (ends at $e) not over its figure: '$head' / '$row'"
done
# Histogram buckets as ranges ("< 2.0us", "64.0us-128.0us", "1.02ms-2.05ms").
tt_wait '^ +(< [0-9.]+us|[0-9.]+(us|ms)-[0-9.]+(us|ms)) #+ +[0-9]+$'

# A short est view cannot scroll into nothing: End, then Up shows one line more at the top.
# Frozen, so the figures hold still between the captures.
tt_resize 60 16 # (waits for F10Quit on the last line)
tt_line 16 | grep -q 'F10Quit *$' || fail "function bar at 60 columns: $(tt_line 16)"
tt_keys Space
tt_wait '^frozen: '
tt_keys End
before=$(settled)
tt_keys Up
after=$(settled "$before")
[ "$(echo "$after" | sed -n 2p)" = "$(echo "$before" | sed -n 1p)" ] ||
	fail "est view: Up after End did not scroll back one line: before
$before
after
$after"
tt_resize 80 24
tt_keys Space
tt_wait '^live again$'

# Events: more events than lines (each knob key logs one), then far past the oldest.
tt_keys 3 # F8 / F7: the pmd view's knob, pmd.maxsleep_us
for _ in $(seq 12); do tt_keys F8 F7; done
# The last event is one no earlier key logs: once it shows, every key before it has been
# logged too (under a sanitizer the log may trail the keys by a second or more).
tt_keys F8 F8 5
tt_wait 'knob +pmd\.maxsleep_us: 1000 -> 2000' 20
tt_keys Space
tt_wait '^frozen: '
tt_keys Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up
tt_keys Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up
before=$(settled)
tt_keys Down
after=$(settled "$before")
[ "$(echo "$after" | head -1)" = "$(echo "$before" | sed -n 2p)" ] ||
	fail "events view: Down after scrolling past the oldest did not move: before
$before
after
$after"
tt_keys End
# The newest event at the bottom: the last knob event, followed by nothing or only by what no
# key logs (a diagnosis the machine's load set or cleared between the keys and the freeze, as
# "diag diagnosis host.cpu_taken cleared" did in CI).
newest_last() {
	local b
	b=$(body)
	grep -q 'pmd\.maxsleep_us: 1000 -> 2000$' <<<"$b" &&
		! sed -n '/pmd\.maxsleep_us: 1000 -> 2000$/,$p' <<<"$b" | sed 1d | grep -Evq '^[0-9:]+ diag '
}
i=0
until newest_last; do
	[ "$i" -lt 80 ] || fail "End did not show the newest event"
	sleep 0.1
	i=$((i + 1))
done

# The help says what each knob does, whole, at 80 columns: wrapped under the knob's line.
tt_keys h
tt_wait '^Keys \(htop'
tt_keys End
tt_wait '^  host\.pid +0 +0 to 4194304 pid$'
tt_wait '^ +--host: also follow every thread of this process \(0 = none\)$'
tt_wait '^ +submit polled IO \(REQ_POLLED, fio hipri\): never steered, completed$'
tt_wait '^ +directly$'
tt_keys Escape
tt_wait_gone '^Keys \(htop'

tt_keys q
tt_wait_exit
grep -q 'rc=0' "$TT_DIR/rc" || fail "exit status $(cat "$TT_DIR/rc")"
tt_check_sane

# A view key and End in one read (typed fast, pasted): End goes to the new view's end, not
# to where the previous view ended. 32 emulated CPUs: the blk view's per-CPU rows scroll.
rm -f "$TT_DIR/rc" "$TT_DIR/after"
tt_start 80 24 "$(tt_wrap -d 0.3 --scenario default --set cpu.count=32)"
tt_wait 'F10Quit'
tt_keys 4 End
tt_wait '^ +31 +[0-9]+ '
tt_keys q
tt_wait_exit
grep -q 'rc=0' "$TT_DIR/rc" || fail "exit status $(cat "$TT_DIR/rc")"
echo ok
