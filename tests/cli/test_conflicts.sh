#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_conflicts.sh: no tracked text file holds a merge-conflict marker (one was committed in
# README.md once and nothing noticed, because the generated-table check looks only between its
# own markers). Binary files and the fuzz corpus (arbitrary bytes by design) are skipped.
set -u
. "$(dirname "$0")/../lib/assert.sh"
top=${TT_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top" || exit 1
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	echo "not a git work tree: nothing to list"
	exit 77
fi
hits=$(git ls-files -z | grep -zv '^tests/fuzz/corpus/' |
	xargs -0 grep -I -n -E '^(<<<<<<<|>>>>>>>)( |$)|^=======$' -- 2>/dev/null)
check "git ls-files lists some files" test -n "$(git ls-files | head -n 1)"
if [ -n "$hits" ]; then
	bad "merge-conflict markers in tracked files:"
	printf '%s\n' "$hits" | head -n 40 | sed 's/^/      /'
else
	ok "no merge-conflict marker in a tracked text file"
fi
finish
