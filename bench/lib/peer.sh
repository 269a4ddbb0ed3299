# SPDX-License-Identifier: GPL-2.0-or-later
# bench/lib/peer.sh, sourced by a bench (bench/run.sh runs only bench/*.sh, not this).
# bench_peer_install CMD [PACKAGE]: installs the Debian package (PACKAGE, or CMD) of a peer
# the bench compares against when CMD is missing; false when it is still missing.
bench_peer_install() {
	local cmd=$1 pkg=${2:-$1} sudo=""
	command -v "$cmd" >/dev/null && return 0
	[ "$(id -u)" = 0 ] || sudo=sudo
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "$pkg" >/dev/null 2>&1 || true
	command -v "$cmd" >/dev/null
}

# bench_peer CMD [PACKAGE]: the same, and the bench ends (0, a "skipped" line) without the
# peer: there is no ratio to print.
bench_peer() {
	bench_peer_install "$@" && return 0
	echo "$1 missing (apt-get install ${2:-$1}): skipped"
	exit 0
}
