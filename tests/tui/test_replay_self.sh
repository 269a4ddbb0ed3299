#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_replay_self.sh: whose figures a replay's debug line shows. The recording's own (its
# console's CPU, sample and render time, terminal bytes and frame, from the last line of
# tests/tui/data/replay8.jsonl: 0.28 %, 183 us, 438 us, 0 B, 8) are labelled "rec:", then
# this replaying console's own self cpu, render and tty, measured here; a figure the recording
# lacks shows "-" on screen and null in the JSON written from it. 200 columns: the whole line.
. "$(dirname "$0")/lib/tmux.sh"
. "$(dirname "$0")/lib/golden.sh"

export TZ=UTC LANG=C.UTF-8
gold_replay 200 24 LANG=C.UTF-8 "$TT_TOP/tests/tui/data/replay8.jsonl" --no-color
# This console's tty bytes are those it wrote since the previous sample: frames were drawn.
tt_wait '^replay replay8\.jsonl 8/8 \(end\)  rec: cpu 0\.3%  sample 183 us  render 438 us  tty 0 B  frame 8  self cpu [0-9.]+%  render [0-9]+ us  tty [1-9][0-9]* B \([0-9]+ B/s\)  key ' 5
tt_cap | grep -q 'self cpu 0\.3%  sample 183 us' && fail "the recording's figures are shown as this console's"
echo "ok   the recording's figures labelled rec:, this console's own after them"
tt_keys q
tt_wait_exit 5

# The same recording without render_us and the tty figures in its "self" objects.
lack=$TT_DIR/lack.jsonl
python3 - "$TT_TOP/tests/tui/data/replay8.jsonl" "$lack" <<'PY' || fail "writing $lack"
import json, sys
with open(sys.argv[2], "w") as out:
    for line in open(sys.argv[1]):
        o = json.loads(line)
        for k in ("render_us", "tty_bytes", "tty_bytes_per_s"):
            del o["self"][k]
        out.write(json.dumps(o) + "\n")
PY
gold_replay 200 24 LANG=C.UTF-8 "$lack" --no-color
tt_wait '^replay lack\.jsonl 8/8 \(end\)  rec: cpu 0\.3%  sample 183 us  render -  tty -  frame 8  self cpu [0-9.]+%  render [0-9]+ us  tty [0-9]+ B ' 5
echo "ok   what the recording lacks shows -"
tt_keys q
tt_wait_exit 5
self=$("$TUNETOP" --replay "$lack" -b | tail -n 1 | python3 -c 'import json, sys; print(json.load(sys.stdin)["self"])')
[ "$self" = "{'cpu_pct': 0.28, 'sample_us': 183, 'render_us': None, 'tty_bytes': None, 'tty_bytes_per_s': None}" ] ||
	fail "replayed to JSON, the lacking figures are not null: $self"
echo "ok   and null in the JSON written from it"
