#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tt-timeout: 1200
# tt-system: it installs the package system-wide with apt and purges it (make check-system)
# test_deb.sh: `dpkg-buildpackage -us -uc -b` on a copy of the tree builds a .deb that lintian
# passes with no error or warning; installed with apt, `tunetop --version` says the package's
# version, `man -w tunetop` finds the compressed page, the exporter's unit is there and
# disabled, /etc/default/tunetop-exporter is a conffile, the themes, examples and every doc
# the package's files point to are in place; tunetop depends on no cairo or X11 library, the
# picture module is in tunetop-pictures, and installed with it the binary draws a PNG;
# purged, they leave nothing. Skips (77) when not root, without dpkg-buildpackage, debhelper or
# lintian, or when a tunetop is already installed (it is not ours to replace).
set -u
. "$(dirname "$0")/../lib/assert.sh"
top=${TT_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
[ "$(id -u)" = 0 ] || { echo "not root: installing a package needs root"; exit 77; }
# The package builds its own release binary: a sanitizer run (make asan, make tsan) tests
# nothing more here, and pays a whole package build.
case "${TT_BUILD:-}" in */build/asan | */build/tsan)
	echo "the package is the release build: checked by make check, not under ${TT_BUILD##*/}"
	exit 77 ;;
esac
for tool in dpkg-buildpackage dh lintian; do
	command -v "$tool" >/dev/null || { echo "no $tool (make test-deps: dpkg-dev debhelper lintian)"; exit 77; }
done
if dpkg-query -W -f='${Status}' tunetop 2>/dev/null | grep -q installed || [ -e /usr/bin/tunetop ]; then
	echo "a tunetop is installed on this machine already; not replacing it"
	exit 77
