#!/usr/bin/env bash
# test_install.sh: `make install PREFIX=... DESTDIR=...` puts the binary, the themes and the
# man page where they belong, and the installed binary runs and loads an installed theme; the
# exporter's systemd unit is installed (not enabled) with its hardening, and its command serves.
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
out=$("$bin" -b -n 1 -d 0.05 --scenario idle --theme "$tmp/root/usr/share/tunetop/themes/light.theme" 2>&1)
check "installed binary takes an installed theme file" test $? -eq 0
unit="$tmp/root/usr/lib/systemd/system/tunetop-exporter.service"
check "exporter unit installed" test -s "$unit"
exec_start=$(sed -n 's/^ExecStart=//p' "$unit")
check "unit runs the installed binary as a read-only host exporter ($exec_start)" \
	test "$exec_start" = "/usr/bin/tunetop --host --serve 9464 -b -o /dev/null"
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
# The unit's command line itself serves /metrics (on a free port instead of 9464).
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$bin" --host --serve "$port" -b -o /dev/null -d 0.2 2>/dev/null &
pid=$!
got=""
for _ in $(seq 100); do
	got=$(python3 -c "import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:$port/metrics', timeout=2).read().decode())" 2>/dev/null) && [ -n "$got" ] && break
	sleep 0.1
done
kill "$pid" 2>/dev/null
wait "$pid"
check "the unit's command serves /metrics with backend host" grep -q 'backend="host"' <<<"$got"
check "man page renders" sh -c "man -l '$tmp/root/usr/share/man/man1/tunetop.1' >/dev/null 2>&1 || groff -man -Tascii '$tmp/root/usr/share/man/man1/tunetop.1' >/dev/null 2>&1 || ! command -v man >/dev/null"
finish
