#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_host_ovs_hists.sh: pmd-perf-show's histograms as bar charts in the console's pmd view,
# against a python3 fake OVS (tests/lib/fake_ovs.py) whose report has known histograms on
# OVS 3.1's walls (from the captured reply in tests/unit/data): after 3 and v, at 80x24 the
# cycles/it chart shows whole (two columns of bins), a row per bin from the first with a count
# to the open-ended last ("> 24000000"), each with the fake's count and share, the bar scaled
# to the largest bin; at 60x16 in ASCII it is cut, with a line saying how many bins and counts
# are left out; a report without histograms says why in one line and draws no row.
set -u
. "$(dirname "$0")/../lib/assert.sh"
. "$(dirname "$0")/../lib/fake_ovs.sh" tt-ovshists
. "$here/../tui/lib/tmux.sh"
trap cleanup EXIT # tmux.sh set its own; cleanup calls tt_cleanup
utf8=C.UTF-8
locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$' || utf8=en_US.UTF-8

# The fake's histograms: cycles/it with counts in bins 10..31 only (bins 0-9 empty: trimmed;
# gaps inside kept), 7 in the open ">" bin; packets/it in bins 0 and 2. counts.json keeps
# them for the checks.
python3 - "$here/../unit/data/ovs31_pmd_perf_show.txt" "$dir/perf.txt" "$dir/counts.json" "$dir/stats.txt" <<'PY'
import json, sys
rows = open(sys.argv[1]).read().split("Histograms\n")[1].splitlines()
head, walls = rows[0], [r.split() for r in rows[1:33]]
cyc = [0] * 32
cyc[10], cyc[12], cyc[13], cyc[14], cyc[20], cyc[31] = 4, 40, 400, 20, 3, 7
pkt = [0] * 32
pkt[0], pkt[2] = 400, 74
def block(core, counts):
    table = "\n".join("   " + "  ".join("%-9s %-11d" % (walls[b][2 * k], counts[k][b])
                                        for k in range(7)) for b in range(32))
    it = sum(counts[1])
    return f"""
pmd thread numa_id 0 core_id {core}:

  Iterations:         {it:12d}  (10.00 us/it)
  - Used TSC cycles:      20000000  ( 50.0 % of total cycles)
  - idle iterations:  {it:12d}  (100.0 % of used cycles)
  - busy iterations:             0  (  0.0 % of used cycles)
  - sleep iterations: {it:12d}  (100.0 % of iterations)
  Sleep time (us):            9000  ( 10 us/iteration avg.)
  Rx packets:                    0
  Tx packets:                    0


Histograms
{head}
{table}
---------------------------------------
"""
# The second PMD (core 2): its cycles/it counted nothing (a title saying so, no row), its
# packets/it 5 iterations in bin 0.
pkt2 = [5] + [0] * 31
open(sys.argv[2], "w").write("\nTime: 00:00:01.000\nMeasurement duration: 1.000 s\n" +
                             block(1, [cyc, pkt] + [[0] * 32 for _ in range(5)]) +
                             block(2, [[0] * 32, pkt2] + [[0] * 32 for _ in range(5)]))
