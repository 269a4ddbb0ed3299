#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tt-sanitize: remote hosts' reader threads under floods and garbage
# tt-serial: four far-side agents, each a whole engine, must each give a snapshot within the 10 s a host has before it is broken, and a flood must not starve the good host
# test_remote_hostile.sh: --remote against hostile far sides (tests/lib/fake_far.py as --ssh,
# no sshd): a flooding host does not starve a good one (-b lines, console keys); deltas that
# invent keys do not grow memory; schema 2, garbage, an over-long line, silence and a far-side
# usage error are "broken: <why>" (fleet view, -b stderr, -b exit 1), the usage error never
# tried again (the others after 30 s); a far side ignoring SIGTERM is killed and tried again; 1e308 values leave every
# section in the -b line; agent replies keep their error (invalid UTF-8, NUL); a host that
# begins with "-" is a usage error, ssh gets "--" before the host; --write reaches the far side.
. "$(dirname "$0")/lib/tmux.sh"

FAKE="python3 $(cd "$(dirname "$0")/../lib" && pwd)/fake_far.py"
export FAKE_BASE=$TT_DIR/base.json FAKE_LOG=$TT_DIR/starts FAKE_ARGV=$TT_DIR/argv
rem=("$TUNETOP" --ssh "$FAKE" --agent-path "$TUNETOP")
# wait_for SECONDS CMD...: until CMD succeeds, else 1.
wait_for() {
	local t=$1 i=0
	shift
	while [ "$i" -lt $((t * 10)) ]; do
		"$@" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
count() { grep -c "\"host\":\"$1\"" "$2" 2>/dev/null || true; }
rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }
"$TUNETOP" -b -n 1 -d 0.2 > "$FAKE_BASE" || fail "base snapshot"

# A host beginning with "-" is an option to ssh (-oProxyCommand=... runs a command): refused.
rc=0
timeout 10 "$TUNETOP" -b -n 1 --remote "-oProxyCommand=touch $TT_DIR/pwned" >/dev/null 2>"$TT_DIR/err" || rc=$?
[ "$rc" = 2 ] || fail "--remote -oProxyCommand=...: rc $rc, want 2 ($(cat "$TT_DIR/err"))"
grep -q 'not a host name' "$TT_DIR/err" || fail "no reason given: $(cat "$TT_DIR/err")"
[ ! -e "$TT_DIR/pwned" ] || fail "the ProxyCommand ran"

# --write reaches the far side, and ssh sees "--" just before the host.
rc=0
timeout 15 "${rem[@]}" -b -n 1 --remote exit2 --host --write >/dev/null 2>"$TT_DIR/err" || rc=$?
python3 - "$FAKE_ARGV" <<'PY' || fail "far command or ssh arguments wrong: $(cat "$FAKE_ARGV")"
import json, shlex, sys
a = json.loads(open(sys.argv[1]).readline())
print("ssh arguments:", a)
far = shlex.split(a[-1])
assert a[-3] == "--" and a[-2] == "exit2", "no -- before the host"
assert "--write" in far and "--host" in far, "--write not in the far command %r" % far
PY

# Broken far sides: each named on stderr, and -b exits 1 (every host broken: at once).
for m in schema2 garbage longline exit2; do
	rc=0
	timeout 20 "${rem[@]}" -b -n 2 --remote $m >/dev/null 2>"$TT_DIR/err" || rc=$?
	[ "$rc" = 1 ] || fail "$m: rc $rc, want 1: $(cat "$TT_DIR/err")"
	grep -q "^tunetop: $m: broken: " "$TT_DIR/err" || fail "$m: not called broken: $(cat "$TT_DIR/err")"
done
grep -q 'broken: tunetop: --set: blk.rq_affinity' "$TT_DIR/err" || fail "exit2: the far side's message is not the reason"

# With a good host beside them: the good host's lines, the broken ones named, rc 1; silence
# is broken after the first-snapshot deadline (10 s); the usage error is never tried again.
: > "$FAKE_LOG"
rc=0
timeout 40 "${rem[@]}" -b -n 30 -d 0.5 --remote good --remote silence --remote exit2 --remote schema2 \
	> "$TT_DIR/out" 2>"$TT_DIR/err" || rc=$?
[ "$rc" = 1 ] || fail "good + broken hosts: rc $rc, want 1: $(cat "$TT_DIR/err")"
[ "$(count good "$TT_DIR/out")" -ge 30 ] || fail "good host: $(count good "$TT_DIR/out") lines, want 30"
grep -q '^tunetop: silence: broken: no snapshot in 10 s' "$TT_DIR/err" || fail "silence not broken: $(cat "$TT_DIR/err")"
n=$(grep -c '^exit2 ' "$FAKE_LOG")
[ "$n" = 1 ] || fail "exit2 started $n times, want once (a usage error is not retried)"

# A far side that ignores SIGTERM: killed after the grace, then tried again (up again).
: > "$FAKE_LOG"
"${rem[@]}" -b -d 0.5 --remote ignore-term > /dev/null 2>"$TT_DIR/err" &
pid=$!
wait_for 25 grep -q 'ignore-term: up again' "$TT_DIR/err" || { kill "$pid"; fail "ignore-term never up again: $(cat "$TT_DIR/err")"; }
first=$(awk 'NR == 1 {print $2}' "$FAKE_LOG")
kill "$pid"
wait "$pid" 2>/dev/null
! kill -0 "$first" 2>/dev/null || fail "the first far side ($first) still runs"

