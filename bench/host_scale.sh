#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/host_scale.sh: host-backend CPU on a host with HOST_SCALE_THREADS (50, 500 and 5000 in
# turn) idle threads, whole process (user+sys), against the peers an operator would run there:
# - batch: `tunetop --host -b -n N -d D` against `top -b -H` over the same refreshes (wait4
#   rusage, start-up included for both);
# - console at 1 Hz: `tunetop --host -d 1` against `htop -d 10`, each alone in a fresh tmux
#   window of 120x40 with an empty settings folder (htop's defaults list userland threads),
#   CPU the growth of utime+stime in /proc/PID/stat over HOST_SCALE_TUI_SECS (10) s after
#   HOST_SCALE_TUI_WARM (3) s.
# Each pair runs one after the other, the order alternated each round, HOST_SCALE_ROUNDS (3)
# rounds, medians. The threads carry the names of a real host's (pmd-c01/id:6, kworker/u9:3,
# handler12, revalidator5), a share HOST_SCALE_MATCH (0.1) of them ones tunetop's host matcher
# follows (host_thread_pick): a pool all named python3 would measure the scan alone. Each round
# also runs tunetop -b with every thread renamed to an unmatched name; the difference is the
# cost per matched thread.
# HOST_SCALE_BASE=PATH: another tunetop (a build before a change) run the same way in each
# round, alternated with this one, for a before/after in one run.
set -u
n=${HOST_SCALE_N:-10}
delay=${HOST_SCALE_D:-0.2}
rounds=${HOST_SCALE_ROUNDS:-3}
match=${HOST_SCALE_MATCH:-0.1}
command -v top >/dev/null || { echo "no top (procps)"; exit 0; }
. "$(dirname "$0")/lib/peer.sh"
bench_peer_install htop || echo "htop missing (apt-get install htop): the console pair is skipped"
command -v tmux >/dev/null || echo "tmux missing: the console pair is skipped"
for nthreads in ${HOST_SCALE_THREADS:-50 500 5000}; do
echo "--- $nthreads threads ---"
python3 - "$nthreads" "$n" "$TUNETOP" "$delay" "$rounds" "$match" "${HOST_SCALE_BASE:-}" \
	"${HOST_SCALE_TUI_WARM:-3}" "${HOST_SCALE_TUI_SECS:-10}" <<'PY'
import json, os, shutil, statistics, subprocess, sys, tempfile, threading, time

nthreads, n, tunetop = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
delay, rounds, match = sys.argv[4], int(sys.argv[5]), float(sys.argv[6])
base = sys.argv[7]
tui_warm, tui_secs = float(sys.argv[8]), float(sys.argv[9])
HZ = os.sysconf("SC_CLK_TCK")
threading.stack_size(64 * 1024)
stop = threading.Event()
ts = [threading.Thread(target=stop.wait, daemon=True) for _ in range(nthreads)]
for t in ts:
    t.start()
time.sleep(0.5)
nmatch = int(nthreads * match)

def name(i, matched):
    """The i-th thread's name: matched ones as OVS PMDs and kworkers, the rest as OVS's
    handlers and revalidators (15 bytes at most, the kernel's comm)."""
    if matched:
        return "pmd-c%02d/id:%d" % (i % 100, i) if i % 2 else "kworker/u9:%d" % i
    return "handler%d" % i if i % 2 else "revalidator%d" % i

def rename(matched):
    for i, t in enumerate(ts):
        with open("/proc/self/task/%d/comm" % t.native_id, "w") as f:
            f.write(name(i, matched and i < nmatch)[:15])

