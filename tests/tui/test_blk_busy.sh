#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_blk_busy.sh: the blk view shows the interrupt CPU's busy time on blk-steer (docs/blk.md
# "The trade-off on two CPUs"), what blk-irq ran and what the host took of it, each % of the
# interval ("irq CPU busy 99% of interval: ran 90%, host took 9%"), at rq_affinity 0 and 2: in
# 5 frames per mode, each share within the interval and busy holding both ran and host took
# (within a point of rounding), whatever the machine's speed. At 80x24 and at 60x16, where the
# line still shows whole and the view's heading leaves a figure out with the cut marker rather
# than cutting it mid-word. How the share differs between the modes is a figure of speed:
# `make bench BENCH=blk`.
. "$(dirname "$0")/lib/tmux.sh"

busy_re='^irq CPU busy ([0-9]+)% of interval: ran ([0-9]+)%, host took ([0-9]+)%$'

# frames R: the busy line of 5 frames of the blk view at rq_affinity R, after the start-up's
# two, "busy ran took" each, in $TT_DIR/frames.R. A frame is told from the last by the view's
# heading (IOPS, latencies) and the line itself.
frames() {
	local r=$1 out=$TT_DIR/frames.$1 last='' cur n=-2 i=0
	: > "$out"
	while [ "$n" -lt 5 ] && [ "$i" -lt 300 ]; do
		cur=$(tt_cap | grep -E "^rq_affinity $r  |$busy_re" | tr '\n' '|')
		if [ "$cur" != "$last" ] && printf '%s' "$cur" | tr '|' '\n' | grep -Eq "$busy_re"; then
			# The start-up's intervals are left out, as in test_blk_tradeoff.py.
			[ "$n" -ge 0 ] && printf '%s' "$cur" | tr '|' '\n' | sed -nE "s/$busy_re/\\1 \\2 \\3/p" >> "$out"
			n=$((n + 1))
			last=$cur
		fi
		sleep 0.1
		i=$((i + 1))
	done
	cat "$out"
	[ "$n" -ge 5 ] || fail "rq_affinity $r: only $((n < 0 ? 0 : n)) frames with the busy line in 30 s"
}

# measure: both modes, one after the other; every frame's shares checked.
measure() {
	for r in 0 2; do
		tt_start 80 24 "$(tt_wrap -d 0.5 --scenario blk-steer --set blk.rq_affinity=$r)"
		tt_wait 'F10Quit'
		tt_keys 4
		tt_wait "^rq_affinity $r  " 10
		# The first interval has no baseline yet: the line says so with "-", never 0.
		tt_wait "$busy_re" 20
		frames "$r"
		while read -r busy ran took; do
			[ "$busy" -le 100 ] && [ "$took" -le "$busy" ] && [ "$ran" -le $((busy + 1)) ] ||
				fail "rq_affinity $r: busy $busy%, ran $ran%, host took $took% do not hold together"
		done <"$TT_DIR/frames.$r"
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
}
measure
echo PASS
