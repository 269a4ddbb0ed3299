#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""test_replay_undecodable.py: a recording none of whose lines decodes (a thread name holding
a NUL, "a\\u0000b", or a lone surrogate, "\\ud800") gives no line on stdout, and `--replay -b`
exits 1 saying so, not 0 in silence; with one good line after the bad one the good line is
written and the exit is 0."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import ttcheck  # noqa: E402
from ttcheck import finish  # noqa: E402

TUNETOP = os.environ["TUNETOP"]
tmp = tempfile.mkdtemp()
r = subprocess.run([TUNETOP, "-b", "-n", "1", "-d", "0.2"], capture_output=True, text=True,
                   timeout=60)
ttcheck.check(r.returncode == 0 and r.stdout.startswith("{"), "a line to start from")
good = r.stdout.splitlines()[0]


def bad_line(name_json):
    """good with its first thread's name set to the raw JSON string name_json."""
    j = json.loads(good)
    j["threads"][0]["name"] = "@@NAME@@"
    return json.dumps(j, separators=(",", ":")).replace('"@@NAME@@"', name_json)


for what, name in (("a NUL", '"a\\u0000b"'), ("a lone surrogate", '"\\ud800x"')):
    path = os.path.join(tmp, "bad.jsonl")
    with open(path, "w") as f:
        f.write(bad_line(name) + "\n")
    r = subprocess.run([TUNETOP, "--replay", path, "-b"], capture_output=True, text=True,
                       timeout=60)
    ttcheck.check(r.returncode == 1 and r.stdout == "" and "no line could be read" in r.stderr,
                  f"{what}: exit 1, nothing on stdout, said so (exit {r.returncode}, "
                  f"{len(r.stdout)} bytes out: {r.stderr.strip()})")
    with open(path, "a") as f:
        f.write(good + "\n")
    r = subprocess.run([TUNETOP, "--replay", path, "-b"], capture_output=True, text=True,
                       timeout=60)
    lines = r.stdout.splitlines()
    ttcheck.check(r.returncode == 0 and len(lines) == 1 and "1 line skipped" in r.stderr,
                  f"{what} then a good line: the good line, exit 0 (exit {r.returncode}, "
                  f"{len(lines)} lines: {r.stderr.strip()})")
finish()
