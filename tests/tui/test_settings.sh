#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_settings.sh: the console's settings persist (docs/settings.md): a view, a sort and a
# chart style chosen in the setup screen (F2), and a view chosen with a key, come back after a
# restart with the same XDG_CONFIG_HOME; a knob changed is not kept; --no-config neither reads
# nor writes the file; nothing changed, the file is not rewritten; a bad line is named; a
# symlink is neither read nor written through.
. "$(dirname "$0")/lib/tmux.sh"

TT_CONFIG="$TT_DIR/config" # one settings directory across the starts below
rc="$TT_CONFIG/tunetop/tunetoprc"
# The thread table's heading, the pmd view's table, the est view's kthreads table.
overview='^ +TID NAME +SUBSYS'
pmd='^PMD +rx pps'
est='^kthreads +KT'

# 1. Setup screen: view -> est, sort -> S (CPU% + 1), order -> ascending, charts -> ascii;
# then a knob (m: maxsleep 500us -> 1000us), which must not be kept.
tt_start 80 24 "$(tt_wrap -d 0.3)"
tt_wait 'F10Quit'
tt_wait "$overview"
tt_wait 'maxsleep 500us'
[ ! -e "$rc" ] || fail "a settings file before anything changed"
tt_keys F2
tt_wait 'tunetop setup: '
tt_wait '^  view +overview'
tt_keys Right Down Right Down Right Down Down Down Enter
tt_wait '^  view +est'
tt_wait '^  sort +S$'
tt_wait '^  sort order +ascending'
tt_wait '^  charts +ascii'
tt_keys Escape
tt_wait "$est"
tt_wait 'sort S\+'
[ -f "$rc" ] || fail "closing the setup screen after a change wrote no $rc"
grep -qx 'view=est' "$rc" || fail "view not written: $(cat "$rc")"
tt_keys : 'set pmd.maxsleep_us=1000' Enter
tt_wait 'maxsleep 1000us'
tt_keys q
tt_wait_exit
grep -q 'rc=0' "$TT_DIR/rc" || fail "exit: $(cat "$TT_DIR/rc")"
grep -qx 'version=1' "$rc" || fail "no version line: $(cat "$rc")"
grep -qx 'sort=state' "$rc" && grep -qx 'sort_order=asc' "$rc" && grep -qx 'charts=ascii' "$rc" ||
	fail "sort / charts not written: $(cat "$rc")"
grep -q 'maxsleep\|1000' "$rc" && fail "a knob value was written: $(cat "$rc")"
[ "$(stat -c %a "$(dirname "$rc")")" = 700 ] || fail "directory mode $(stat -c %a "$(dirname "$rc")")"

# 2. Restart: the view, sort and chart style are back; the knob is at its default again.
# Then a view chosen with a key (3: pmd), kept at exit.
tt_start 80 24 "$(tt_wrap -d 0.3)"
tt_wait 'F10Quit'
tt_wait "$est"
tt_wait 'sort S\+'
tt_wait 'maxsleep 500us'
tt_cap | grep -q 'maxsleep 1000us' && fail "the knob came back"
tt_keys 3
tt_wait "$pmd"
tt_wait '^ +[0-9.]+%\|' # the ascii chart axis, not braille's
tt_keys q
tt_wait_exit
grep -qx 'view=pmd' "$rc" || fail "view from a key not kept at exit: $(cat "$rc")"
grep -qx 'sort=state' "$rc" || fail "sort lost: $(cat "$rc")"

# 3. --no-config: the defaults, and nothing written though the view and sort change.
cp "$rc" "$TT_DIR/rc.before"
tt_start 80 24 "$(tt_wrap -d 0.3 --no-config)"
tt_wait 'F10Quit'
tt_wait "$overview"
tt_wait 'sort CPU%-'
tt_keys 2 '>'
tt_wait "$est"
tt_keys q
tt_wait_exit
cmp -s "$rc" "$TT_DIR/rc.before" || fail "--no-config wrote the file: $(cat "$rc")"

# 4. The command line wins for the run and is not kept; nothing changed: no rewrite.
touch -d '2000-01-01' "$rc"
tt_start 80 24 "$(tt_wrap -d 0.5)"
tt_wait 'LIVE 0.5s'
tt_wait "$pmd"
tt_keys q
tt_wait_exit
[ "$(stat -c %Y "$rc")" = "$(date -d 2000-01-01 +%s)" ] || fail "rewritten with nothing changed"

# 5. A bad line is named with its file and line on the status, with how many more; the rest
# applies, and the file is left for its owner to fix. At exit every bad line is on stderr.
printf 'version=1\nview=est\nsort=bogus\ndelay=abc\n' >"$rc"
tt_start 160 24 "$(tt_wrap -d 0.3)"
tt_wait 'F10Quit'
tt_wait "^error: settings: 2 bad lines, all listed at exit .*/tunetoprc:3: sort: 'bogus' is not"
tt_wait "$est"
# A file that did not read cleanly is the user's to fix: not overwritten by this run.
tt_keys 3
tt_wait "$pmd"
tt_keys q
tt_wait_exit
grep -q 'rc=0' "$TT_DIR/rc" || fail "exit with a bad line: $(cat "$TT_DIR/rc")"
tt_wait "^tunetop: settings: .*/tunetoprc:3: sort: 'bogus' is not valid"
tt_wait "^tunetop: settings: .*/tunetoprc:4: delay: 'abc' is not a delay"
grep -qx 'sort=bogus' "$rc" || fail "a file with a bad line was rewritten: $(cat "$rc")"

# 6. A symlink at the file's name is refused, said so, and never written through.
printf 'view=blk\n' >"$TT_DIR/target"
rm -f "$rc"
ln -s "$TT_DIR/target" "$rc"
tt_start 160 24 "$(tt_wrap -d 0.3)"
tt_wait 'F10Quit'
tt_wait '^error: settings: .*tunetoprc: is a symlink'
tt_wait "$overview" # the target's view=blk was not read
tt_keys 2
tt_wait "$est"
tt_keys q
tt_wait_exit
[ -L "$rc" ] && [ "$(cat "$TT_DIR/target")" = view=blk ] || fail "written through a symlink"
echo "PASS"