stats = """pmd thread numa_id 0 core_id %d:
  packets received: 0
  emc hits: 0
  smc hits: 0
  megaflow hits: 0
  miss with success upcall: 0
  miss with failed upcall: 0
  idle cycles: 20000000 (100.00%%)
  processing cycles: 0 (0.00%%)
"""
open(sys.argv[4], "w").write(stats % 1 + stats % 2)
edges = {k: [w[2 * k] for w in walls] for k in range(2)}
json.dump({"cycles/it": [edges[0], cyc], "packets/it": [edges[1], pkt]}, open(sys.argv[3], "w"))
PY
# The rows of one chart on a captured screen (both columns of a line), checked against the
# fake: every bin from the first with a count to the last, in order, with its count and share;
# the bar's cells in proportion to the largest bin. Prints "ok", or "cut N C" when the chart
# ends in a cut line (N bins and C counts left out, which must be the rest), or what is wrong.
check_chart() { # SCREEN_FILE NAME
	python3 - "$1" "$2" "$dir/counts.json" <<'PY'
import json, re, sys
scr = open(sys.argv[1], encoding="utf-8").read().splitlines()
name = sys.argv[2]
edges, counts = json.load(open(sys.argv[3]))[name]
total = sum(counts)
first = next(i for i, c in enumerate(counts) if c)
last = max(i for i, c in enumerate(counts) if c)
want = []
for i in range(first, last + 1):
    label = "> %s" % edges[i - 1] if edges[i] == ">" else "<= %s" % edges[i]
    want.append((label, counts[i]))
try:
    at = next(k for k, l in enumerate(scr) if re.match(r"pmd-c01 %s  n %d  p50 " % (re.escape(name), total), l))
except StopIteration:
    print("no title line for", name); sys.exit()
cell = re.compile(r"((?:<=|>) \d+) ([^\d]*?) +(\d+) +(\d+\.\d)%")
left, right, cut = [], [], None
for l in scr[at + 1:]:
    m = re.match(r" *~ (\d+) bins cut, to (\S+ \d+): (\d+)", l)
    if m:
        cut = (int(m.group(1)), m.group(2), int(m.group(3)))
        break
    cells = list(cell.finditer(l))
    if not cells:
        break
    left.append(cells[0].groups())
    if len(cells) > 1:
        right.append(cells[1].groups())
got = left + right
bad = []
if [(g[0], int(g[2])) for g in got] != want[:len(got)]:
    bad.append(("rows", [(g[0], int(g[2])) for g in got], want))
for g in got:
    if abs(float(g[3]) - 100.0 * int(g[2]) / total) > 0.051:
        bad.append(("share", g))
bars = [len(g[1].rstrip()) for g in got]
top = max(bars) if bars else 0
for g, b in zip(got, bars):
    c = int(g[2])
    if (c == 0) != (b == 0) or abs(b - c / max(counts) * top) > 1:
        bad.append(("bar", g, b, top))
if cut:
    rest = want[len(got):]
    if cut != (len(rest), want[-1][0], sum(c for _, c in rest)):
        bad.append(("cut line", cut, rest))
elif len(got) != len(want):
    bad.append(("rows missing without a cut line", len(got), len(want)))
print(bad[:3] if bad else ("cut %d %d" % (cut[0], cut[2]) if cut else "ok"))
PY
}

# v until the chart's title shows: the key scrolls to the charts the last frame drew, so one
# pressed before the first report with histograms only says there are none yet.
# press_v TITLE_REGEX: v, then the ':' prompt as a marker (once it shows, v has been read and
# drawn) and Esc; until TITLE_REGEX shows. Before the first sample with histograms v says so
# and moves nothing; after it, each v moves exactly one PMD, and only one v is ever unread.
press_v() {
	local i
	for i in $(seq 100); do
		tt_keys v :
		tt_wait '^:$' 20
		tt_keys Escape
		tt_wait_gone '^:$'
		tt_cap | grep -Eq -- "$1" && return 0
		sleep 0.1
	done
	fail "v did not scroll to /$1/"
}

export FAKE_OVS_PERF="$dir/perf.txt" FAKE_OVS_STATS="$dir/stats.txt"
start_fake ctl ok
env_run="TUNETOP_OVS_SOCKET=$dir/ctl.sock TUNETOP_OVS_DB=unix:$dir/nodb.sock"

