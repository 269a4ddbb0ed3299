#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# tt-sanitize: the exporter's HTTP thread beside the console's sampler
"""test_serve_prom.py: a real Prometheus (Debian's prometheus) scrapes `tunetop --serve` running
the console in tmux on pmd-seed (est and blk on too): promtool (0.0.4) and prometheus_client's
OpenMetrics parser accept a scrape of the engine and of the host source; Prometheus' HTTP API finds rate() of the PMD drops counter > 0, the est
tick time, the blk p99 (gauge and histogram_quantile), and pmd.maxsleep_us changing after `m`
is pressed in the console. Skips (77) without prometheus, promtool or tmux."""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import ttcheck  # noqa: E402
from promlib import Prometheus, free_port, get  # noqa: E402
from ttcheck import finish  # noqa: E402


def check(what, cond):
    return ttcheck.check(cond, what)


TUNETOP = os.environ["TUNETOP"]
# tests/run.sh's timeout sends SIGTERM: leave through the cleanup below, not around it.
signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
for tool in ("prometheus", "promtool", "tmux"):
    if not shutil.which(tool):
        print(f"{tool} not installed (make test-deps)")
        sys.exit(77)


def wait_scrape(port, deadline_s=30):
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        st, ct, body = get(f"http://127.0.0.1:{port}/metrics")
        if st == 200:
            return ct, body
        time.sleep(0.2)
    return "", ""


def promtool(text):
    r = subprocess.run(["promtool", "check", "metrics"], input=text, capture_output=True,
                       text=True, timeout=60)
    return r.returncode == 0, (r.stdout + r.stderr)[-800:]


OM_PARSE = ("import sys\nfrom prometheus_client.openmetrics.parser import "
            "text_string_to_metric_families as p\nprint(len(list(p(sys.stdin.read()))))")


def om_parser():
    """A Python with prometheus_client (Debian python3-prometheus-client), or None."""
    for py in (sys.executable, "/usr/bin/python3"):
        if os.path.exists(py) and subprocess.run([py, "-c", "import prometheus_client"],
                                                 capture_output=True).returncode == 0:
            return py
    return None


def om_check(what, text):
    """prometheus_client's OpenMetrics parser (strict: # EOF, UNIT, counter names) on text."""
    py = om_parser()
    if not py:
        print(f"note: {what}: no prometheus_client (python3-prometheus-client); not parsed")
        return
    r = subprocess.run([py, "-c", OM_PARSE], input=text, capture_output=True, text=True,
                       timeout=60)
    check(f"{what}: the OpenMetrics parser takes it ({r.stdout.strip()} families) "
          f"{r.stderr.strip()[-300:]}", r.returncode == 0 and int(r.stdout or 0) > 10)


tmp = tempfile.mkdtemp(prefix="tt-prom.")
sock = f"tt-prom-{os.getpid()}"
procs = []


def tmux(*args):
    return subprocess.run(["tmux", "-L", sock, "-f", "/dev/null", *args], capture_output=True,
                          text=True, timeout=30)


try:
    # The host source, once, as a daemon: promtool on its scrape.
    hport = free_port()
    host = subprocess.Popen([TUNETOP, "--host", "--serve", f"127.0.0.1:{hport}", "-b", "-o",
                             "/dev/null", "-d", "0.3"], stderr=subprocess.PIPE)
    procs.append(host)
    ct, body = wait_scrape(hport)
    check("host source: /metrics answers with the 0.0.4 content type",
          ct.startswith("text/plain; version=0.0.4"))
    ok, out = promtool(body)
    check(f"host source: promtool check metrics passes {out if not ok else ''}", ok)
    check("host source: tunetop_info says backend host", 'backend="host"' in body)
    om_check("host source", get(f"http://127.0.0.1:{hport}/metrics",
                                accept="application/openmetrics-text")[2])
    host.terminate()
    host.wait(timeout=10)

    # The engine in the console, so a key press changes a knob.
    port = free_port()
    cmd = (f"exec {TUNETOP} --scenario pmd-seed --set est.enabled=on --set blk.enabled=on "
           f"--serve 127.0.0.1:{port} -d 0.5 2>{tmp}/stderr")
    tmux("new", "-d", "-x", "120", "-y", "40", cmd)
    ct, body = wait_scrape(port)
    ok, out = promtool(body)
    check(f"engine: promtool check metrics passes {out if not ok else ''}", ok)
    st, ct, om = get(f"http://127.0.0.1:{port}/metrics",
                     accept="application/openmetrics-text; version=1.0.0,text/plain;q=0.5")
    check("engine: Accept openmetrics gets OpenMetrics ending in # EOF",
          st == 200 and ct.startswith("application/openmetrics-text") and om.endswith("# EOF\n"))
    om_check("engine", om)
    check("engine: other paths are 404", get(f"http://127.0.0.1:{port}/nothing")[0] == 404)

    prom = Prometheus(tmp, [f"127.0.0.1:{port}"])
    procs.append(prom.proc)
    wait_query = prom.wait_query

    check("prometheus: the target is up",
          wait_query('up{job="tunetop"}', lambda v: v[0] == 1) is not None)
    check("prometheus: rate(tunetop_pmd_dropped_packets_total[5s]) > 0 (pmd-seed drops)",
          wait_query("rate(tunetop_pmd_dropped_packets_total[5s])", lambda v: v[0] > 0)
          is not None)
    check("prometheus: est tick time (tunetop_est_tick_last_seconds) > 0",
          wait_query("tunetop_est_tick_last_seconds", lambda v: v[0] > 0, 90) is not None)
    check("prometheus: est tick histogram counts ticks",
          wait_query("tunetop_est_tick_seconds_count", lambda v: v[0] > 0) is not None)
    check("prometheus: blk p99 summary quantile > 0",
          wait_query('tunetop_blk_interval_latency_seconds{quantile="0.99"}',
                     lambda v: v[0] > 0) is not None)
    check("prometheus: histogram_quantile(0.99) of the blk latency buckets > 0",
          wait_query("histogram_quantile(0.99, rate(tunetop_blk_latency_seconds_bucket[5s]))",
                     lambda v: v[0] > 0) is not None)
    before = wait_query('tunetop_knob_seconds{knob="pmd.maxsleep_us"}', lambda v: True)
    # pmd-seed's own max sleep, whatever the scenario says today (50 us at this writing).
    check(f"prometheus: pmd.maxsleep_us knob read ({before})",
          before is not None and len(before) == 1 and before[0] > 0)
    tmux("send-keys", "3", "F8")  # the pmd view's F8: maxsleep one step up
    after = wait_query('tunetop_knob_seconds{knob="pmd.maxsleep_us"}',
                       lambda v: before is not None and v[0] != before[0], 30)
    check(f"prometheus: pmd.maxsleep_us follows the console's `F8` ({after})",
          after is not None and before is not None and after[0] > before[0])
finally:
    tmux("kill-server")
    for p in procs:
        if p.poll() is None:
            p.terminate()
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
    shutil.rmtree(tmp, ignore_errors=True)
finish()
