#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/serve_node.sh: the exporter's CPU against node_exporter's at Prometheus' scrape
# interval. `tunetop --host --serve PORT -b -o /dev/null` (it samples at scrape time,
# docs/metrics.md) and `prometheus-node-exporter`, each alone, scraped every SERVE_NODE_PERIOD
# (15) s as Prometheus scrapes (gzip, its Accept header) for SERVE_NODE_SCRAPES (4) periods
# after a first scrape and 1 s to settle; CPU is the growth of utime+stime in /proc/PID/stat
# (the whole process) over that window. The two alternate, the order swapped each round,
# SERVE_NODE_ROUNDS (3) rounds; figures are medians, the ratio the median of each round's.
set -u
: "${TUNETOP:?run through bench/run.sh or set TUNETOP}"
command -v prometheus-node-exporter >/dev/null ||
	{ echo "prometheus-node-exporter missing (make test-deps): skipped"; exit 0; }
python3 - "$TUNETOP" "${SERVE_NODE_PERIOD:-15}" "${SERVE_NODE_SCRAPES:-4}" \
	"${SERVE_NODE_ROUNDS:-3}" <<'PY'
import gzip, os, socket, statistics, subprocess, sys, time, urllib.request

tt, period, nscrape, rounds = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
HZ = os.sysconf("SC_CLK_TCK")
ACCEPT = ("application/openmetrics-text;version=1.0.0,application/openmetrics-text;"
          "version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1")


def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p


def scrape(port):
    req = urllib.request.Request(f"http://127.0.0.1:{port}/metrics",
                                 headers={"Accept": ACCEPT, "Accept-Encoding": "gzip"})
    with urllib.request.urlopen(req, timeout=10) as r:
        body = r.read()
        text = gzip.decompress(body) if r.headers.get("Content-Encoding") == "gzip" else body
    matched.extend(int(float(l.split()[1])) for l in text.splitlines()
                   if l.startswith(b"tunetop_host_threads_matched "))
    return len(body)


def ticks(pid):
    with open(f"/proc/{pid}/stat") as f:
        v = f.read().rsplit(")", 1)[1].split()
    return int(v[11]) + int(v[12])  # utime, stime: fields 14 and 15


def rss(pid):
    with open(f"/proc/{pid}/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmRSS"))


def measure(argv, port):
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        end = time.monotonic() + 30
        while True:
            try:
                scrape(port)
                break
            except OSError:
                if time.monotonic() > end or p.poll() is not None:
                    raise SystemExit(f"{argv[0]} did not serve")
                time.sleep(0.1)
        time.sleep(1)
        t0, c0, size = time.monotonic(), ticks(p.pid), 0
        for i in range(1, nscrape + 1):
            time.sleep(max(0, t0 + i * period - time.monotonic()))
            size = scrape(port)
        wall, cpu = time.monotonic() - t0, (ticks(p.pid) - c0) / HZ
        return cpu, wall, rss(p.pid), size
    finally:
        p.terminate()
        p.wait()


kinds = {"tunetop": lambda port: [tt, "--host", "--serve", f"127.0.0.1:{port}", "-b", "-o",
                                  "/dev/null"],
         "node_exporter": lambda port: ["prometheus-node-exporter",
                                        f"--web.listen-address=127.0.0.1:{port}"]}
res = {k: [] for k in kinds}
ratios, matched = [], []
nthr = sum(len(os.listdir(f"/proc/{p}/task")) for p in os.listdir("/proc") if p.isdigit()
           and os.path.isdir(f"/proc/{p}/task"))
print(f"scrape every {period:g} s, {nscrape} scrapes a window, {rounds} rounds alternated "
      f"(order swapped each round); CPU = utime+stime of /proc/PID/stat, {HZ} ticks/s; "
      f"{nthr} threads on the host")
for r in range(rounds):
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    order = list(kinds) if r % 2 == 0 else list(kinds)[::-1]
    for k in order:
        port = free_port()
        res[k].append(measure(kinds[k](port), port))
    t, n = res["tunetop"][-1], res["node_exporter"][-1]
    ratios.append(t[0] / n[0] if n[0] else float("nan"))
    print(f"   round {r + 1}: load {load}; CPU s over {t[1]:.1f} s: tunetop {t[0]:.2f}, "
          f"node_exporter {n[0]:.2f}")
med = statistics.median
print(f"tunetop's host source: {statistics.median(matched) if matched else 0:.0f} threads "
      f"matched (its cost per sample grows with them)")
print(f"{'median of %d' % rounds:<16} {'CPU % of one CPU':>17} {'CPU ms/scrape':>14} "
      f"{'RSS KiB':>9} {'body B (gzip)':>14}")
for k, v in res.items():
    pct = med(c / w * 100 for c, w, _, _ in v)
    per = med(c / nscrape * 1e3 for c, _, _, _ in v)
    print(f"{k:<16} {pct:>17.3f} {per:>14.1f} {med(x[2] for x in v):>9} "
          f"{med(x[3] for x in v):>14}")
print(f"tunetop/node_exporter CPU, same round: median {med(ratios):.2f}x "
      f"({' '.join('%.2f' % x for x in ratios)})   (goal <= 1)")
print(f"load at the end: {' '.join('%.2f' % x for x in os.getloadavg())}")
PY
