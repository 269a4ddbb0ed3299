#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_help_figures.sh: ? in a view lists that view's figures from the figure table, each with
# its unit and base: in the pmd view asleep-t% reads as a % of the interval's wall time and
# busy% as a % of non-sleep cycles; in the est view ROWS and FULL are there; the keys stay.
. "$(dirname "$0")/lib/tmux.sh"

# help_find REGEX: page down through the help (Space) until REGEX shows; fails at the help's
# end (a page that no longer moves) or past 40 pages.
help_find() {
	local re=$1 n=0 before i
	while [ "$n" -lt 40 ]; do
		tt_cap | grep -Eq -- "$re" && return 0
		before=$(tt_cap)
		tt_keys Space
		i=0
		while [ "$(tt_cap)" = "$before" ]; do
			[ "$i" -lt 30 ] || fail "help never showed /$re/ (its end reached)"
			sleep 0.1
			i=$((i + 1))
		done
		n=$((n + 1))
	done
	fail "help never showed /$re/"
}

tt_start 80 24 "$(tt_wrap -d 0.3 --scenario default)"
tt_wait 'F10Quit'
tt_keys 3
tt_wait '^PMD +rx pps'
tt_keys '?'
tt_wait 'help: Esc'
tt_wait '^  F1 h \? +this help'
help_find '^Figures of the pmd view \(3\)'
# In the table's order (help_find only pages forward): busy% comes before asleep-t%.
help_find '^  busy% +% of its non-sleep cycles'
help_find '^  asleep-t% +% of the interval.s wall time'
tt_keys q
tt_wait '^PMD +rx pps'

tt_keys 2
tt_wait '^kthreads +KT'
tt_keys '?'
tt_wait 'help: Esc'
help_find '^Figures of the est view \(2\)'
help_find '^  ROWS +count, of 50 rows'
# The header's figures follow the view's: kt is explained in every view.
help_find '^  kt +running/max'
tt_keys q
tt_wait '^kthreads +KT'
tt_keys q
tt_wait_exit
echo "ok: ? lists the view's figures with their units and bases"
