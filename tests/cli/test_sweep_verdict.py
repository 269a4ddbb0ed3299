#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`tunetop experiment sweep` beside a CPU-bound host gives its answer or says it has none: a
setting whose every pass was set aside and that could have been the answer (docs/experiments.md
"The set-aside rule") makes the sweep inconclusive, with why, `ok` false and status 1; with no
window set aside there is nothing to say. JSON parsed here."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from ttcheck import check, finish  # noqa: E402

TUNETOP = os.environ.get("TUNETOP", "./tunetop")
SHORT = ["--scenario", "pmd-seed", "--maxsleep", "0,50", "--slack", "1000", "--passes", "1",
         "--seconds", "0.3", "--warmup", "0.1", "--json"]


def sweep(*args):
    r = subprocess.run([TUNETOP, "experiment", "sweep", *SHORT, *args], capture_output=True,
                       text=True, timeout=120)
    return r, json.loads(r.stdout) if r.stdout.strip() else {}


# 1. Nothing set aside (a limit of 100 %): no verdict of inconclusive.
r, o = sweep("--host-took-limit", "100")
check(r.returncode == 0 and o.get("ok") is True and o.get("inconclusive") is None,
      f"sweep, nothing set aside: ok, not inconclusive ({r.returncode}, {o.get('inconclusive')})")

# 2. Every window over a limit of 0 % (spinning threads make it the usual case): whether a
# setting lost every pass is what the rows say; the verdict is judged against them.
r, o = sweep("--host-took-limit", "0", "--set", "load.spin_threads=4")
rows = o.get("rows") or []
lost = [x for x in rows if x.get("passes") == 0 and x.get("set_aside", 0) > 0]
if lost:
    check(r.returncode == 1 and o.get("ok") is False and
          "had every pass set aside" in (o.get("inconclusive") or "") and
          "inconclusive" in r.stderr,
          f"sweep, a setting lost every pass: inconclusive, status 1 ({r.returncode}, "
          f"{o.get('inconclusive')}, {r.stderr.strip()[-200:]})")
else:
    check(r.returncode == 0 and o.get("inconclusive") is None,
          f"sweep with every setting measured concludes ({r.returncode}, {o.get('inconclusive')})")
finish()
