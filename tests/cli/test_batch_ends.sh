#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tt-sanitize: remote readers and the exporter giving up and ending
# test_batch_ends.sh: every -b run with -n ends. With --remote (docs/reference.md "Agent,
# remote hosts and the fleet view"): a host that never gives a snapshot (here an "ssh" that
# cannot resolve it, as for an unknown name) is given up after 10 s plus one -d, named on stderr with ssh's reason, exit status 1.
# Without -n the run is the operator's to end: the host is tried again, never given up.
# With --serve and lines nobody reads (docs/metrics.md "Deploying the exporter"): -n COUNT
# samples every -d, scraped or not, and ends; the start message names the bind address.
set -u
. "$(dirname "$0")/../lib/assert.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/ssh" <<'SH'
#!/bin/sh
# A fake ssh: every host is unknown, as nosuchhost.invalid is.
echo "ssh: Could not resolve hostname: Name or service not known" >&2
exit 255
SH
chmod +x "$tmp/ssh"

start=$SECONDS
timeout 40 "$TUNETOP" --remote nosuchhost.invalid --ssh "$tmp/ssh" -b -n 1 -d 0.5 \
	> "$tmp/out" 2> "$tmp/err"
rc=$?
took=$((SECONDS - start))
check "an unreachable host with -b -n 1: exit status 1 (was $rc)" test "$rc" = 1
check "it ends within 15 s (took $took s)" test "$took" -le 15
check "no line on stdout" test ! -s "$tmp/out"
check "stderr names the host, the deadline and ssh's reason" \
	grep -Eq '^tunetop: nosuchhost.invalid: no snapshot in [0-9]+ s, given up.*Could not resolve' \
	"$tmp/err"
[ "$_tt_fail" = 0 ] || cat "$tmp/err"

# -n 0 (forever) is not bounded: the host is tried again as before (a "down" line a try, about
# 1 s apart), until a signal. One SIGINT, sent by the test, ends it with status 0. (Not
# `timeout -s INT`: it signals its whole process group as well, and that second SIGINT, landing
# while LeakSanitizer stopped the world at exit, hung an ASan build in 7 of 70 runs beside two
# busy loops; one kill from the test: 0 of 50.)
"$TUNETOP" --remote nosuchhost.invalid --ssh "$tmp/ssh" -b -d 0.5 >/dev/null 2>"$tmp/err0" &
pid=$!
wait_lines "$tmp/err0" 3 30
check "without -n, still running after three tries ($(grep -c ': down: ' "$tmp/err0") down lines)" \
	kill -0 "$pid"
kill -INT "$pid"
for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null && { bad "one SIGINT did not end it within 30 s"; kill -9 "$pid"; }
wait "$pid"
rc=$?
check "one SIGINT ends it: status 0 (was $rc)" test "$rc" = 0
check "without -n, no host given up" test "$(grep -c 'given up' "$tmp/err0")" = 0

start=$SECONDS
timeout 40 "$TUNETOP" --serve 127.0.0.1:0 -b -o /dev/null -n 5 -d 0.2 2> "$tmp/serr"
rc=$?
took=$((SECONDS - start))
check "--serve -b -o /dev/null -n 5 -d 0.2, never scraped: exit status 0 (was $rc)" test "$rc" = 0
check "it ends within 10 s (took $took s)" test "$took" -le 10
check "the start message names the bind address: $(head -n 1 "$tmp/serr")" \
	grep -Eq '^tunetop: serving /metrics on port [0-9]+ at 127\.0\.0\.1$' "$tmp/serr"
finish