# 80x24, UTF-8: the whole cycles/it chart after v, then packets/it (its gap kept).
tt_start 80 24 "env LANG=$utf8 LC_ALL=$utf8 $env_run $TUNETOP --host -d 0.3; sleep 60"
tt_keys 3
tt_wait "^PMD +rx pps" 10
press_v "^pmd-c01 cycles/it  n 474  p50 <= "
tt_wait "> 24000000 .* 7 +1\.5%" 10
tt_cap >"$dir/s80"
res=$(check_chart "$dir/s80" cycles/it)
check "80x24: cycles/it whole, a row a bin from <= 18171 to > 24000000 with the fake's counts (got $res)" test "$res" = ok
check "80x24: the largest bin's bar is full width (UTF-8 blocks)" grep -q "█████████ 400" "$dir/s80"
check "80x24: no row for an empty bin before the first count" bash -c "! grep -Eq '<= (12686|3014|499) ' '$dir/s80'"
res=$(check_chart "$dir/s80" packets/it)
check "80x24: packets/it rows 0..2, the empty bin between kept (got $res)" test "$res" = ok
# v again: the second PMD's charts (at the top, or on the view's last page), the empty one a
# title saying so; again: the first PMD's at the top.
press_v "^pmd-c02 cycles/it  -: nothing counted since the stats were cleared"
tt_cap >"$dir/s80b"
check "80x24: v scrolls to the next PMD, its empty histogram a line and no row" \
	bash -c "grep -A1 '^pmd-c02 cycles/it  -: nothing counted' '$dir/s80b' | tail -n 1 | grep -q '^pmd-c02 packets/it  n 5  p50 <= 0'"
press_v "^pmd-c01 cycles/it  n 474"
tt_cap >"$dir/s80c"
# The view's first line follows the header's, and the line of the worst finding when there is
# one (the host's share on a busy machine).
top=$(awk '/^blk / { n = NR + 1; next } n && NR == n && /^(critical|warning|info) / { n++; next }
	n && NR == n { print; exit }' "$dir/s80c")
check "80x24: v once more: round to the first PMD's, at the top of the view (got '$top')" \
	grep -q '^pmd-c01 cycles/it' <<<"$top"
check "80x24: no line wider than the screen" python3 -c 'import sys; sys.exit(any(len(l) > 80 for l in open(sys.argv[1], encoding="utf-8").read().splitlines()))' "$dir/s80"

# 60x16, ASCII: the chart cut, the cut line saying how many bins and counts are left out.
tt_start 60 16 "env LANG=C LC_ALL=C $env_run $TUNETOP --host --ascii -d 0.3; sleep 60"
tt_keys 3
tt_wait "^PMD +rx pps" 10
press_v "^pmd-c01 cycles/it  n 474"
tt_wait "~ [0-9]+ bins cut, to > 24000000: [0-9]+" 10
tt_cap >"$dir/s60"
res=$(check_chart "$dir/s60" cycles/it)
check "60x16: cycles/it cut, its rows right and the cut line the rest (got $res)" bash -c "[[ '$res' == cut\\ * ]]"
check "60x16 ASCII: '#' bars, no byte above 127" bash -c "grep -q '#### 400' '$dir/s60' && ! LC_ALL=C grep -q \$'[\\x80-\\xff]' '$dir/s60'"

# A report without histograms (pmd-perf-metrics off): one line saying why, no row.
kill "${pids[@]}" 2>/dev/null
pids=()
unset FAKE_OVS_PERF FAKE_OVS_STATS
start_fake ctl3 ok
tt_start 80 24 "env LANG=$utf8 LC_ALL=$utf8 TUNETOP_OVS_SOCKET=$dir/ctl3.sock TUNETOP_OVS_DB=unix:$dir/nodb.sock $TUNETOP --host -d 0.3; sleep 60"
tt_keys 3 End
tt_wait "^pmd-perf-show histograms" 10
tt_wait "^none: OVS prints them with other_config:pmd-perf-metrics=true" 10
tt_cap >"$dir/s0"
check "no histograms: no bar row" bash -c "! grep -Eq '^ *(<=|>) [0-9]+ ' '$dir/s0'"
tt_keys q
finish
