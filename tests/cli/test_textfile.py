#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""test_textfile.py: `-b --format openmetrics|prometheus -o FILE` replaces FILE atomically each
interval (a reader polling it never sees half a text), the Prometheus text passes promtool (what
node_exporter's textfile collector parses), no temporary file is left; `-o FILE` with JSON
writes the lines there; -o and --format need -b; --serve on a multicast or broadcast address
(IPv4 multicast mapped into IPv6, the loopback's 127.255.255.255 too) is a usage error."""
import os
import shutil
import subprocess
import sys
import tempfile
import threading

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import ttcheck  # noqa: E402
from ttcheck import finish  # noqa: E402


def check(what, cond):
    return ttcheck.check(cond, what)


TUNETOP = os.environ["TUNETOP"]
tmp = tempfile.mkdtemp(prefix="tt-textfile.")
try:
    path = os.path.join(tmp, "tunetop.prom")
    p = subprocess.Popen([TUNETOP, "-b", "-d", "0.05", "-n", "60", "--scenario", "default",
                          "--format", "openmetrics", "-o", path], stderr=subprocess.PIPE,
                         text=True)
    reads, torn, seqs = 0, [], set()

    def poll():
        global reads
        while p.poll() is None:
            try:
                with open(path) as f:
                    text = f.read()
            except FileNotFoundError:
                continue
            reads += 1
            if not text.endswith("# EOF\n"):
                torn.append(len(text))
            for line in text.splitlines():
                if line.startswith("tunetop_samples_total "):
                    seqs.add(int(line.split()[1]))

    t = threading.Thread(target=poll)
    t.start()
    _, err = p.communicate(timeout=120)
    t.join()
    check(f"openmetrics -o exits 0 ({err.strip()})", p.returncode == 0)
    check(f"a reader polling the file ({reads} reads) never saw a torn text ({torn[:5]})",
          reads > 50 and not torn)
    check(f"the file was rewritten every interval ({len(seqs)} distinct snapshots seen)",
          len(seqs) >= 10)
    with open(path) as f:
        last = f.read()
    check("the last text is snapshot 60", "\ntunetop_samples_total 60\n" in last)
    check(f"no temporary file left ({os.listdir(tmp)})", os.listdir(tmp) == ["tunetop.prom"])

    r = subprocess.run([TUNETOP, "-b", "-d", "0.2", "-n", "3", "--format", "prometheus", "-o",
                        path], capture_output=True, text=True, timeout=60)
    check("prometheus -o exits 0", r.returncode == 0)
    if shutil.which("promtool"):
        with open(path) as f:
            pr = subprocess.run(["promtool", "check", "metrics"], stdin=f, capture_output=True,
                                text=True, timeout=60)
        check(f"promtool accepts the textfile ({pr.stderr.strip()[:300]})", pr.returncode == 0)

    jpath = os.path.join(tmp, "out.jsonl")
    r = subprocess.run([TUNETOP, "-b", "-d", "0.1", "-n", "3", "-o", jpath],
                       capture_output=True, text=True, timeout=60)
    with open(jpath) as f:
        jl = f.read().splitlines()
    check("json -o FILE: 3 lines in the file, nothing on stdout",
          r.returncode == 0 and len(jl) == 3 and r.stdout == "" and jl[0].startswith("{"))
    for args in (["-o", jpath], ["--format", "openmetrics"]):
        r = subprocess.run([TUNETOP, *args], capture_output=True, text=True, timeout=30)
        check(f"{args[0]} without -b is a usage error (2): {r.stderr.strip()}",
              r.returncode == 2 and "-b" in r.stderr)
    r = subprocess.run([TUNETOP, "-b", "--format", "xml"], capture_output=True, text=True,
                       timeout=30)
    check(f"--format xml is a usage error: {r.stderr.strip()}", r.returncode == 2)
    for bad in ("99999", "1.2.3.4.5:80", "[::1]9464", "x:80", ""):
        r = subprocess.run([TUNETOP, "-b", "--serve", bad], capture_output=True, text=True,
                           timeout=30)
        check(f"--serve '{bad}' is a usage error: {r.stderr.strip()}", r.returncode == 2)
    # Nothing connects to a server on a multicast or broadcast address: a usage error.
    for bad, why in (("255.255.255.255:0", "broadcast"), ("224.0.0.1:0", "multicast"),
                     ("239.255.255.250:0", "multicast"), ("[ff02::1]:0", "multicast"),
                     ("[::ffff:224.0.0.5]:0", "multicast"),
                     # the loopback's broadcast: lo has no IFF_BROADCAST, its /8 says it
                     ("127.255.255.255:0", "broadcast")):
        r = subprocess.run([TUNETOP, "-b", "-n", "1", "-o", "/dev/null", "--serve", bad],
                           capture_output=True, text=True, timeout=30)
        check(f"--serve '{bad}' is a usage error naming {why}: {r.stderr.strip()}",
              r.returncode == 2 and why in r.stderr)
    r = subprocess.run([TUNETOP, "-b", "-n", "1", "--serve", "[::1]:0"], capture_output=True,
                       text=True, timeout=30)
    check(f"--serve [::1]:0 listens on IPv6 loopback ({r.stderr.strip()})",
          r.returncode == 0 or "Cannot assign" in r.stderr)
finally:
    shutil.rmtree(tmp, ignore_errors=True)
finish()
