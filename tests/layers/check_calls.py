#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check_calls.py OBJ_DIR [--list-cycles] [--every-object]: docs/design.md "Layers" at link level.

An include says what a file may see; a call is what ties two files. For every object under
OBJ_DIR (build/obj), `nm -u` gives the symbols it calls and `nm -g --defined-only` which
object defines them: that is the file graph. Layers, bottom to top:

  core < engine < backends < tui/metrics and tui/*.c (less main.c) < tui/exp
       < tui/console < tui/main.c

It fails (exit 1) with `FILE -> FILE: symbol` on a call from a lower layer to a higher one,
and with `cycle: FILE FILE ...` (and the calls that tie them) on any circle of files: a
strongly connected component of more than one file in the whole graph, inside a folder or
across folders, with no exception. With --list-cycles it also prints every circle, one line
each (`FOLDER: a.c <-> b.c` when its files share a folder, else their paths). An object whose
source is gone from the tree (a build directory from before a file moved) is left out unless
--every-object is given (the planted objects of tests/cli/test_layers.sh have no source).
"""
import os
import subprocess
import sys

LAYERS = ["core", "engine", "backends", "diag", "tui (shared)", "tui/exp", "tui/console",
          "tui/main.c"]
# diag/ sits above the sources only in this order: it reads snapshots, so of what is below it
# may call core alone (docs/design.md "Layers").
DIAG_MAY_CALL = {"core", "diag"}


def layer(src):
    """The layer index of a source path, or None for what is not layered (tests, bench)."""
    if src == "tui/main.c":
        return 7
    if src.startswith("tui/console/"):
        return 6
    if src.startswith("tui/exp/"):
        return 5
    if src.startswith("tui/metrics/") or (src.startswith("tui/") and src.count("/") == 1):
        return 4
    for i, top in enumerate(("core/", "engine/", "backends/", "diag/")):
        if src.startswith(top):
            return i
    return None


ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def objects(objdir, every):
    out = {}
    for dirpath, _, names in os.walk(objdir):
        for n in sorted(names):
            if n.endswith(".o"):
                path = os.path.join(dirpath, n)
                src = os.path.relpath(path, objdir)[:-2] + ".c"
                if layer(src) is not None and (every or os.path.exists(os.path.join(ROOT, src))):
                    out[path] = src
    return out


def nm(args, paths):
    """{path: [symbol]} from one nm run over every object (-A names the file, -P one format)."""
    res = {p: [] for p in paths}
    if not paths:
        return res
    # A file nm cannot read is said on stderr; the others still count.
    run = subprocess.run(["nm", "-A", "-P"] + args + sorted(paths), capture_output=True,
                         text=True)
    sys.stderr.write(run.stderr)
    text = run.stdout
    for line in text.splitlines():
        # "FILE: SYMBOL TYPE [VALUE SIZE]"
        head, sep, rest = line.partition(": ")
        if not sep or head not in res:
            continue
        fields = rest.split()
        if fields:
            res[head].append(fields[0])
    return res


def graph(objdir, every=False):
    objs = objects(objdir, every)
    defined = nm(["-g", "--defined-only"], objs)
    undef = nm(["-u"], objs)
    owner = {}
    for path, syms in defined.items():
        for s in syms:
            owner.setdefault(s, objs[path])
    edges = {}  # (from, to) -> [symbols]
    for path, syms in undef.items():
        a = objs[path]
        for s in syms:
            b = owner.get(s)
            if b and b != a:
                edges.setdefault((a, b), []).append(s)
    return sorted(set(objs.values())), edges


def sccs(nodes, succ):
    """Tarjan's strongly connected components (iterative), each of more than one node."""
    index, low, on, stack, out, n = {}, {}, set(), [], [], 0
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(succ.get(root, ())))]
        index[root] = low[root] = n
        n += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = n
                    n += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(succ.get(w, ()))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def cycles(nodes, edges):
    """Every circle of files in the whole graph: [component], each sorted, more than one file."""
    succ = {}
    for (a, b) in edges:
        succ.setdefault(a, []).append(b)
    return sorted(sccs(nodes, {k: sorted(v) for k, v in succ.items()}))


def cycle_name(comp):
    """`FOLDER: a.c <-> b.c` for a circle inside one folder, else `a/x.c <-> b/y.c`."""
    dirs = {os.path.dirname(f) for f in comp}
    if len(dirs) == 1:
        return f"{dirs.pop()}: " + " <-> ".join(os.path.basename(f) for f in comp)
    return " <-> ".join(comp)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    list_cycles = "--list-cycles" in sys.argv[1:]
    # Run bare (tests/run.sh runs every tests/*/*.py): the objects of the build under test.
    if not args:
        args = [os.path.join(os.environ.get("TT_BUILD", os.path.join(ROOT, "build")), "obj")]
    if len(args) != 1 or not os.path.isdir(args[0]):
        print("usage: check_calls.py [OBJ_DIR] [--list-cycles] [--every-object]", file=sys.stderr)
        return 2
    nodes, edges = graph(args[0], "--every-object" in sys.argv[1:])
    if not nodes:
        print(f"check_calls: no objects under {args[0]}", file=sys.stderr)
        return 2
    bad = []
    for (a, b), syms in sorted(edges.items()):
        if layer(a) < layer(b):
            bad.append(f"{a} -> {b}: {', '.join(sorted(syms))} "
                       f"({LAYERS[layer(a)]} calls up into {LAYERS[layer(b)]})")
        elif a.startswith("diag/") and LAYERS[layer(b)] not in DIAG_MAY_CALL:
            bad.append(f"{a} -> {b}: {', '.join(sorted(syms))} "
                       f"(diag reads snapshots: it may call only core)")
    circles = cycles(nodes, edges)
    for comp in circles:
        ties = [f"{a} -> {b}: {', '.join(sorted(s))}" for (a, b), s in sorted(edges.items())
                if a in comp and b in comp]
        bad.append("cycle: " + " ".join(comp) + "\n  " + "\n  ".join(ties))
    if list_cycles:
        for comp in circles:
            print(cycle_name(comp))
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
