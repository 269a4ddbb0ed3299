#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_theme_cli.sh: --list-themes, --theme NAME|PATH, an unknown theme (usage error, exit 2),
# and a broken theme file: reported with its line number on stderr and in the status line,
# the default used for that line, the console running.
. "$(dirname "$0")/lib/tmux.sh"

out=$("$TUNETOP" --list-themes) || fail "--list-themes exit $?"
for t in default mono light colorblind; do
	echo "$out" | grep -q "^$t " || fail "--list-themes lacks $t"
done

"$TUNETOP" --theme nosuch -n 1 >/dev/null 2>"$TT_DIR/err"
rc=$?
[ $rc -eq 2 ] || fail "--theme nosuch: exit $rc, wanted 2"
grep -q "tunetop: --theme: unknown theme 'nosuch' (valid: default, mono, light, colorblind, or a file path)" \
	"$TT_DIR/err" || fail "message: $(cat "$TT_DIR/err")"

cat > "$TT_DIR/broken.theme" <<'T'
# a theme with one bad line
inherit = light
title = 231 on 24 bold
label = purple
T
tt_start 80 24 "$(tt_wrap -d 0.3 --scenario idle --theme "$TT_DIR/broken.theme" "2>$TT_DIR/err2")"
tt_wait 'F10Quit'
tt_wait "^error: theme .*broken\.theme:4: label: 'purple' is not a co"
tt_keys q
tt_wait_exit
grep -q "tunetop: theme .*broken.theme:4: label: 'purple' is not a colour (the default is used for that line)" \
	"$TT_DIR/err2" || fail "stderr: $(cat "$TT_DIR/err2")"

for t in light colorblind mono "$TT_TOP/themes/light.theme"; do
	rm -f "$TT_DIR/rc" "$TT_DIR/after"
	tt_start 80 24 "$(tt_wrap -d 0.3 --scenario idle --theme "$t")"
	tt_wait 'F10Quit'
	tt_cap | grep -q '^error:' && fail "--theme $t: $(tt_cap | grep '^error:')"
	tt_keys q
	tt_wait_exit
done
echo ok
