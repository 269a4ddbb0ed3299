#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""test_figures_json.py: a screen figure that is a -b JSON field names it, and the field is one
the snapshot schema lists (tunetop --list-figures' last column against tunetop --list-json,
whose rows are core/snap_schema.c's tables): one fact, not two that can drift apart.

Also: --list-json is path, type, unit, meaning a line with every path once; a figure whose
field has a unit (its name says it: _pct, _us, _per_s ...) says that unit (a time may be shown
in another unit of time, hertz as GHz)."""
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
ttcheck.check(all(len(f) == 4 and f[0] and f[1] and f[2] for f in schema),
              "--list-json: path, type, unit, meaning on every line")
paths = [f[0] for f in schema]
ttcheck.check(len(paths) == len(set(paths)), "--list-json names every path once")
ttcheck.check(len(paths) > 250, f"--list-json lists the snapshot's fields ({len(paths)})")
unit_of = {f[0]: f[2] for f in schema if len(f) == 4}
TIME = {"ns", "us", "ms", "s"}


def same_unit(json_unit, fig_unit):
    parts = set(fig_unit.split(", "))
    return (json_unit in parts or (json_unit in TIME and parts & TIME) or
            (json_unit == "Hz" and any(p.endswith("Hz") for p in parts)))


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
    if not ttcheck.check(path in unit_of, f"{view} '{label}': JSON field {path} is in --list-json"):
        continue
    if unit_of[path] != "-":
        ttcheck.check(same_unit(unit_of[path], unit),
                      f"{view} '{label}' ({path}, {unit_of[path]}) says its unit: {unit!r}")
ttcheck.check(named >= 100, f"figures that name their JSON field: {named}")
finish()
