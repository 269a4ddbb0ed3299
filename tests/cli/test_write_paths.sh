#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_write_paths.sh: what tunetop writes by path, directory components included
# (core/safefile.h): a symlink another user planted among the directories (here in a mode 1777
# folder, made uid 65534's with chown -h) is refused for -o, --record and --record-dir (exit 2,
# naming it) and nothing is written where it points; the operator's own symlink (ours) is
# followed; a --record or -o target another user made first is refused (exit 2) and stays as
# it was. Needs root (to own files as another user): skips (77) otherwise.
. "$(dirname "$0")/../lib/assert.sh"
if [ "$(id -u)" != 0 ]; then
	echo "needs root to make files of another user"
	exit 77
fi
g=$TMPDIR/gdir
mkdir "$g" "$TMPDIR/victim"
chmod 1777 "$g"
ln -s "$TMPDIR/victim" "$g/sub"
chown -h 65534 "$g/sub"

for args in "-o $g/sub/out.prom --format prometheus" "-o /dev/null --record $g/sub/rec.jsonl" \
	"-o /dev/null --record-dir $g/sub/store"; do
	rc=0
	# shellcheck disable=SC2086
	timeout 30 "$TUNETOP" -b -n 1 -d 0.2 $args 2>"$TMPDIR/err" >/dev/null || rc=$?
	cat "$TMPDIR/err"
	check "$args: exit 2 (rc $rc)" test "$rc" = 2
	check "$args: names the symlink" grep -q "'sub' is a symlink of uid 65534" "$TMPDIR/err"
done
check "nothing written where the symlink points" test -z "$(ls -A "$TMPDIR/victim")"

mkdir -p "$TMPDIR/real2/sub"
ln -s "$TMPDIR/real2" "$TMPDIR/lp"
rc=0
timeout 30 "$TUNETOP" -b -n 1 -d 0.2 -o /dev/null --record-dir "$TMPDIR/lp/sub/store" \
	2>"$TMPDIR/err" || rc=$?
check "our own symlink in the path is followed (rc $rc: $(cat "$TMPDIR/err"))" test "$rc" = 0

sd=$TMPDIR/sd
mkdir "$sd"
chmod 1777 "$sd"
for f in rec.jsonl out.json; do
	echo ATT >"$sd/$f"
	chown 65534 "$sd/$f"
	chmod 666 "$sd/$f"
done
for args in "-o /dev/null --record $sd/rec.jsonl" "-o $sd/out.json"; do
	rc=0
	# shellcheck disable=SC2086
	timeout 30 "$TUNETOP" -b -n 1 -d 0.2 $args 2>"$TMPDIR/err" >/dev/null || rc=$?
	cat "$TMPDIR/err"
	check "$args: another user's file: exit 2 (rc $rc)" test "$rc" = 2
	check "$args: says whose" grep -q "owned by uid 65534" "$TMPDIR/err"
done
check "their files are as they were" test "$(cat "$sd/rec.jsonl" "$sd/out.json")" = "ATT
ATT"
finish
