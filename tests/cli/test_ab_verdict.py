#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`tunetop experiment ab` never prints a table of zeros as data: an arm with no usable pass (its
figure absent or null in every window) or a run whose every pass was set aside says
"inconclusive" with why and the partial ranking, and exits 1; the per-completion figures that
docs/json.md lists (null on a first sample) are metrics it accepts. JSON parsed here."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from ttcheck import check, finish  # noqa: E402

TUNETOP = os.environ.get("TUNETOP", "./tunetop")
SHORT = ["--scenario", "blk-steer", "--passes", "2", "--seconds", "0.3", "--warmup", "0.1"]


def ab(*args, timeout=120):
    return subprocess.run([TUNETOP, "experiment", "ab", *SHORT, *args], capture_output=True,
                          text=True, timeout=timeout)


def zero_rows(text, value):
    """Rows of a MIN/AVG/MAX/Dev table that read 0 0 0 0 for value."""
    return [ln for ln in text.splitlines() if ln.split() == [value, "0", "0", "0", "0"]]


# 1. The documented per-completion figures are metrics (null on the first sample only).
r = ab("--json", "--knob", "blk.rq_affinity", "--values", "0,2", "--host-took-limit", "100",
       "--metric", "blk.cpu_ns_per_completion.total", "--metric", "blk.ipis_per_completion")
check(r.returncode != 2, f"ab takes blk.cpu_ns_per_completion.total and blk.ipis_per_completion "
      f"(got {r.returncode}: {r.stderr.strip()[-160:]})")
o = json.loads(r.stdout) if r.stdout.strip() else {}
if o.get("passes"):
    for m in o["metrics"]:
        check(all(v["passes"] == o["passes"] and v["avg"] is not None for v in m["values"]),
              f"ab: {m['metric']} has a number in every kept pass ({m['values']})")
    ipc = {v["value"]: v for v in o["metrics"][1]["values"]}
    check(ipc[0]["max"] == 0 and ipc[2]["min"] > 0,
          f"ab: IPIs per completion 0 at rq_affinity 0, above 0 at 2 ({ipc})")
    check(r.returncode == 0 and o["ok"] is True and o["inconclusive"] is None,
          f"ab with a number for every arm concludes (rc {r.returncode}, {o.get('inconclusive')})")

# 2. An arm with no usable pass: blk.iops is not in the snapshot while blk is off.
r = ab("--knob", "blk.enabled", "--values", "on,off", "--host-took-limit", "100", "--metric",
       "blk.iops")
check(r.returncode == 1 and "tunetop: experiment ab: inconclusive: blk.iops" in r.stderr,
      f"ab with an arm without a number -> 1, inconclusive (got {r.returncode}: "
      f"{r.stderr.strip()[-200:]})")
check(not zero_rows(r.stdout, "off"), f"ab prints no zeros for the arm without a number "
      f"({zero_rows(r.stdout, 'off')})")
check("partial ranking of blk.iops by AVG, highest first: on (" in r.stdout and
      "no usable pass: off" in r.stdout, f"ab gives the partial ranking ({r.stdout[-300:]})")
r = ab("--json", "--knob", "blk.enabled", "--values", "on,off", "--host-took-limit", "100",
       "--metric", "blk.iops")
o = json.loads(r.stdout) if r.stdout.strip() else {}
vals = {v["value"]: v for v in (o.get("metrics") or [{}])[0].get("values", [])}
check(r.returncode == 1 and o.get("ok") is False and "blk.iops" in (o.get("inconclusive") or ""),
      f"ab --json: ok false and why ({r.returncode}, {o.get('inconclusive')})")
check(vals.get(False, {}).get("passes") == 0 and vals[False]["avg"] is None,
      f"ab --json: the arm without a number has null figures, not zeros ({vals.get(False)})")
check("no usable pass: off" in json.dumps(o.get("ranking")), f"ab --json: ranking ({o.get('ranking')})")

# 3. Every pass set aside: no table at all, the ranking from the set-aside windows. Whether the
# host took more than 0% of every window is what the pass log says (spinning threads make it
# the usual case); the verdict is judged against it.
r = ab("--json", "--knob", "blk.rq_affinity", "--values", "0,1", "--host-took-limit", "0",
       "--set", "load.spin_threads=4", "--metric", "blk.iops")
o = json.loads(r.stdout) if r.stdout.strip() else {}
log = o.get("pass_log") or []
if log and o.get("passes") == 0:
    check(r.returncode == 1 and o["ok"] is False and
          "every pass was set aside" in (o.get("inconclusive") or ""),
          f"ab, every pass set aside -> 1, inconclusive ({r.returncode}, {o.get('inconclusive')})")
    check(all(v["avg"] is None for v in o["metrics"][0]["values"]),
          f"ab, every pass set aside: no figure reads as data ({o['metrics'][0]['values']})")
    check(" > " in o["ranking"][0]["ranking"], f"ab: ranking of set-aside windows ({o['ranking']})")
else:
    check(r.returncode == 0 and o.get("passes", 0) > 0,
          f"ab with a kept pass concludes ({r.returncode}, passes {o.get('passes')})")
r = ab("--knob", "blk.rq_affinity", "--values", "0,1", "--host-took-limit", "0", "--set",
       "load.spin_threads=4", "--metric", "blk.iops")
if "0 of 2 passes kept" in r.stderr:
    check(r.returncode == 1 and "inconclusive: every pass was set aside" in r.stdout and
          not zero_rows(r.stdout, "0") and "MIN" not in r.stdout,
          f"ab, every pass set aside: no table, inconclusive ({r.returncode}: {r.stdout[-300:]})")
finish()