fi
tmp=$(mktemp -d)
installed=0
cleanup() {
	if [ $installed = 1 ]; then
		DEBIAN_FRONTEND=noninteractive apt-get purge -y -q -o DPkg::Lock::Timeout=300 tunetop \
			tunetop-pictures >"$tmp/purge.log" 2>&1 ||
			dpkg --purge tunetop-pictures tunetop >>"$tmp/purge.log" 2>&1
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

# The tree as it stands (tracked and new files, not build/): the .deb lands in its parent.
mkdir "$tmp/tunetop"
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	(cd "$top" && git ls-files -z -co --exclude-standard |
		tar --null -T - --ignore-failed-read -cf - 2>/dev/null) | tar -C "$tmp/tunetop" -xf -
else
	tar -C "$top" --exclude=./build --exclude=./tunetop -cf - . | tar -C "$tmp/tunetop" -xf -
fi
rm -rf "$tmp/tunetop/build" "$tmp/tunetop/tunetop"
# Run from make (make check), MAKEFLAGS carries its command-line variables (BUILD=, SAN=):
# the package's own make must not inherit them.
(cd "$tmp/tunetop" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u BUILD -u SAN \
	DEB_BUILD_OPTIONS="parallel=2" dpkg-buildpackage -us -uc -b) \
	>"$tmp/build.log" 2>&1
rc=$?
check "dpkg-buildpackage -us -uc -b exits 0 ($(tail -n 5 "$tmp/build.log" | tr '\n' ' '))" test $rc -eq 0
deb=$(ls "$tmp"/tunetop_*.deb 2>/dev/null | head -n 1)
pics=$(ls "$tmp"/tunetop-pictures_*.deb 2>/dev/null | head -n 1)
check "a .deb was built ($(ls "$tmp" | tr '\n' ' '))" test -n "$deb"
check "the tunetop-pictures .deb was built" test -n "$pics"
[ -n "$deb" ] && [ -n "$pics" ] || finish

lintian --fail-on error,warning "$deb" "$pics" >"$tmp/lintian.log" 2>&1
rc=$?
check "lintian: no error or warning ($(grep -v 'root privileges' "$tmp/lintian.log" | tr '\n' ' '))" test $rc -eq 0

contents=$(dpkg-deb -c "$deb" | awk '{print $6}')
for f in ./usr/bin/tunetop ./usr/share/man/man1/tunetop.1.gz ./usr/share/doc/tunetop/copyright \
	./usr/share/tunetop/themes/default.theme ./lib/systemd/system/tunetop-exporter.service \
	./etc/default/tunetop-exporter ./usr/share/doc/tunetop/examples/tunetop-alerts.yml \
	./lib/systemd/system/tunetop-record.service ./etc/default/tunetop-record \
	./usr/share/doc/tunetop/examples/prometheus.yml ./usr/share/doc/tunetop/examples/grafana-dashboard.json \
	./usr/lib/tunetop/tunetop-serve.so ./usr/lib/tunetop/tunetop-link.so; do
	check "the .deb holds $f" grep -qx -- "$f" <<<"$contents"
done
# The docs the /etc/default files, the units and the man page point to (compressed or not).
for d in metrics recording settings reference json; do
	check "the .deb holds docs/$d.md" grep -Eqx -- "./usr/share/doc/tunetop/$d\.md(\.gz)?" <<<"$contents"
done
check "the picture module is in tunetop-pictures, not tunetop" \
	grep -qx ./usr/lib/tunetop/tunetop-cairo.so <<<"$(dpkg-deb -c "$pics" | awk '{print $6}')"
check "tunetop's own .deb has no picture module" \
	test "$(grep -c tunetop-cairo <<<"$contents")" = 0
depends=$(dpkg-deb -f "$deb" Depends)
check "tunetop depends on no cairo or X11 library ($depends)" \
	test "$(grep -Ec 'libcairo|libx11|libxcb|libfontconfig' <<<"$depends")" = 0
# The eBPF module where this machine builds one (libbpf, bpftool, clang and BTF here).
if [ -e "$top/${TT_BUILD##*/}/tunetop-bpf.so" ] || [ -e "$top/build/tunetop-bpf.so" ]; then
	check "the .deb holds ./usr/lib/tunetop/tunetop-bpf.so" grep -qx -- ./usr/lib/tunetop/tunetop-bpf.so <<<"$contents"
fi
if [ -f "$top/completion/tunetop.bash" ]; then
	check "the .deb holds the bash completion" \
		grep -qx ./usr/share/bash-completion/completions/tunetop <<<"$contents"
fi
dpkg-deb -e "$deb" "$tmp/control"
check "/etc/default/tunetop-exporter is a conffile" grep -qx /etc/default/tunetop-exporter "$tmp/control/conffiles"
check "/etc/default/tunetop-record is a conffile" grep -qx /etc/default/tunetop-record "$tmp/control/conffiles"

DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
	-o DPkg::Lock::Timeout=300 "$deb" >"$tmp/install.log" 2>&1
rc=$?
installed=1
check "apt-get install ./$(basename "$deb") exits 0 ($(tail -n 3 "$tmp/install.log" | tr '\n' ' '))" test $rc -eq 0
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
	-o DPkg::Lock::Timeout=300 "$pics" >"$tmp/install-pics.log" 2>&1
rc=$?
check "apt-get install ./$(basename "$pics") exits 0 ($(tail -n 3 "$tmp/install-pics.log" | tr '\n' ' '))" test $rc -eq 0
version=$(cd "$tmp/tunetop" && dpkg-parsechangelog -S Version)
out=$(/usr/bin/tunetop --version 2>&1)
check "tunetop --version says the package's version ($out, package $version)" \
	test "$out" = "tunetop ${version%%-*}"
out=$(man -w tunetop 2>&1)
check "man -w tunetop finds the compressed page ($out)" test "$out" = /usr/share/man/man1/tunetop.1.gz
if command -v systemctl >/dev/null; then
	out=$(systemctl is-enabled tunetop-exporter 2>&1)
	check "systemctl is-enabled tunetop-exporter says disabled ($out)" test "$out" = disabled
	out=$(systemctl is-enabled tunetop-record 2>&1)
	check "systemctl is-enabled tunetop-record says disabled ($out)" test "$out" = disabled
fi
if command -v systemd-analyze >/dev/null; then
	out=$(systemd-analyze verify /lib/systemd/system/tunetop-exporter.service 2>&1 |
		grep -v -e '^$' -e 'Cannot add dependency' -e 'No such file' -e 'Failed to open')
	check "systemd-analyze verify has nothing to say about the installed unit ($out)" test -z "$out"
	out=$(systemd-analyze verify /lib/systemd/system/tunetop-record.service 2>&1 |
		grep -v -e '^$' -e 'Cannot add dependency' -e 'No such file' -e 'Failed to open')
	check "systemd-analyze verify has nothing to say about the recorder unit ($out)" test -z "$out"
fi
out=$(/usr/bin/tunetop -b -n 1 -d 0.05 --scenario idle --theme light 2>&1 >/dev/null)
check "the installed binary runs with an installed theme ($out)" test $? -eq 0
env -u TUNETOP_LIBDIR /usr/bin/tunetop experiment calib --governors performance --runs 1 \
	--seconds 0.2 --warmup 0.1 --png "$tmp/calib.png" >"$tmp/calib.log" 2>&1
check "the installed binary draws a PNG through /usr/lib/tunetop ($(tail -n 2 "$tmp/calib.log" | tr '\n' ' '))" \
	python3 -c "import sys; sys.exit(open('$tmp/calib.png','rb').read(8) != b'\\x89PNG\\r\\n\\x1a\\n')"
# --serve through the installed exporter module: it says the port it serves on.
env -u TUNETOP_LIBDIR /usr/bin/tunetop --serve 127.0.0.1:0 -b -o /dev/null -d 0.1 -n 600 \
	--scenario idle 2>"$tmp/serve.err" &
pid=$!
for _ in $(seq 100); do grep -q 'serving /metrics' "$tmp/serve.err" && break; sleep 0.1; done
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
check "the installed binary serves through /usr/lib/tunetop/tunetop-serve.so ($(head -c 300 "$tmp/serve.err"))" \
	grep -q 'serving /metrics on port' "$tmp/serve.err"

DEBIAN_FRONTEND=noninteractive apt-get purge -y -q -o DPkg::Lock::Timeout=300 tunetop \
	tunetop-pictures >"$tmp/purge.log" 2>&1
rc=$?
check "apt-get purge tunetop tunetop-pictures exits 0 ($(tail -n 3 "$tmp/purge.log" | tr '\n' ' '))" test $rc -eq 0
[ $rc -eq 0 ] && installed=0
for f in /usr/bin/tunetop /etc/default/tunetop-exporter /lib/systemd/system/tunetop-exporter.service \
	/usr/share/tunetop /usr/lib/tunetop; do
	check "purged: $f is gone" test ! -e "$f"
done
finish
