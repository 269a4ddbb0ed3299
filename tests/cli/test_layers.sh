#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_layers.sh: layers only look down (docs/design.md "Layers"). The include checker passes
# on the tree, fails with FILE:LINE on a planted bad include of each kind, and the batch
# writer and experiments run from a binary linked without curses. The call checker passes on
# the objects and fails on a planted upward call, a planted console circle and a planted circle
# across two folders of one layer.
set -u
. "$(dirname "$0")/../lib/assert.sh"
top=${TT_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${TT_BUILD:-$top/build}
checker=$top/tests/layers/check_includes.py
pass() { ok "$*"; }
fail() { bad "$*"; finish; }

out=$(python3 "$checker" "$top") || fail "the tree breaks the include rules: $out"
pass "the tree keeps the include rules"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# plant FILE LINE-TEXT EXPECTED-MESSAGE-PART
plant() {
	rm -rf "$tmp/tree" && mkdir -p "$tmp/tree"
	(cd "$top" && tar cf - core engine backends tui bench) | (cd "$tmp/tree" && tar xf -)
	local file=$1 text=$2 want=$3 n
	n=$(grep -n '^#include' "$tmp/tree/$file" | tail -n 1 | cut -d: -f1)
	sed -i "${n}a $text" "$tmp/tree/$file"
	n=$((n + 1))
	out=$(python3 "$checker" "$tmp/tree") && fail "planted '$text' in $file: the checker passed"
	grep -q "^$file:$n: .*$want" <<<"$out" || fail "planted '$text' in $file:$n, got: $out"
	pass "planted '$text' in $file: caught at $file:$n"
}
plant engine/engine.c '#include "backends/source.h"' "engine/ may include only core, engine"
plant engine/est/est.c '#include "tui/console/ui.h"' "engine/ may include only"
plant core/knob.c '#include "engine/engine.h"' "core/ may include only core"
plant backends/host/host.c '#include "tui/options.h"' "backends/ may include only"
plant backends/host/host.c '#include "engine/engine.h"' "only backends/src_engine.c reaches the engine"
plant tui/batch.c '#include "engine/engine.h"' "tui/ may include only"
plant tui/snapjson.c '#include <curses.h>' "reaches curses"
plant tui/exp/experiment.c '#include "tui/console/ui.h"' "reaches curses (tui/exp/experiment.c -> tui/console/ui.h"
plant tui/exp/exp_ab.c '#include <curses.h>' "reaches curses"
plant tui/metrics/metrics.c '#include <curses.h>' "reaches curses"
plant tui/batch.c '#include "tui/console/ui_body.h"' "reaches curses (tui/batch.c -> tui/console/ui_body.h"

# Calls, at link level (nm over the objects): no layer calls up, and no two files call each
# other, directly or round a longer circle, inside a folder or across folders.
calls=$top/tests/layers/check_calls.py
objdir=$build/obj
[ -d "$objdir/tui/console" ] || fail "no $objdir (make builds it)"
out=$(python3 "$calls" "$objdir") || fail "the objects break the call rules: $out"
pass "no call goes up a layer; no circle of files"
# plant_obj DEST.o C-TEXT EXPECTED-LINE-PART: DEST.o in a copy of the objects gets one more
# function (linked into it with ld -r when it exists), and the checker must catch it.
plant_obj() {
	local dest=$1 text=$2 want=$3
	rm -rf "$tmp/obj" && mkdir -p "$tmp/obj"
	(cd "$objdir" && find . -name '*.o' | tar cf - -T -) | (cd "$tmp/obj" && tar xf -)
	printf '%s\n' "$text" >"$tmp/planted.c"
	cc -c -o "$tmp/planted.o" "$tmp/planted.c" || fail "cannot compile the planted call"
	mkdir -p "$(dirname "$tmp/obj/$dest")"
	if [ -e "$tmp/obj/$dest" ]; then
		ld -r -o "$tmp/merged.o" "$tmp/obj/$dest" "$tmp/planted.o" || fail "ld -r $dest"
		mv "$tmp/merged.o" "$tmp/obj/$dest"
	else
		mv "$tmp/planted.o" "$tmp/obj/$dest"
	fi
	out=$(python3 "$calls" "$tmp/obj" --every-object) && fail "planted a call in $dest: the checker passed"
	grep -qF -- "$want" <<<"$out" || fail "planted a call in $dest, got: $out"
	pass "planted a call in $dest: caught ($want)"
}
plant_obj backends/zz_planted.o 'int ui_status(void); int zz_up(void); int zz_up(void) { return ui_status(); }' \
	"backends/zz_planted.c -> tui/console/ui_knob.c: ui_status"
plant_obj core/knob.o 'int screen_run(void); int zz_up(void); int zz_up(void) { return screen_run(); }' \
	"core/knob.c -> tui/console/screen.c: screen_run"
plant_obj tui/snapjson.o 'int experiment_main(void); int zz_up(void); int zz_up(void) { return experiment_main(); }' \
	"tui/snapjson.c -> tui/exp/experiment.c: experiment_main"
# ui_draw.c -> ui_keys.c closes ui_keys.c -> ui_table.c -> ui_draw.c.
plant_obj tui/console/ui_draw.o 'int ui_keydef_find(void); int zz_up(void); int zz_up(void) { return ui_keydef_find(); }' \
	"cycle: "
grep -q 'tui/console/ui_draw.c -> tui/console/ui_keys.c: ui_keydef_find' <<<"$out" ||
	fail "the planted console cycle does not name its tie: $out"
# A circle across folders of one layer (no call goes up, so only the circle check sees it):
# host.c calls the knob writer (host_ovswrite_close), and the writer calling host_sample back
# closes it.
plant_obj backends/host/ovs/host_ovswrite.o 'int host_sample(void); int zz_back(void); int zz_back(void) { return host_sample(); }' \
	"cycle: backends/host/host.c backends/host/ovs/host_ovswrite.c"
grep -q 'backends/host/ovs/host_ovswrite.c -> backends/host/host.c: host_sample' <<<"$out" ||
	fail "the planted cross-folder cycle does not name its tie: $out"
out=$(python3 "$calls" "$tmp/obj" --every-object --list-cycles)
grep -qx 'backends/host/host.c <-> backends/host/ovs/host_ovswrite.c' <<<"$out" ||
	fail "--list-cycles does not list the planted circle: $out"
pass "--list-cycles lists every circle, across folders too"

# A front end asks the source (its source_ops flags), never its name or identity.
kindre='strcmp *\( *source_name|source_name *\([^)]*\) *[=!]=|ops->name|[=!]= *&source_[a-z_]+_ops|&source_[a-z_]+_ops *[=!]=|->ops *[=!]='
if out=$(cd "$top" && grep -rnE "$kindre" tui); then fail "a front end compares a source's name or ops: $out"; fi
pass "no front end compares a source's name or ops (source_ops flags instead)"

bin=$build/tests/layers/nocurses
[ -x "$bin" ] || fail "no $bin (make tests builds it)"
if ldd "$bin" 2>/dev/null | grep -q curses; then fail "nocurses links curses: $(ldd "$bin" | grep curses)"; fi
pass "the batch writer and experiments link without curses"
line=$("$bin" -b -n 1 -d 0.1 --scenario idle) || fail "nocurses -b failed"
python3 -c 'import json,sys; d=json.loads(sys.argv[1]); assert d["schema"]==1 and d["backend"]=="engine"' "$line" ||
	fail "nocurses -b wrote no snapshot: $line"
pass "nocurses -b writes a snapshot"
"$bin" experiment --help >/dev/null || fail "nocurses experiment --help failed"
pass "nocurses experiment runs"
finish
