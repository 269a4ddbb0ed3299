#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_install.sh: `make install PREFIX=... DESTDIR=...` puts the binary, the themes and the
# man page where they belong, and the installed binary runs and loads an installed theme; the
# exporter's systemd unit is installed (not enabled) with its hardening, it reads its listen
# address and arguments from /etc/default/tunetop-exporter (installed when absent, an edited one
# kept), and its command with that file's values serves; install-strip strips the binary, and
# uninstall removes what install put there but an edited settings file. The picture module is
# installed in PREFIX/lib/tunetop (not executable) and the installed binary finds it there. The
# recorder's unit is installed too (not enabled) and its command line records a store.
set -u
. "$(dirname "$0")/../lib/assert.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -C "$TT_TOP" --no-print-directory -s install BUILD="$TT_BUILD" PREFIX=/usr \
	DESTDIR="$tmp/root" >"$tmp/log" 2>&1
check "make install exits 0 ($(tail -n 3 "$tmp/log" | tr '\n' ' '))" test $? -eq 0
bin="$tmp/root/usr/bin/tunetop"
check "binary installed and executable" test -x "$bin"
check "man page installed" test -s "$tmp/root/usr/share/man/man1/tunetop.1"
check "bash completion installed" test -s "$tmp/root/usr/share/bash-completion/completions/tunetop"
for t in default mono light colorblind; do
	check "theme $t installed" test -s "$tmp/root/usr/share/tunetop/themes/$t.theme"
done
check "installed binary runs" "$bin" -V
mod="$tmp/root/usr/lib/tunetop/tunetop-cairo.so"
check "picture module installed in PREFIX/lib/tunetop" test -s "$mod"
check "picture module is not executable (a shared object, 644)" test "$(stat -c %a "$mod")" = 644
smod="$tmp/root/usr/lib/tunetop/tunetop-serve.so"
check "exporter module installed in PREFIX/lib/tunetop, 644" test "$(stat -c %a "$smod" 2>/dev/null)" = 644
lmod="$tmp/root/usr/lib/tunetop/tunetop-link.so"
check "link module installed in PREFIX/lib/tunetop, 644" test "$(stat -c %a "$lmod" 2>/dev/null)" = 644
links=$(env -u TUNETOP_LIBDIR "$bin" --host -b -n 1 -d 0.05 2>&1 | tail -n 1 |
	python3 -c 'import json,sys; print(len(json.load(sys.stdin)["host"]["links"]))' 2>&1)
check "installed binary reads the links through the installed link module ($links)" \
	sh -c "[ '$links' -ge 1 ] 2>/dev/null"
# The eBPF module, where the build has one (HAVE_BPF=1): installed beside it, found by the
# installed binary when the probe is asked for.
if [ -e "$TT_BUILD/tunetop-bpf.so" ]; then
	bmod="$tmp/root/usr/lib/tunetop/tunetop-bpf.so"
	check "eBPF module installed in PREFIX/lib/tunetop, 644" test "$(stat -c %a "$bmod" 2>/dev/null)" = 644
	why=$(env -u TUNETOP_LIBDIR "$bin" -b -n 1 -d 0.05 --set pmd.enabled=on --set pmd.sleep_probe=on 2>&1 |
		tail -n 1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["pmd"]["sleep_probe"]["error"])' 2>&1)
	check "installed binary finds the installed eBPF module ($why)" sh -c "! grep -q 'no eBPF module' <<EOT
$why
EOT"
fi
env -u TUNETOP_LIBDIR "$bin" experiment calib --governors performance --runs 1 --seconds 0.2 \
	--warmup 0.1 --png "$tmp/calib.png" >"$tmp/calib.log" 2>&1
check "installed binary draws a PNG through the installed module ($(tail -n 2 "$tmp/calib.log" | tr '\n' ' '))" \
	python3 -c "import sys; sys.exit(open('$tmp/calib.png','rb').read(8) != b'\\x89PNG\\r\\n\\x1a\\n')"
out=$("$bin" -b -n 1 -d 0.05 --scenario idle --theme "$tmp/root/usr/share/tunetop/themes/light.theme" 2>&1)
check "installed binary takes an installed theme file" test $? -eq 0
unit="$tmp/root/usr/lib/systemd/system/tunetop-exporter.service"
check "exporter unit installed" test -s "$unit"
exec_start=$(sed -n 's/^ExecStart=//p' "$unit")
check "unit runs the installed binary as a read-only host exporter ($exec_start)" \
	test "$exec_start" = '/usr/bin/tunetop --host --serve ${TUNETOP_EXPORTER_LISTEN} -b -o /dev/null $TUNETOP_EXPORTER_ARGS'