def run(argv, path):
    with open(path, "w") as out:
        p = subprocess.Popen(argv, stdout=out, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
    return ru.ru_utime + ru.ru_stime

tmp = "/tmp/tt-hostscale.%d" % os.getpid()
os.makedirs(tmp, exist_ok=True)
refresh = n + 1
top_argv = ["top", "-b", "-H", "-d", delay, "-n", str(refresh)]
res = {"top": [], "load": []}
kinds = [("tt", tunetop)] + ([("base", base)] if base else [])
for k, _ in kinds:
    for f in ("", "0", "_ratio", "_per", "_matched", "_matched0", "_sample_us"):
        res[k + f] = []

def tt(k, path, matched):
    cpu = run([path, "--host", "-b", "-n", str(refresh), "-d", delay], tmp + "/tt.json")
    lines = [json.loads(l) for l in open(tmp + "/tt.json") if l.strip()]
    res[k + ("" if matched else "0")].append(cpu)
    res[k + ("_matched" if matched else "_matched0")].append(lines[-1]["host"]["threads_matched"])
    if matched:
        res[k + "_sample_us"].append(statistics.median(o["self"]["sample_us"] for o in lines[1:]))

for r in range(rounds):
    res["load"].append(os.getloadavg()[0])
    order = kinds if r % 2 == 0 else kinds[::-1]
    rename(False)
    for k, path in order:
        tt(k, path, False)
    rename(True)
    if r % 2:
        res["top"].append(run(top_argv, tmp + "/top.txt"))
    for k, path in order:
        tt(k, path, True)
    if r % 2 == 0:
        res["top"].append(run(top_argv, tmp + "/top.txt"))
    for k, _ in kinds:
        res[k + "_ratio"].append(res[k][-1] / res["top"][-1])
        dm = res[k + "_matched"][-1] - res[k + "_matched0"][-1]
        res[k + "_per"].append((res[k][-1] - res[k + "0"][-1]) / refresh / dm if dm > 0
                               else float("nan"))


def ticks(pid):
    with open("/proc/%d/stat" % pid) as f:
        v = f.read().rsplit(")", 1)[1].split()
    return int(v[11]) + int(v[12])  # utime, stime: fields 14 and 15


def console(argv):
    """% of one CPU the whole process took at a steady 1 Hz in a fresh 120x40 tmux window
    (None when it did not start or drew nothing)."""
    home = tempfile.mkdtemp(prefix="tt-hostscale-home.")
    os.makedirs(home + "/.config")
    # A socket of its own each time: a server still ending would refuse the next "new".
    console.n = getattr(console, "n", 0) + 1
    sock = "tt-bench-hs-%d-%d" % (os.getpid(), console.n)
    tm = ["tmux", "-L", sock, "-f", "/dev/null"]
    env = "exec env HOME=%s XDG_CONFIG_HOME=%s/.config LANG=C.UTF-8 " % (home, home)
    try:
        subprocess.run(tm + ["new", "-d", "-x", "120", "-y", "40", env + " ".join(argv)],
                       check=True)
        pid = int(subprocess.run(tm + ["display", "-p", "#{pane_pid}"], capture_output=True,
                                 text=True).stdout)
        time.sleep(tui_warm)
        t0, c0 = time.monotonic(), ticks(pid)
        time.sleep(tui_secs)
        c1, t1 = ticks(pid), time.monotonic()
        shown = subprocess.run(tm + ["capture-pane", "-p"], capture_output=True,
                               text=True).stdout
        if sum(1 for l in shown.splitlines() if l.strip()) < 5:
            return None
        return (c1 - c0) / HZ / (t1 - t0) * 100
    except (OSError, ValueError, subprocess.CalledProcessError):
        return None
    finally:
        subprocess.run(tm + ["kill-server"], stderr=subprocess.DEVNULL)
        shutil.rmtree(home, ignore_errors=True)
        path = os.path.join(os.environ.get("TMUX_TMPDIR", "/tmp"), "tmux-%d" % os.getuid(), sock)
        if os.path.exists(path):
            os.unlink(path)

tui = {"tt": [], "htop": [], "ratio": []}
if shutil.which("htop") and shutil.which("tmux"):
    rename(True)
    tui_argv = {"tt": [tunetop, "--host", "-d", "1"], "htop": ["htop", "-d", "10"]}
    for r in range(rounds):
        for k in (("tt", "htop") if r % 2 == 0 else ("htop", "tt")):
            tui[k].append(console(tui_argv[k]))
        if tui["tt"][-1] is not None and tui["htop"][-1]:
            tui["ratio"].append(tui["tt"][-1] / tui["htop"][-1])


def host_threads():
    """Every thread on the host, as top -H lists them."""
    n = 0
    for p in filter(str.isdigit, os.listdir("/proc")):
        try:
            n += len(os.listdir("/proc/%s/task" % p))
        except OSError:
            pass
    return n

all_threads = host_threads()
stop.set()
for f in os.listdir(tmp):
    os.unlink(os.path.join(tmp, f))
os.rmdir(tmp)
med = statistics.median
print("threads on the host: %d in all, of them %d idle python threads (%d named to match)"
      % (all_threads, nthreads, nmatch))
print("rounds %d, load average 1-min at each round: %s" % (rounds, " ".join("%.1f" % l for l in res["load"])))
print("%-40s %14s %s" % ("median of %d, -n %d -d %s" % (rounds, refresh, delay), "CPU ms/refresh", "(rounds)"))
rows = [("top", "top -b -H")]
for k, path in kinds:
    who = "tunetop" if k == "tt" else "base " + os.path.basename(path)
    rows += [(k, "%s (%d matched)" % (who, med(res[k + "_matched"]))),
             (k + "0", "%s (%d matched)" % (who, med(res[k + "_matched0"])))]
for key, label in rows:
    print("%-40s %14.2f (%s)" % (label, med(res[key]) * 1e3 / refresh,
                                 " ".join("%.2f" % (v * 1e3 / refresh) for v in res[key])))
for k, path in kinds:
    who = "tunetop" if k == "tt" else "base"
    print("%-7s ratio to top, same round: median %.3f (%s)%s"
          % (who, med(res[k + "_ratio"]), " ".join("%.3f" % v for v in res[k + "_ratio"]),
             "   (goal <= 0.1 at 5000 threads)" if nthreads >= 5000 else ""))
    print("%-7s per matched thread and refresh: %.1f us (%s); sample median %d us"
          % (who, med(res[k + "_per"]) * 1e6, " ".join("%.1f" % (v * 1e6) for v in res[k + "_per"]),
             med(res[k + "_sample_us"])))
top_per = med(res["top"]) / refresh / all_threads
print("top per thread and refresh (it reads every thread): %.1f us" % (top_per * 1e6))
for k, _ in kinds:
    per = [v for v in res[k + "_per"] if v == v]
    if per:
        print("%-7s per matched thread against top's per thread: %.2f%s"
              % ("tunetop" if k == "tt" else "base", med(per) / top_per,
                 "   (goal <= 0.5)" if nthreads >= 5000 else ""))
if tui["ratio"]:
    fmt = lambda v: " ".join("-" if x is None else "%.2f" % x for x in v)
    ok = lambda v: [x for x in v if x is not None]
    print("console at 1 Hz, 120x40, %g s after %g s, %% of one CPU: tunetop --host -d 1 %.2f (%s); "
          "htop -d 10 %.2f (%s)" % (tui_secs, tui_warm, med(ok(tui["tt"])), fmt(tui["tt"]),
                                    med(ok(tui["htop"])), fmt(tui["htop"])))
    print("tunetop/htop console CPU, same round: median %.3f (%s)%s"
          % (med(tui["ratio"]), fmt(tui["ratio"]),
             "   (goal < 1 at 5000 threads)" if nthreads >= 5000 else ""))
PY
done
