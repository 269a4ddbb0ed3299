#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`tunetop experiment sweep`: a sleep overshoot p99 that fell in the histogram's open top bucket
(1023 us and up: `p99_at_least`) is a lower bound, and the sweep prints its median as one
("≥1023", no spread) and says so in the JSON (`at_least`). A 10 ms timer slack puts every PMD
sleep's overshoot past 1023 us, whatever the machine's speed. JSON parsed here."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from ttcheck import check, finish  # noqa: E402

TUNETOP = os.environ.get("TUNETOP", "./tunetop")
PATH = "pmd.threads[avg].sleep_overshoot_us.p99"
ARGS = ["--maxsleep", "500", "--slack", "10000000", "--passes", "2", "--seconds", "0.5",
        "--warmup", "0.2", "--scenario", "pmd-seed", "--host-took-limit", "100"]


def sweep(*extra):
    return subprocess.run([TUNETOP, "experiment", "sweep", *ARGS, *extra], capture_output=True,
                          text=True, timeout=120)


r = sweep("--json")
check(r.returncode == 0, f"sweep exits 0 ({r.stderr.strip()[-200:]})")
o = json.loads(r.stdout) if r.returncode == 0 else {"rows": [{}]}
row = o["rows"][0]
check(row.get(PATH) is not None and row[PATH] >= 1023,
      f"10 ms slack: the overshoot p99 is in the top bucket ({row.get(PATH)})")
check((row.get("at_least") or {}).get(PATH) is True,
      f"JSON: the median is marked a lower bound ({row.get('at_least')})")
r = sweep()
head, line = None, None
for ln in r.stdout.splitlines():
    if ln.startswith("rate_pps") and head is None:
        head = ln
    elif head is not None and line is None and ln.split()[:1] == ["600000"]:
        line = ln
check(head is not None and line is not None, f"the per-point table ({r.stdout[:300]})")
if head and line:
    cells = line.split()
    col = head.split().index("oversh_p99_us")
    # rate maxsleep slack passes aside, then one cell a column: "median +-half" or "≥median".
    cell_at = [c for c in cells[5:] if c != "+-" and not c.startswith("+-")]
    cell = cell_at[col - 5] if len(cell_at) > col - 5 else ""
    check(cell.startswith("\u2265") and float(cell[1:]) >= 1023,
          f"the text prints the bound as one ({cell!r} in {line!r})")
finish()
