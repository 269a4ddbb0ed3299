#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""test_figures.py: every label the console's views print is in the figure table.

The screens are the golden ones (tests/tui/golden/, and its 60x16, ascii, langc, host and
fleet folders), so this reads what a person sees. Each word of a line that names a figure
(not a value: numbers, thread and host names, governor names, a recording's name) must be a
word of a label of that view's figures or of the header's (tunetop --list-figures); a word
the table lacks fails the test with the file and the line. Prose that names no figure
(messages such as "no tick with estimators yet") is listed below and taken out first."""
import os
import re
import subprocess
import sys

TUNETOP = os.environ["TUNETOP"]
TOP = os.environ.get("TT_TOP") or os.path.join(os.path.dirname(__file__), "..", "..")
GOLDEN = os.path.join(TOP, "tests", "tui", "golden")

# golden file stem -> the view its body shows
VIEWS = {"overview": "overview", "est": "est", "pmd": "pmd", "blk": "blk", "events": "events",
         "frozen": "events", "fleet": "fleet", "fleet-h2": "fleet", "h2-overview": "overview"}
# Messages, not figures: taken out of a line before its words are checked.
PROSE = [r"^ tunetop \S+", r"tick time histogram: no tick with estimators yet",
         r"\(ticks since start, all kthreads\)",
         r"\(CPU% of one.*",
         r"submit x complete: no completions in the interval",
         r"(est|pmd|blk) is not running \(:set [a-z.]+=on\)", r"(est|pmd|blk) is not running: .*",
         r"Open vSwitch: .*", r"\(--write to change\)", r"no events yet",
         r"\(\d+ more kthreads, in the totals only\)", r"\(irq\)", r"in the interval",
         r"\(\d+/s, \S+ while asleep\)", r"\[PAUSED\]", r"\(end\)", r"END OF RECORDING", r"FOLLOWING",
         r"\bof interval\b"]  # a percentage's base, said beside it
# Values that are words: states, subsystems in the SUBSYS column, governors and their source,
# link states, host names, the recordings the goldens play.
VALUES = {"S", "R", "I", "D", "pmd", "est", "blk", "engine", "performance", "powersave",
          "ondemand", "schedutil", "none", "emulated", "cpufreq", "no", "up", "down", "h1",
          "h2", "HUNG", "yes"}
THREAD = re.compile(r"^(pmd-c|est-k|est-pkt|gen|blk-sub|blk-irq|blk-dev|cpu-gov|watchdog|"
                    r"ksoftirqd|kworker|tt-)")
RECORDING = re.compile(r"\.jsonl(\.gz|\.zst)?$")


def table():
    out = subprocess.run([TUNETOP, "--list-figures"], capture_output=True, text=True,
                         timeout=60, check=True).stdout
    words = {}
    for line in out.splitlines():
        f = line.split("\t")
        if len(f) != 7:
            sys.exit(f"FAIL: --list-figures line is not 7 fields: {line!r}")
        for w in f[1].split() + [f[2]]:
            words.setdefault(f[0], set()).update({w, w.strip("()[],:")})
    return words


def checked_words(line):
    for p in PROSE:
        line = re.sub(p, " ", line)
    toks = line.split()
    for i, t in enumerate(toks):
        if i == len(toks) - 1 and (t.endswith("\u2026") or t.endswith("~")):
            continue  # cut at the margin
        t = t.strip("()[],:")
        if not re.search(r"[A-Za-z]", t) or re.match(r"^[-+#<>0-9.]", t):
            continue  # a number, a bound, a graph's bars
        if t in VALUES or THREAD.match(t) or RECORDING.search(t) or re.match(r"^cpu\d", t):
            continue
        yield t


def lines_to_check(stem, lines):
    """The lines that name figures: all but the function bar, the frozen hint, graph rows,
    event rows and the thread table's rows (of which only DETAIL names figures)."""
    for n, l in enumerate(lines):
        if n == len(lines) - 1 or l.startswith("frozen:"):
            continue
        l = re.sub(r"\s*\d+\[[^\]]*\]?", " ", l) if re.match(r"^\s*\d+\[", l) else l
        if re.search(r"[\u2500-\u28ff]|\|\s*$|^\s*\S*\s*[|\u2524]", l):
            continue  # a graph's axis or bars (Unicode or ASCII)
        if re.match(r"^\d\d:\d\d:\d\d ", l):
            continue  # an event: its kind and text are values
        if re.match(r"^\s+\d+ \S", l) and len(l) > 51 and stem.endswith("overview"):
            l = l[51:]  # a thread row: DETAIL only
        elif re.match(r"^\s*[-\d]", l) or re.match(r"^(pmd-c|h\d)\S* ", l):
            continue  # a table's row: values
        yield n + 1, l


def main():
    words = table()
    missing, n = [], 0
    for sub in ("", "60x16", "ascii", "langc", "host", "fleet"):
        d = os.path.join(GOLDEN, sub)
        for name in sorted(os.listdir(d)):
            stem = name[:-4]
            if not name.endswith(".txt") or stem not in VIEWS:
                continue
            with open(os.path.join(d, name), encoding="utf-8") as f:
                lines = f.read().splitlines()
            allowed = words.get("header", set()) | words.get(VIEWS[stem], set())
            if sub == "host":  # the pmd view on a live OVS has its own columns
                allowed |= words.get("pmd-host", set())
            for ln, line in lines_to_check(stem, lines):
                for w in checked_words(line):
                    n += 1
                    if w not in allowed:
                        missing.append(f"{os.path.join(sub, name)}:{ln}: '{w}' in {line.strip()!r}")
    for m in missing:
        print("FAIL: not in the figure table:", m)
    if missing or n < 100:
        print(f"FAIL: {len(missing)} printed labels missing from tui/figures.c ({n} checked)")
        sys.exit(1)
    print(f"ok: every one of {n} printed label words is in the figure table")


main()