check "unit reads /etc/default/tunetop-exporter when it is there" \
	grep -qx 'EnvironmentFile=-/etc/default/tunetop-exporter' "$unit"
check "unit listens on 127.0.0.1:9464 without that file" \
	grep -qx 'Environment=TUNETOP_EXPORTER_LISTEN=127.0.0.1:9464 TUNETOP_EXPORTER_ARGS=' "$unit"
defaults="$tmp/root/etc/default/tunetop-exporter"
check "settings file installed" grep -qx 'TUNETOP_EXPORTER_LISTEN=127.0.0.1:9464' "$defaults"
for opt in DynamicUser=yes ProtectSystem=strict ProtectHome=yes NoNewPrivileges=yes PrivateTmp=yes \
	'RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK' CapabilityBoundingSet=; do
	check "unit hardening: $opt" grep -qx "$opt" "$unit"
done
check "unit is not enabled by make install" test ! -e "$tmp/root/etc/systemd/system/multi-user.target.wants/tunetop-exporter.service"
if command -v systemd-analyze >/dev/null; then
	# verify needs the binary at its ExecStart path: point a copy of the unit at the DESTDIR one.
	sed "s|/usr/bin/tunetop|$bin|" "$unit" >"$tmp/tunetop-exporter.service"
	out=$(systemd-analyze verify "$tmp/tunetop-exporter.service" 2>&1 | grep -v -e '^$' -e 'Cannot add dependency' -e 'No such file' -e 'Failed to open' -e "Command 'man ")
	check "systemd-analyze verify has nothing to say about the unit ($out)" test -z "$out"
fi
# The unit's command line with an edited settings file's values serves /metrics (on a free
# port instead of 9464); systemd expands ${X} as one word and $X split at spaces, as bash does.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
sed -i -e "s/^TUNETOP_EXPORTER_LISTEN=.*/TUNETOP_EXPORTER_LISTEN=127.0.0.1:$port/" \
	-e 's/^TUNETOP_EXPORTER_ARGS=.*/TUNETOP_EXPORTER_ARGS="-d 0.2 -n 600"/' "$defaults"
make -C "$TT_TOP" --no-print-directory -s install BUILD="$TT_BUILD" PREFIX=/usr \
	DESTDIR="$tmp/root" >"$tmp/log" 2>&1
check "a second make install keeps the edited settings file" grep -q "127.0.0.1:$port" "$defaults"
cmd=$(set -a; . "$defaults"; eval "args=(${exec_start/\/usr\/bin\/tunetop/})"; printf '%q ' "${args[@]}")
check "the settings reach the command line ($cmd)" test "$cmd" = "--host --serve 127.0.0.1:$port -b -o /dev/null -d 0.2 -n 600 "
# The installed binary finds the installed exporter module (not the build's).
eval "exec env -u TUNETOP_LIBDIR \"\$bin\" $cmd" 2>"$tmp/serve.err" &
pid=$!
got=""
for _ in $(seq 100); do
	got=$(python3 -c "import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:$port/metrics', timeout=2).read().decode())" 2>/dev/null) && [ -n "$got" ] && break
	sleep 0.1
done
kill "$pid" 2>/dev/null
wait "$pid"
check "the unit's command serves /metrics with backend host ($(head -c 300 "$tmp/serve.err"))" \
	grep -q 'backend="host"' <<<"$got"
# The recorder's unit: installed, not enabled, its settings file's values on the command line
# record into a store (a temporary one here instead of /var/log/tunetop).
runit="$tmp/root/usr/lib/systemd/system/tunetop-record.service"
check "recorder unit installed" test -s "$runit"
check "recorder unit is not enabled by make install" test ! -e "$tmp/root/etc/systemd/system/multi-user.target.wants/tunetop-record.service"
check "recorder unit reads /etc/default/tunetop-record" \
	grep -qx 'EnvironmentFile=-/etc/default/tunetop-record' "$runit"
check "recorder unit makes /var/log/tunetop 0750" sh -c "grep -qx 'LogsDirectory=tunetop' '$runit' && grep -qx 'LogsDirectoryMode=0750' '$runit'"
rdef="$tmp/root/etc/default/tunetop-record"
check "recorder settings: hourly, 28 days" sh -c "grep -qx 'TUNETOP_RECORD_ROTATE=1h' '$rdef' && grep -qx 'TUNETOP_RECORD_KEEP=28d' '$rdef'"
if command -v systemd-analyze >/dev/null; then
	sed "s|/usr/bin/tunetop|$bin|" "$runit" >"$tmp/tunetop-record.service"
	out=$(systemd-analyze verify "$tmp/tunetop-record.service" 2>&1 | grep -v -e '^$' -e 'Cannot add dependency' -e 'No such file' -e 'Failed to open' -e "Command 'man ")
	check "systemd-analyze verify has nothing to say about the recorder ($out)" test -z "$out"
