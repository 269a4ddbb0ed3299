#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check_includes.py [ROOT]: the include rules of docs/design.md "Layers".

Layers only look down: core <- engine <- backends <- tui, and diag/ (the
diagnosis rules, pure functions of snapshots) sees only core/ and is seen by
tui/. Each rule below is one line of that picture; a violation prints FILE:LINE: what and why, and the
exit status is 1. The console's curses code (tui/console/, and tui/main.c
which starts it) is the only code that may reach curses, directly or through a
header it includes.
"""
import os
import re
import sys

# folder -> the top-level folders its files may include from
ALLOWED = {
    "core": {"core"},
    "engine": {"core", "engine"},
    "backends": {"core", "backends", "engine"},
    "diag": {"core", "diag"},
    "tui": {"core", "backends", "diag", "tui"},
    "bench": {"core", "engine", "backends"},
}
# Of backends/, only the engine source reaches into the engine.
ENGINE_FROM_BACKENDS = {"backends/src_engine.c"}
# The console's folder, and the entry that starts it.
CURSES_OK = re.compile(r"^tui/(console/[^/]+|main\.c)$")
CURSES_HDR = {"curses.h", "ncurses.h", "ncursesw/curses.h", "ncursesw/ncurses.h"}
INC = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def sources(root):
    for top in ALLOWED:
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for n in sorted(names):
                if n.endswith((".c", ".h")):
                    yield os.path.relpath(os.path.join(dirpath, n), root)


def includes(root, path):
    with open(os.path.join(root, path), errors="replace") as f:
        for lineno, line in enumerate(f, 1):
            m = INC.match(line)
            if m:
                yield lineno, m.group(1) == "<", m.group(2)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
    root = os.path.abspath(root)
    files = list(sources(root))
    graph, bad = {}, []
    for path in files:
        layer = path.split("/")[0]
        deps = []
        for lineno, system, inc in includes(root, path):
            if system:
                if inc in CURSES_HDR:
                    deps.append((lineno, "<curses>"))
                continue
            top = inc.split("/")[0]
            if "/" not in inc or top not in ALLOWED:
                bad.append(f"{path}:{lineno}: #include \"{inc}\": write includes from the top of the tree (core/..., engine/...)")
                continue
            if top not in ALLOWED[layer]:
                bad.append(f"{path}:{lineno}: #include \"{inc}\": {layer}/ may include only {', '.join(sorted(ALLOWED[layer]))} (layers only look down)")
            elif layer == "backends" and top == "engine" and path not in ENGINE_FROM_BACKENDS:
                bad.append(f"{path}:{lineno}: #include \"{inc}\": only backends/src_engine.c reaches the engine")
            deps.append((lineno, inc))
        graph[path] = deps

    # Curses, directly or through any header on the way.
    memo = {}

    def reaches_curses(p, seen=()):
        if p in memo:
            return memo[p]
        if p in seen:
            return None
        for _, d in graph.get(p, []):
            if d == "<curses>":
                memo[p] = [p]
                return memo[p]
            chain = reaches_curses(d, seen + (p,))
            if chain:
                memo[p] = [p] + chain
                return memo[p]
        memo[p] = None
        return None

    for path in files:
        if CURSES_OK.match(path):
            continue
        for lineno, d in graph[path]:
            chain = [path, "<curses.h>"] if d == "<curses>" else None
            if d != "<curses>":
                sub = reaches_curses(d)
                chain = [path] + sub + ["<curses.h>"] if sub else None
            if chain:
                bad.append(f"{path}:{lineno}: reaches curses ({' -> '.join(chain)}): only the console (tui/console/) may")
    for b in bad:
        print(b)
    print(f"{len(files)} files checked, {len(bad)} violations")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
