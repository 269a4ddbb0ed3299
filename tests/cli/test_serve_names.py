#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""test_serve_names.py: a thread named with bytes that are not UTF-8 (`kworker/\\xff\\xfe`, as
any user can set with prctl(PR_SET_NAME)) is listed by `tunetop --host` with U+FFFD in its place:
in the JSON line (threads[], the count matching threads_matched) and in the labels of /metrics,
which promtool and prometheus_client's parsers (0.0.4 and OpenMetrics) then accept whole.
Skips (77) without promtool."""
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from promlib import free_port  # noqa: E402
import ttcheck  # noqa: E402
from ttcheck import finish  # noqa: E402

TUNETOP = os.environ["TUNETOP"]
signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
if not shutil.which("promtool"):
    print("promtool not installed (make test-deps)")
    sys.exit(77)

BAD = b"kworker/\xff\xfe"
WANT = "kworker/\ufffd\ufffd"
# The helper names its own (main) thread and waits; the host source lists kworker* threads
# of any process.
NAMER = ("import ctypes,sys,time\n"
         "ctypes.CDLL(None).prctl(15, ctypes.c_char_p(bytes.fromhex(sys.argv[1])), 0, 0, 0)\n"
         "print('named', flush=True)\n"
         "time.sleep(120)\n")
# Parses stdin with a prometheus_client parser; prints the names labelled with tid argv[1].
PARSE = ("import json,sys\nfrom %s import text_string_to_metric_families as p\n"
         "print(json.dumps([s.labels.get('name') for f in p(sys.stdin.buffer.read().decode())"
         " for s in f.samples if s.labels.get('tid') == sys.argv[1]]))")


def get(url, accept=None):
    req = urllib.request.Request(url, headers={"Accept": accept} if accept else {})
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, r.read()
    except OSError:
        return 0, b""


procs = []
try:
    namer = subprocess.Popen([sys.executable, "-c", NAMER, BAD.hex()], stdout=subprocess.PIPE)
    procs.append(namer)
    namer.stdout.readline()
    with open(f"/proc/{namer.pid}/comm", "rb") as f:
        comm = f.read().rstrip(b"\n")
    ttcheck.check(comm == BAD, f"the helper thread is named {comm!r}")

    port = free_port()
    tt = subprocess.Popen([TUNETOP, "--host", "-b", "-d", "0.3", "--metrics-tid", "--serve", f"127.0.0.1:{port}"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    procs.append(tt)
    line = json.loads(tt.stdout.readline())  # stdout is JSON: bytes must have been repaired
    mine = [t for t in line["threads"] if t["tid"] == namer.pid]
    ttcheck.check(len(mine) == 1 and mine[0]["name"] == WANT,
                  f"JSON lists tid {namer.pid} named {WANT!r} ({mine})")
    ttcheck.check(len(line["threads"]) == line["host"]["threads_matched"],
                  f"JSON lists every matched thread ({len(line['threads'])} of "
                  f"{line['host']['threads_matched']})")

    end, body = time.monotonic() + 20, b""
    while time.monotonic() < end:
        st, body = get(f"http://127.0.0.1:{port}/metrics")
        if st == 200:
            break
        time.sleep(0.2)
    ttcheck.check(b"\xff" not in body and b"\xfe" not in body, "no raw bad byte in /metrics")
    text = body.decode("utf-8", "strict") if b"\xff" not in body else ""
    ttcheck.check(f'tid="{namer.pid}",name="{WANT}"' in text,
                  f"the metrics name tid {namer.pid} with U+FFFD")
    r = subprocess.run(["promtool", "check", "metrics"], input=body, capture_output=True,
                       timeout=60)
    ttcheck.check(r.returncode == 0,
                  f"promtool parses the scrape {(r.stdout + r.stderr)[-300:]!r}")
    py = next((p for p in (sys.executable, "/usr/bin/python3") if os.path.exists(p) and
               subprocess.run([p, "-c", "import prometheus_client"],
                              capture_output=True).returncode == 0), None)
    if py:
        st, om = get(f"http://127.0.0.1:{port}/metrics", accept="application/openmetrics-text")
        for what, mod, data in (("0.0.4", "prometheus_client.parser", body),
                                ("OpenMetrics", "prometheus_client.openmetrics.parser", om)):
            r = subprocess.run([py, "-c", PARSE % mod, str(namer.pid)], input=data,
                               capture_output=True, timeout=60)
            ttcheck.check(r.returncode == 0 and WANT in json.loads(r.stdout or "[]"),
                          f"prometheus_client's {what} parser reads the name "
                          f"{r.stdout[:80]!r} {r.stderr[-300:]!r}")
    else:
        print("note: no prometheus_client (python3-prometheus-client); not parsed")
finally:
    for p in procs:
        if p.poll() is None:
            p.terminate()
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
finish()