# Hosts flooding stdout and stderr beside a good one: it keeps its rate (-d 0.5: 2 lines a s).
"${rem[@]}" -b -d 0.5 --remote flood --remote stderrflood --remote good > "$TT_DIR/out" 2>"$TT_DIR/err" &
pid=$!
wait_for 8 grep -q 'good: up' "$TT_DIR/err" || { kill "$pid"; fail "good not up beside flood: $(cat "$TT_DIR/err")"; }
g0=$(count good "$TT_DIR/out")
sleep 6 # a rate over a fixed window, asserted with a wide margin
g1=$(count good "$TT_DIR/out")
f1=$(count flood "$TT_DIR/out")
kill "$pid"
wait "$pid" 2>/dev/null
echo "beside a flood: good $((g1 - g0)) lines in 6 s, flood $f1 lines"
[ $((g1 - g0)) -ge 8 ] || fail "good host starved by a flood: $((g1 - g0)) lines in 6 s"
[ "$f1" -ge 1 ] || fail "the flooding host gave no line"

# Deltas naming keys the snapshot lacks (2,000 a line, deep values): dropped, memory flat.
# (Under ASan the quarantine of freed memory would look like growth: a small one.)
ASAN_OPTIONS="${ASAN_OPTIONS:-}:quarantine_size_mb=1" \
	"${rem[@]}" -b -d 0.5 --remote unknown-delta-paths --remote good > "$TT_DIR/out" 2>"$TT_DIR/err" &
pid=$!
wait_for 10 grep -q 'unknown-delta-paths: up' "$TT_DIR/err" || { kill "$pid"; fail "not up: $(cat "$TT_DIR/err")"; }
sleep 1
r0=$(rss_kb "$pid")
sleep 8
r1=$(rss_kb "$pid")
kill "$pid"
wait "$pid" 2>/dev/null
echo "unknown delta paths: RSS $r0 -> $r1 kB over 8 s"
[ "$r1" -lt $((r0 + 8192)) ] || fail "RSS grew from $r0 to $r1 kB"

# 1e308, negative counts, int extremes: every line whole, every section there, finite.
rc=0
timeout 20 "${rem[@]}" -b -n 3 --remote hugevalue > "$TT_DIR/out" 2>"$TT_DIR/err" || rc=$?
[ "$rc" = 0 ] || fail "hugevalue: rc $rc: $(cat "$TT_DIR/err")"
python3 - "$TT_DIR/out" "$FAKE_BASE" <<'PY' || fail "hugevalue lines lost sections"
import json, math, sys
base = json.loads(open(sys.argv[2]).readline())
lines = [json.loads(l) for l in open(sys.argv[1])]
assert len(lines) == 3, len(lines)
for o in lines:
    for k in ("pmd", "blk", "est", "cpu", "threads", "knobs", "self"):
        assert (k in o) == (k in base), "section %s" % k
    assert math.isfinite(o["uptime_s"]) and math.isfinite(o["interval_s"])
    assert all(t["cpu_ns"] >= 0 for t in o["threads"])
print("3 lines, all sections")
PY
# The same through the JSON writer from a recording: the line is written, rc 0.
python3 -c "import json,sys;s=json.load(open(sys.argv[1]));s['uptime_s']=1e308;s['pmd']['drop_pct']=1e308 if 'pmd' in s else 0;print(json.dumps(s))" \
	"$FAKE_BASE" > "$TT_DIR/huge.jsonl"
rc=0
"$TUNETOP" --replay "$TT_DIR/huge.jsonl" -b > "$TT_DIR/out" 2>"$TT_DIR/err" || rc=$?
[ "$rc" = 0 ] && [ -s "$TT_DIR/out" ] || fail "replay of 1e308: rc $rc: $(cat "$TT_DIR/err")"

# Agent replies: an invalid UTF-8 value keeps its error; a NUL does not cut the line short.
printf 'set cpu.governor \xff\xfe\nset cpu.governor performance\0x\nquit\n' |
	timeout 20 "$TUNETOP" --agent -d 1 > "$TT_DIR/agent" 2>&1
python3 - "$TT_DIR/agent" <<'PY' || fail "agent replies wrong: $(grep reply "$TT_DIR/agent")"
import json, sys
r = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{"reply"')]
print(r)
assert r[0]["ok"] is False and "error" in r[0], "invalid UTF-8: no error"
assert r[1]["ok"] is False and "NUL" in r[1]["error"], "NUL: accepted"
PY

# The console: a flood, a good host, a broken one and one with int extremes in emu_cpu; the
# broken row says why, keys answer, and sorting the extreme host's threads by CPU (<) does
# not overflow the comparator (an abort under UBSan).
tt_start 120 30 "$(tt_wrap --remote good --remote flood --remote schema2 --remote hugevalue --ssh "\"$FAKE\"" --agent-path "$TUNETOP" -d 1)"
tt_wait '^good +up ' 15
tt_wait '^schema2 +down +broken: schema 2 is not supported' 10
tt_wait '^flood +up ' 5
tt_wait '^hugevalue +up ' 5
tt_keys Down Down Down Enter
tt_wait 'TID NAME' 5
tt_keys '<'
tt_wait 'TID NAME' 5
tt_keys Escape
tt_wait '^good +up ' 5
t0=$(date +%s%N)
tt_keys q
tt_wait_exit 8
echo "q beside a flood: $((($(date +%s%N) - t0) / 1000000)) ms"
grep -q 'rc=0' "$TT_DIR/rc" || fail "console rc: $(cat "$TT_DIR/rc")"
echo PASS
