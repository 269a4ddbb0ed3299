#!/usr/bin/env bash
# test_readme.sh: README's knob, scenario and JSON tables agree with the binary.
set -u
exec python3 "$TT_TOP/tools/readme_gen.py" "$TUNETOP" --check
