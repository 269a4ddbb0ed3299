#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_serve_module.sh: the exporter's libraries are loaded only with --serve (docs/design.md
# "Modules"). The console (tmux) and -b map no libmicrohttpd, gnutls, libyaml or libxcrypt;
# --serve maps them through tunetop-serve.so and answers /metrics. With TUNETOP_LIBDIR an
# empty directory, or one whose tunetop-serve.so is another module (wrong ABI), --serve exits
# 1 before any sample with a message naming the module, while -b -n 1 still works.
. "$(dirname "$0")/../tui/lib/tmux.sh"
. "$(dirname "$0")/../lib/assert.sh"
build=${TT_BUILD:-$(dirname "$TUNETOP")}
heavy='libmicrohttpd|libgnutls|libyaml|libcrypt\.so'

. "$(dirname "$0")/../lib/maps.sh"
maps_none_engine "$heavy|tunetop-serve" "libmicrohttpd, gnutls, libyaml, libxcrypt or tunetop-serve.so"

# --serve: the module and its libraries mapped, /metrics served.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$TUNETOP" --serve "127.0.0.1:$port" -b -o /dev/null -d 0.1 -n 600 --scenario idle 2>/dev/null &
pid=$!
got=""
for _ in $(seq 100); do
	got=$(python3 -c "import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:$port/metrics', timeout=2).read().decode())" 2>/dev/null) && [ -n "$got" ] && break
	sleep 0.1
done
check "the exporter served /metrics" grep -q '^tunetop_' <<<"$got"
o=$(maps_objs "$pid")
check "--serve maps tunetop-serve.so" grep -q 'tunetop-serve\.so' <<<"$o"
check "--serve maps libmicrohttpd" grep -q 'libmicrohttpd' <<<"$o"
kill "$pid"; wait "$pid" 2>/dev/null

# No module, and a module of another kind under its name: exit 1 before any sample.
mkdir "$TT_DIR/empty" "$TT_DIR/wrong"
cp "$build/tunetop-cairo.so" "$TT_DIR/wrong/tunetop-serve.so"
for d in empty wrong; do
	out=$(TUNETOP_LIBDIR=$TT_DIR/$d "$TUNETOP" --serve 127.0.0.1:0 -b -n 1 -d 0.1 \
		--scenario idle 2>"$TT_DIR/err")
	rc=$?
	err=$(cat "$TT_DIR/err")
	check "$d: --serve without the module exits 1 (got $rc: $err)" test $rc -eq 1
	check "$d: no snapshot was written (${out:0:80})" test -z "$out"
	check "$d: the message names the module ($err)" \
		grep -q "^tunetop: --serve: no exporter module (TUNETOP_LIBDIR=$TT_DIR/$d): .*tunetop-serve.so" <<<"$err"
done
check "wrong: the message says the ABI ($err)" grep -q 'not an exporter module of this tunetop (ABI [0-9]*)' <<<"$err"
line=$(TUNETOP_LIBDIR=$TT_DIR/empty "$TUNETOP" -b -n 1 -d 0.1 --scenario idle 2>&1)
check "-b -n 1 works without the module (${line:0:120})" \
	python3 -c "import json, sys; json.loads(sys.argv[1])" "$line"
finish
