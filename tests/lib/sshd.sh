# SPDX-License-Identifier: GPL-2.0-or-later
# tests/lib/sshd.sh: private sshd daemons on 127.0.0.1 for a test that logs in over ssh
# (sourced by tests/tui/*.sh after lib/tmux.sh, whose $TT_DIR, fail and tt_cleanup it uses).
# Skips (77) without sshd, ssh, ssh-keygen or root. Makes $SSHD_DIR (0700) with a throwaway
# host key, a user key $SSHD_DIR/user whose public half is the only authorized key, and
# defines:
#   sshd_start N [CONFIG-LINE...]  start daemon N on a free port (SSHD_PORT[N]; its pid in
#                                  SSHD_PIDS[N]), the lines added to its sshd_config; returns
#                                  once it listens, else fail
#   sshd_kill N                    kill -9 daemon N with its sessions (a host that vanishes)
# Every daemon still there is killed on exit, before tt_cleanup.
SSHD=$(command -v sshd || echo /usr/sbin/sshd)
[ -x "$SSHD" ] || { echo "sshd not installed (make test-deps installs openssh-server)"; exit 77; }
command -v ssh >/dev/null || { echo "ssh not installed"; exit 77; }
command -v ssh-keygen >/dev/null || { echo "ssh-keygen not installed"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "needs root (sshd's privilege separation)"; exit 77; }

SSHD_DIR=$TT_DIR/ssh
SSHD_PIDS=()
SSHD_PORT=()
# kill -9 a process and its descendants (an sshd's sessions are its children), deepest first.
sshd_killtree() {
	local c
	for c in $(pgrep -P "$1"); do sshd_killtree "$c"; done
	kill -9 "$1" 2>/dev/null
}
sshd_kill() {
	[ -n "${SSHD_PIDS[$1]:-}" ] || return 0
	sshd_killtree "${SSHD_PIDS[$1]}"
	wait "${SSHD_PIDS[$1]}" 2>/dev/null
	unset "SSHD_PIDS[$1]"
}
# Set before any daemon starts: one that failed to listen must not outlive the test.
trap 'for sshd_n in "${!SSHD_PIDS[@]}"; do sshd_kill "$sshd_n"; done; tt_cleanup' EXIT

# /run/sshd: the privilege separation directory sshd insists on.
mkdir -p "$SSHD_DIR" /run/sshd
chmod 700 "$SSHD_DIR"
ssh-keygen -q -t ed25519 -N '' -f "$SSHD_DIR/host" || fail "host key"
ssh-keygen -q -t ed25519 -N '' -f "$SSHD_DIR/user" || fail "user key"
cp "$SSHD_DIR/user.pub" "$SSHD_DIR/authorized_keys"
chmod 600 "$SSHD_DIR/authorized_keys"

sshd_start() {
	local n=$1 port line
	shift
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	# StrictModes no: authorized_keys lives under /tmp (world-writable), which strict modes
	# refuse. ClientAlive*: a session whose client went silent is dropped within ~3 s.
	{
		cat <<CONF
Port $port
ListenAddress 127.0.0.1
HostKey $SSHD_DIR/host
AuthorizedKeysFile $SSHD_DIR/authorized_keys
PidFile $SSHD_DIR/sshd$n.pid
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
ClientAliveInterval 1
ClientAliveCountMax 2
CONF
		for line in "$@"; do printf '%s\n' "$line"; done
	} >"$SSHD_DIR/sshd$n.conf"
	"$SSHD" -f "$SSHD_DIR/sshd$n.conf" -D -e -E "$SSHD_DIR/sshd$n.log" &
	SSHD_PIDS[n]=$!
	SSHD_PORT[n]=$port
	for _ in $(seq 50); do
		python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null && return
		sleep 0.1
	done
	fail "sshd $n did not listen on $port"
}
