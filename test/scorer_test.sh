#!/bin/sh
# SPDX-License-Identifier: MIT
# tools/conformance-check scores plurnk batch as exact on the vendored vectors, fails a command
# whose answers are wrong or missing, and refuses a missing command.
# usage: scorer_test.sh CONFORMANCE_CHECK PLURNK
set -u
scorer=$1 plurnk=$2
fails=0
check() {  # check NAME EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1: expected [$2], got [$3]"; fails=$((fails + 1)); fi
}
python=$(command -v python3) || { echo "python3 not found"; exit 77; }
out=$("$python" "$scorer" --only g1 -- "$plurnk" batch); check "plurnk batch scores exact" 0 $?
check "exact line" 1 "$(echo "$out" | sed -n 's/^structure \([0-9]*\)\/\([0-9]*\) exact \([0-9]*\)\/\([0-9]*\)$/\1 \2 \3 \4/p' | awk '{print ($1 == $2 && $3 == $4 && $2 > 0)}')"
"$python" "$scorer" --only g1 -- cat >/dev/null; check "echoed requests fail" 1 $?
"$python" "$scorer" --only g1 -- "$plurnk" batch --tier=client >/dev/null; check "a wrong tier fails" 1 $?
"$python" "$scorer" --only g1 >/dev/null 2>&1; check "no command is a usage error" 2 $?
exit $((fails > 0))
