#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/host_idle.sh: what another user's idle threads cost host mode. HOST_IDLE_THREADS
# (10000) threads sleeping in one process of another user (nobody, through setpriv, when run
# as root). Each round runs, without those threads and then with them (the process started
# and ended by the round):
# - `tunetop --host -b -n 10 -d 0.5` and `top -b -H -n 1`, the order swapped each round,
#   whole-process CPU (user+sys) from wait4;
# - the exporter, `tunetop --host --serve PORT -b -o /dev/null`, scraped HOST_IDLE_SCRAPES (3)
#   times HOST_IDLE_GAP (11) s apart (past the scan's 10 s full rescan, as at Prometheus'
#   15 s), after a first scrape: each scrape's latency (client side, a new connection) and
#   the exporter's CPU per scrape (utime+stime growth).
# HOST_IDLE_ROUNDS (3) rounds; figures are medians, ratios the medians of each round's
# with/without. The goal: tunetop's with/without at most 2 (top's grows with the threads),
# scrapes under 100 ms. HOST_IDLE_BASE=PATH runs another tunetop (a build before a change) in
# the same rounds for a before/after. At 50,000 threads (HOST_IDLE_THREADS=50000) the host
# must have room for them: kernel.pid_max and kernel.threads-max above the count and
# vm.max_map_count above twice it (a stack and its guard page each); checked first.
set -u
: "${TUNETOP:?run through bench/run.sh or set TUNETOP}"
command -v top >/dev/null || { echo "no top (procps): skipped"; exit 0; }
python3 - "$TUNETOP" "${HOST_IDLE_THREADS:-10000}" "${HOST_IDLE_ROUNDS:-3}" \
	"${HOST_IDLE_SCRAPES:-3}" "${HOST_IDLE_GAP:-11}" "${HOST_IDLE_BASE:-}" <<'PY'
import os, shutil, signal, socket, statistics, subprocess, sys, tempfile, time, urllib.request

tt, nthreads, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
nscrape, gap, base = int(sys.argv[4]), float(sys.argv[5]), sys.argv[6]
HZ = os.sysconf("SC_CLK_TCK")
PARK = ("import sys, threading, time\n"
        "threading.stack_size(32 * 1024)\n"
        "for _ in range(int(sys.argv[1])):\n"
        "    threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()\n"
        "print('ok', flush=True)\n"
        "time.sleep(3600)\n")
def sysctl(name):
    try:
        with open("/proc/sys/" + name.replace(".", "/")) as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


short = [f"{n} {v} (needs more than {need})" for n, need in
         (("kernel.pid_max", nthreads + 5000), ("kernel.threads-max", nthreads + 5000),
          ("vm.max_map_count", 2 * nthreads + 5000))
         if (v := sysctl(n)) is not None and v <= need]
if short:
    sys.exit("host_idle: no room for %d threads: %s" % (nthreads, ", ".join(short)))
tmp = tempfile.mkdtemp(prefix="tt-idle.")
os.chmod(tmp, 0o755)
park_py = os.path.join(tmp, "park.py")
with open(park_py, "w") as f:
    f.write(PARK)
os.chmod(park_py, 0o644)
py = shutil.which("python3", path="/usr/bin:/bin") or sys.executable


def park_start():
    cmd = [py, park_py, str(nthreads)]
    if os.geteuid() == 0 and shutil.which("setpriv"):
        cmd = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"] + cmd
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, cwd="/")
    if p.stdout.readline().strip() != b"ok":
        p.kill(); p.wait()
        sys.exit("host_idle: the thread parker did not start")
    # The first listing of a new task directory allocates a dentry per thread (procfs's
    # proc_fill_cache): done here, so the program that runs first does not pay it alone.
    os.listdir(f"/proc/{p.pid}/task")
    return p


def park_stop(p):
    p.kill()
    p.wait()


def cpu(cmd):
    """Whole-process CPU seconds of cmd (wait4's user+sys)."""
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, ru = os.wait4(p.pid, 0)
    return ru.ru_utime + ru.ru_stime


def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
    return port


def ticks(pid):
    with open(f"/proc/{pid}/stat") as f:
        v = f.read().rsplit(")", 1)[1].split()
    return int(v[11]) + int(v[12])


def scrape(port):
    """Seconds to the answer, and the sample time the answer reports."""
    t0 = time.monotonic()
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as r:
        body = r.read()
    took = time.monotonic() - t0
    for line in body.decode("utf-8", "replace").splitlines():
        if line.startswith("tunetop_sample_duration_seconds "):
            return took, float(line.split()[1])
    return took, 0.0


def exporter(binary):
    """Median scrape latency (s), CPU per scrape (s) and median sample time (s) of the
    exporter."""
    port = free_port()
    p = subprocess.Popen([binary, "--host", "--serve", str(port), "-b", "-o", "/dev/null"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        end = time.monotonic() + 15
        while True:
            try:
                scrape(port)
                break
            except OSError:
                if time.monotonic() > end or p.poll() is not None:
                    print(f"host_idle: {binary} --serve answered no scrape", flush=True)
                    return None, None, None, None
                time.sleep(0.1)
        lat, smp, c0 = [], [], ticks(p.pid)
        for _ in range(nscrape):
            time.sleep(gap)
            took, sample = scrape(port)
            lat.append(took)
            smp.append(sample)
        return statistics.median(lat), (ticks(p.pid) - c0) / HZ / nscrape, statistics.median(smp)
    finally:
        p.terminate()
        p.wait()


signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # the cleanup below runs
progs = [("tunetop", tt)] + ([("base", base)] if base else [])
res = {}  # (name, with) -> list
def add(k, v):
    res.setdefault(k, []).append(v)

try:
    for r in range(rounds):
        for withp in (False, True):
            park = park_start() if withp else None
            try:
                cmds = [(n, [b, "--host", "-b", "-n", "10", "-d", "0.5"]) for n, b in progs]
                cmds.append(("top", ["top", "-b", "-H", "-n", "1"]))
                if r % 2:
                    cmds.reverse()
                for n, c in cmds:
                    add((n, withp), cpu(c))
                for n, b in progs:
                    lat, per, smp = exporter(b)
                    if lat is not None:
                        add((n + " scrape", withp), lat)
                        add((n + " scrape cpu", withp), per)
                        add((n + " scrape's sample", withp), smp)
            finally:
                if park:
                    park_stop(park)
        load = os.getloadavg()[0]
        print(f"round {r + 1}: load {load:.1f}, " + ", ".join(
            f"{k[0]}{' +' if k[1] else ''} {v[-1] * 1000:.1f} ms" for k, v in sorted(res.items())),
            flush=True)
finally:
    shutil.rmtree(tmp, ignore_errors=True)

print(f"{nthreads} idle threads of another user, {rounds} rounds, medians (load {os.getloadavg()[0]:.1f}):")
for n in [n for n, _ in progs] + ["top"] + [f"{p} {k}" for p, _ in progs
                                            for k in ("scrape", "scrape's sample", "scrape cpu")]:
    a, b = res.get((n, False)), res.get((n, True))
    if not a or not b:
        continue
    ma, mb = statistics.median(a), statistics.median(b)
    # The median of each round's ratio; CPU per scrape is in clock ticks and may read 0 in a
    # round: then the ratio of the medians.
    if all(x > 0 for x in a):
        ratio = f"{statistics.median(y / x for x, y in zip(a, b)):.2f}"
    else:
        ratio = f"{mb / ma:.2f}" if ma > 0 else "-"
    print(f"  {n:24s} without {ma * 1000:8.1f} ms  with {mb * 1000:8.1f} ms  with/without {ratio}")
PY
