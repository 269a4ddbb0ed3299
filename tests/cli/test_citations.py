#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""test_citations.py [ROOT]: what comments and folder READMEs cite is in a newcomer's clone.

Checks, each failure printed as FILE:LINE: what:
  1. a comment (C /* */ and //, # in shell/Python/Makefile, Python docstrings) of a tracked
     source file cites no file outside the tree: the old contract, design and style pages, the
     old spec folder, the shared project folder one level up;
  2. no comment says "issue N" (say the fact instead);
  3. a repository path in a comment (docs/x.md, core/x.c, tests/..., globs like tui/ui_*.c or
     source.[ch]) exists; paths under build/, /proc, /sys and the like are not ours;
  4. a cited `docs/X.md §N` (and each § after it: "§3-§5", "§2, §3") is a numbered heading
     of docs/X.md, and a cited `docs/X.md "Heading"` is a heading of it (with or without
     its number);
  5. every tracked file directly in a folder that has a README.md is named in it by file
     name (`name.[ch]` or either half names both, `rowfmt*.c` names what it matches), and
     every file name a README names in backquotes exists somewhere in the tree.
  6. docs/*.md (but docs/README.md) cite neither those outside files nor issue numbers.
Exit 0 when all hold, 1 otherwise.
"""
import ast
import fnmatch
import io
import os
import re
import subprocess
import sys
import tokenize

ROOT = os.path.abspath(
    sys.argv[1] if len(sys.argv) > 1 else os.environ.get("TT_TOP")
    or os.path.join(os.path.dirname(__file__), "..", ".."))
SELF = "tests/cli/test_citations.py"

# Files other work adds or removes around the same time: a README may name them, and a
# README need not name them yet.
UPCOMING = {
    "ui_draw.c", "ui_knob.c", "engine_int.h", "engine_knobs.c", "src_async.c",
    "src_async.h", "source_async.c", "source_async.h", "safefile.c", "safefile.h",
}
# Built, not tracked: comments may name them.
GENERATED = {"tests/layers/nocurses", "tests/tui/golden/"}
TOPS = ("docs", "core", "engine", "backends", "tui", "tests", "tools", "bench", "systemd",
        "themes", ".ci")


def tracked():
    try:
        out = subprocess.run(["git", "-C", ROOT, "ls-files"], capture_output=True, text=True,
                             check=True).stdout.split("\n")
        files = [f for f in out if f and os.path.exists(os.path.join(ROOT, f))]
        if files:
            return sorted(files)
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for dirpath, dirs, names in os.walk(ROOT):
        dirs[:] = [d for d in dirs if not d.startswith(".git") and d != "build"
                   and os.path.relpath(os.path.join(dirpath, d), ROOT) != "build"]
        for n in names:
            files.append(os.path.relpath(os.path.join(dirpath, n), ROOT))
    return sorted(files)


FILES = tracked()
FILESET = set(FILES)
DIRS = {os.path.dirname(f) for f in FILES}
for d in list(DIRS):
    while d:
        d = os.path.dirname(d)
        DIRS.add(d)
BASENAMES = {os.path.basename(f) for f in FILES}
problems = []


def report(path, line, what):
    problems.append(f"{path}:{line}: {what}")


# ---- comments ---------------------------------------------------------------------------

def c_comments(text):
    """(line, text) of each C comment; strings and character constants skipped."""
    i, n, line = 0, len(text), 1
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
            i += 1
        elif ch in "\"'":
            j = i + 1
            while j < n and text[j] != ch and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            line += text.count("\n", i, j)
            i = j + 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j
            body = text[i:j]
            for k, part in enumerate(body.split("\n")):
                yield line + k, part
            line += body.count("\n")
            i = j + 2
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            yield line, text[i:j]
            i = j
        else:
            i += 1


HASH = re.compile(r"(?:^|(?<=[\s;]))#(?![!{])(.*)$")


def hash_comments(text):
    for no, raw in enumerate(text.split("\n"), 1):
        if no == 1 and raw.startswith("#!"):
            continue
        # Drop quoted strings first so a '#' inside one is not a comment.
        line = re.sub(r"'[^']*'|\"(?:\\.|[^\"\\])*\"", "''", raw)
        m = HASH.search(line)
        if m:
            # Report the comment as written (quotes and all) from the same column on.
            yield no, raw[m.start():]


def py_comments(text):
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                yield tok.start[0], tok.string
    except (tokenize.TokenError, IndentationError, SyntaxError):
        yield from hash_comments(text)
        return
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(
                    getattr(body[0], "value", None), ast.Constant) and isinstance(
                        body[0].value.value, str):
                for k, part in enumerate(body[0].value.value.split("\n")):
                    yield body[0].lineno + k, part


def comments(path, text):
    if path.endswith((".c", ".h")):
        return c_comments(text)
    if path.endswith(".py"):
        return py_comments(text)
    return hash_comments(text)


def source_files():
    for f in FILES:
        if f == SELF or f.startswith("tests/fuzz/corpus/"):
            continue
        base = os.path.basename(f)
        if f.endswith((".c", ".h", ".py", ".sh")) or base == "Makefile" or f == ".ci/run":
            yield f


# ---- docs headings ------------------------------------------------------------------------

HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*$")
NUMBERED = re.compile(r"^(\d+(?:\.\d+)*)\.?\s+(.*)$")
_docs = {}


def doc_headings(doc):
    """(section numbers, heading texts) of docs/X.md, or None when it is not there."""
    if doc not in _docs:
        p = os.path.join(ROOT, doc)
        if doc not in FILESET or not os.path.isfile(p):
            _docs[doc] = None
        else:
            nums, texts = set(), set()
            fence = False
            with open(p, errors="replace") as f:
                for raw in f:
                    if raw.startswith("```"):
                        fence = not fence
                    m = None if fence else HEADING.match(raw)
                    if not m:
                        continue
                    texts.add(m.group(1))
                    n = NUMBERED.match(m.group(1))
                    if n:
                        nums.add(n.group(1))
                        texts.add(n.group(2))
            _docs[doc] = (nums, texts)
    return _docs[doc]


# ---- the checks on one comment line ---------------------------------------------------------

OUTSIDE = re.compile(r"\b(INTERFACE|DESIGN|STYLE)\.md\b|(?<![\w/])spec/|\bspec §|\.\./shared")
ISSUE = re.compile(r"\bissues?\s+#?\d+", re.I)
PATH = re.compile(r"(?<![\w./$()\-~])((?:%s)/[\w.*\[\]/+-]*)" % "|".join(re.escape(t) for t in TOPS))
DOCREF = re.compile(r"\b(docs/[\w-]+\.md)((?:\s*(?:,|-|–|and|to|or)?\s*§\s*\d+(?:\.\d+)*)+)")
DOCHEAD = re.compile(r"\b(docs/[\w-]+\.md)\s+\"([^\"]+)\"")
SECNUM = re.compile(r"§\s*(\d+(?:\.\d+)*)")


def path_exists(p):
    p = p.rstrip(".,;:)'`")
    # A placeholder part (NAME, N, X: capitals only) stands for any name.
    p = "/".join(re.sub(r"^[A-Z]+(?=\.|$)", "*", part) for part in p.split("/"))
    if p in GENERATED or p.rstrip("/") in GENERATED:
        return True
    if any(c in p for c in "*[?"):
        pat = p.rstrip("/")
        return any(fnmatch.fnmatch(f, pat) for f in FILES) or any(
            fnmatch.fnmatch(d, pat) for d in DIRS)
    return p.rstrip("/") in FILESET or p.rstrip("/") in DIRS


def check_comment(path, line, text):
    m = OUTSIDE.search(text)
    if m:
        report(path, line, f"cites {m.group(0)!r}, which a clone of this repository lacks "
               "(cite docs/*.md)")
    m = ISSUE.search(text)
    if m:
        report(path, line, f"says {m.group(0)!r}: say the fact instead")
    for m in PATH.finditer(text):
        p = m.group(1)
        if p.rstrip(".,;:)'`/") in TOPS:
            continue
        if not path_exists(p):
            report(path, line, f"cites {p.rstrip('.,;:)`')}, which the repository does not have")
    for m in DOCREF.finditer(text):
        h = doc_headings(m.group(1))
        if h is None:
            continue  # already reported as a missing path
        for sec in SECNUM.findall(m.group(2)):
            if sec not in h[0]:
                report(path, line, f"cites {m.group(1)} §{sec}, which has no such section")
    for m in DOCHEAD.finditer(text):
        h = doc_headings(m.group(1))
        if h is not None and m.group(2) not in h[1]:
            report(path, line, f"cites {m.group(1)} \"{m.group(2)}\", which has no such heading")


def check_docs():
    """docs/*.md cite nothing outside the tree and no issue numbers either (docs/README.md,
    which maps the old citations to the new ones, excepted)."""
    for f in FILES:
        if not (f.startswith("docs/") and f.endswith(".md")) or f == "docs/README.md":
            continue
        with open(os.path.join(ROOT, f), errors="replace") as fh:
            for no, raw in enumerate(fh, 1):
                for rx, what in ((OUTSIDE, "cites %r, which a clone of this repository lacks"),
                                 (ISSUE, "says %r: say the fact instead")):
                    m = rx.search(raw)
                    if m:
                        report(f, no, what % m.group(0))


def check_sources():
    n = 0
    for f in source_files():
        try:
            with open(os.path.join(ROOT, f), errors="replace") as fh:
                text = fh.read()
        except OSError:
            continue
        n += 1
        for line, body in comments(f, text):
            check_comment(f, line, body)
    return n


# ---- folder READMEs ---------------------------------------------------------------------

NAMEISH = re.compile(r"`([\w.+-]+\.(?:c|h|py|sh|md|txt|json|jsonl|service|theme|bpf\.c))`")


def readme_names(text):
    """Every file name the README names; name.[ch] and name.{c,h} name each."""
    names = set()
    for m in re.finditer(r"([\w.+-]+)\.\[(\w+)\]", text):
        for c in m.group(2):
            names.add(f"{m.group(1)}.{c}")
    for m in re.finditer(r"([\w.+-]+)\.\{([\w,]+)\}", text):
        for c in m.group(2).split(","):
            names.add(f"{m.group(1)}.{c}")
    for m in re.finditer(r"[\w.*+-]+", text):
        names.add(m.group(0).rstrip("."))
    # A module is its .c and its .h: naming one names the other.
    for b in list(names):
        stem, ext = os.path.splitext(b)
        if ext in (".c", ".h"):
            names.update((stem + ".c", stem + ".h"))
    return names


def named(b, names):
    return b in names or any("*" in n and fnmatch.fnmatch(b, n) for n in names)


def check_readmes():
    n = 0
    for readme in FILES:
        if os.path.basename(readme) != "README.md" or readme == "README.md":
            continue
        folder = os.path.dirname(readme)
        with open(os.path.join(ROOT, readme), errors="replace") as fh:
            text = fh.read()
        n += 1
        names = readme_names(text)
        missing = [os.path.basename(f) for f in FILES
                   if os.path.dirname(f) == folder and os.path.basename(f) != "README.md"
                   and not named(os.path.basename(f), names)
                   and os.path.basename(f) not in UPCOMING]
        for b in missing:
            report(readme, 1, f"does not name {folder}/{b}")
        for no, raw in enumerate(text.split("\n"), 1):
            for m in NAMEISH.finditer(raw):
                b = os.path.basename(m.group(1))
                if "/" in m.group(1) or b in BASENAMES or b in UPCOMING:
                    continue
                report(readme, no, f"names {b}, which no folder has")
    return n


nsrc = check_sources()
check_docs()
nread = check_readmes()
for p in problems:
    print(p)
if problems:
    print(f"FAIL: {len(problems)} problems in {nsrc} source files and {nread} folder READMEs")
    sys.exit(1)
print(f"PASS: {nsrc} source files and {nread} folder READMEs cite only what the tree has")
