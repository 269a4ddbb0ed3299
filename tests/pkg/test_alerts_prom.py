#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""test_alerts_prom.py: docs/examples/tunetop-alerts.yml in a real Prometheus (Debian's
prometheus) over live exporters: tunetop on pmd-seed (PMDs that sleep and drop) fires
TunetopPmdDropsWhileSleeping, tunetop on blk-steer with blk.fault_lost_kick=on fires
TunetopBlkLostKickHang (and the watchdog's TunetopThreadHang), a target where nothing listens
fires TunetopDown, and no alert fires for an instance whose view shows nothing wrong. The rules
run as shipped but for their durations, shortened (2m windows to 6s, for: to 2-3s) so the test
takes seconds. Skips (77) without prometheus."""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import ttcheck  # noqa: E402
from promlib import Prometheus, free_port, refused_port  # noqa: E402
from ttcheck import finish  # noqa: E402

TOP = os.environ.get("TT_TOP") or os.path.join(os.path.dirname(__file__), "..", "..")
TUNETOP = os.environ.get("TUNETOP") or os.path.join(TOP, "tunetop")
RULES = os.path.join(TOP, "docs", "examples", "tunetop-alerts.yml")
signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
if not shutil.which("prometheus"):
    print("prometheus not installed (make test-deps)")
    sys.exit(77)


def check(what, cond):
    return ttcheck.check(cond, what)


def shorten(text):
    """The shipped rules with durations fit for a 1 s scrape: windows of minutes become
    seconds (at least 6 s: three scrapes), for: clauses a few seconds."""
    text = re.sub(r"\[(\d+)m\]", lambda m: f"[{max(6, 3 * int(m.group(1)))}s]", text)
    return re.sub(r"for: (\d+)m", lambda m: f"for: {1 + int(m.group(1))}s", text)


tmp = tempfile.mkdtemp(prefix="tt-alerts.")
procs = []
try:
    # The down target is held bound and not listening: a free port left unbound could be given
    # to another server (once it was this test's own blk exporter, and TunetopDown never fired).
    ports = {"pmd": free_port(), "blk": free_port(), "down": refused_port()}
    runs = {
        "pmd": ["--scenario", "pmd-seed"],
        "blk": ["--scenario", "blk-steer", "--set", "blk.fault_lost_kick=on"],
    }
    with open(RULES) as f:
        rules = shorten(f.read())
    check("the shortened rules still differ only in durations",
          re.sub(r"\[\d+s\]|for: \d+s", "D", rules) ==
          re.sub(r"\[\d+m\]|for: \d+m", "D", open(RULES).read()))
    with open(f"{tmp}/rules.yml", "w") as f:
        f.write(rules)
    prom = Prometheus(tmp, [f"127.0.0.1:{p}" for p in ports.values()], f"{tmp}/rules.yml")
    procs.append(prom.proc)
    # The exporters start once Prometheus is ready, so it sees the hang happen (the watchdog
    # logs it once, a second or two in; a counter first scraped at 2 never increases).
    prom.ready()
    for name, args in runs.items():
        procs.append(subprocess.Popen(
            [TUNETOP, *args, "--serve", f"127.0.0.1:{ports[name]}", "-b", "-o", "/dev/null",
             "-d", "0.5"], stdout=subprocess.DEVNULL, stderr=open(f"{tmp}/{name}.log", "w")))
    inst = {name: f"127.0.0.1:{p}" for name, p in ports.items()}
    want = {("TunetopPmdDropsWhileSleeping", "pmd"), ("TunetopBlkLostKickHang", "blk"),
            ("TunetopThreadHang", "blk"), ("TunetopDown", "down")}
    firing, seen = set(), set()
    end = time.monotonic() + 120
    while time.monotonic() < end and not want <= firing:
        res = prom.api("alerts")
        for a in (res or {}).get("data", {}).get("alerts", []):
            who = next((n for n, i in inst.items() if i == a["labels"].get("instance")), "?")
            seen.add((a["labels"]["alertname"], who, a["labels"].get("pmd", "")))
            if a.get("state") == "firing":
                firing.add((a["labels"]["alertname"], who))
        time.sleep(0.5)
    for alert, who in sorted(want):
        if not check(f"{alert} fires for the {who} instance", (alert, who) in firing):
            # What Prometheus holds of the instance: each series' values as they changed.
            q = urllib.parse.urlencode({"query": f'{{instance="{inst[who]}", __name__=~'
                                        '"up|tunetop_events_total|tunetop_blk_in_flight_requests'
                                        '|tunetop_blk_completions_total|tunetop_blk_ipis_sent_total"'
                                        ', kind=~"|hang", path=~"|remote"}[3m]'})
            res = prom.api(f"query?{q}") or {}
            for r in res.get("data", {}).get("result", []):
                vals = [v for k, v in enumerate(r["values"]) if k == 0 or
                        v[1] != r["values"][k - 1][1]]
                print("   ", r["metric"].get("__name__"), len(r["values"]), "samples:",
                      [(round(t - r["values"][0][0], 1), x) for t, x in vals][:12])
    stray = {(a, w) for a, w, _ in seen} - want
    check(f"no other alert is pending or firing ({sorted(stray)})", not stray)
    pmds = sorted(p for a, w, p in seen if a == "TunetopPmdDropsWhileSleeping")
    check(f"the PMD alert names the PMDs ({pmds})", pmds and all(p.startswith("pmd") for p in pmds))
    for p in procs[1:]:
        check(f"tunetop {p.args[1:3]} still runs", p.poll() is None)
finally:
    for p in procs:
        if p.poll() is None:
            p.terminate()
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
    if ttcheck._failures:
        for log in ("prom.log", "pmd.log", "blk.log"):
            if os.path.exists(f"{tmp}/{log}"):
                print(f"--- {log}:", open(f"{tmp}/{log}").read()[-1000:])
    shutil.rmtree(tmp, ignore_errors=True)
finish()
