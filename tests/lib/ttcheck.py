# SPDX-License-Identifier: GPL-2.0-or-later
"""ttcheck: the assertions of the Python test scripts: each check prints ok/FAIL, finish()
prints "N passed, N failed" and exits non-zero on any failure (or when nothing was checked)."""
import sys

_passes = 0
_failures = []


def check(cond, what):
    """Record one assertion; returns cond so a script can stop early on a failure."""
    global _passes
    if cond:
        _passes += 1
        print("ok  ", what)
    else:
        _failures.append(what)
        print("FAIL", what)
    return cond


def finish():
    print(f"{_passes} passed, {len(_failures)} failed")
    sys.exit(1 if _failures or not _passes else 0)
