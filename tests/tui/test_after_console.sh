#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_after_console.sh: the console's after-sample step is -b's (tui/after.h, docs/design.md
# "After a sample"): replaying a recording with findings, with --record and --serve, the lines
# it records carry the same diagnoses[] and diag events as `-b --replay` of that recording, and
# the exporter's tunetop_diagnosis_active says the last line's findings.
. "$(dirname "$0")/lib/tmux.sh"

seed=$TT_TOP/tests/unit/data/diag_pmd_seed.jsonl
rec=$TT_DIR/con.jsonl
"$TUNETOP" -b --replay "$seed" > "$TT_DIR/batch.jsonl" || fail "-b --replay"
tt_start 120 30 "$(tt_wrap --replay "$seed" --record "$rec" --serve 127.0.0.1:0 "2>$TT_DIR/err")"
tt_wait 'END OF RECORDING' 15
port=$(sed -n 's/.*serving \/metrics on port \([0-9]*\).*/\1/p' "$TT_DIR/err")
[ -n "$port" ] || fail "no port in: $(cat "$TT_DIR/err")"
curl -sf "http://127.0.0.1:$port/metrics" > "$TT_DIR/metrics" || fail "no scrape"
tt_keys q
tt_wait_exit
python3 - "$rec" "$TT_DIR/batch.jsonl" "$TT_DIR/metrics" <<'PY' || fail "the console's findings differ"
import json, re, sys
con = [json.loads(l) for l in open(sys.argv[1])]
bat = [json.loads(l) for l in open(sys.argv[2])]
def diag(line):
    return line.get("diagnoses"), [e for e in line["events"] if e["kind"] == "diag"]
assert len(con) == len(bat) == 8, (len(con), len(bat))
for c, b in zip(con, bat):
    assert diag(c) == diag(b), (c["seq"], diag(c), diag(b))
assert any(c["diagnoses"] for c in con), "the recording raises no finding"
gauge = dict(re.findall(r'^tunetop_diagnosis_active\{rule="([^"]+)"\} ([01])$',
                        open(sys.argv[3]).read(), re.M))
assert gauge, "no diagnosis gauge"
last = {d["id"] for d in con[-1]["diagnoses"]}
for rule, v in gauge.items():
    assert (v == "1") == (rule in last), (rule, v, last)
PY
echo PASS
