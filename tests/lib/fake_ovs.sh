# SPDX-License-Identifier: GPL-2.0-or-later
# fake_ovs.sh: what every test against the python3 fake OVS (fake_ovs.py) starts with.
# Usage, after assert.sh: . "$(dirname "$0")/../lib/fake_ovs.sh" TAG
# Skips (77) without python3; sets here (the test's folder), fake (the server's path), dir (a
# fresh /tmp/TAG.XXXXXX) and pids; traps EXIT with cleanup, which stops every fake (a stopped
# one is continued first), ends a tmux session of tests/tui/lib/tmux.sh if one was started,
# and removes dir. A test that sources tmux.sh afterwards sets `trap cleanup EXIT` again.
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)
fake=$here/../lib/fake_ovs.py
dir=$(mktemp -d "/tmp/${1:-tt-ovs}.XXXXXX")
pids=()
cleanup() {
	for p in "${pids[@]}"; do
		kill -CONT "$p" 2>/dev/null
		kill "$p" 2>/dev/null
	done
	[ -n "${TT_DIR:-}" ] && tt_cleanup
	rm -rf "$dir"
}
trap cleanup EXIT

# start_fake NAME MODE [VAR=VALUE...]: a fake server at $dir/NAME.sock in MODE (fake_ovs.py
# lists them) with VAR=VALUE in its environment, its pid in $last, ready when this returns.
start_fake() {
	local name=$1 mode=$2
	shift 2
	rm -f "$dir/$name.ready"
	env "$@" python3 "$fake" "$dir/$name.sock" "$mode" "$dir/$name.ready" &
	last=$!
	pids+=("$last")
	for _ in $(seq 400); do [ -f "$dir/$name.ready" ] && return 0; sleep 0.05; done
	bad "fake server $name ($mode) did not start"
	finish
}
