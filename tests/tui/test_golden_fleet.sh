#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_golden_fleet.sh: golden screens of the fleet view (view 0 with two --remote hosts) at
# 80x24, in tests/tui/golden/fleet/. No ssh and no far side: --ssh runs lib/fake_ssh.sh, which
# sends each host one fixed snapshot (tests/tui/data/fleet/h1.jsonl and h2.jsonl, lines 8 and
# 4 of replay8.jsonl) and then stays silent, and -d 60 keeps the console from sampling again
# (a silent host is marked down after 3 intervals, 180 s), so the screen settles. Masked: each
# up host's AGE (the time since its snapshot, after the MSLPus column) and, in the status line,
# the link's B/s (a 3 s window that may or may not hold the snapshot's bytes) and this console's
# own figures, from "self cpu" on (its CPU, render time and terminal bytes vary from run to
# run; test_golden.sh's replay shows the recording's, which do not); the far side's, named by
# its host, are the snapshot's and stay.
. "$(dirname "$0")/lib/tmux.sh"
. "$(dirname "$0")/lib/golden.sh"

export TZ=UTC LANG=C.UTF-8
GOLD_MASK='/^h[0-9]+ +up /s/^((\S+ +){7}\S+).*$/\1 AGE/
s/( \([0-9]+\/[0-9]+ hosts up\) [a-z]+ )[0-9]+ B\/s(  h[0-9]+: agent cpu [0-9.]+%  sample [0-9]+ us  self cpu ).*$/\1# B\/s\2#/'
ssh="bash $TT_TOP/tests/tui/lib/fake_ssh.sh $TT_TOP/tests/tui/data/fleet"
tt_start 80 24 "export TZ=UTC LANG=C.UTF-8 TERM=xterm-256color; $(tt_wrap --remote h1 --remote h2 \
	--ssh "\"$ssh\"" -d 60 --no-color)"
tt_wait '^h1 +up ' 15
tt_wait '^h2 +up ' 5
# A row fits 80 columns: each host's AGE shows whole (it was cut to the marker alone).
tt_wait '^h1 +up +performance .* 500 +[0-9]+\.[0-9]s$' 3
# Each host's "up" note fades after 5 s.
tt_wait_gone 'h[12]: up' 10

# The view bar names the fleet as view 0.
tt_wait '^0 fleet 1 overview 2 est ' 3
# ... and lights it while the fleet is shown, not "1 overview".
lit() { tt_tmux capture-pane -p -e | grep -a '0 fleet.*1 overview' | grep -qa $'7m'"$1"; }
lit '0 fleet' || fail "the fleet view does not light 0 fleet"
lit '1 overview' && fail "the fleet view lights 1 overview"
gold_shot fleet/fleet
# The cursor on h2: the header and the status line are h2's.
gold_shot fleet/fleet-h2 Down
# Enter dives into h2 (its overview), once the "host 2" note has faded; Esc is the fleet again.
tt_keys Enter
tt_wait 'host 2; Esc or 0: the fleet' 5
tt_wait_gone 'host 2; Esc or 0: the fleet' 10
# The title names the host dived into.
tt_wait '^ tunetop [0-9.]+  up [0-9]+s  host h2  ' 3
lit '1 overview' || fail "h2's overview does not light 1 overview"
lit '0 fleet' && fail "h2's overview lights 0 fleet"
gold_shot fleet/h2-overview
gold_shot fleet/fleet-h2 Escape
# Whose figures the status line shows: the far side's (its agent's CPU and sample time, from
# h1.jsonl: 0.28 %, 183 us) named by the host; then this console's own, its render time and
# the bytes it wrote to this terminal since the last sample (the agent's are 0 B: it has none).
# Wide enough for the whole line; Up (to h1) takes a sample after frames were drawn.
tt_tmux resize-window -x 200 -y 24
tt_keys Up
tt_wait '^h1 \(2/2 hosts up\) up [0-9]+ B/s  h1: agent cpu 0\.3%  sample 183 us  self cpu [0-9.]+%  render [0-9]+ us  tty [1-9][0-9]* B \([0-9]+ B/s\)  key ' 5
tt_cap | grep -q 'render 438 us' && fail "the status line shows h1's render time as its own"
tt_keys q
tt_wait_exit 8
echo ok
