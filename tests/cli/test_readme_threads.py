#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""test_readme_threads.py: the threads README.md names are the engine's threads.

The engine is asked (tunetop -b in each scenario the README's prose and screen draw on) which
threads it starts; with a number taken for N ("pmd-c:0" is "pmd-c:N"), every thread name the
prose puts in backticks ("name:N", "blk-..."), and every thread in the sample screen's table
(a recording of the default scenario, tests/tui/golden/overview.txt), must be one of them. The
README named traffic-source threads "gen:N" and a device thread "blk-dev" after the engine had
stopped starting either."""
import json
import os
import re
import subprocess
import sys

TUNETOP = os.environ["TUNETOP"]
TOP = os.environ.get("TT_TOP") or os.path.join(os.path.dirname(__file__), "..", "..")
SCENARIOS = ("default", "pmd-seed", "blk-steer", "est-only")


def generic(name):
    return re.sub(r":[0-9]+$", ":N", name)


def engine_threads(scenario):
    out = subprocess.run([TUNETOP, "-b", "-n", "2", "-d", "0.2", "--scenario", scenario],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    names = set()
    for line in out.splitlines():
        names |= {generic(t["name"]) for t in json.loads(line)["threads"]}
    return names


def main():
    per = {sc: engine_threads(sc) for sc in SCENARIOS}
    every = set().union(*per.values())
    with open(os.path.join(TOP, "README.md"), encoding="utf-8") as f:
        text = f.read()
    start, end = text.index("<!-- BEGIN SCREEN"), text.index("<!-- END SCREEN")
    prose, screen = text[:start] + text[end:], text[start:end]
    bad = []
    # Thread names in the prose: "name:N" / "name:0", or the blk subsystem's "blk-name".
    for name in re.findall(r"`([a-z]+(?:-[a-z]+)?:(?:N|[0-9]+)|blk-[a-z]+)`", prose):
        if generic(name) not in every:
            bad.append(f"the prose names `{name}`, a thread no scenario starts")
    # The sample screen's thread table: TID NAME SUBSYS ... rows.
    rows = re.findall(r"^ +[0-9]+ (\S+) +(?:est|pmd|blk|engine) ", screen, re.M)
    if len(rows) < 5:
        bad.append(f"the sample screen shows {len(rows)} threads: no table found")
    for name in rows:
        if generic(name) not in per["default"]:
            bad.append(f"the sample screen shows {name}, a thread the default scenario does "
                       f"not start ({' '.join(sorted(per['default']))})")
    for b in bad:
        print("FAIL:", b)
    if bad:
        sys.exit(1)
    print(f"ok: README's threads are the engine's ({' '.join(sorted(every))})")


main()
