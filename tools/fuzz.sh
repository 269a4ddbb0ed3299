#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tools/fuzz.sh BUILD SECONDS TARGET...: run each libFuzzer target of BUILD/lf for SECONDS,
# starting from tests/fuzz/corpus/NAME (NAME: the target without fuzz_ and lf_). New inputs
# go to BUILD/corpus/NAME (copy the interesting ones into the tree's corpus); a crash leaves
# its input in BUILD/crash/ and fails the run.
set -u
build=$1 secs=$2
shift 2
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$build/crash"
fail=0
for t in "$@"; do
	name=${t#fuzz_}
	name=${name#lf_}
	mkdir -p "$build/corpus/$name"
	echo "== $t: ${secs}s from tests/fuzz/corpus/$name"
	if ! "$build/lf/$t" -max_total_time="$secs" -max_len=4096 -rss_limit_mb=2048 -timeout=10 \
		-artifact_prefix="$build/crash/$t-" -print_final_stats=1 \
		"$build/corpus/$name" "$top/tests/fuzz/corpus/$name" 2>"$build/lf/$t.log"; then
		fail=1
		tail -n 40 "$build/lf/$t.log"
		echo "FAIL $t (input in $build/crash/)"
	else
		grep -E 'stat::number_of_executed_units|stat::peak_rss_mb' "$build/lf/$t.log" | tr '\n' ' '
		echo
	fi
done
exit $fail
