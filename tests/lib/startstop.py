#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""startstop.py BIN WAIT ARGS...: time from exec to the first JSON line of `BIN -b -d 0.2 ARGS`,
then SIGTERM WAIT seconds later and time to exit. Prints one line; exit status 0 when it exited
cleanly (stdout and stderr are drained, so a full pipe never holds the writer)."""
import signal
import subprocess
import sys
import threading
import time

binp, wait, args = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
t0 = time.monotonic()
p = subprocess.Popen([binp, "-b", "-d", "0.2"] + args, stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE)
line = p.stdout.readline()
first = time.monotonic() - t0
threading.Thread(target=p.stdout.read, daemon=True).start()
err = []
threading.Thread(target=lambda: err.append(p.stderr.read()), daemon=True).start()
time.sleep(wait)
t2 = time.monotonic()
p.send_signal(signal.SIGTERM)
try:
    p.wait(timeout=60)
except subprocess.TimeoutExpired:
    p.kill()
    p.wait()
stop = time.monotonic() - t2
print("first %.2f exit %.2f rc %d%s" % (first, stop, p.returncode,
      "" if line else " (no line: %s)" % (err[0][:200] if err else b"")), flush=True)
sys.exit(0 if line and p.returncode == 0 else 1)
