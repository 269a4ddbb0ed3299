#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/replay_atop.sh: replay start-up against `atop -r`. tunetop replays the 1-hour recording
# bench/replay.sh replays (bench/make_hour.py, plain JSON Lines); atop a log it writes here with
# `atop -w FILE 1 REPLAY_ATOP_SECS` (120 samples, 1 s apart: atop reads a raw log a sample at a
# time, so its start-up does not grow with the log). Both consoles start alone in a fresh tmux
# window of 120x40; at the first frame (the screen shows "REPLAY" or "ATOP -", polled every
# 20 ms) the CPU so far (utime+stime of /proc/PID/stat, the whole process; and the summed run
# time of its threads' schedstat, finer than the 10 ms tick) and the peak RSS (VmHWM) are read.
# Also `tunetop --replay FILE -b -n 1` start to exit (CPU from getrusage of the children, peak RSS
# from /usr/bin/time). Each for the hour plain and as .zst (`zstd -q`, one frame: a compressed
# hour is expanded whole at open to index it). Alternated, the order rotated each round,
# REPLAY_ATOP_ROUNDS (3) rounds; medians, ratios the median of each round's.
set -u
: "${TUNETOP:?run through bench/run.sh or set TUNETOP}"
secs=${REPLAY_ATOP_SECS:-120}
command -v tmux >/dev/null || { echo "tmux missing (make deps)"; exit 1; }
command -v zstd >/dev/null || { echo "zstd missing (make deps)"; exit 1; }
. "$(dirname "$0")/lib/peer.sh"
bench_peer atop
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The atop log is written while the recording is made; the figures wait for both.
atop -w "$tmp/atop.raw" 1 "$secs" >/dev/null 2>&1 &
apid=$!
"$TUNETOP" -b -n 20 -d 1 --scenario default > "$tmp/20.jsonl" || exit 1
python3 "$(dirname "$0")/make_hour.py" "$tmp/20.jsonl" "$tmp/hour.jsonl" || exit 1
zstd -q "$tmp/hour.jsonl" -o "$tmp/hour.jsonl.zst" || exit 1
wait "$apid"
python3 - "$TUNETOP" "$tmp" "$secs" "${REPLAY_ATOP_ROUNDS:-3}" <<'PY'
import os, resource, statistics, subprocess, sys, time

tt, tmp, secs, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
HZ = os.sysconf("SC_CLK_TCK")
hour, raw = f"{tmp}/hour.jsonl", f"{tmp}/atop.raw"
nsock = [0]


def status(pid, key):
    with open(f"/proc/{pid}/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith(key))


def ticks(pid):
    with open(f"/proc/{pid}/stat") as f:
        v = f.read().rsplit(")", 1)[1].split()
    return int(v[11]) + int(v[12])  # utime, stime: fields 14 and 15


def runtime_ns(pid):
    n = 0
    for t in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{t}/schedstat") as f:
            n += int(f.read().split()[0])
    return n


def console(argv, pattern):
    """CPU ms (ticks), CPU ms (schedstat), peak RSS KiB and wall ms at the first frame."""
    nsock[0] += 1
    sock = f"tt-bench-ratop-{os.getpid()}-{nsock[0]}"
    tm = ["tmux", "-L", sock, "-f", "/dev/null"]
    env = f"env HOME={tmp} XDG_CONFIG_HOME={tmp}/cfg LANG=C.UTF-8 "
    t0 = time.monotonic()
    subprocess.run(tm + ["new", "-d", "-x", "120", "-y", "40", "exec " + env + " ".join(argv)],
                   check=True)
    try:
        pid = int(subprocess.run(tm + ["display", "-p", "#{pane_pid}"], capture_output=True,
                                 text=True).stdout)
        end = t0 + 20
        while time.monotonic() < end:
            screen = subprocess.run(tm + ["capture-pane", "-p"], capture_output=True,
                                    text=True).stdout
            if pattern in screen:
                wall = (time.monotonic() - t0) * 1e3
                return (ticks(pid) * 1e3 / HZ, runtime_ns(pid) / 1e6, status(pid, "VmHWM"), wall)
            time.sleep(0.02)
        raise SystemExit(f"{argv[0]}: no first frame in 20 s")
    finally:
        subprocess.run(tm + ["kill-server"], stderr=subprocess.DEVNULL)
        try:  # kill-server leaves the socket behind
            os.unlink(f"{os.environ.get('TMUX_TMPDIR', '/tmp')}/tmux-{os.getuid()}/{sock}")
        except OSError:
            pass


def batch(path):
    # RSS from /usr/bin/time, not wait4: a child's ru_maxrss keeps the high-water mark of the
    # process before its exec, which for a child of Python is Python's. CPU from the children's
    # rusage (microseconds; /usr/bin/time's own is in it, well under a millisecond).
    def cpu():
        u = resource.getrusage(resource.RUSAGE_CHILDREN)
        return u.ru_utime + u.ru_stime
    c0 = cpu()
    r = subprocess.run(["/usr/bin/time", "-f", "%M", tt, "--replay", path, "-b", "-n", "1"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return (None, (cpu() - c0) * 1e3, int(r.stderr.split()[-1]), None)


kinds = {"atop -r": lambda: console(["atop", "-r", raw], "ATOP -"),
         "tunetop --replay": lambda: console([tt, "--replay", hour], "REPLAY"),
         "tunetop --replay .zst": lambda: console([tt, "--replay", hour + ".zst"], "REPLAY"),
         "tunetop --replay -b -n 1": lambda: batch(hour),
         "tunetop --replay .zst -b -n 1": lambda: batch(hour + ".zst")}
res = {k: [] for k in kinds}
print(f"tunetop: {hour.rsplit('/', 1)[1]}, 3600 lines, {os.path.getsize(hour)} bytes; atop: "
      f"atop -w, {secs} samples 1 s apart, {os.path.getsize(raw)} bytes; {rounds} rounds")
for r in range(rounds):
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    ks = list(kinds)
    for k in ks[r % len(ks):] + ks[:r % len(ks)]:
        res[k].append(kinds[k]())
    print(f"   round {r + 1}: load {load}; " + ", ".join(
        f"{k} {v[-1][1]:.1f} ms {v[-1][2]} KiB"
        for k, v in res.items()))
med = statistics.median
a = res["atop -r"]
print(f"{'median of %d, at the first frame' % rounds:<34} {'CPU ms':>7} {'(precise)':>11} "
      f"{'peak RSS KiB':>13} {'wall ms':>8}  ratio to atop -r: CPU, RSS (rounds)")
for k, v in res.items():
    line = (f"{k:<34} {med(x[0] for x in v) if v[0][0] is not None else float('nan'):>7.0f} "
            f"{med(x[1] for x in v) if v[0][1] is not None else float('nan'):>11.1f} "
            f"{med(x[2] for x in v):>13.0f} "
            f"{med(x[3] for x in v) if v[0][3] is not None else float('nan'):>8.0f}")
    if k != "atop -r":
        # The schedstat figure when there is one: ticks of a first frame are mostly 0 or 1.
        cr = [x[1] / max(y[1], 0.001) for x, y in zip(v, a)]
        rr = [x[2] / y[2] for x, y in zip(v, a)]
        line += (f"  {med(cr):.2f}x, {med(rr):.2f}x ({' '.join('%.2f' % c for c in cr)}; "
                 f"{' '.join('%.2f' % c for c in rr)})")
    print(line)
print("(CPU ratios from the precise figure: schedstat run time at the first frame; -b -n 1 start to exit, rusage)")
print(f"load at the end: {' '.join('%.2f' % x for x in os.getloadavg())}")
PY
