#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""test_figures_json.py: a screen figure that is a -b JSON field names it, and the field is one
the snapshot schema lists (tunetop --list-figures' last column against tunetop --list-json,
whose rows are core/snap_schema.c's tables): one fact, not two that can drift apart.

Also: --list-json is path, type, meaning a line with every path once; a figure whose field is
a share (a path part ending _pct) says % in its unit."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import ttcheck  # noqa: E402
from ttcheck import finish  # noqa: E402

TUNETOP = os.environ["TUNETOP"]


def lines(opt):
    return subprocess.run([TUNETOP, opt], capture_output=True, text=True, timeout=60,
                          check=True).stdout.splitlines()


schema = [l.split("\t") for l in lines("--list-json")]
ttcheck.check(all(len(f) == 3 and f[0] and f[1] for f in schema),
              "--list-json: path, type, meaning on every line")
paths = [f[0] for f in schema]
ttcheck.check(len(paths) == len(set(paths)), "--list-json names every path once")
ttcheck.check(len(paths) > 250, f"--list-json lists the snapshot's fields ({len(paths)})")
known = set(paths)

named = 0
for line in lines("--list-figures"):
    f = line.split("\t")
    if len(f) != 7:
        ttcheck.check(False, f"--list-figures line of 7 fields: {line!r}")
        continue
    view, label, unit, path = f[0], f[1], f[2], f[6]
    if path == "-":
        continue
    named += 1
    ttcheck.check(path in known, f"{view} '{label}': JSON field {path} is in --list-json")
    if any(p.endswith("_pct") for p in path.replace("[]", "").split(".")):
        ttcheck.check("%" in unit, f"{view} '{label}' ({path}) is a % (unit {unit!r})")
ttcheck.check(named >= 100, f"figures that name their JSON field: {named}")
finish()
