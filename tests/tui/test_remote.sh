#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tt-sanitize: one reader thread per remote host beside the console
# test_remote.sh: --remote to two "hosts" (two real sshd on 127.0.0.1, aliases h1 and h2 in
# an ssh config given with --ssh "ssh -F ..."): the fleet view lists both; `m` on h2 changes
# only h2's max sleep (read back through the recorded JSON of each host); the link carries at
# most 1 KB/s per host at 1 s refresh; killing h1's sshd marks h1 down within 3 s while h2
# keeps updating; quitting leaves no `tunetop --agent` on the far side. First, at -d 30: hosts
# show as they come up and a knob key right after Down acts on the new host's own value.
. "$(dirname "$0")/lib/tmux.sh"

. "$(dirname "$0")/../lib/sshd.sh"
command -v ss >/dev/null || { echo "ss (iproute2) not installed"; exit 77; }

D=$SSHD_DIR
sshd_start 1
sshd_start 2
p1=${SSHD_PORT[1]}
p2=${SSHD_PORT[2]}
cat > "$D/config" <<CONF
Host h1
  HostName 127.0.0.1
  Port $p1
Host h2
  HostName 127.0.0.1
  Port $p2
Host *
  User root
  IdentityFile $D/user
  StrictHostKeyChecking no
  UserKnownHostsFile /dev/null
  LogLevel ERROR
CONF

mark=$((3000 + RANDOM % 5000))

# At -d 30: hosts show as they come up (each one's note takes a sample), and `m` right after
# Down steps h2 from its own value (500 -> 1000) and shows it at once (the agent sends a
# snapshot after a write), not from the defaults of a snapshot taken before any host
# answered (it went 0 -> 10), nor 30 s later.
tt_start 100 30 "$(tt_wrap --remote h1 --remote h2 --ssh "\"ssh -F $D/config\"" --agent-path "$TUNETOP" \
	-d 30 --set engine.watchdog_ms=$((mark + 1)))"
tt_wait '^h2 +up +performance' 15
tt_keys Down F8
tt_wait '^h2 +up .* 1000 +[0-9.]+s$' 5
tt_wait '^h1 +up .* 500 +[0-9.]+s$' 2
tt_keys q
tt_wait_exit 8
rm -f "$TT_DIR/rc" "$TT_DIR/after"

rec=$TT_DIR/fleet.jsonl
tt_start 100 30 "$(tt_wrap --remote h1 --remote h2 --ssh "\"ssh -F $D/config\"" --agent-path "$TUNETOP" \
	-d 1 --set engine.watchdog_ms=$mark --record "$rec")"
echo "t=$SECONDS: tt_wait '^h1 +up +performance'"
tt_wait '^h1 +up +performance' 20
tt_wait '^h2 +up +performance' 10
far=$(pgrep -f "^$TUNETOP --agent .*engine.watchdog_ms=$mark" | wc -l)
[ "$far" -eq 2 ] || fail "expected 2 agents on the far side, found $far"

# F8 (maxsleep in the fleet) on h2 only: the row under the cursor is the host knob keys act on.
tt_keys Down F8
echo "t=$SECONDS: tt_wait 'h2: pmd\.maxsleep_us "
tt_wait 'h2: pmd\.maxsleep_us = 1000' 5
tt_wait '^h2 +up .* 1000 +[0-9.]+s$' 5
tt_wait '^h1 +up .* 500 +[0-9.]+s$' 2
# Through the JSON: the last recorded line of each host.
sleep 1.2
python3 - "$rec" <<'PY' || fail "recorded JSON does not show h2 at 1000 and h1 at 500"
import json, sys
last = {}
for l in open(sys.argv[1]):
    o = json.loads(l)
    last[o["host"]] = o
ms = {h: (o["knobs"]["pmd.maxsleep_us"], o["pmd"]["maxsleep_us"]) for h, o in last.items()}
print("max sleep by host:", ms)
sys.exit(0 if ms == {"h1": (500, 500), "h2": (1000, 1000)} else 1)
PY

# Bytes over the link per host at 1 s refresh (TCP payload received by ssh, compressed).
rxbytes() { ss -tinH state established "( dport = :$1 )" | grep -o 'bytes_received:[0-9]*' | cut -d: -f2 | head -1; }
echo "t=$SECONDS: b0=(rxbytes"
b0=$(rxbytes "$p2"); t0=$(date +%s.%N)
sleep 10
b1=$(rxbytes "$p2"); t1=$(date +%s.%N)
rate=$(python3 -c "print(round(($b1 - $b0) / ($t1 - $t0)))")
echo "link h2: $rate B/s over 10 s at -d 1"
[ "$rate" -le 1024 ] || fail "link carries $rate B/s per host (limit 1024)"

# Kill h1's sshd (with its sessions): h1 is down within 3 s; h2 keeps updating.
n2=$(grep -c '"host":"h2"' "$rec")
echo "t=$SECONDS: sshd_kill 1"
sshd_kill 1
t=$SECONDS
tt_wait '^h1 +down ' 3
echo "h1 marked down after $((SECONDS - t)) s"
sleep 2
tt_wait '^h2 +up .* 0\.[0-9]s$' 2
[ "$(grep -c '"host":"h2"' "$rec")" -gt "$n2" ] || fail "h2 stopped updating when h1 went down"
tt_wait '^h1 +down .*retry in' 3

echo "t=$SECONDS: tt_keys q"
tt_keys q
tt_wait_exit 8
for _ in $(seq 50); do
	pgrep -f "^$TUNETOP --agent .*engine.watchdog_ms=$mark" >/dev/null || break
	sleep 0.1
done
echo "t=$SECONDS: left=(pgrep"
left=$(pgrep -af "^$TUNETOP --agent .*engine.watchdog_ms=$mark")
[ -z "$left" ] || fail "left behind on the far side: $left"
echo ok
