#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""fake_ovs.py: a misbehaving ovs-vswitchd unixctl (or ovsdb) server for the host tests.

fake_ovs.py SOCKET MODE [READY_FILE]
MODE: ok        answers like OVS 3.1 (pmd-perf-show, pmd-stats-show, pmd-rxq-show;
                pmd-sleep-show is "not a valid command")
      silent    accepts and reads, never answers
      noaccept  listens and never accepts (its backlog is full: connect() would block)
      garbage   answers bytes that are not JSON
      big       answers a 50 MB result
      slow:S    answers like ok after S seconds
      okthen:N  answers N requests like ok, then closes and never accepts again
      clock:S   like ok, but each pmd-perf-show reply is S seconds of OVS's own time after
                the last (Measurement duration), whatever the caller's pace, at exactly
                CLOCK_PPS packets a second and 90 % of that time asleep
      grow      like ok, but each pmd-perf-show has moved on by 0.2 s of OVS's time:
                +1000 iterations, +900 sleep iterations, +9000 us asleep
      nonsense  like grow, but +1e14 us asleep each time (OVS's own "Sleep time" on some
                VMs: more sleep than time)
      ovsdb     an ovsdb-server (RFC 7047 transact) with one Open_vSwitch row: select, wait,
                mutate (other_config delete/insert, next_cfg +=), update; no Interface rows.
                other_config starts as FAKE_OVSDB_CONFIG ("pmd-maxsleep=500,k=v"; "," splits
                only before a key=, so "pmd-maxsleep=50,1:100" is one value)
Environment of a unixctl mode (ok, clock:S, ...):
      FAKE_OVS_DB=PATH       follow the ovsdb at PATH as ovs-vswitchd does: when next_cfg moves,
                             take the new other_config and set cur_cfg to it (polled every 50 ms)
      FAKE_OVS_APPLY_S=S     ... S seconds after it saw the change (a slow reconfiguration)
      FAKE_OVS_PERF=PATH     pmd-perf-show answers the texts in PATH the same way (below)
      FAKE_OVS_STATS=PATH    pmd-stats-show answers the texts in PATH (split by "====" lines)
                             one per call in turn, the last one again after them (counters
                             moving on, or back as after pmd-stats-clear)
Environment of the ovsdb mode:
      FAKE_OVSDB_IFACES=PATH Interface rows from the JSON list in PATH, one element per select
                             in turn, the last again after them; an element is {"p0":
                             {"rx_dropped": 3, ...}, ...}
A process stopped with SIGSTOP answers nothing and takes nothing (a stopped ovs-vswitchd); one
killed is gone. Writes READY_FILE once listening. Runs until killed.
"""
import json
import os
import socket
import sys
import threading
import time

PERF = """
Time: 00:00:01.000
Measurement duration: 1.000 s

pmd thread numa_id 0 core_id 1:

  Iterations:                 1000  (10.00 us/it)
  - Used TSC cycles:      20000000  ( 50.0 % of total cycles)
  - idle iterations:          1000  (100.0 % of used cycles)
  - busy iterations:             0  (  0.0 % of used cycles)
  - sleep iterations:          900  ( 90.0 % of iterations)
  Sleep time (us):            9000  ( 10 us/iteration avg.)
  Rx packets:                    0
  Tx packets:                    0
"""
STATS = """pmd thread numa_id 0 core_id 1:
  packets received: 0
  emc hits: 0
  smc hits: 0
  megaflow hits: 0
  miss with success upcall: 0
  miss with failed upcall: 0
  idle cycles: 20000000 (100.00%)
  processing cycles: 0 (0.00%)
"""
RXQ = """pmd thread numa_id 0 core_id 1:
  isolated : false
  port: p0                queue-id:  0 (enabled)   pmd usage:  0 %
  overhead:  0 %
