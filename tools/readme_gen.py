#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Regenerate the generated parts of the docs from the binary, so they cannot drift.

Usage: tools/readme_gen.py TUNETOP [--check]
Replaces the text between BEGIN X and END X markers (<!-- --> in Markdown, .\\" in the man
page, # in the bash completion) in README.md, docs/reference.md, docs/json.md,
docs/metrics.md, docs/figures.md, tunetop.1 and completion/tunetop.bash, from tunetop
--list-options, --list-knobs, --list-scenarios, --list-keys, --list-metrics, --list-figures,
--list-json, tunetop experiment --help, the Makefile's
DEB_PKGS/DEB_TEST_PKGS and tests/tui/golden/overview.txt. With --check, exits 1 (naming
each block) when one is not up to date.
"""
import json
import re
import subprocess
import sys

tunetop = sys.argv[1]
check = "--check" in sys.argv
top = __file__.rsplit("/tools/", 1)[0]


def run(*args):
    return subprocess.run([tunetop, *args], capture_output=True, text=True, check=True,
                          timeout=120).stdout


def md(s):
    return s.replace("|", "\\|")


# --- the option table -----------------------------------------------------------------------

GROUP_TITLES = {"general": None, "source": "Sources", "output": "Output", "looks": "Looks",
                "lists": "Lists", "info": None}


def options():
    """--list-options rows as dicts; aliases folded into the option they stand for."""
    rows, aliases = [], {}
    for line in run("--list-options").splitlines():
        f = line.split("\t")
        if len(f) != 7:
            raise SystemExit(f"cannot parse --list-options line: {line!r}")
        name, short, arg, group, comp, hlp, more = [None if x == "-" else x for x in f]
        row = dict(name=name, short=short, arg=arg, group=group, complete=comp, help=hlp,
                   more=more, aliases=[])
        if group == "alias":
            m = re.match(r"the same as (--\S+)", hlp)
            aliases.setdefault(m.group(1) if m else "", []).append(name)
        rows.append(row)
    for r in rows:
        r["aliases"] = aliases.get(r["name"], [])
    return rows


def grouped(rows):
    for g, title in GROUP_TITLES.items():
        yield title, [r for r in rows if r["group"] == g]


def options_md():
    out = ["| option | meaning |", "|---|---|"]
    for title, rows in grouped(options()):
        for r in rows:
            names = ([f"`{r['short']}`"] if r["short"] else []) + [f"`{r['name']}`"] + \
                [f"`{a}`" for a in r["aliases"]]
            arg = f" {md(r['arg'])}" if r["arg"] else ""
            text = r["help"] + (". " + r["more"] if r["more"] else "")
            out.append(f"| {', '.join(names)}{arg} | {md(text)} |")
    return "\n".join(out)


OPT_RE = re.compile(r"((?<![\w.\-/])--?[A-Za-z][\w-]*)")


def roff(text, bold_options=True):
    """Plain text to a roff text line: escapes, and options in bold."""
    def esc(s):
        return s.replace("\\", "\\e").replace("-", "\\-")
    parts = OPT_RE.split(text) if bold_options else [text]
    s = "".join(f"\\fB{esc(p)}\\fR" if i % 2 else esc(p) for i, p in enumerate(parts))
    return "\\&" + s if s[:1] in (".", "'") else s


def options_man():
    out = []
    for title, rows in grouped(options()):
        if title:
            out.append(f'.SS "{title}"')
        for r in rows:
            names = ([r["short"]] if r["short"] else []) + [r["name"]] + r["aliases"]
            tag = ", ".join(f"\\fB{n.replace('-', chr(92) + '-')}\\fR" for n in names)
            if r["arg"]:
                tag += " \\fI" + roff(r["arg"], False) + "\\fR"
            text = r["help"][:1].upper() + r["help"][1:] + "."
            if r["more"]:
                text += " " + r["more"]
            out += [".TP", tag, roff(text)]
    return "\n".join(out)


def completion():
    rows = options()
    words = " ".join(w for r in rows for w in ([r["short"]] if r["short"] else []) + [r["name"]])
    cases = {}
    for r in rows:
        if not r["arg"]:
            continue
        names = "|".join(([r["short"]] if r["short"] else []) + [r["name"]])
        c = r["complete"]
        if c == "<file>":
            body = 'COMPREPLY=($(compgen -f -- "$cur"))'
        elif c == "<knob>":
            body = ('COMPREPLY=($(compgen -W "$("$bin" --list-knobs 2>/dev/null | '
                    'awk \'{print $1 "="}\')" -- "$cur")); compopt -o nospace 2>/dev/null')
        elif c == "<scenario>":
            body = ('COMPREPLY=($(compgen -W "$("$bin" --list-scenarios 2>/dev/null | '
                    'awk \'{print $1}\')" -- "$cur") $(compgen -f -- "$cur"))')
        elif c == "<theme>":
            body = ('COMPREPLY=($(compgen -W "$("$bin" --list-themes 2>/dev/null | '
                    'awk \'$1 != "PATH" {print $1}\')" -- "$cur") $(compgen -f -- "$cur"))')
        elif c:
            body = f'COMPREPLY=($(compgen -W "{c}" -- "$cur"))'
        else:
            body = ":" # free text: nothing to offer
        cases.setdefault(body, []).append(names)
    out = ["_tunetop() {",
           "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}",
           "\tlocal bin=${COMP_WORDS[0]}",
           "\tcommand -v \"$bin\" >/dev/null 2>&1 || bin=tunetop",
           "\tcase $prev in"]
    for body, names in cases.items():
        out += [f"\t{'|'.join(names)})", f"\t\t{body}", "\t\treturn ;;"]
    out += ["\tesac",
            "\tif [[ $cur == -* ]]; then",
            f'\t\tCOMPREPLY=($(compgen -W "{words}" -- "$cur"))',
            "\telif [ \"$COMP_CWORD\" -eq 1 ]; then",
            '\t\tCOMPREPLY=($(compgen -W "experiment" -- "$cur"))',
            # The experiments' names from the binary's own list (tunetop experiment --help).
            "\telif [ \"$COMP_CWORD\" -eq 2 ] && [ \"${COMP_WORDS[1]}\" = experiment ]; then",
            ('\t\tCOMPREPLY=($(compgen -W "$("$bin" experiment --help 2>/dev/null | '
             'awk \'/^Experiments:/ {f = 1; next} /^$/ {f = 0} f {print $1}\')" -- "$cur"))'),
            "\tfi",
            "}",
            "complete -F _tunetop tunetop"]
    return "\n".join(out)


def knobs_md():
    rows = ["| knob | valid values | default | meaning |", "|---|---|---|---|"]
    for line in run("--list-knobs").splitlines():
        m = re.match(r"^(\S+)\s+(.*?)\s+default (\S+)\s+(.*)$", line)
        if not m:
            raise SystemExit(f"cannot parse --list-knobs line: {line!r}")
        name, rng, default, hlp = m.groups()
        rows.append(f"| `{name}` | {rng.replace('|', ', ')} | {default} | {hlp} |")
    return "\n".join(rows)


def keys_md():
    rows = ["| key | what it does |", "|---|---|"]
    for line in run("--list-keys").splitlines():
        keys, _, what = line.partition("\t")
        keys = " ".join(f"`{k}`" if k != "\\" else "`\\`" for k in keys.split())
        rows.append(f"| {keys} | {what.replace('|', ', ')} |")
    return "\n".join(rows)


def scenarios_md():
    rows = ["| scenario | what runs |", "|---|---|"]
    for line in run("--list-scenarios").splitlines():
        name, _, summary = line.partition(" ")
        rows.append(f"| `{name}` | {summary.strip()} |")
    return "\n".join(rows)


def metrics_md():
    rows = ["| metric | type | labels | meaning |", "|---|---|---|---|"]
    for line in run("--list-metrics").splitlines():
        name, mtype, _unit, labels, hlp = line.split("\t")
        labels = ", ".join(f"`{x}`" for x in labels.split(",")) if labels != "-" else ""
        rows.append(f"| `{name}` | {mtype} | {labels} | {hlp.replace('|', ', ')} |")
    return "\n".join(rows)


FIGURE_VIEWS = {"header": "The header and footer (every view)",
                "overview": "The overview (1): the thread table",
                "est": "The est view (2)", "pmd": "The pmd view (3)",
                "pmd-host": "The pmd view on a live OVS (3, --host)",
                "blk": "The blk view (4)", "events": "The events view (5)",
                "fleet": "The fleet view (0, two or more --remote)"}


def figures():
    """--list-figures rows, grouped by view in the table's order."""
    out = {}
    for line in run("--list-figures").splitlines():
        f = line.split("\t")
        if len(f) != 7:
            raise SystemExit(f"cannot parse --list-figures line: {line!r}")
        out.setdefault(f[0], []).append(dict(zip(("label", "unit", "base", "source", "meaning",
                                                  "json"), f[1:])))
    for v in out:
        if v not in FIGURE_VIEWS:
            raise SystemExit(f"--list-figures names a view readme_gen.py lacks: {v}")
    return out


def unit_base(r):
    """"% of the interval's wall time", "us", "count, in the interval", or ""."""
    u = r["unit"] if r["unit"] != "-" else ""
    b = r["base"] if r["base"] != "-" else ""
    if u == "%" and b:
        return f"% of {b}"
    return ", ".join(x for x in (u, b) if x)


def figures_md():
    out = []
    for v, rows in figures().items():
        out += [f"### {FIGURE_VIEWS[v]}", "", "| label | unit, base | meaning | from | JSON |",
                "|---|---|---|---|---|"]
        for r in rows:
            js = f"`{r['json']}`" if r["json"] != "-" else ""
            out.append(f"| `{md(r['label'])}` | {md(unit_base(r))} | {md(r['meaning'])} | "
                       f"{md(r['source'])} | {js} |")
        out.append("")
    return "\n".join(out).rstrip("\n")


def figures_man():
    out = []
    for v, rows in figures().items():
        out.append(f'.SS "{FIGURE_VIEWS[v]}"')
        for r in rows:
            ub = unit_base(r)
            out += [".TP", f"\\fB{roff(r['label'], False)}\\fR" +
                    (f" ({roff(ub, False)})" if ub else ""),
                    roff(f"{r['meaning']} ({r['source']}" +
                         (f"; JSON {r['json']}" if r["json"] != "-" else "") + ").", False)]
    return "\n".join(out)


def walk(v, path, out):
    if isinstance(v, dict):
        for k, x in v.items():
            if path == "knobs":
                out.setdefault("knobs.<knob>", set()).add("value (number, string or bool)")
                continue
            walk(x, f"{path}.{k}" if path else k, out)
    elif isinstance(v, list):
        if not v:
            out.setdefault(path + "[]", set()).add("array")
        for x in v:
            walk(x, path + "[]", out)
    else:
        t = {bool: "bool", int: "integer", float: "number", str: "string"}.get(type(v), "null")
        if t in ("integer", "number"):
            t = "number"
        out.setdefault(path, set()).add(t)


def json_fields():
    """Paths the binary writes in a few -b runs (every section that runs here), and their types."""
    out = {}
    # Long enough for the subsystems' first events (calibration, kthread starts).
    runs = [run("-b", "-n", "3", "-d", "0.5"),
            run("-b", "-n", "2", "-d", "0.3", "--set", "pmd.enabled=on",
                "--set", "pmd.sleep_probe=on")]
    # The host section exists only with --host.
    try:
        runs.append(run("--host", "-b", "-n", "2", "-d", "0.2"))
    except subprocess.CalledProcessError:
        pass
    for text in runs:
        for line in text.splitlines():
            walk(json.loads(line), "", out)
    return out


def schema_fields():
    """tunetop --list-json: path, type, unit, meaning, in the order the line has them."""
    return [line.split("\t") for line in run("--list-json").splitlines()]


def json_md():
    rows = ["| field | type | unit | meaning |", "|---|---|---|---|"]
    for path, typ, unit, mean in schema_fields():
        rows.append(f"| `{path}` | {typ} | {unit if unit != '-' else ''} | {md(mean)} |")
    return "\n".join(rows)


def json_check():
    """A field a -b line has that tunetop --list-json lacks (the schema tables,
    core/snap_schema.c, or a hand-written one missing from core/snap_schema_list.c)."""
    listed = {f[0] for f in schema_fields()}
    problems = []
    for p in json_fields():
        # an array seen empty; a field of an object the list gives whole (a histogram)
        if p in listed or any(d.startswith((p + ".", p + "[]")) or p.startswith((d + ".", d + "["))
                              for d in listed):
            continue
        problems.append(f"written by -b but not in tunetop --list-json: {p}")
    return problems


def knobs_man():
    out = []
    for line in run("--list-knobs").splitlines():
        name, rng, default, hlp = re.match(r"^(\S+)\s+(.*?)\s+default (\S+)\s+(.*)$", line).groups()
        out += [".TP", f"\\fB{roff(name, False)}\\fR \\fI{roff(rng.replace('|', ', '), False)}\\fR"
                f" (default {roff(default, False)})", roff(hlp)]
    return "\n".join(out)


def keys_man():
    out = []
    for line in run("--list-keys").splitlines():
        keys, _, what = line.partition("\t")
        ks = keys.split()
        # "m / M": a "/" between two keys is "up / down", not the search key.
        tag = ", ".join(f"\\fB{roff(k, False)}\\fR" for k in ks)
        if len(ks) == 3 and ks[1] == "/":
            tag = f"\\fB{roff(ks[0], False)}\\fR / \\fB{roff(ks[2], False)}\\fR"
        out += [".TP", tag, roff(what)]
    return "\n".join(out)


def scenarios_man():
    out = []
    for line in run("--list-scenarios").splitlines():
        name, _, summary = line.partition(" ")
        out += [".TP", f"\\fB{roff(name, False)}\\fR", roff(summary.strip())]
    return "\n".join(out)


def experiments_man():
    """The experiments and every option of theirs, from `tunetop experiment --help`."""
    text = run("experiment", "--help")
    head, sep, rest = text.partition("\nCommon options:\n")
    if not sep or "Experiments:\n" not in head:
        raise SystemExit("cannot parse tunetop experiment --help")
    out = []
    for line in head.split("Experiments:\n", 1)[1].splitlines():
        if line.strip():
            name, _, summary = line.strip().partition(" ")
            out += [".TP", f"\\fB{roff(name, False)}\\fR", roff(summary.strip())]
    out += [".PP", "Their options, as \\fBtunetop experiment \\-\\-help\\fR lists them:", ".PP",
            ".nf"]
    out += [roff(line, False) if line.strip() else ".sp"
            for line in ("Common options:\n" + rest).rstrip("\n").splitlines()]
    out += [".fi"]
    return "\n".join(out)


def makefile_list(var):
    text = open(f"{top}/Makefile").read().replace("\\\n", " ")
    m = re.search(rf"^{var}\s*:=\s*(.*)$", text, re.M)
    if not m:
        raise SystemExit(f"Makefile has no {var}")
    return m.group(1).split()


def deps_md():
    build = ", ".join(f"`{p}`" for p in makefile_list("DEB_PKGS"))
    tests = ", ".join(f"`{p}`" for p in makefile_list("DEB_TEST_PKGS"))
    return (f"- to build and run (`DEB_PKGS`): {build}\n"
            f"- and for the tests (`DEB_TEST_PKGS`): {tests}")


def screen_md():
    with open(f"{top}/tests/tui/golden/overview.txt") as f:
        lines = [l.rstrip() for l in f.read().splitlines()]
    return "```\n" + "\n".join(lines) + "\n```"


# file -> (comment style, {block: generator})
TARGETS = {
    "README.md": ("md", {"DEPS": deps_md, "SCREEN": screen_md}),
    "docs/reference.md": ("md", {"OPTIONS": options_md, "SCENARIOS": scenarios_md,
                                 "KEYS": keys_md, "KNOBS": knobs_md}),
    "docs/json.md": ("md", {"JSON": json_md}),
    "docs/metrics.md": ("md", {"METRICS": metrics_md}),
    "docs/figures.md": ("md", {"FIGURES": figures_md}),
    "tunetop.1": ("man", {"OPTIONS": options_man, "KEYS": keys_man, "FIGURES": figures_man,
                          "SCENARIOS": scenarios_man, "KNOBS": knobs_man,
                          "EXPERIMENTS": experiments_man}),
    "completion/tunetop.bash": ("sh", {"COMPLETION": completion}),
}
MARK = {"md": (r"<!-- BEGIN {n} [^>]*-->", r"<!-- END {n} -->"),
        "man": (r'\.\\" BEGIN {n}[^\n]*', r'\.\\" END {n}'),
        "sh": (r"# BEGIN {n}[^\n]*", r"# END {n}")}


def block_re(style, name):
    b, e = MARK[style]
    return re.compile(f"({b.format(n=name)})\n(.*?)({e.format(n=name)})", re.S)


problems = []
for path, (style, blocks) in TARGETS.items():
    full = f"{top}/{path}"
    text = open(full).read()
    new = text
    for name, gen in blocks.items():
        pat = block_re(style, name)
        m = pat.search(new)
        if not m:
            raise SystemExit(f"{path} has no BEGIN/END {name} markers")
        if check and name == "JSON":
            problems += [f"{path}: {p}" for p in json_check()]
        body = gen() + "\n"
        if check and m.group(2) != body:
            problems.append(f"{path}: the {name} block differs from the binary")
        new = new[:m.start(2)] + body + new[m.end(2):]
    if not check and new != text:
        open(full, "w").write(new)

if check:
    for p in problems:
        print(p)
    if problems:
        print("generated docs are out of date: run `make readme`")
        sys.exit(1)
    print("generated docs are up to date")
