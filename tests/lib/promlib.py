# SPDX-License-Identifier: GPL-2.0-or-later
"""promlib.py: what the exporter's Python tests share: a free local port (and one held down),
an HTTP GET that returns (status, content type, body) rather than raising, and a real Prometheus
(Debian's prometheus) started on a private port and data dir, scraping given targets every
second, asked with its HTTP query API."""
import json
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request


_given = set()
_held = []


def free_port():
    """A local port nothing is bound to now and that this process was not given before: the
    kernel can hand the same port to two binds in a row (8 of 20,000 runs of four calls here),
    and two servers told the same port make one test's instance answer for another."""
    while True:
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        p = s.getsockname()[1]
        s.close()
        if p not in _given:
            _given.add(p)
            return p


def refused_port():
    """A local port held bound, never listening, for the rest of this process: a connection to
    it is refused, and no other program (another test running beside this one) can serve on it
    meanwhile. For a target that must stay down."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    _held.append(s)
    p = s.getsockname()[1]
    _given.add(p)
    return p


def get(url, accept=None, timeout=5):
    """(status, Content-Type, body); status 0 when nothing answers."""
    req = urllib.request.Request(url, headers={"Accept": accept} if accept else {})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, "", ""
    except OSError:
        return 0, "", ""


def get_json(url):
    st, _, body = get(url)
    try:
        return json.loads(body) if st == 200 else None
    except ValueError:
        return None


class Prometheus:
    """prometheus scraping TARGETS ("host:port") every second, with RULES (a file) if given,
    in directory TMP; ready() waits until its API answers."""

    def __init__(self, tmp, targets, rules=None):
        self.port = free_port()
        conf = f"{tmp}/prometheus.yml"
        with open(conf, "w") as f:
            f.write("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n")
            if rules:
                f.write(f"rule_files:\n  - {rules}\n")
            f.write("scrape_configs:\n  - job_name: tunetop\n    static_configs:\n"
                    "      - targets: [" + ", ".join(f"'{t}'" for t in targets) + "]\n")
        self.log = f"{tmp}/prom.log"
        self.proc = subprocess.Popen(
            ["prometheus", f"--config.file={conf}", f"--storage.tsdb.path={tmp}/data",
             f"--web.listen-address=127.0.0.1:{self.port}"],
            stdout=subprocess.DEVNULL, stderr=open(self.log, "w"))

    def api(self, path):
        return get_json(f"http://127.0.0.1:{self.port}/api/v1/{path}")

    def ready(self, deadline_s=60):
        end = time.monotonic() + deadline_s
        while time.monotonic() < end:
            if self.api("status/config") is not None:
                return True
            time.sleep(0.3)
        return False

    def query(self, q):
        """The values of an instant query, or None when it fails."""
        res = self.api("query?" + urllib.parse.urlencode({"query": q}))
        if res is None:
            return None
        return [float(r["value"][1]) for r in res["data"]["result"]]

    def wait_query(self, q, pred, deadline_s=60):
        """The values once pred(values) holds (non-empty), or None at the deadline."""
        end, last = time.monotonic() + deadline_s, None
        while time.monotonic() < end:
            last = self.query(q)
            if last and pred(last):
                return last
            time.sleep(0.5)
        print(f"  last answer to {q}: {last}")
        return None