fi
rexec=$(sed -n 's/^ExecStart=//p' "$runit")
cp "$rdef" "$tmp/rdef"
sed -i -e "s|^TUNETOP_RECORD_DIR=.*|TUNETOP_RECORD_DIR=$tmp/store|" \
	-e 's/^TUNETOP_RECORD_ARGS=.*/TUNETOP_RECORD_ARGS="-d 0.1 -n 5"/' "$tmp/rdef"
rcmd=$(set -a; . "$tmp/rdef"; eval "args=(${rexec/\/usr\/bin\/tunetop/})"; printf '%q ' "${args[@]}")
eval "\"\$bin\" $rcmd" >/dev/null 2>&1
check "the recorder's command line records a store ($rcmd)" \
	sh -c "ls '$tmp/store' | grep -qE '^tunetop-[0-9]{8}-[0-9]{6}\.jsonl\.zst\$'"
check "whose lines replay" test "$("$bin" --replay "$tmp/store" -b 2>/dev/null | wc -l)" -eq 5
check "man page renders" sh -c "man -l '$tmp/root/usr/share/man/man1/tunetop.1' >/dev/null 2>&1 || groff -man -Tascii '$tmp/root/usr/share/man/man1/tunetop.1' >/dev/null 2>&1 || ! command -v man >/dev/null"
# install-strip: the same tree with a binary without symbols; uninstall leaves the edited
# settings file only.
make -C "$TT_TOP" --no-print-directory -s install-strip BUILD="$TT_BUILD" PREFIX=/usr \
	DESTDIR="$tmp/strip" >"$tmp/log" 2>&1
rc=$?
check "make install-strip exits 0 ($(tail -n 3 "$tmp/log" | tr '\n' ' '))" test $rc -eq 0
check "install-strip: the binary has no symbol table" \
	sh -c "readelf -S '$tmp/strip/usr/bin/tunetop' >'$tmp/sections' && ! grep -q -e '\.symtab' -e '\.debug_info' '$tmp/sections'"
check "install-strip: the unstripped install has one" sh -c "readelf -S '$bin' | grep -q '\.symtab'"
check "install-strip: the picture module has no symbol table, its entry still exported" \
	sh -c "! readelf -S '$tmp/strip/usr/lib/tunetop/tunetop-cairo.so' | grep -q '\.symtab' &&
	nm -D --defined-only '$tmp/strip/usr/lib/tunetop/tunetop-cairo.so' | grep -q ' tunetop_pic_module\$'"
check "install-strip: the exporter module has no symbol table, its entry still exported" \
	sh -c "! readelf -S '$tmp/strip/usr/lib/tunetop/tunetop-serve.so' | grep -q '\.symtab' &&
	nm -D --defined-only '$tmp/strip/usr/lib/tunetop/tunetop-serve.so' | grep -q ' tunetop_serve_module\$'"
check "install-strip: the link module's entry still exported" \
	sh -c "nm -D --defined-only '$tmp/strip/usr/lib/tunetop/tunetop-link.so' | grep -q ' tunetop_link_module\$'"
if [ -e "$TT_BUILD/tunetop-bpf.so" ]; then
	check "install-strip: the eBPF module's entry still exported" \
		sh -c "nm -D --defined-only '$tmp/strip/usr/lib/tunetop/tunetop-bpf.so' | grep -q ' tunetop_bpf_module\$'"
fi
check "install-strip installs the man page" test -s "$tmp/strip/usr/share/man/man1/tunetop.1"
make -C "$TT_TOP" --no-print-directory -s uninstall PREFIX=/usr DESTDIR="$tmp/strip" >"$tmp/log" 2>&1
left=$(cd "$tmp/strip" && find . -type f | sort | tr '\n' ' ')
check "uninstall removes every file of an untouched install ($left)" test -z "$left"
make -C "$TT_TOP" --no-print-directory -s uninstall PREFIX=/usr DESTDIR="$tmp/root" >"$tmp/log" 2>&1
left=$(cd "$tmp/root" && find . -type f | sort | tr '\n' ' ')
check "uninstall keeps only the edited settings file ($left)" test "$left" = "./etc/default/tunetop-exporter "
finish
