#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/run.sh BUILD [PATTERN]: run every test program and script; print "N passed, N failed".
# Test programs (cmocka units, scenario and fuzz harnesses) are in BUILD/tests; scripts are
# tests/*/*.sh and tests/*/*.py. A script exits 0 (pass), 77 (skip, with a reason) or other.
set -u
build=${1:-build}
pattern=${2:-}
top=$(cd "$(dirname "$0")/.." && pwd)
export TUNETOP="$top/$build/tunetop"
export TT_BUILD="$top/$build"
export TT_TOP="$top"
# Sanitizer runs: make leaks and races fatal and readable.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:halt_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}
logdir="$top/$build/test-logs"
mkdir -p "$logdir"
# The console reads and writes its settings there (docs/settings.md): never the runner's own
# ~/.config, and a test's view or sort never reaches the next test's screen.
export XDG_CONFIG_HOME="$top/$build/test-config"
rm -rf "$XDG_CONFIG_HOME"

pass=0 fail=0 skip=0 failed=()
run_one() {
	local name=$1; shift
	[ -n "$pattern" ] && [[ "$name" != *$pattern* ]] && return
	local log="$logdir/$(echo "$name" | tr '/' '_').log" start=$SECONDS rc limit
	# A script may ask for more time in its first lines ("# tt-timeout: SECONDS"): a package
	# build on a loaded 2-core machine takes minutes, and a kill mid-purge leaves dpkg state.
	limit=${TT_TEST_TIMEOUT:-$(head -n 5 "${@: -1}" 2>/dev/null | tr -d '\0' | sed -n 's/^# tt-timeout: \([0-9][0-9]*\)$/\1/p' | head -n 1)}
	timeout --kill-after=10 "${limit:-300}" "$@" >"$log" 2>&1
	rc=$?
	local dur=$((SECONDS - start))
	if [ $rc -eq 0 ]; then
		pass=$((pass + 1)); printf 'PASS  %-44s %4ds\n' "$name" "$dur"
	elif [ $rc -eq 77 ]; then
		skip=$((skip + 1)); printf 'SKIP  %-44s %s\n' "$name" "$(tail -n 1 "$log")"
	else
		fail=$((fail + 1)); failed+=("$name")
		printf 'FAIL  %-44s %4ds (exit %d)\n' "$name" "$dur" "$rc"
		sed 's/^/      | /' "$log" | tail -n 40
	fi
}

for bin in "$top/$build"/tests/unit/test_* "$top/$build"/tests/scenario/test_* "$top/$build"/tests/fuzz/fuzz_*; do
	[ -x "$bin" ] || continue
	run_one "${bin#$top/$build/}" "$bin"
done
for script in "$top"/tests/*/*.sh "$top"/tests/*/*.py; do
	[ -f "$script" ] || continue
	case "$script" in */lib/*|*/run.sh) continue ;; esac
	name=${script#$top/}
	case "$script" in
	*.py) run_one "$name" python3 "$script" ;;
	*.sh) run_one "$name" bash "$script" ;;
	esac
done

echo
[ ${#failed[@]} -gt 0 ] && printf 'failed: %s\n' "${failed[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
