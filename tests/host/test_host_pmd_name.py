#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""test_host_pmd_name.py: a thread of any process named "pmd..." (any user can name a thread
so) is no PMD of OVS's in host mode (backends/host/host_threads.h): listed, but with subsystem
"other" in -b's JSON and subsystem="other" in the exporter's text, never "pmd" or "ovs"; only
ovs-vswitchd's threads are OVS's. A helper process names one of its threads "pmdfake-<pid>"."""
import json
import os
import subprocess
import sys
import threading

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import ttcheck  # noqa: E402
from ttcheck import finish  # noqa: E402

TUNETOP = os.environ["TUNETOP"]
name = ("pmdfake-%d" % os.getpid())[:15]
stop = threading.Event()
named = threading.Event()


def worker():
    with open("/proc/self/task/%d/comm" % threading.get_native_id(), "w") as f:
        f.write(name)
    named.set()
    stop.wait()


t = threading.Thread(target=worker, daemon=True)
t.start()
named.wait(10)
try:
    r = subprocess.run([TUNETOP, "--host", "-b", "-n", "1", "-d", "0.3"], capture_output=True,
                       text=True, timeout=60)
    line = json.loads(r.stdout.splitlines()[-1]) if r.returncode == 0 and r.stdout else {}
    subs = [x["subsystem"] for x in line.get("threads", []) if x["name"] == name]
    ttcheck.check(subs == ["other"], f"-b JSON: {name} listed once as 'other' (got {subs})")
    r = subprocess.run([TUNETOP, "--host", "-b", "-n", "1", "-d", "0.3", "--format",
                        "prometheus"], capture_output=True, text=True, timeout=60)
    series = [ln for ln in r.stdout.splitlines()
              if ln.startswith("tunetop_threads_cpu_seconds_total{") and f'"{name}"' in ln]
    ttcheck.check(len(series) == 1 and 'subsystem="other"' in series[0],
                  f"exporter text: {name} with subsystem=\"other\" (got {series})")
finally:
    stop.set()
finish()
