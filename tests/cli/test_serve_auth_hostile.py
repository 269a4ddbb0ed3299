#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# tt-sanitize: the exporter's server, guard and bcrypt threads beside the sampling loop
"""test_serve_auth_hostile.py: basic auth under hostile requests (docs/metrics.md, "Deploying
the exporter"). A bcrypt cost outside 4..17 (3, 18, 31, 99) is refused at load with exit 2
naming the cost. With a user whose hash is slow (cost 17: seconds a check), three requests for it
leave the server answering: credentials already checked get 200 and none get 401 while that
bcrypt runs, and SIGTERM ends the process within 3 s. A password with a NUL byte after the right
one gets 401. Skips (77) without a bcrypt hasher (python3 crypt, mkpasswd, htpasswd)."""
import base64
import http.client
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import warnings

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import ttcheck  # noqa: E402
from promlib import free_port  # noqa: E402
from ttcheck import finish  # noqa: E402

TUNETOP = os.environ["TUNETOP"]
signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))


def hash_cost4(password):
    """A bcrypt hash of password at cost 4 (python3 crypt, mkpasswd or htpasswd), or None."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import crypt
        return crypt.crypt(password, crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=16))
    except (ImportError, AttributeError, OSError):
        pass
    for cmd in (["mkpasswd", "-m", "bcrypt", "-R", "4", password],
                ["htpasswd", "-nbBC", "4", "u", password]):
        if shutil.which(cmd[0]):
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode == 0:
                return r.stdout.strip().split(":", 1)[-1]
    return None


HASH = hash_cost4("s3cret")
if not HASH or not HASH.startswith("$2") or HASH[4:7] != "04$":
    print("no bcrypt hasher (python3 crypt, mkpasswd, htpasswd)")
    sys.exit(77)


def check(what, cond):
    return ttcheck.check(cond, what)


def at_cost(cost):
    """HASH with another cost: a well-formed hash that no password matches."""
    return HASH[:4] + f"{cost:02d}" + HASH[6:]


def get(port, creds=None, timeout=10):
    """The status of GET /metrics, 0 when no HTTP answer came in time."""
    headers = {}
    if creds is not None:
        headers["Authorization"] = "Basic " + base64.b64encode(creds).decode()
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        c.request("GET", "/metrics", headers=headers)
        r = c.getresponse()
        r.read()
        c.close()
        return r.status
    except (OSError, http.client.HTTPException):
        return 0


def cpu_s(pid):
    """The process's user and system CPU seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


tmp = tempfile.mkdtemp()
cfg = os.path.join(tmp, "web.yml")
for cost in (3, 18, 31, 99):
    with open(cfg, "w") as f:
        f.write(f"basic_auth_users:\n  alice: '{at_cost(cost)}'\n")
    r = subprocess.run([TUNETOP, "-b", "-n", "1", "-o", "/dev/null", "--serve", "0",
                        "--web.config.file", cfg], capture_output=True, text=True, timeout=60)
    check(f"cost {cost}: exit 2 naming the cost ({r.returncode}: {r.stderr.strip()[:160]})",
          r.returncode == 2 and f"cost {cost}" in r.stderr)

with open(cfg, "w") as f:
    f.write(f"basic_auth_users:\n  alice: '{HASH}'\n  slow: '{at_cost(17)}'\n")
port = free_port()
p = subprocess.Popen([TUNETOP, "-b", "-o", "/dev/null", "--serve", str(port),
                      "--web.config.file", cfg], stdout=subprocess.DEVNULL,
                     stderr=subprocess.PIPE)
try:
    end = time.monotonic() + 60
    st = 0
    while st != 200 and time.monotonic() < end and p.poll() is None:
        st = get(port, b"alice:s3cret")
        if st != 200:
            time.sleep(0.1)
    check(f"the right password: 200 (status {st})", st == 200)
    check("the right password then a NUL byte and more: 401",
          get(port, b"alice:s3cret\0junk") == 401)

    slow = []
    c0 = cpu_s(p.pid)
    for i in range(3):
        threading.Thread(target=lambda: slow.append(get(port, b"slow:x", timeout=300)),
                         daemon=True).start()
    # The slow checks have begun once the process has spent a second of CPU on it.
    end = time.monotonic() + 60
    while cpu_s(p.pid) - c0 < 1.0 and time.monotonic() < end:
        time.sleep(0.1)
    check("the slow user's check is running", cpu_s(p.pid) - c0 >= 1.0 and not slow)
    st = get(port, b"alice:s3cret", timeout=5)
    check(f"while it runs, checked credentials: 200 (status {st})", st == 200)
    st = get(port, None, timeout=5)
    check(f"while it runs, no credentials: 401 (status {st})", st == 401)
    p.send_signal(signal.SIGTERM)
    try:
        p.wait(timeout=3)
    except subprocess.TimeoutExpired:
        pass
    check(f"SIGTERM ends it within 3 s (exit {p.poll()})", p.poll() is not None)
finally:
    if p.poll() is None:
        p.kill()
        p.wait()
finish()
