#!/usr/bin/env python3
"""Regenerate the generated parts of README.md from the binary, so docs cannot drift.

Usage: tools/readme_gen.py TUNETOP [--check]
Replaces the text between <!-- BEGIN X --> and <!-- END X --> for X in KNOBS, SCENARIOS, KEYS,
METRICS and JSON. With --check, exits 1 (printing a diff) when README.md is not up to date.
"""
import difflib
import json
import re
import subprocess
import sys

tunetop = sys.argv[1]
check = "--check" in sys.argv
readme_path = __file__.rsplit("/tools/", 1)[0] + "/README.md"


def run(*args):
    return subprocess.run([tunetop, *args], capture_output=True, text=True, check=True,
                          timeout=120).stdout


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
    out = {}
    # Long enough for the subsystems' first events (calibration, kthread starts).
    for line in run("-b", "-n", "3", "-d", "0.5").splitlines():
        walk(json.loads(line), "", out)
    # The host section exists only with --host; only it is taken from that run.
    try:
        for line in run("--host", "-b", "-n", "2", "-d", "0.2").splitlines():
            host = json.loads(line).get("host")
            if host is not None:
                walk({"host": host}, "", out)
    except subprocess.CalledProcessError:
        pass
    for f in ("time", "kind", "text"):
        out.pop("events[]", None)
        out.setdefault(f"events[].{f}", {"string"})
    # The default run raises no diagnosis: its fields as docs/diag.md gives them.
    out.pop("diagnoses[]", None)
    for f, t in (("id", "string"), ("severity", "string"), ("since", "number"),
                 ("since_time", "string"), ("evidence[].figure", "string"),
                 ("evidence[].value", "number"), ("evidence[].unit", "string"),
                 ("conclusion", "string"), ("fix", "string, null")):
        out.setdefault(f"diagnoses[].{f}", set(t.split(", ")))
    # Paths under an array that were also seen as the empty array itself.
    for p in [p for p in out if p.endswith("[]") and any(q.startswith(p + ".") for q in out)]:
        del out[p]
    return out


def meanings():
    out = {}
    with open(__file__.rsplit("/", 1)[0] + "/json_fields.txt") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            path, _, text = line.rstrip("\n").partition("\t")
            out[path] = text
    return out


TOP_ORDER = ["schema", "tool", "version", "time", "uptime_s", "interval_s", "backend", "seq",
             "cpu", "threads", "est", "pmd", "blk", "host", "knobs", "events", "diagnoses", "self"]


def order(p):
    head = p.split(".")[0].split("[")[0]
    return (TOP_ORDER.index(head) if head in TOP_ORDER else 99, p)


def json_md():
    fields = json_fields()
    mean = meanings()
    rows = ["| field | type | meaning |", "|---|---|---|"]
    for p in sorted(fields, key=order):
        rows.append(f"| `{p}` | {', '.join(sorted(fields[p]))} | {mean.get(p, '')} |")
    return "\n".join(rows)


text = open(readme_path).read()
new = text
for name, gen in (("KNOBS", knobs_md), ("SCENARIOS", scenarios_md), ("KEYS", keys_md),
                  ("METRICS", metrics_md), ("JSON", json_md)):
    pat = re.compile(rf"(<!-- BEGIN {name} [^>]*-->)\n(?:.*?\n)?(<!-- END {name} -->)", re.S)
    if not pat.search(new):
        raise SystemExit(f"README.md has no BEGIN/END {name} markers")
    body = gen()
    new = pat.sub(lambda m: m.group(1) + "\n" + body + "\n" + m.group(2), new)

def json_check(text):
    """The JSON table may not name a field the binary lacks, nor miss one it writes.

    Runs differ in which arrays happen to be empty, so this compares sets, not text."""
    m = re.search(r"<!-- BEGIN JSON [^>]*-->\n(.*?)<!-- END JSON -->", text, re.S)
    documented = set(re.findall(r"^\| `([^`]+)` \|", m.group(1), re.M))
    produced = json_fields()
    problems = []
    for p in produced:
        if p.endswith("[]"):
            if not any(d.startswith(p) for d in documented):
                problems.append(f"written but not documented: {p}")
        elif p not in documented:
            problems.append(f"written but not documented: {p}")
    for d in meanings():
        parts = d.split("[]")
        if d not in produced and not (len(parts) > 1 and parts[0] + "[]" in produced) \
                and not d.startswith("host."):
            problems.append(f"tools/json_fields.txt names a field not written: {d}")
    for d in documented:
        if d in produced:
            continue
        # An element field of an array that was empty in this run is not a drift.
        parts = d.split("[]")
        if len(parts) > 1 and parts[0] + "[]" in produced:
            continue
        problems.append(f"documented but not written: {d}")
    return problems


if check:
    problems = json_check(text)
    for name in ("KNOBS", "SCENARIOS", "KEYS", "METRICS"):
        pat = re.compile(rf"<!-- BEGIN {name} [^>]*-->\n(.*?)<!-- END {name} -->", re.S)
        if pat.search(text).group(1) != pat.search(new).group(1):
            problems.append(f"the {name} table differs from the binary")
    for p in problems:
        print(p)
    if problems:
        print("README.md is out of date: run `make readme`")
        sys.exit(1)
    print("README.md generated parts are up to date")
else:
    open(readme_path, "w").write(new)
