#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""test_spdx.py [ROOT]: every source file carries the project's SPDX line.

The licence is COPYING's (GPL-2.0-or-later, as htop); debian/copyright says the same. A source
file is a tracked .c, .h, .sh, .py or .bash file, the Makefile, .ci/run or debian/rules; its
SPDX line is within its first two lines (after a #! line). Fuzz corpora are data, not source.
Exit 0 when all hold, 1 otherwise, each failure printed as FILE: what.
"""
import os
import subprocess
import sys

TAG = "SPDX-License-Identifier: GPL-2.0-or-later"
SCRIPTS = ("Makefile", ".ci/run", "debian/rules")


def tracked(root):
    """The tracked files (git ls-files), or every file under root when it is no git clone."""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True,
                             check=True, timeout=30).stdout
        return out.split("\n")
    except (OSError, subprocess.SubprocessError):
        found = []
        for top, dirs, names in os.walk(root):
            dirs[:] = [d for d in dirs if not d.startswith(".") or d == ".ci"]
            dirs[:] = [d for d in dirs if d != "build"]
            found += [os.path.relpath(os.path.join(top, n), root) for n in names]
        return found


def is_source(path):
    if path.startswith("tests/fuzz/corpus/"):
        return False
    return path.endswith((".c", ".h", ".sh", ".py", ".bash")) or path in SCRIPTS


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
    root = os.path.abspath(root)
    bad = []
    files = [p for p in tracked(root) if p and is_source(p)]
    for path in files:
        full = os.path.join(root, path)
        if not os.path.isfile(full):
            continue
        with open(full, encoding="utf-8", errors="replace") as f:
            head = [f.readline() for _ in range(2)]
        if head[0].startswith("#!"):
            head = head[1:]
        if not any(TAG in line for line in head):
            bad.append(f"{path}: no '{TAG}' in its first lines")
    for path, want in (("COPYING", "GNU GENERAL PUBLIC LICENSE"), ("COPYING", "Version 2"),
                       ("debian/copyright", "License: GPL-2+")):
        try:
            with open(os.path.join(root, path), encoding="utf-8") as f:
                if want not in f.read():
                    bad.append(f"{path}: does not say '{want}'")
        except OSError as e:
            bad.append(f"{path}: {e.strerror}")
    for line in bad:
        print(line)
    print(f"{len(files)} source files, {len(bad)} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
