#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""tests/lib/fake_far.py: a fake far side for --remote, used as `--ssh "python3 fake_far.py"`.

It ignores the ssh options and picks its behaviour from the host name (the word before the
far command, after "--"): good runs the real agent (the far command, through sh); the others
are hostile, built on one real snapshot that the agent binary named in the far command gives
(`-b -n 1`, cached in $FAKE_BASE when set). Every start appends "MODE PID" to $FAKE_LOG when
set, and its arguments (a JSON array a line) to $FAKE_ARGV. A host name may carry a suffix after a dot (flood.1) to run the same mode twice.

Modes: good, flood (whole snapshot lines as fast as the pipe takes), garbage (random bytes
with newlines), stderrflood (lines on stderr as fast as it can), silence (connected, never a byte), schema2, maxline and maxgrow (the most memory one line, or
deltas, may ask for), longline (9 MB and no newline),
ignore-term (SIGTERM ignored: one snapshot, then silence), exit2 (a far-side usage error),
escerr (escape sequences on stderr, then exit 255), hugevalue (1e308, negative counts, int extremes, then deltas), unknown-delta-paths (deltas
naming keys the snapshot lacks, 2,000 a line, with deep values), hostile (flood, garbage,
silence, $FAKE_PHASE_S seconds each, default 5).
"""
import json
import os
import random
import shlex
import signal
import subprocess
import sys
import time


def base_snapshot(far_cmd):
    cache = os.environ.get("FAKE_BASE")
    if cache and os.path.exists(cache) and os.path.getsize(cache) > 0:
        with open(cache) as f:
            return json.loads(f.readline())
    words = shlex.split(far_cmd)
    binary = words[1] if words and words[0] == "exec" else words[0]
    out = subprocess.run([binary, "-b", "-n", "1", "-d", "0.2"], capture_output=True,
                         text=True, check=True).stdout
    line = out.splitlines()[0]
    if cache:
        with open(cache + ".tmp", "w") as f:
            f.write(line + "\n")
        os.replace(cache + ".tmp", cache)
    return json.loads(line)


def put(line):
    sys.stdout.buffer.write(line if isinstance(line, bytes) else line.encode())
    sys.stdout.buffer.flush()


def dumps(o):
    return json.dumps(o, separators=(",", ":")) + "\n"


def silence():
    while True:
        time.sleep(3600)


def flood(base, until=None):
    seq = 0
    while until is None or time.monotonic() < until:
        seq += 1
        base["seq"] = seq
        line = dumps(base).encode()
        # A batch per write: the pipe is the limit, not Python.
        put(line * 20)


def garbage(until=None):
    rnd = random.Random(7)
    while until is None or time.monotonic() < until:
        chunk = bytes(rnd.getrandbits(8) for _ in range(4096))
        put(chunk + b"\n")


def main():
    args = sys.argv[1:]
    far_cmd, host = args[-1], args[-2]
    mode = host.split(".")[0]
    log = os.environ.get("FAKE_LOG")
    if log:
        with open(log, "a") as f:
            f.write("%s %d\n" % (host, os.getpid()))
    if os.environ.get("FAKE_ARGV"):
        with open(os.environ["FAKE_ARGV"], "a") as f:
            f.write(json.dumps(args) + "\n")
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    if mode == "good":
        os.execvp("sh", ["sh", "-c", far_cmd])
    if mode == "escerr":
        sys.stderr.buffer.write(b"ssh: \x1b]0;PWNED-ERR\x07\x1b[2J\x1b]52;c;cHduZWQ=\x07"
                                b"\xc2\x9b31m bad\n")
        sys.exit(255)
    if mode == "exit2":
        sys.stderr.write("tunetop: --set: blk.rq_affinity: host mode is read-only\n")
        sys.exit(2)
    if mode == "silence":
        silence()
    if mode == "stderrflood":
        while True:
            sys.stderr.write("x" * 4095 + "\n")
    if mode == "garbage":
        garbage()
    if mode == "longline":
        put(b'{"schema":1,"x":"' + b"x" * (9 << 20))
        silence()
    base = base_snapshot(far_cmd)
    if mode == "flood":
        flood(base)
    if mode == "hostile":
        phase = float(os.environ.get("FAKE_PHASE_S", "5"))
        flood(base, time.monotonic() + phase)
        garbage(time.monotonic() + phase)
        silence()
    if mode == "schema2":
        base["schema"] = 2
        put(dumps(base))
        silence()
    if mode == "ignore-term":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        put(dumps(base))
        silence()
    if mode == "hugevalue":
        base["uptime_s"] = 1e308
        base["interval_s"] = -1e308
        base["seq"] = 2**63 - 1
        for t in base.get("threads", [])[:2]:
            t["cpu_ns"] = -5
        ths = base.get("threads", [])
        if len(ths) >= 2:
            ths[0]["emu_cpu"] = -2147483648
            ths[1]["emu_cpu"] = 2147483647
        for sec in ("pmd", "blk"):
            if isinstance(base.get(sec), dict):
                for k, v in base[sec].items():
                    if isinstance(v, (int, float)) and not isinstance(v, bool):
                        base[sec][k] = 1e308
        put(dumps(base))
        n = 0
        while True:
            time.sleep(0.5)
            n += 1
            put(dumps({"delta": {"seq": n, "uptime_s": 1e308 - n}}))
    if mode == "unknown-delta-paths":
        put(dumps(base))
        n = 0
        deep = [[i for i in range(200)]] * 20
        while True:
            d = {}
            for _ in range(2000):
                n += 1
                d["knobs/junk%d" % n] = {"a": deep} if n % 100 == 0 else n
            d["junk%d" % n] = deep
            d["seq"] = n
            put(dumps({"delta": d}))
    if mode == "maxline":
        # The most nodes one line under 8 MB holds: 4 million zeros as threads.
        put(b'{"schema":1,"threads":[' + b"0," * ((8 << 20) // 2 - 64) + b'0]}\n')
        silence()
    if mode == "maxgrow":
        # A snapshot of many threads, then deltas each setting one name to a 7 MB string.
        t0 = base["threads"][0]
        base["threads"] = [dict(t0, tid=i) for i in range(40000)]
        put(dumps(base))
        i = 0
        while True:
            put(dumps({"delta": {"threads/%d/name" % i: "n" * (7 << 20)}}))
            i += 1
            time.sleep(0.05)
    sys.stderr.write("fake_far.py: unknown mode %r\n" % mode)
    sys.exit(255)


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        sys.exit(0)
