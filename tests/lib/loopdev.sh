# SPDX-License-Identifier: GPL-2.0-or-later
# tests/lib/loopdev.sh: a loop device for a host test (sourced after assert.sh): skips (77)
# unless root with losetup and loop support; attaches a LOOP_MB file in a fresh temp dir and
# sets dev (/dev/loopN), name (loopN), knob (its queue/rq_affinity) and orig (its value). The
# test's EXIT trap calls loop_cleanup, which puts rq_affinity back, detaches and removes the
# file; a test that sources tmux.sh afterwards sets its trap again (tmux.sh sets its own).
[ "$(id -u)" = 0 ] || { echo "skip: needs root (losetup, sysfs writes)"; exit 77; }
command -v losetup >/dev/null || { echo "skip: no losetup (util-linux)"; exit 77; }
[ -e /dev/loop-control ] || { echo "skip: kernel without loop device support"; exit 77; }

work=$(mktemp -d /tmp/tt-loop.XXXXXX)
dev=""
orig=""
loop_cleanup() {
	[ -n "$dev" ] && [ -n "$orig" ] && echo "$orig" >"/sys/block/${dev#/dev/}/queue/rq_affinity" 2>/dev/null
	[ -n "$dev" ] && losetup -d "$dev" 2>/dev/null
	rm -rf "$work"
}
trap loop_cleanup EXIT
truncate -s "${LOOP_MB:-64}M" "$work/backing"
dev=$(losetup -f --show "$work/backing") || { echo "skip: losetup cannot attach a loop device"; dev=""; exit 77; }
name=${dev#/dev/}
knob=/sys/block/$name/queue/rq_affinity
[ -f "$knob" ] || { echo "skip: $knob missing"; exit 77; }
orig=$(cat "$knob")
