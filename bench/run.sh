#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/run.sh BUILD [NAME]: run every bench/*.sh (or the one NAME) and print its figures.
# Figures are medians over repeated runs, each against a baseline measured in the same run.
set -u
build=${1:-build}
only=${2:-}
top=$(cd "$(dirname "$0")/.." && pwd)
export TUNETOP="$top/$build/tunetop" TT_BUILD="$top/$build" TT_TOP="$top"
echo "tunetop bench on $(nproc) CPUs, $(uname -r), $(date -u +%Y-%m-%dT%H:%MZ)"
for b in "$top"/bench/*.sh; do
	name=$(basename "$b" .sh)
	[ "$name" = run ] && continue
	[ -n "$only" ] && [ "$name" != "$only" ] && continue
	echo
	echo "=== $name ==="
	bash "$b" || echo "($name: exit $?)"
done
