#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/serve.sh: what `--serve` costs. Per sample: the time to render one text (the
# binary's own tunetop_render_duration_seconds with -b --format). Per scrape: client-side time and bytes (0.0.4 and OpenMetrics) for the
# default engine scenario and for the host source following a helper process of 5,000
# sleeping threads (--set host.pid=PID), and the front end's render time with --serve (both
# texts published) against without. And the sampling interval's jitter at -d 0.1 with and
# without 100 scrapes a second. SERVE_BENCH_S (10) seconds a phase.
set -u
python3 - "$@" <<'PY'
import os, socket, statistics, subprocess, sys, threading, time, urllib.request, json

TT = os.environ["TUNETOP"]
PHASE = float(os.environ.get("SERVE_BENCH_S", "10"))


def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p


def scrape(port, om=False):
    h = {"Accept": "application/openmetrics-text; version=1.0.0"} if om else {}
    t0 = time.perf_counter()
    with urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{port}/metrics",
                                                       headers=h), timeout=10) as r:
        body = r.read()
    return time.perf_counter() - t0, len(body), body


def wait_up(port):
    end = time.monotonic() + 30
    while time.monotonic() < end:
        try:
            return scrape(port)
        except OSError:
            time.sleep(0.1)
    raise SystemExit("tunetop did not serve")


def pct(v, q):
    v = sorted(v); return v[min(len(v) - 1, int(q * len(v)))]


def render_us(args, serve):
    """Median self.render_us of a -b run (JSON line + the published texts when serving)."""
    port = free_port()
    cmd = [TT, *args, "-b", "-d", "0.2", "-n", str(int(PHASE / 0.2))]
    if serve:
        cmd += ["--serve", f"127.0.0.1:{port}"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=PHASE * 4 + 60).stdout
    v = [json.loads(l)["self"]["render_us"] for l in out.splitlines()[2:]]
    return statistics.median(v) if v else float("nan")


def text_render_us(args, fmt):
    """Median render time of one metrics text, as the binary reports it in the next text."""
    out = subprocess.run([TT, *args, "-b", "-d", "0.2", "-n", str(int(PHASE / 0.2)), "--format",
                          fmt], capture_output=True, text=True, timeout=PHASE * 4 + 60).stdout
    v = [float(l.split()[1]) * 1e6 for l in out.splitlines()
         if l.startswith("tunetop_render_duration_seconds ")][2:]
    return statistics.median(v) if v else float("nan")


def scrape_cost(label, args):
    port = free_port()
    p = subprocess.Popen([TT, *args, "--serve", f"127.0.0.1:{port}", "-b", "-o", "/dev/null",
                          "-d", "1"], stderr=subprocess.DEVNULL)
    try:
        wait_up(port)
        time.sleep(2.5)  # past the first intervals: full sections
        for om in (False, True):
            ts, size = [], 0
            for _ in range(200):
                t, size, body = scrape(port, om)
                ts.append(t)
            series = sum(1 for l in body.splitlines() if l and not l.startswith(b"#"))
            print(f"{label:<34} {'openmetrics' if om else '0.0.4':<12} {size:>9} B {series:>7} "
                  f"{statistics.median(ts) * 1e3:>8.2f} ms {pct(ts, 0.99) * 1e3:>8.2f} ms")
    finally:
        p.terminate(); p.wait()
    prom, om = text_render_us(args, "prometheus"), text_render_us(args, "openmetrics")
    without, with_ = render_us(args, False), render_us(args, True)
    print(f"{'':<34} one text: {prom:.0f} us (0.0.4), {om:.0f} us (openmetrics); front end per "
          f"sample: {without:.0f} us (JSON) -> {with_:.0f} us (JSON + both texts published)")


def jitter(scrapes_per_s):
    port = free_port()
    p = subprocess.Popen([TT, "--serve", f"127.0.0.1:{port}", "-b", "-d", "0.1", "--format",
                          "prometheus"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True)
    iv, stop, done = [], threading.Event(), [0]

    def reader():
        for line in p.stdout:
            if line.startswith("tunetop_sample_interval_seconds "):
                iv.append(float(line.split()[1]))

    def scraper():
        nxt = time.monotonic()
        while not stop.is_set():
            try:
                scrape(port); done[0] += 1
            except OSError:
                pass
            nxt += 1.0 / scrapes_per_s
            time.sleep(max(0, nxt - time.monotonic()))

    threading.Thread(target=reader, daemon=True).start()
    wait_up(port)
    time.sleep(1)
    start = len(iv)
    t = threading.Thread(target=scraper) if scrapes_per_s else None
    if t:
        t.start()
    time.sleep(PHASE)
    stop.set()
    if t:
        t.join()
    p.terminate(); p.wait()
    d = [abs(x - 0.1) * 1e6 for x in iv[start:]]
    print(f"{scrapes_per_s:>4} scrapes/s ({done[0] / PHASE:5.1f} done/s)  {len(d):>4} intervals  "
          f"|interval - 100 ms|: median {statistics.median(d):7.0f} us  p99 {pct(d, 0.99):7.0f} us"
          f"  max {max(d):7.0f} us  stdev {statistics.pstdev([x * 1e6 for x in iv[start:]]):6.0f} us")


# A helper process with 5,000 sleeping threads for the host source to follow.
helper = subprocess.Popen([sys.executable, "-c", """
import threading, sys
threading.stack_size(65536)
ev = threading.Event()
for _ in range(5000):
    threading.Thread(target=ev.wait, daemon=True).start()
print("ready", flush=True)
sys.stdin.read()
"""], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
helper.stdout.readline()
print(f"{'scrape cost (200 scrapes, new connection each)':<34} {'format':<12} {'bytes':>11} "
      f"{'series':>7} {'median':>11} {'p99':>11}")
scrape_cost("engine, default scenario", [])
scrape_cost("host, following 5,000 threads", ["--host", "--set", f"host.pid={helper.pid}"])
out = subprocess.run([TT, "--host", "--set", f"host.pid={helper.pid}", "-b", "-n", "2", "-d",
                      "0.2"], capture_output=True, text=True).stdout.splitlines()[-1]
o = json.loads(out)
print(f"  (host: {o['host']['threads_matched']} threads matched, {len(o['threads'])} in the "
      f"snapshot: the host source lists at most HOST_MAX_THREADS)")
helper.stdin.close(); helper.wait()
print()
print("sampling interval jitter, tunetop --serve -b -d 0.1 (engine, default scenario)")
jitter(0)
jitter(100)
PY
