#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_readme.sh: the generated blocks of README.md, docs/reference.md, docs/json.md, docs/figures.md,
# docs/metrics.md, tunetop.1 and completion/tunetop.bash agree with the binary and the Makefile.
set -u
exec python3 "$TT_TOP/tools/readme_gen.py" "$TUNETOP" --check
