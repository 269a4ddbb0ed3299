#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/run.sh [-j N] [--sanitized | --system] [--no-skip] BUILD [PATTERN]: run the test programs and scripts; print
# "N passed, N failed, N skipped". Test programs (cmocka units, scenario and fuzz harnesses)
# are in BUILD/tests; scripts are tests/*/*.sh and tests/*/*.py (tests/README.md).
#
# -j N runs N tests at once (default 1). Each test has a temp dir of its own (TMPDIR, and
# XDG_CONFIG_HOME inside it), removed after it. A test's header (its first lines that are
# comments or blank) may hold these tags, anywhere in it:
#   # tt-timeout: SECONDS   more than the default 300 s
#   # tt-serial: WHY        it judges a duration, rate or CPU share of its own run: it runs
#                           alone, after every other test has ended
#   # tt-lock: NAME[: WHY]  it changes something outside its temp dir that another test
#                           with the same lock reads or changes (an OVS PMD's timer slack):
#                           no two tests with one lock run at once
#   # tt-sanitize: WHY      a script that runs more than one of tunetop's own threads: it
#                           also runs in the sanitizer passes (--sanitized)
#   # tt-system: WHY        it installs packages or writes the machine outside its temp dir
#                           (the .deb installed and purged): only with --system, which runs
#                           only such tests (make check-system)
# --sanitized (make asan, make tsan) runs every test program and only the tt-sanitize scripts:
# the screen-layout and source-text checks run once, in the release pass.
# A script exits 0 (pass), 77 (skip; its last line says why) or anything else (fail).
# --no-skip, or TT_NO_SKIP=1 (CI, where every dependency is installed and the user is root) counts a skip as a
# failure: a test that cannot judge on this machine must not pass unseen.
set -u
jobs=1 sanitized=0 system=0 noskip=${TT_NO_SKIP:-0}
while [ $# -gt 0 ]; do
	case $1 in
	-j) jobs=${2:?-j takes a number}; shift 2 ;;
	-j*) jobs=${1#-j}; shift ;;
	--sanitized) sanitized=1; shift ;;
	--system) system=1; shift ;;
	--no-skip) noskip=1; shift ;;
	-h | --help) sed -n '3,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) echo "tests/run.sh: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
case $jobs in '' | *[!0-9]* | 0) echo "tests/run.sh: -j takes a whole number from 1" >&2; exit 2 ;; esac
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
# A whole run starts the logs afresh; a run of some tests (PATTERN) replaces only theirs, so it
# can go beside a whole run of the same build without taking its logs. The exit statuses and
# the pipe are this run's own.
[ -z "$pattern" ] && rm -rf "$logdir"
mkdir -p "$logdir"
statusdir=$(mktemp -d "${TMPDIR:-/tmp}/tt-run.XXXXXX")
trap 'rm -rf "$statusdir"' EXIT
# Each test's wrapper writes its index here when it ends (fd 3, open both ways: never blocks).
mkfifo "$statusdir/ended"
exec 3<>"$statusdir/ended"

# header FILE: the lines before the first that is neither blank nor a comment.
header() {
	awk '/^[ \t]*$/ || /^[ \t]*(#|\/\*|\*|\/\/)/ { print; next } { exit }' "$1" 2>/dev/null |
		tr -d '\0'
}
# tag FILE NAME: the value of "tt-NAME: VALUE" in FILE's header ("yes" for a bare "tt-NAME").
tag() {
	header "$1" | sed -n "s/^[ \t]*\(#\|\/\*\|\*\|\/\/\)[ \t]*tt-$2\(:[ \t]*\(.*\)\)\{0,1\}\$/\3/p" |
		sed 's/[ \t]*\*\/[ \t]*$//' | head -n 1 | sed 's/^$/yes/'
}

# The list: each test's name, the file its tags are read from (a program's .c) and its kind;
# programs first.
names=() sources=() kinds=() locks=()
add() {
	local name=$1 src=$2 sys lock; shift 2 # then the kind: prog, py or sh
	[ -n "$pattern" ] && [[ "$name" != *$pattern* ]] && return
	[ -n "$(tag "$src" system)" ] && sys=1 || sys=0
	[ $sys = $system ] || return
	if [ $sanitized = 1 ] && [[ $name == tests/*/*.sh || $name == tests/*/*.py ]]; then
		[ -n "$(tag "$src" sanitize)" ] || return
	fi
	# A lock is its tag's first word ("tt-lock: NAME: why"), a plain name.
	lock=$(tag "$src" lock)
	lock=${lock%%[!A-Za-z0-9_.-]*}
	names+=("$name") sources+=("$src") kinds+=("$1") locks+=("$lock")
}
for bin in "$top/$build"/tests/unit/test_* "$top/$build"/tests/scenario/test_* \
	"$top/$build"/tests/fuzz/fuzz_*; do
	[ -x "$bin" ] && [ -f "$bin" ] || continue
	rel=${bin#$top/$build/}
	add "$rel" "$top/$rel.c" prog
done
for script in "$top"/tests/*/*.sh "$top"/tests/*/*.py; do
	[ -f "$script" ] || continue
	case "$script" in */lib/* | */run.sh) continue ;; esac
	name=${script#$top/}
	case "$script" in
	*.py) add "$name" "$script" py ;;
	*.sh) add "$name" "$script" sh ;;
	esac
