# SPDX-License-Identifier: GPL-2.0-or-later
# tests/lib/maps.sh: what a running tunetop maps, for the tests that check a module's
# libraries are loaded only where they are used (docs/design.md "Modules"). Sourced after
# tests/tui/lib/tmux.sh and tests/lib/assert.sh.

# maps_objs PID: the shared objects PID maps, one a line.
maps_objs() { awk '$6 ~ /\.so/ {print $6}' "/proc/$1/maps" 2>/dev/null | sort -u; }

# maps_none LABEL PID REGEX WHAT: PID maps objects, none of them matching REGEX (WHAT names
# them in the check).
maps_none() {
	local o bad
	o=$(maps_objs "$2")
	check "$1: /proc/$2/maps was read ($(wc -l <<<"$o") objects)" test -n "$o"
	bad=$(grep -E "$3" <<<"$o" | tr '\n' ' ')
	check "$1 maps no $4 ($bad)" test -z "$bad"
}

# maps_none_engine REGEX WHAT: the engine's console (tmux, once drawn) and -b (once it wrote a
# snapshot) each map none of REGEX.
maps_none_engine() {
	local pid
	tt_start 100 30 "$(tt_wrap --scenario default)"
	tt_wait 'F10Quit' 20
	maps_none "the console" "$(cat "$TT_DIR/pid")" "$1" "$2"
	tt_keys q
	tt_wait_exit 10
	"$TUNETOP" -b -d 0.1 -n 600 --scenario idle >"$TT_DIR/b.out" 2>&1 &
	pid=$!
	for _ in $(seq 100); do [ -s "$TT_DIR/b.out" ] && break; sleep 0.1; done
	check "-b wrote a snapshot" test -s "$TT_DIR/b.out"
	maps_none "-b" "$pid" "$1" "$2"
	kill "$pid"
	wait "$pid" 2>/dev/null
}
