# SPDX-License-Identifier: GPL-2.0-or-later
# assert.sh: tiny assertion helpers for shell tests (sourced). Counts and reports.
_tt_pass=0
_tt_fail=0
ok() { _tt_pass=$((_tt_pass + 1)); echo "ok   $*"; }
bad() { _tt_fail=$((_tt_fail + 1)); echo "FAIL $*"; }
# check "description" command args...: passes when the command succeeds.
check() { local d=$1; shift; if "$@" >/dev/null 2>&1; then ok "$d"; else bad "$d"; fi; }
finish() {
	echo "$_tt_pass passed, $_tt_fail failed"
	[ "$_tt_fail" -eq 0 ] && [ "$_tt_pass" -gt 0 ]
	exit $?
}
# wait_lines FILE N SECONDS: until FILE holds N lines (a batch run's output), a failure at the
# deadline.
wait_lines() {
	local i
	for i in $(seq $(($3 * 10))); do
		[ "$(wc -l <"$1" 2>/dev/null || echo 0)" -ge "$2" ] && return 0
		sleep 0.1
	done
	bad "$1: not $2 lines within $3 s"
	return 1
}
# wait_json FILE SECONDS EXPR: until a whole line of FILE (JSON Lines, a batch run's output),
# read as o, makes the python expression EXPR true; 1 at the deadline. For a figure that must
# show once something outside happened, whatever the machine's speed: not a fixed -n window.
wait_json() {
	python3 - "$@" <<'PY'
import json, sys, time
path, secs, expr = sys.argv[1], float(sys.argv[2]), sys.argv[3]
end, done = time.monotonic() + secs, 0
while True:
    try:
        with open(path) as f:
            lines = f.readlines()
    except FileNotFoundError:
        lines = []
    for l in lines[done:]:
        if not l.endswith("\n"):
            break
        done += 1
        try:
            o = json.loads(l)
            if eval(expr):
                sys.exit(0)
        except (ValueError, KeyError, TypeError, AttributeError, IndexError):
            pass
    if time.monotonic() > end:
        sys.exit(1)
    time.sleep(0.1)
PY
}