done

pass=0 fail=0 skip=0 failed=() skipped=()
declare -A running=() # index -> 1 while it runs
declare -A started=()  # index -> SECONDS at start
declare -A tmpdirs=()  # index -> its temp dir
declare -A held=()     # lock -> index of the running test that holds it

logof() { echo "$logdir/$(echo "${names[$1]}" | tr '/' '_').log"; }

start_one() {
	local i=$1 limit tmp cmd
	case ${kinds[$i]} in
	prog) cmd=("$top/$build/${names[$i]}") ;;
	py) cmd=(python3 "${sources[$i]}") ;;
	sh) cmd=(bash "${sources[$i]}") ;;
	esac
	limit=${TT_TEST_TIMEOUT:-$(tag "${sources[$i]}" timeout)}
	case $limit in '' | *[!0-9]*) limit=300 ;; esac
	tmp=$(mktemp -d /tmp/tt-XXXXXX)
	mkdir -p "$tmp/config"
	tmpdirs[$i]=$tmp started[$i]=$SECONDS
	# The console reads and writes its settings in XDG_CONFIG_HOME (docs/settings.md): never
	# the runner's own ~/.config, and never another test's.
	# The exit status goes to a file of its own and the index down the pipe the scheduler
	# reads: no pid is kept, so none can be reused under it.
	(
		TMPDIR=$tmp XDG_CONFIG_HOME=$tmp/config \
			timeout --kill-after=10 "$limit" "${cmd[@]}" >"$(logof "$i")" 2>&1 </dev/null 3>&-
		echo $? >"$statusdir/$i"
		echo "$i" >&3
	) &
	running[$i]=1
}

finish_one() {
	local i=$1 rc=$2 dur log
	unset "running[$i]"
	[ -n "${locks[$i]}" ] && unset "held[${locks[$i]}]"
	dur=$((SECONDS - started[$i]))
	log=$(logof "$i")
	rm -rf "${tmpdirs[$i]}" 2>/dev/null
	if [ "$rc" -eq 0 ]; then
		pass=$((pass + 1)); printf 'PASS  %-46s %4ds\n' "${names[$i]}" "$dur"
	elif [ "$rc" -eq 77 ] && [ $noskip = 0 ]; then
		skip=$((skip + 1)); skipped+=("${names[$i]}")
		printf 'SKIP  %-46s %s\n' "${names[$i]}" "$(tail -n 1 "$log")"
	else
		fail=$((fail + 1)); failed+=("${names[$i]}")
		printf 'FAIL  %-46s %4ds (exit %d%s)\n' "${names[$i]}" "$dur" "$rc" \
			"$([ "$rc" -eq 77 ] && echo ": a skip, and --no-skip")"
		sed 's/^/      | /' "$log" | tail -n 40
	fi
}

# run_all N INDEX...: at most N at once, in the order given but for a test whose lock is
# held (it starts when the lock is free), each reported as it ends.
run_all() {
	local n=$1 i j pending
	shift
	pending=("$@")
	while [ ${#pending[@]} -gt 0 ] || [ ${#running[@]} -gt 0 ]; do
		if [ ${#running[@]} -lt "$n" ]; then
			for j in "${!pending[@]}"; do
				i=${pending[$j]}
				[ -n "${locks[$i]}" ] && [ -n "${held[${locks[$i]}]:-}" ] && continue
				[ -n "${locks[$i]}" ] && held[${locks[$i]}]=$i
				unset "pending[$j]"
				start_one "$i"
				continue 2
			done
		fi
		# Nothing runs and nothing may start: a lock held by no running test.
		[ ${#running[@]} -gt 0 ] || { echo "tests/run.sh: nothing can start" >&2; exit 1; }
		reap
	done
}

# reap: wait until a running test ends (its index down the pipe, or a status file seen at
# the latest a second later), then report every one that has.
reap() {
	local i
	read -r -t 1 i <&3
	for i in "${!running[@]}"; do
		[ -s "$statusdir/$i" ] && finish_one "$i" "$(cat "$statusdir/$i")"
	done
}

parallel=() serial=()
for i in "${!names[@]}"; do
	if [ -n "$(tag "${sources[$i]}" serial)" ]; then serial+=("$i"); else parallel+=("$i"); fi
done
t0=$SECONDS
[ ${#parallel[@]} -gt 0 ] && run_all "$jobs" "${parallel[@]}"
t1=$SECONDS
[ ${#serial[@]} -gt 0 ] && run_all 1 "${serial[@]}"
t2=$SECONDS

echo
echo "run.sh: ${#parallel[@]} tests at -j $jobs in $((t1 - t0)) s, ${#serial[@]} alone (tt-serial) in $((t2 - t1)) s"
[ ${#skipped[@]} -gt 0 ] && printf 'skipped: %s\n' "${skipped[*]}"
[ ${#failed[@]} -gt 0 ] && printf 'failed: %s\n' "${failed[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
