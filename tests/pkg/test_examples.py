#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""test_examples.py: the operator examples in docs/examples/ hold: promtool accepts the alerting
rules (check rules) and the scrape config (check config), the rules fire and stay quiet as
alerts_test.yml expects (promtool test rules), and every metric the rules and the Grafana
dashboard name is one `tunetop --list-metrics` lists (a histogram's _bucket/_sum/_count, and
Prometheus' own `up`, included), with only that metric's labels (and job, instance) in its
selectors, and none of the names marked deprecated; the dashboard has a row of panels for each view (est, pmd, blk, host).
Skips (77) without promtool."""
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import ttcheck  # noqa: E402
from ttcheck import finish  # noqa: E402

TOP = os.environ.get("TT_TOP") or os.path.join(os.path.dirname(__file__), "..", "..")
TUNETOP = os.environ.get("TUNETOP") or os.path.join(TOP, "tunetop")
EX = os.path.join(TOP, "docs", "examples")
RULES = os.path.join(EX, "tunetop-alerts.yml")
DASH = os.path.join(EX, "grafana-dashboard.json")


def check(what, cond):
    return ttcheck.check(cond, what)


if not shutil.which("promtool"):
    print("promtool not installed (make test-deps: prometheus)")
    sys.exit(77)


def promtool(*args):
    r = subprocess.run(["promtool", *args], capture_output=True, text=True, timeout=120,
                       cwd=os.path.dirname(os.path.abspath(__file__)))
    return r.returncode == 0, (r.stdout + r.stderr).strip()[-1500:]


ok, out = promtool("check", "rules", RULES)
check(f"promtool check rules tunetop-alerts.yml ({out if not ok else 'ok'})", ok)
ok, out = promtool("check", "config", os.path.join(EX, "prometheus.yml"))
check(f"promtool check config prometheus.yml ({out if not ok else 'ok'})", ok)
ok, out = promtool("test", "rules", "alerts_test.yml")
check(f"promtool test rules alerts_test.yml ({out if not ok else 'ok'})", ok)

# What the exporter serves: name, type, unit, labels, help (tab-separated).
r = subprocess.run([TUNETOP, "--list-metrics"], capture_output=True, text=True, timeout=60)
served, deprecated = {}, set()
for line in r.stdout.splitlines():
    f = line.split("\t")
    if len(f) < 4:
        continue
    labels = set() if f[3] == "-" else set(f[3].split(","))
    served[f[0]] = labels | {"job", "instance"}
    if f[1] == "histogram":
        served[f[0] + "_bucket"] = served[f[0]] | {"le"}
        served[f[0] + "_sum"] = served[f[0] + "_count"] = served[f[0]]
    if f[1] == "summary":
        served[f[0] + "_sum"] = served[f[0] + "_count"] = set(served[f[0]])
        served[f[0]] = served[f[0]] | {"quantile"}
    if f[1] == "info":
        served[f[0] + "_info"] = served[f[0]]
    if len(f) > 4 and "(deprecated: use " in f[4]:
        deprecated.update(f[0] + x for x in ("", "_bucket", "_sum", "_count", "_info"))
check(f"tunetop --list-metrics lists metrics ({len(served)} names)", r.returncode == 0 and
      len(served) > 20)
check(f"some names are marked deprecated ({len(deprecated)})", len(deprecated) >= 10)
served["up"] = {"job", "instance"}

KEYWORDS = {"and", "or", "unless", "bool", "offset", "by", "without", "on", "ignoring",
            "group_left", "group_right", "inf", "nan"}
GROUPING = re.compile(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)")
SELECTOR = re.compile(r"(?<![\w.$:])([a-zA-Z_:][\w:]*)?\s*\{([^}]*)\}")
IDENT = re.compile(r"(?<![\w.$:])([a-zA-Z_:][\w:]*)(?![\w:]|\s*\()")


def names_in(expr):
    """(metric, label keys of its selector) for every series an expression selects."""
    found = []
    m = re.fullmatch(r"\s*label_values\(\s*([a-zA-Z_:][\w:]*)\s*,.*\)\s*", expr)
    if m:
        return [(m.group(1), set())]
    e = re.sub(r'"(?:\\.|[^"\\])*"', '""', expr)
    e = re.sub(r"\[[^\]]*\]", "", e)
    e = GROUPING.sub(" ", e)
    for sel in SELECTOR.finditer(e):
        keys = set(re.findall(r"([a-zA-Z_]\w*)\s*(?:=~|!~|!=|=)", sel.group(2)))
        found.append((sel.group(1) or "", keys))
    e = SELECTOR.sub(lambda s: " " + (s.group(1) or "") + " ", e)
    for ident in IDENT.finditer(e):
        if ident.group(1).lower() not in KEYWORDS and \
                not any(n == ident.group(1) for n, _ in found):
            found.append((ident.group(1), set()))
    return found


def check_exprs(where, exprs):
    for what, expr in exprs:
        names = names_in(expr)
        check(f"{where}: {what} selects a metric", any(n for n, _ in names))
        for name, keys in names:
            if name not in served:
                check(f"{where}: {what}: {name or '(no name)'} is served", False)
                continue
            check(f"{where}: {what}: {name} is not a deprecated name", name not in deprecated)
            extra = keys - served[name]
            check(f"{where}: {what}: {name}" + (f" has no label {sorted(extra)}" if extra
                                                 else " is served, labels ok"), not extra)


# The rules, read without a YAML module: every `expr:` (one line or a `|` block).
rule_exprs, alerts = [], []
with open(RULES) as f:
    lines = f.read().split("\n")
i = 0
while i < len(lines):
    m = re.match(r"^(\s*)- alert:\s*(\S+)", lines[i])
    if m:
        alerts.append(m.group(2))
    m = re.match(r"^(\s*)expr:\s*(.*)$", lines[i])
    if m:
        if m.group(2).strip() in ("|", ">", "|-", ">-"):
            ind, body = len(m.group(1)), []
            i += 1
            while i < len(lines) and (not lines[i].strip() or
                                      len(lines[i]) - len(lines[i].lstrip()) > ind):
                body.append(lines[i])
                i += 1
            rule_exprs.append((alerts[-1], "\n".join(body)))
            continue
        rule_exprs.append((alerts[-1], m.group(2)))
    i += 1
check(f"the rules have the alerts operators asked for ({alerts})",
      {"TunetopDown", "TunetopPmdDropsWhileSleeping", "TunetopBlkLostKickHang"} <= set(alerts))
check("every alert has an expr", len(rule_exprs) == len(alerts))
check_exprs("rules", rule_exprs)

with open(DASH) as f:
    dash = json.load(f)
dash_exprs, views, current = [], {}, None
for p in dash.get("panels", []):
    if p.get("type") == "row":
        current = p.get("title", "").split(":")[0].strip()
        views[current] = 0
        continue
    views[current] = views.get(current, 0) + 1
    for t in p.get("targets", []):
        dash_exprs.append((f"panel '{p.get('title')}' {t.get('refId')}", t.get("expr", "")))
for v in dash.get("templating", {}).get("list", []):
    q = v.get("query")
    if isinstance(q, dict):
        q = q.get("query")
    if v.get("type") == "query" and q:
        dash_exprs.append((f"variable {v.get('name')}", q))
for view in ("est", "pmd", "blk", "host"):
    check(f"dashboard: a row for the {view} view with panels ({views.get(view, 0)})",
          views.get(view, 0) > 0)
check_exprs("dashboard", dash_exprs)
finish()
