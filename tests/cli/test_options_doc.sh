#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_options_doc.sh: every option of the option table (tunetop --list-options) is in
# --help, the man page, docs/reference.md and the bash completion, every experiment and
# experiment option (tunetop experiment --help) in the man page; the man page renders
# without warnings; the completion completes options, fixed choices, knob and experiment
# names.
# (That the generated blocks are current is test_readme.sh's.)
set -u
. "$(dirname "$0")/../lib/assert.sh"
top=${TT_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
man1="$top/tunetop.1"
comp="$top/completion/tunetop.bash"

opts=$("$TUNETOP" --list-options | cut -f1)
check "--list-options lists options" test "$(wc -l <<<"$opts")" -ge 30
help=$("$TUNETOP" --help)
rendered=$(MANWIDTH=200 man -l "$man1" 2>/dev/null)
for o in $opts; do
	grep -qF -- "$o" <<<"$help" || [ "$o" = --no-colour ] || bad "--help lacks $o"
	grep -qF -- "$o" <<<"$rendered" || bad "the man page lacks $o"
	grep -qF -- "\`$o\`" "$top/docs/reference.md" || bad "docs/reference.md lacks $o"
	grep -qE -- "[\" ]$o[\" ]" "$comp" || bad "the completion lacks $o"
done
ok "every option is in --help, the man page, docs/reference.md and the completion"
# The experiments' options, as `tunetop experiment --help` names them, in the man page too.
eopts=$("$TUNETOP" experiment --help | grep -oE -- '--[a-z][a-z-]+' | sort -u)
check "experiment --help names options" test "$(wc -l <<<"$eopts")" -ge 15
for o in $eopts; do
	grep -qF -- "$o" <<<"$rendered" || bad "the man page lacks the experiment option $o"
done
for e in $("$TUNETOP" experiment --help | sed -n '/^Experiments:/,/^$/p' | awk 'NF && !/:$/ {print $1}'); do
	grep -qE -- "^ +$e( |$)" <<<"$rendered" || bad "the man page's EXPERIMENTS lacks $e"
done
ok "every experiment and its options are in the man page"
# The short letters too.
for s in $("$TUNETOP" --list-options | cut -f2 | grep -v '^-$'); do
	grep -qE -- "^ +$s, " <<<"$help" || bad "--help lacks $s"
done

# The man page: every section a reader expects, and no warning from man (or mandoc).
for sec in NAME SYNOPSIS DESCRIPTION OPTIONS KEYS FIGURES FILES ENVIRONMENT EXAMPLES "EXIT STATUS"; do
	grep -q "^\.SH \"\?$sec\"\?$" "$man1" || bad "tunetop.1 has no $sec section"
done
warn=$(MANWIDTH=80 man --warnings -l "$man1" 2>&1 >/dev/null)
check "man --warnings has nothing to say (${warn:0:300})" test -z "$warn"
if command -v mandoc >/dev/null; then
	lint=$(mandoc -Tlint -W warning "$man1" 2>&1)
	check "mandoc -Tlint has nothing to say (${lint:0:300})" test -z "$lint"
fi

# The completion, as bash calls it.
complete_words() { # complete_words WORD...: COMPREPLY for the last word
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _tunetop; printf "%s\n" "${COMPREPLY[@]}"' \
		_ "$comp" "$TUNETOP" "$@" 2>/dev/null
}
got=$(complete_words --f | sort)
check "--f completes to --follow, --format and --from (got $(echo $got))" test "$(echo $got)" = "--follow --format --from"
got=$(complete_words --format "")
check "--format completes its choices (got $(echo $got))" test "$(echo $got)" = "json openmetrics prometheus"
got=$(complete_words --set pmd.maxs)
check "--set completes knob names from the binary (got $(echo $got))" test "$(echo $got)" = "pmd.maxsleep_us="
got=$(complete_words --scenario pmd-s)
check "--scenario completes scenario names (got $(echo $got))" grep -qx pmd-seed <<<"$got"
got=$(complete_words exp)
check "the first word completes to experiment (got $(echo $got))" test "$(echo $got)" = experiment
got=$(complete_words experiment "" | sort)
check "experiment completes the experiments' names (got $(echo $got))" \
	test "$(echo $got)" = "$(echo $("$TUNETOP" experiment --help | sed -n '/^Experiments:/,/^$/p' | awk 'NF && !/:$/ {print $1}' | sort))"
got=$(complete_words experiment sw)
check "experiment sw completes to sweep (got $(echo $got))" test "$(echo $got)" = sweep
finish
