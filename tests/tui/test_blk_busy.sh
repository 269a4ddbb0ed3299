#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_blk_busy.sh: the blk view shows the rq_affinity trade-off on blk-steer (docs/blk.md "The
# trade-off on two CPUs"): the interrupt CPU's busy time and what the host took of it, each % of
# the interval ("irq CPU busy 99% of interval: ran 90%, host took 9%"), near 100 at
# rq_affinity 0, where that CPU runs every completion, and lower at 2. Medians of 5 frames per
# mode. At 80x24 and at 60x16, where the line still shows whole and the view's heading leaves a
# figure out with the cut marker rather than cutting it mid-word. A host that takes over half
# of blk-irq's CPU measures itself, not the trade-off: exit 77 with the figures. A sanitizer's
# engine checks the layout only.
. "$(dirname "$0")/lib/tmux.sh"

busy_re='^irq CPU busy ([0-9]+)% of interval: ran ([0-9]+)%, host took ([0-9]+)%$'

# median: of the numbers on stdin, one a line.
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# frames R: the busy line of 5 frames of the blk view at rq_affinity R, after the start-up's
# two, "busy took" each, in $TT_DIR/frames.R. A frame is told from the last by the view's
# heading (IOPS, latencies) and the line itself.
frames() {
	local r=$1 out=$TT_DIR/frames.$1 last='' cur n=-2 i=0
	: > "$out"
	while [ "$n" -lt 5 ] && [ "$i" -lt 300 ]; do
		cur=$(tt_cap | grep -E "^rq_affinity $r  |$busy_re" | tr '\n' '|')
		if [ "$cur" != "$last" ] && printf '%s' "$cur" | tr '|' '\n' | grep -Eq "$busy_re"; then
			# The start-up's intervals are left out, as in test_blk_tradeoff.py.
			[ "$n" -ge 0 ] && printf '%s' "$cur" | tr '|' '\n' | sed -nE "s/$busy_re/\\1 \\3/p" >> "$out"
			n=$((n + 1))
			last=$cur
		fi
		sleep 0.1
		i=$((i + 1))
	done
	cat "$out"
	[ "$n" -ge 5 ] || fail "rq_affinity $r: only $((n < 0 ? 0 : n)) frames with the busy line in 30 s"
}

declare -A busy took
# measure: both modes, one after the other, into busy[] and took[].
measure() {
	for r in 0 2; do
		tt_start 80 24 "$(tt_wrap -d 0.5 --scenario blk-steer --set blk.rq_affinity=$r)"
		tt_wait 'F10Quit'
		tt_keys 4
		tt_wait "^rq_affinity $r  " 10
		# The first interval has no baseline yet: the line says so with "-", never 0.
		tt_wait "$busy_re" 20
		frames "$r"
		busy[$r]=$(cut -d' ' -f1 "$TT_DIR/frames.$r" | median)
		took[$r]=$(cut -d' ' -f2 "$TT_DIR/frames.$r" | median)
		# 60x16: the busy line whole, the heading's last figure whole before the marker.
		tt_resize 60 16
		tt_wait "$busy_re" 10
		head=$(tt_cap | grep -E "^rq_affinity $r  " | sed 's/ *$//')
		[ -n "$head" ] || fail "60x16: no heading"
		printf '%s\n' "$head" | grep -Eq '( [0-9.]+[kM]? IOPS| p[0-9]+ [0-9]+us| IPIs [0-9.]+[kM]?/s)( …)?$' ||
			fail "60x16: heading cut mid-word: '$head'"
		tt_keys q
		tt_wait_exit 10
		grep -q 'rc=0' "$TT_DIR/rc" || fail "exit: $(cat "$TT_DIR/rc")"
	done
	echo "rq_affinity 0: irq CPU busy ${busy[0]}%, host took ${took[0]}%;" \
		"rq_affinity 2: busy ${busy[2]}%, host took ${took[2]}% (medians of 5 frames)"
}
# A host that took over half of blk-irq's CPU: skip, with the figures.
check_took() {
	for r in 0 2; do
		if [ "${took[$r]}" -gt 50 ]; then
			echo "skip: the host took ${took[$r]}% of the interval from blk-irq at rq_affinity $r"
			exit 77
		fi
	done
}
measure
check_took
# Under a sanitizer the engine's own completion work fills the interrupt CPU at either mode
# (ASan: busy 98% at 0 and 100% at 2, host took 22%), so the figures measure the
# instrumentation, not the steering: the layout above is checked, the trade-off only in the
# release build, as in test_diag_threads.py.
case "${TT_BUILD:-}" in */build/asan | */build/tsan)
	echo "PASS (layout; the trade-off is compared only in the release build, not under ${TT_BUILD##*/})"
	exit 0 ;;
esac
# The modes are measured one after the other, so a load that came from elsewhere for one of
# them (seen in CI after the package test: busy 99% with host took 28% at 2, against 81-82%
# with 23-30% on a quiet machine) can fill the interrupt CPU at 2 as at 0: measured twice,
# both modes each time, and judged on the second when the first does not show the trade-off.
# A steering that did nothing fails both.
if [ "${busy[0]}" -lt 90 ] || [ "${busy[2]}" -ge "${busy[0]}" ]; then
	echo "no trade-off at the first measure: both modes again"
	measure
	check_took
fi
[ "${busy[0]}" -ge 90 ] || fail "irq CPU busy only ${busy[0]}% at rq_affinity 0"
[ "${busy[2]}" -lt "${busy[0]}" ] ||
	fail "irq CPU busy ${busy[2]}% at rq_affinity 2, not below ${busy[0]}% at 0"
echo PASS
