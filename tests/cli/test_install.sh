#!/usr/bin/env bash
# test_install.sh: `make install PREFIX=... DESTDIR=...` puts the binary, the themes and the
# man page where they belong, and the installed binary runs and loads an installed theme.
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
for t in default mono light colorblind; do
	check "theme $t installed" test -s "$tmp/root/usr/share/tunetop/themes/$t.theme"
done
check "installed binary runs" "$bin" -V
out=$("$bin" -b -n 1 -d 0.05 --scenario idle --theme "$tmp/root/usr/share/tunetop/themes/light.theme" 2>&1)
check "installed binary takes an installed theme file" test $? -eq 0
check "man page renders" sh -c "man -l '$tmp/root/usr/share/man/man1/tunetop.1' >/dev/null 2>&1 || groff -man -Tascii '$tmp/root/usr/share/man/man1/tunetop.1' >/dev/null 2>&1 || ! command -v man >/dev/null"
finish
