#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_picture_module.sh: cairo is loaded only where a picture is drawn (docs/design.md "The
# picture module"). The console (tmux, default scenario), -b and the exporter (--serve) map no
# libX11, libxcb or libcairo; `experiment sweep --png --svg` writes a PNG (its magic bytes)
# and an SVG (parsed) through the module found beside the binary or by TUNETOP_LIBDIR; with
# TUNETOP_LIBDIR an empty directory the picture request fails with exit 1 and a message that
# names the module, before any pass and without a file, while `-b -n 1` still works.
. "$(dirname "$0")/../tui/lib/tmux.sh"
. "$(dirname "$0")/../lib/assert.sh"
build=${TT_BUILD:-$(dirname "$TUNETOP")}

. "$(dirname "$0")/../lib/maps.sh"
cairo='libX11|libxcb|libcairo'
maps_clean() { maps_none "$1" "$2" "$cairo" "libX11, libxcb or libcairo"; }
maps_none_engine "$cairo" "libX11, libxcb or libcairo"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$TUNETOP" --serve "127.0.0.1:$port" -b -o /dev/null -d 0.1 -n 600 --scenario idle 2>/dev/null &
pid=$!
got=""
for _ in $(seq 100); do
	got=$(python3 -c "import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:$port/metrics', timeout=2).read().decode())" 2>/dev/null) && [ -n "$got" ] && break
	sleep 0.1
done
check "the exporter served /metrics" test -n "$got"
maps_clean "the exporter" "$pid"
kill "$pid"; wait "$pid" 2>/dev/null

# Pictures through the module: found beside the binary, then by TUNETOP_LIBDIR.
sweep=(experiment sweep --maxsleep 0 --slack 1000 --rate 20000 --passes 1 --seconds 0.2 --host-took-limit 100
	--warmup 0.1 --scenario pmd-light)
pictures_ok() {
	local label=$1 png=$TT_DIR/$2.png svg=$TT_DIR/$2.svg
	check "$label: PNG written" test -s "$png"
	check "$label: the PNG starts with its signature" \
		python3 -c "import sys; sys.exit(open('$png','rb').read(8) != b'\\x89PNG\\r\\n\\x1a\\n')"
	check "$label: the SVG parses as an svg element 900 wide" python3 -c "
import sys, xml.etree.ElementTree as ET
r = ET.parse('$svg').getroot()
sys.exit(not (r.tag.endswith('svg') and r.get('width', '').startswith('900')))"
}
out=$(env -u TUNETOP_LIBDIR "$TUNETOP" "${sweep[@]}" --png "$TT_DIR/a.png" --svg "$TT_DIR/a.svg" 2>&1)
check "sweep --png --svg exits 0 with the module beside the binary (${out: -200})" test $? -eq 0
pictures_ok "beside the binary" a
out=$(TUNETOP_LIBDIR=$build "$TUNETOP" "${sweep[@]}" --png "$TT_DIR/b.png" --svg "$TT_DIR/b.svg" 2>&1)
check "sweep --png --svg exits 0 with TUNETOP_LIBDIR=$build (${out: -200})" test $? -eq 0
pictures_ok "TUNETOP_LIBDIR" b

# No module: the picture request fails (1) before any pass, the rest works.
nopass() { ! grep -q 'pass [0-9]' <<<"$1"; }
mkdir "$TT_DIR/empty"
for opt in --png --svg; do
	err=$(TUNETOP_LIBDIR=$TT_DIR/empty "$TUNETOP" "${sweep[@]}" "$opt" "$TT_DIR/none.${opt#--}" 2>&1)
	rc=$?
	check "$opt without the module exits 1 (got $rc: $err)" test $rc -eq 1
	check "$opt without the module says so ($err)" \
		grep -q "tunetop: experiment: $opt: no picture module (TUNETOP_LIBDIR=$TT_DIR/empty): .*tunetop-cairo.so" <<<"$err"
	check "$opt without the module runs no pass ($err)" nopass "$err"
	check "$opt without the module leaves no file" test ! -e "$TT_DIR/none.${opt#--}"
done
line=$(TUNETOP_LIBDIR=$TT_DIR/empty "$TUNETOP" -b -n 1 -d 0.1 --scenario idle 2>&1)
check "-b -n 1 works without the module (${line:0:120})" \
	python3 -c "import json, sys; json.loads(sys.argv[1])" "$line"
finish