"""


CLOCK_PPS = 20000
clock_n = 0


def perf_clock(step):
    """pmd-perf-show after clock_n steps of step seconds: every counter advances with it."""
    global clock_n
    clock_n += 1
    t = clock_n * step
    it = int(t * 100000)
    return (PERF.replace("Measurement duration: 1.000 s", "Measurement duration: %.3f s" % t)
            .replace("Iterations:                 1000", "Iterations: %d" % it)
            .replace("- sleep iterations:          900", "- sleep iterations: %d" % (it * 9 // 10))
            .replace("Sleep time (us):            9000", "Sleep time (us): %d" % int(t * 900000))
            .replace("Rx packets:                    0", "Rx packets: %d" % int(t * CLOCK_PPS)))


perf_calls = 0


def perf_text(mode):
    """PERF as it reads after perf_calls more calls (grow, nonsense), or as it is."""
    global perf_calls
    if mode not in ("grow", "nonsense"):
        return PERF
    with lock:
        perf_calls += 1
        n = perf_calls
    slept = n * (10**14 if mode == "nonsense" else 9000)
    return (PERF.replace("Measurement duration: 1.000 s", "Measurement duration: %.3f s" % (0.2 * n))
            .replace("Iterations:                 1000", f"Iterations:           {1000 * n:10d}")
            .replace("sleep iterations:          900", f"sleep iterations:    {900 * n:10d}")
            .replace("Sleep time (us):            9000", f"Sleep time (us):  {slept:14d}"))


# ---- the ovsdb mode: one Open_vSwitch row ----
DB = {"other_config": {}, "cur_cfg": 0, "next_cfg": 0}


def db_config(text):
    out, key = {}, None
    for part in text.split(","):
        if "=" in part.split(":")[0]:
            key, val = part.split("=", 1)
            out[key] = val
        elif key is not None:
            out[key] += "," + part
    return out


def db_col(name):
    v = DB[name]
    return ["map", sorted([k, x] for k, x in v.items())] if isinstance(v, dict) else v


calls = {}  # how many times each sequence was answered
calls_lock = threading.Lock()  # its own: db_answer holds lock around db_op


def in_turn(name, items):
    """Element k of items at call k of name (the last one after them)."""
    with calls_lock:
        k = calls.get(name, 0)
        calls[name] = k + 1
    return items[min(k, len(items) - 1)] if items else None


def db_ifaces():
    path = os.environ.get("FAKE_OVSDB_IFACES")
    try:
        rows = in_turn("ifaces", json.load(open(path))) if path else {}
    except (OSError, ValueError):
        rows = {}
    return {"rows": [{"name": n, "statistics": ["map", sorted([k, v] for k, v in st.items())]}
                     for n, st in sorted(rows.items())]}


def db_op(op):
    kind, table = op.get("op"), op.get("table")
    if table == "Interface" and kind == "select":
        return db_ifaces()
    if table != "Open_vSwitch":
        return {"rows": []} if kind == "select" else {"count": 0}
    if kind == "select":
        return {"rows": [{c: db_col(c) for c in op.get("columns", DB.keys())}]}
    if kind == "wait":
        want = op["rows"][0]
        same = all(db_col(c) == [want[c][0], sorted(want[c][1])] if isinstance(DB[c], dict)
                   else db_col(c) == want[c] for c in op["columns"])
        if same == (op.get("until") == "=="):
            return {}
        return {"error": "timed out", "details": "\"wait\" timed out"}
    if kind == "mutate":
        for col, how, arg in op["mutations"]:
            if how == "+=":
                DB[col] += arg
            elif how == "delete":
                for k in (arg[1] if arg[0] == "set" else [arg]):
                    DB[col].pop(k, None)
            elif how == "insert":
                for k, v in arg[1]:
                    DB[col].setdefault(k, v)
        return {"count": 1}
    if kind == "update":
        for col, v in op["row"].items():
            DB[col] = dict(v[1]) if isinstance(v, list) and v and v[0] == "map" else v
        return {"count": 1}
    return {"error": "not supported", "details": kind}


def db_answer(req):
    if req.get("method") != "transact":
        return {"id": req.get("id"), "result": None, "error": "unknown method"}
    with lock:
        res = []
        for op in req["params"][1:]:
            r = db_op(op)
            res.append(r)
            if "error" in r:
                break
    return {"id": req["id"], "result": res, "error": None}


# ---- a unixctl mode following an ovsdb (FAKE_OVS_DB) as ovs-vswitchd does ----
taken = {}  # the other_config this "vswitchd" last took


def db_call(sock, ops, n):
    sock.sendall(json.dumps({"id": n, "method": "transact",
                             "params": ["Open_vSwitch"] + ops}).encode())
    return next(requests(sock))["result"]


def follow(path, delay):
    n, seen, since = 0, None, 0.0
    while True:
        time.sleep(0.05)
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as c:
                c.connect(path)
                while True:
                    n += 1
                    row = db_call(c, [{"op": "select", "table": "Open_vSwitch", "where": [],
                                       "columns": ["other_config", "cur_cfg", "next_cfg"]}],
                                  n)[0]["rows"][0]
                    if row["next_cfg"] != row["cur_cfg"]:
                        if seen != row["next_cfg"]:
                            seen, since = row["next_cfg"], time.monotonic()
                        if time.monotonic() - since >= delay:
                            taken.clear()
                            taken.update(dict(row["other_config"][1]))
                            n += 1
                            db_call(c, [{"op": "update", "table": "Open_vSwitch", "where": [],
                                         "row": {"cur_cfg": row["next_cfg"]}}], n)
                    elif not taken:
                        taken.update(dict(row["other_config"][1]))
                    time.sleep(0.05)
        except (OSError, StopIteration, KeyError, IndexError):
            continue


def answer(req, mode="ok"):
    m = req.get("method")
    if m == "dpif-netdev/pmd-perf-show":
        if mode.startswith("clock:"):
            return {"id": req["id"], "result": perf_clock(float(mode[6:])), "error": None}
        text = perf_text(mode)
        if os.environ.get("FAKE_OVS_PERF"):
            try:
                texts = open(os.environ["FAKE_OVS_PERF"]).read().split("====\n")
                text = in_turn("perf", texts)
            except OSError:
                pass
        return {"id": req["id"], "result": text, "error": None}
    if m == "dpif-netdev/pmd-stats-show":
        text = STATS
        if os.environ.get("FAKE_OVS_STATS"):
            try:
                texts = open(os.environ["FAKE_OVS_STATS"]).read().split("====\n")
                text = in_turn("stats", texts)
            except OSError:
                pass
        return {"id": req["id"], "result": text, "error": None}
    if m == "dpif-netdev/pmd-rxq-show":
        return {"id": req["id"], "result": RXQ, "error": None}
    return {"id": req["id"], "result": None, "error": '"%s" is not a valid command' % m}


def requests(conn):
    """Yield each JSON request read from conn (objects back to back, no framing)."""
    dec = json.JSONDecoder()
    buf = ""
    while True:
        data = conn.recv(65536)
        if not data:
            return
        buf += data.decode("utf-8", "replace")
        while True:
            buf = buf.lstrip()
            if not buf:
                break
            try:
                obj, end = dec.raw_decode(buf)
            except ValueError:
                break
            buf = buf[end:]
            yield obj


served = 0
lock = threading.Lock()


def serve(conn, mode, srv):
    global served
    try:
        for req in requests(conn):
            if mode == "silent":
                continue
            if mode == "ovsdb":
                conn.sendall(json.dumps(db_answer(req)).encode())
                continue
            if mode == "garbage":
                conn.sendall(b"\x00\x01 this is not JSON-RPC ]]]\n")
                continue
            if mode == "big":
                head = ('{"id":%d,"error":null,"result":"' % req["id"]).encode()
                conn.sendall(head)
                chunk = b"x" * (1 << 20)
                for _ in range(50):
                    conn.sendall(chunk)
                conn.sendall(b'"}')
                continue
            if mode.startswith("slow:"):
                time.sleep(float(mode[5:]))
            if mode.startswith("okthen:"):
                with lock:
                    served += 1
                    last = served > int(mode[7:])
                if last:
                    go_noaccept(srv)
                    conn.close()
                    return
            conn.sendall(json.dumps(answer(req, mode)).encode())
    except OSError:
        pass


stuck = []


def go_noaccept(srv):
    """Stop accepting, with the backlog full: a blocking connect() would wait forever."""
    global accepting
    accepting = False
    path = srv.getsockname()
    srv.close()
    os.unlink(path)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(path)
    s.listen(0)
    for _ in range(4):
        c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        c.setblocking(False)
        try:
            c.connect(path)
        except OSError:
            pass
        stuck.append(c)
    stuck.append(s)


accepting = True


def main():
    path, mode = sys.argv[1], sys.argv[2]
    ready = sys.argv[3] if len(sys.argv) > 3 else None
    if os.path.exists(path):
        os.unlink(path)
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    if mode == "noaccept":
        srv.close()
        os.unlink(path)
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(path)
        go_noaccept(s)
    else:
        srv.listen(16)
    if mode == "ovsdb":
        DB["other_config"] = db_config(os.environ.get("FAKE_OVSDB_CONFIG", ""))
    elif os.environ.get("FAKE_OVS_DB"):
        threading.Thread(target=follow, args=(os.environ["FAKE_OVS_DB"],
                                              float(os.environ.get("FAKE_OVS_APPLY_S", "0"))),
                         daemon=True).start()
    if ready:
        open(ready, "w").write("ready\n")
    if mode == "noaccept":
        while True:
            time.sleep(60)
    srv.settimeout(0.2)
    while accepting:
        try:
            conn, _ = srv.accept()
        except socket.timeout:
            continue
        except OSError:
            if not accepting:
                break
            raise
        threading.Thread(target=serve, args=(conn, mode, srv), daemon=True).start()
    while True:
        time.sleep(60)


if __name__ == "__main__":
    main()
