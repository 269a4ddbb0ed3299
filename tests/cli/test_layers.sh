#!/usr/bin/env bash
# test_layers.sh: layers only look down (docs/design.md "Layers"). The include checker passes
# on the tree, fails with FILE:LINE on a planted bad include of each kind, and the batch
# writer and experiments run from a binary linked without curses.
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
plant backends/host.c '#include "tui/options.h"' "backends/ may include only"
plant backends/host.c '#include "engine/engine.h"' "only backends/src_engine.c reaches the engine"
plant tui/batch.c '#include "engine/engine.h"' "tui/ may include only"
plant tui/snapjson.c '#include <curses.h>' "reaches curses"
plant tui/exp/experiment.c '#include "tui/console/ui.h"' "reaches curses (tui/exp/experiment.c -> tui/console/ui.h"
plant tui/exp/exp_ab.c '#include <curses.h>' "reaches curses"
plant tui/metrics/metrics.c '#include <curses.h>' "reaches curses"
plant tui/batch.c '#include "tui/console/ui_body.h"' "reaches curses (tui/batch.c -> tui/console/ui_body.h"

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
