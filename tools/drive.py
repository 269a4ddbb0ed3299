#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""drive.py FMT N 'seq:cmd' ... -- agent args: tunetop --agent for N samples, sending each
command after sample seq, one line a sample (FMT: est, pmd or blk figures) with the findings
as they start. The runs of docs/conclusions.md. TUNETOP names the binary (default ./tunetop);
D the interval (-d, default 1); SAVE a file for every snapshot."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "lib"))
import agentproto  # noqa: E402
argv = sys.argv[1:]
fmt = argv[0]; n = int(argv[1]); i = argv.index('--')
cmds = {}
for c in argv[2:i]:
    s, cmd = c.split(':', 1); cmds.setdefault(int(s), []).append(cmd)
a = agentproto.Agent('-d', os.environ.get('D', '1'), *argv[i+1:])
from collections import Counter
cnt = Counter(); started = {}
out = open(os.environ.get('SAVE', '/dev/null'), 'w')
for k in range(1, n + 1):
    s = a.snapshot(30)
    if s is None: print('timeout'); break
    out.write(json.dumps(s) + '\n')
    ids = [g['id'] for g in s['diagnoses']]
    for g in ids: cnt[g] += 1
    line = f"{s['seq']:3d} "
    rq = [ (t.get('name'), t.get('runq_delay_pct')) for t in s.get('threads', []) if t.get('runq_delay_pct') is not None and t.get('runq_delay_pct') >= 10]
    if fmt == 'pmd':
        p = s.get('pmd') or {}
        line += f"drop {p.get('drop_pct')} off {p.get('offered_pps') and round(p['offered_pps'])} cpu {[t.get('cpu_pct') for t in p.get('threads', [])]} stolen {[t.get('stolen_pct') for t in p.get('threads', [])]}"
    elif fmt == 'est':
        e = s.get('est') or {}
        cal = e.get('calibration') or {}
        line += f"gov {s['knobs']['cpu.governor']} cm {e.get('chain_max')} cal({cal.get('governor')},{cal.get('chain_max')},{cal.get('single_est_ns')}) tick {e.get('tick_ns',{}).get('avg')} per_est {e.get('tick_ns',{}).get('per_est')} kt {e.get('kthreads')} ktcpu {e.get('kthread_cpu_pct')}"
    elif fmt == 'blk':
        b = s.get('blk') or {}
        line += f"rq {s['knobs']['blk.rq_affinity']} iops {b.get('iops') and round(b['iops'])} hung {b.get('hung')} ipi/c {b.get('ipis_per_completion')}"
    line += f" runq {rq} " + str(ids)
    for ev in s.get('events', []):
        if ev.get('kind') in ('diag', 'hang', 'knob', 'calibration'): line += f"\n      EV {ev.get('kind')}: {ev.get('text','')[:200]}"
    for g in s['diagnoses']:
        if g['id'] not in started:
            started[g['id']] = 1; line += f"\n      NEW {g['id']}: {g['conclusion'][:500]} fix={g['fix']}"
    print(line, flush=True)
    for cmd in cmds.get(k, []):
        a.send(cmd); print('   >>', cmd, flush=True)
a.close()
print('findings', dict(cnt))
