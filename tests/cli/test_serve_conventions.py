#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""test_serve_conventions.py: /metrics follows Prometheus's naming conventions (docs/metrics.md),
read by a parser of its own (the 0.0.4 text by hand, no tunetop code):
every `_total` is TYPE counter and no series of one goes down between two scrapes; no gauge
named like a rate; the latency percentiles are a summary with `quantile` labels; no `tid` label
unless --metrics-tid; the process_* families are there and process_cpu_seconds_total lies
between two reads of /proc/PID/stat's utime+stime around the scrape (a tick either side);
interfaces carry `device`; host kworkers are `subsystem="kernel"`, not "engine"; knobs of time
are in seconds; every deprecated family names a replacement that is served. promtool checks
the text when it is installed."""
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from promlib import free_port  # noqa: E402
import ttcheck  # noqa: E402
from ttcheck import check, finish  # noqa: E402

TUNETOP = os.environ["TUNETOP"]
signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
TICK = os.sysconf("SC_CLK_TCK")

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?')
RATE = re.compile(r'(per_second|_pps|iops|_rate)$')
BAD_LINES = []
PROCESS = ("process_cpu_seconds_total", "process_resident_memory_bytes",
           "process_virtual_memory_bytes", "process_start_time_seconds", "process_open_fds",
           "process_max_fds")


def parse(text):
    """The 0.0.4 text: {family: type}, {family: help}, [(name, labels, value)]."""
    types, helps, samples = {}, {}, []
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            _, _, name, typ = line.split(" ", 3)
            types[name] = typ
        elif line.startswith("# HELP "):
            _, _, name, help_ = line.split(" ", 3)
            helps[name] = help_
        elif line and not line.startswith("#"):
            m = SAMPLE.match(line)
            if not m:
                BAD_LINES.append(line[:80])
                continue
            labels = dict(LABEL.findall(m.group(3) or ""))
            samples.append((m.group(1), labels, float(m.group(4))))
    return types, helps, samples


def family(name, types):
    """The family a sample belongs to (a histogram's or summary's _bucket/_sum/_count)."""
    if name in types:
        return name
    for suf in ("_bucket", "_sum", "_count"):
        if name.endswith(suf) and name[:-len(suf)] in types:
            return name[:-len(suf)]
    return None


def get(url):
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status, r.read().decode()
    except OSError:
        return 0, ""


def cpu_ticks(pid):
    with open(f"/proc/{pid}/stat") as f:
        rest = f.read().rsplit(")", 1)[1].split()
    return int(rest[11]) + int(rest[12])  # utime, stime (fields 14 and 15)


def samples_total(samples):
    return next((v for n, _, v in samples if n == "tunetop_samples_total"), -1)


def batch(*args):
    r = subprocess.run([TUNETOP, "-b", "-n", "1", "-d", "0.3", "--format", "prometheus", *args],
                       capture_output=True, text=True, timeout=120)
    check(r.returncode == 0, f"tunetop -b --format prometheus {' '.join(args)} exits 0 "
          f"{r.stderr[-200:]!r}")
    return r.stdout


procs = []
try:
    port = free_port()
    tt = subprocess.Popen([TUNETOP, "-b", "-d", "0.2", "-o", "/dev/null", "--serve",
                           f"127.0.0.1:{port}"], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE)
    procs.append(tt)
    url = f"http://127.0.0.1:{port}/metrics"
    end, first = time.monotonic() + 30, ""
    while time.monotonic() < end:
        st, first = get(url)
        if st == 200:
            break
        time.sleep(0.1)
    check(bool(first), "the first scrape answers 200")
    types, helps, s1 = parse(first)
    # The second scrape once a newer sample is published (a deadline, not a fixed sleep).
    end, second, s2, before, after = time.monotonic() + 30, "", [], 0, 0
    while time.monotonic() < end:
        before = cpu_ticks(tt.pid)
        st, second = get(url)
        after = cpu_ticks(tt.pid)
        types2, helps2, s2 = parse(second)
        if st == 200 and samples_total(s2) > samples_total(s1):
            break
        time.sleep(0.1)
    check(samples_total(s2) > samples_total(s1) > 0,
          f"two scrapes of different samples ({samples_total(s1)}, {samples_total(s2)})")
    deprecated = {f for f, h in helps2.items() if "(deprecated: use " in h}

    check(not BAD_LINES, f"every sample line parses {BAD_LINES[:3]}")

    # Counters: _total names, TYPE counter, monotone.
    bad = sorted({n for n, _, _ in s2 if n.endswith("_total") and
                  types2.get(n) != "counter"})
    check(not bad, f"every _total sample is of a TYPE counter family {bad[:5]}")
    bad = sorted(f for f, t in types2.items() if t == "counter" and not f.endswith("_total"))
    check(not bad, f"every counter is named ..._total {bad[:5]}")
    old = {(n, tuple(sorted(lb.items()))): v for n, lb, v in s1 if types.get(n) == "counter"}
    down = [(n, dict(lb), old[(n, lb)], v) for n, lb, v in
            ((n, tuple(sorted(lb.items())), v) for n, lb, v in s2 if types2.get(n) == "counter")
            if (n, lb) in old and v < old[(n, lb)]]
    check(not down, f"no counter series went down between the scrapes {down[:3]}")
    same = sum(1 for n, lb, _ in s2 if types2.get(n) == "counter" and
               (n, tuple(sorted(lb.items()))) in old)
    check(same >= 20, f"the scrapes share counter series to compare ({same})")
    check("tunetop_threads_cpu_seconds_total" in types2 and
          "tunetop_pmd_iterations_total" in types2,
          "thread CPU seconds and PMD iterations are counters")

    # No gauge named like a rate (a knob that sets a rate is a setting, not a measure).
    bad = sorted(f for f, t in types2.items() if t == "gauge" and RATE.search(f) and
                 f not in deprecated and not f.startswith("tunetop_knob_"))
    check(not bad, f"no gauge is named like a rate {bad}")

    # Percentiles: a summary with quantile labels; no percentile label on a current family.
    lat = "tunetop_blk_interval_latency_seconds"
    check(types2.get(lat) == "summary", f"{lat} is TYPE summary ({types2.get(lat)})")
    qs = sorted(lb.get("quantile") for n, lb, _ in s2 if n == lat)
    check(qs == ["0.5", "0.99", "0.999"], f"{lat} has quantile 0.5, 0.99, 0.999 ({qs})")
    check(any(n == lat + "_count" for n, _, _ in s2) and any(n == lat + "_sum" for n, _, _ in s2),
          f"{lat} has _sum and _count")
    bad = sorted({n for n, lb, _ in s2 if "percentile" in lb and family(n, types2) not in
                  deprecated})
    check(not bad, f"no current family has a percentile label {bad}")

    # No tid label by default.
    bad = sorted({n for n, lb, _ in s2 if "tid" in lb})
    check(not bad, f"no tid label without --metrics-tid {bad[:5]}")
    names = [lb.get("name") for n, lb, _ in s2 if n == "tunetop_threads_cpu_seconds_total"]
    check(names and len(names) == len(set(zip(names, [lb.get("subsystem") for n, lb, _ in s2
                                                      if n == "tunetop_threads_cpu_seconds_total"]))),
          f"one thread series per name and subsystem ({len(names)})")

    # process_*: present, and the CPU time is the process's own.
    got = {n: v for n, _, v in s2 if n.startswith("process_")}
    check(all(p in got for p in PROCESS), f"process_* families are served ({sorted(got)})")
    check(types2.get("process_cpu_seconds_total") == "counter",
          "process_cpu_seconds_total is a counter")
    cpu = got.get("process_cpu_seconds_total", -1)
    check((before - 1) / TICK <= cpu <= (after + 1) / TICK,
          f"process_cpu_seconds_total {cpu} lies within a tick of /proc/PID/stat's "
          f"{before / TICK}..{after / TICK}")
    check(abs(got.get("process_start_time_seconds", 0) - time.time()) < 300,
          "process_start_time_seconds is about now")
    check(got.get("process_resident_memory_bytes", 0) > 1 << 20 and
          got.get("process_virtual_memory_bytes", 0) >= got.get("process_resident_memory_bytes",
                                                                 0),
          "process memory figures are plausible")
    check(0 < got.get("process_open_fds", 0) <= got.get("process_max_fds", 0),
          "process_open_fds is within process_max_fds")

    # Knobs: one family per unit, time in seconds, choices as info.
    knob = {(n, lb.get("knob")): (lb, v) for n, lb, v in s2 if n.startswith("tunetop_knob_")}
    check(knob.get(("tunetop_knob_seconds", "pmd.timer_slack_ns"), (0, 0))[1] == 1e-6,
          "pmd.timer_slack_ns 1000 ns is tunetop_knob_seconds 1e-06")
    check(("tunetop_knob_seconds", "engine.watchdog_ms") in knob and
          ("tunetop_knob_seconds", "pmd.maxsleep_us") in knob, "ms and us knobs are in seconds")
    gov = knob.get(("tunetop_knob_choice_info", "cpu.governor"), ({}, 0))
    check(gov[1] == 1 and gov[0].get("value"), f"cpu.governor is an info with its value {gov}")

    # Deprecated families name their replacements, which are served or listed.
    r = subprocess.run([TUNETOP, "--list-metrics"], capture_output=True, text=True, timeout=60)
    listed = {line.split("\t")[0]: line.split("\t") for line in r.stdout.splitlines() if line}
    check(len(deprecated) >= 10, f"the old names are kept, marked deprecated ({len(deprecated)})")
    for f in sorted(deprecated):
        new = re.search(r"\(deprecated: use ([a-z_:]+)", helps2[f]).group(1)
        check(new in listed, f"{f}: its replacement {new} is listed")
    old_listed = {n for n, row in listed.items() if "(deprecated: use " in row[4]}
    check(deprecated <= old_listed, "the served deprecated families are listed deprecated")
    bad = sorted(n for n, row in listed.items() if n not in old_listed and
                 set(row[3].split(",")) & {"tid", "interface", "percentile"})
    check(not bad, f"no current family has a tid, interface or percentile label {bad}")
    check(listed.get("tunetop_host_network_receive_packets_total", ["", "", "", ""])[3] ==
          "device", "interfaces are labelled device")

    if shutil.which("promtool"):
        r = subprocess.run(["promtool", "check", "metrics"], input=second.encode(),
                           capture_output=True, timeout=60)
        check(r.returncode == 0, f"promtool check metrics is clean "
              f"{(r.stdout + r.stderr)[-300:]!r}")
    else:
        print("note: no promtool (prometheus package); not linted")

    # --metrics-tid brings the tid label back (opt-in).
    _, _, st = parse(batch("--metrics-tid"))
    check(any("tid" in lb for n, lb, _ in st if n == "tunetop_threads_cpu_seconds_total"),
          "--metrics-tid labels thread series with tid")

    # The host source: device labels, kworkers as the kernel's.
    _, _, sh = parse(batch("--host"))
    devs = [lb for n, lb, _ in sh if n == "tunetop_host_network_receive_packets_total"]
    check(devs and all("device" in lb and "interface" not in lb for lb in devs),
          f"--host: network series carry device ({devs[:2]})")
    kw = {lb.get("subsystem") for n, lb, _ in sh if n == "tunetop_threads_cpu_seconds_total"
          and lb.get("name", "").startswith("kworker")}
    check(kw == {"kernel"}, f"--host: kworker threads are subsystem kernel ({kw})")
finally:
    for p in procs:
        if p.poll() is None:
            p.terminate()
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
finish()
