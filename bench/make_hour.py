# SPDX-License-Identifier: GPL-2.0-or-later
# bench/make_hour.py IN OUT: a 1-hour recording at 1 Hz for bench/replay.sh and
# bench/replay_atop.sh: 3600 lines, the snapshots of IN (JSON Lines of `tunetop -b`) repeated
# with their times moved 1 s apart and their seq renumbered.
import datetime
import json
import sys

lines = [json.loads(l) for l in open(sys.argv[1])]
t0 = datetime.datetime(2026, 12, 1)
with open(sys.argv[2], "w") as out:
    for i in range(3600):
        o = lines[i % len(lines)]
        o["time"] = (t0 + datetime.timedelta(seconds=i)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        o["seq"], o["interval_s"] = i + 1, 1.0
        out.write(json.dumps(o, separators=(",", ":")) + "\n")
