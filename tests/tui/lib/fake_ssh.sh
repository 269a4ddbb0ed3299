#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/tui/lib/fake_ssh.sh DIR [SSH OPTIONS] HOST COMMAND: a stand-in for ssh in --remote
# tests (--ssh "bash fake_ssh.sh DIR"): instead of logging in to HOST and running COMMAND
# (tunetop --agent), it plays DIR/HOST.jsonl, snapshots one a line as an agent sends them,
# then stays silent until the console closes the link, so the screen settles.
dir=$1
shift
# The console passes its ssh options first, then the host and the far side's command.
[ $# -ge 2 ] || { echo "fake_ssh: no host" >&2; exit 255; }
host=${*: -2:1}
[ -f "$dir/$host.jsonl" ] || { echo "ssh: Could not resolve hostname $host" >&2; exit 255; }
cat "$dir/$host.jsonl"
# Read (and drop) the console's commands until it closes the link; stdout stays open.
while IFS= read -r _; do :; done
