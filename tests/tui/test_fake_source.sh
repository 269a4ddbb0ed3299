#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_fake_source.sh: the front ends render exactly what the source says (a fake source with
# scripted figures, tests/tui/fake_console.c), one value per knob everywhere in the same frame
# (m with -d 5: header and view 3 agree before any periodic resample), the value the source
# stored rather than the one asked for, and r cycling rq_affinity 1 -> 2 -> 0 -> 1 -> 2 on the
# real engine, on screen and in the events view.
. "$(dirname "$0")/lib/tmux.sh"
fake=${TT_BUILD:?}/tests/tui/fake_console
[ -x "$fake" ] || fail "no $fake (make tests builds it)"

# Batch: an independent parser finds the scripted numbers, and nothing else.
"$fake" -b -n 3 -d 0.05 >"$TT_DIR/fake.json" || fail "fake_console -b failed"
python3 - "$TT_DIR/fake.json" <<'PY' || fail "batch output differs from the script"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert len(lines) == 3, len(lines)
for i, d in enumerate(lines, 1):
    assert d["backend"] == "fake" and d["seq"] == i, (d["backend"], d["seq"])
    assert d["cpu"]["governor"] == "schedutil"
    assert [c["load_pct"] for c in d["cpu"]["cpus"]] == [12.5, 25.0]
    assert [c["freq_mhz"] for c in d["cpu"]["cpus"]] == [2345, 2345]
    assert [(t["tid"], t["name"], t["cpu_pct"]) for t in d["threads"]] == \
        [(4242, "fake-pmd", 42.5), (4243, "fake-blk", 7.25)], d["threads"]
    p = d["pmd"]
    assert p["threads"][0]["rx_pps"] == 119000 and p["threads"][0]["drop_pct"] == 3.25
    t = p["totals"]
    assert (t["generated"], t["forwarded"], t["dropped"], t["in_flight"]) == \
        (1000 * i, 900 * i, 100 * i, 0), t
    assert d["knobs"]["pmd.maxsleep_us"] == 300 and p["maxsleep_us"] == 300
    assert "est" not in d and "blk" not in d
print("batch ok")
PY

# The console: the same numbers on screen.
TUNETOP=$fake
tt_start 100 30 "$(tt_wrap -d 5)"
tt_wait 'governor schedutil \(emulated\)'
tt_wait '^pmd 123\.0k pps .* drop 3\.25% maxsleep 300us'
tt_wait '^ +4242 fake-pmd +pmd +0 +42\.5 R'
tt_wait '^ +4243 fake-blk +blk +0 +7\.2'
tt_wait '12\.5% 2345MHz.*25\.0% 2345MHz'
tt_keys 3
tt_wait '^offered 123\.0k pps  maxsleep 300us'
tt_wait '^generated 1000 = forwarded 900 \+ dropped 100'

# F8 (the pmd view's knob): 300 -> 500. With -d 5 no periodic sample comes for 5 s, so one capture taken as soon as
# either place changes must already show the new value in both. A capture can land between two writes of one frame
# (ncurses flushes a frame larger than its buffer in parts; a sanitizer's build is slow enough to be caught there), so
# a disagreement is looked at again 0.3 s later: a frame drawn from two values would still disagree then, for 5 s.
both() { grep -Eq "^pmd .*maxsleep ${1}us" <<<"$2" && grep -q "^offered .*maxsleep ${1}us" <<<"$2"; }
same_frame() {
	local want=$1 i=0 scr
	while [ $i -lt 40 ]; do
		scr=$(tt_cap)
		if grep -q "maxsleep ${want}us" <<<"$scr"; then
			both "$want" "$scr" && return 0
			sleep 0.3
			scr=$(tt_cap)
			both "$want" "$scr" ||
				fail "header and view 3 disagree in one frame: $(grep maxsleep <<<"$scr")"
			return 0
		fi
		sleep 0.05
		i=$((i + 1))
	done
	fail "maxsleep ${want}us never shown"
}
tt_keys F8
same_frame 500
tt_wait 'pmd\.maxsleep_us = 500$'
# F8 again asks for 1000; this source keeps 700: the screen says 700, and says why.
tt_keys F8
same_frame 700
tt_wait 'pmd\.maxsleep_us = 700 \(the source kept this, not 1000\)'
tt_cap | grep -q 'maxsleep 1000us' && fail "the requested value, not the stored one, is on screen"
# A knob this source refuses: an error naming the source's reason, the value unchanged.
tt_keys 2 F8 # the est view's knob
tt_wait 'error: est\.count: the fake source has no estimators'
tt_keys q
tt_wait_exit

# r on the real engine from 1: 2, 0, 1, 2 on screen and in the events view.
TUNETOP=${TT_BUILD}/tunetop
tt_start 100 30 "$(tt_wrap -d 5 --scenario blk-steer)"
tt_wait '^blk rq_affinity 1 '
# The status line first: it is set with the key and fades 5 s later, where the blk line shows
# the engine's rq_affinity once its threads have taken it, which under a sanitizer can be
# the next sample, -d 5 later.
for want in 2 0 1 2; do
	tt_keys r
	tt_wait "blk\.rq_affinity = $want\$"
	tt_wait "^blk rq_affinity $want " 15
done
tt_keys 5
tt_wait 'blk\.rq_affinity: 1 -> 2'
tt_wait 'blk\.rq_affinity: 2 -> 0'
tt_wait 'blk\.rq_affinity: 0 -> 1'
tt_cap | grep -q 'rq_affinity: 2 -> 3' && fail "r went past 2"
[ "$(tt_cap | grep -c 'blk\.rq_affinity: 1 -> 2')" -eq 2 ] || fail "expected two '1 -> 2' events: $(tt_cap | grep rq_aff)"
tt_keys q
tt_wait_exit
echo "ok"
