#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_host_link_module.sh: libnl-route-3 (the interfaces' counters) is loaded only in host
# mode (docs/design.md "Modules"). The engine's console (tmux) and -b map neither it nor
# tunetop-link.so; --host maps them and reads the links, lo among them. With TUNETOP_LIBDIR an
# empty directory, or one whose tunetop-link.so is another module (wrong ABI), --host still
# runs and says why there are no links: links_ok false, links_error naming the module.
. "$(dirname "$0")/../tui/lib/tmux.sh"
. "$(dirname "$0")/../lib/assert.sh"
build=${TT_BUILD:-$(dirname "$TUNETOP")}

. "$(dirname "$0")/../lib/maps.sh"
maps_none_engine 'libnl-route|tunetop-link' "libnl-route-3 or tunetop-link.so"

# --host: the module and libnl-route mapped, the links read.
"$TUNETOP" --host -b -d 0.1 -n 600 >"$TT_DIR/h.out" 2>"$TT_DIR/h.err" &
pid=$!
for _ in $(seq 100); do [ -s "$TT_DIR/h.out" ] && break; sleep 0.1; done
o=$(maps_objs "$pid")
kill "$pid"; wait "$pid" 2>/dev/null
check "--host maps tunetop-link.so" grep -q 'tunetop-link\.so' <<<"$o"
check "--host maps libnl-route-3" grep -q 'libnl-route' <<<"$o"
links() { head -n 1 "$1" | python3 -c 'import json,sys; h=json.load(sys.stdin)["host"]; print(h["links_ok"], " ".join(l["name"] for l in h["links"]), "|", h["links_error"])'; }
got=$(links "$TT_DIR/h.out" 2>&1)
check "--host reads the links, lo among them, no error ($got)" grep -qE '^True .*\blo\b.*\| $' <<<"$got"

# No module, or another module under its name: host mode runs and says why.
mkdir -p "$TT_DIR/empty" "$TT_DIR/wrong"
cp "$build/tunetop-cairo.so" "$TT_DIR/wrong/tunetop-link.so"
for d in empty wrong; do
	# The wrong module is the picture module: dlclose() takes cairo's libraries away with
	# what their constructors allocated, which LeakSanitizer then reports as leaked from an
	# unknown module. Not tunetop's memory: leak checks are off for that run alone.
	leaks=1
	[ "$d" = wrong ] && leaks=0
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=$leaks" TUNETOP_LIBDIR="$TT_DIR/$d" \
		"$TUNETOP" --host -b -d 0.1 -n 1 >"$TT_DIR/$d.out" 2>"$TT_DIR/$d.err"
	rc=$?
	check "TUNETOP_LIBDIR=$d: --host -b -n 1 exits 0 (got $rc: $(head -c 300 "$TT_DIR/$d.err"))" test "$rc" -eq 0
	got=$(links "$TT_DIR/$d.out" 2>&1)
	check "TUNETOP_LIBDIR=$d: no links, and why ($got)" \
		grep -qE "^False  \\| no link module \\(TUNETOP_LIBDIR=$TT_DIR/$d\\): .*tunetop-link\\.so" <<<"$got"
done
finish
