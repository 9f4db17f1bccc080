#!/bin/sh
# SPDX-License-Identifier: MIT
# The Python package as a user without a package index gets it (doc/python.md): pip builds the
# wheel offline with Debian's meson-python (--no-build-isolation), LICENSE is in its .dist-info/,
# and the wheel installs with --no-index into a fresh venv that sees nothing of Debian's packages,
# where `import plurnk` (and plurnk.score, plurnk.wire when built) works outside the tree, with no
# libplurnk.so, and reports this build's version and commit. Then the other route: the source
# tree installed with --no-build-isolation into a venv that sees Debian's packages. The wheel's Meson build directory is
# kept in WORK_DIR, so a second run only rebuilds what changed (and ccache serves a fresh one).
# Prints how long the build and the install took.
# usage: wheel.sh SOURCE_ROOT WORK_DIR PYTHON VERSION WIRE   (WIRE: True when the wire library is
#        built, else absent; exit 77 when PYTHON has no pip or mesonpy)
set -u
src=$1 work=$2 python=$3 version=$4 wire=$5
for module in pip mesonpy venv; do
    "$python" -c "import $module" 2>/dev/null || { echo "$python has no $module (tools/bootstrap installs it)"; exit 77; }
done
fails=0
check() {  # check NAME EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1: expected [$2], got [$3]"; fails=$((fails + 1)); fi
}
now() { date +%s.%N; }
export PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1 PYTHONDONTWRITEBYTECODE=1
mkdir -p "$work"
rm -rf "$work/dist" "$work/venv" "$work/venv-src"

start=$(now)
"$python" -m pip wheel --no-build-isolation --no-deps -v -w "$work/dist" \
    --config-settings=builddir="$work/build" "$src" >"$work/wheel.log" 2>&1
status=$?
built=$(now)
check "pip wheel --no-build-isolation builds offline" 0 $status
[ $status -eq 0 ] || { tail -n 40 "$work/wheel.log"; exit 1; }
check "the build printed Ninja's progress" 1 "$(grep -c -m 1 '^ *\[[0-9]*/[0-9]*\] ' "$work/wheel.log")"
wheel=$(ls "$work"/dist/plurnk-"$version"-*.whl 2>/dev/null)
check "one wheel, plurnk-$version" 1 "$(printf '%s\n' "$wheel" | grep -c .)"
listing=$("$python" -c "import sys, zipfile; print('\n'.join(zipfile.ZipFile(sys.argv[1]).namelist()))" "$wheel")
check "LICENSE is in the wheel's .dist-info/" 1 "$(printf '%s\n' "$listing" | grep -c "^plurnk-$version.dist-info/LICENSE$")"
check "the LICENSE in the wheel is the tree's" "$(cat "$src/LICENSE")" \
    "$("$python" -c "import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).read('plurnk-$version.dist-info/LICENSE').decode(), end='')" "$wheel")"
for f in plurnk/__init__.py plurnk/__init__.pyi plurnk/_model.py plurnk/py.typed plurnk/score.py; do
    check "the wheel holds $f" 1 "$(printf '%s\n' "$listing" | grep -c "^$f$")"
done
check "the wheel holds the extension" 1 "$(printf '%s\n' "$listing" | grep -c '^plurnk/_plurnk\..*so$')"

# A fresh venv, without Debian's site packages: only the wheel.
"$python" -m venv "$work/venv" && "$work/venv/bin/python" -m pip install -q "$wheel" >"$work/install.log" 2>&1
status=$?
installed=$(now)
check "pip install the wheel into a fresh venv, no index" 0 $status
[ $status -eq 0 ] || cat "$work/install.log"
cd "$work"  # away from the source tree, so that only the installed package can be imported
out=$(VENV="$work/venv" env -u PYTHONPATH -u LD_LIBRARY_PATH "$work/venv/bin/python" -c '
import os, plurnk, plurnk.score
turn = "<<PLAN:p:PLAN\n<<SEND[200]:done:SEND"
r = plurnk.parse(turn)
s = plurnk.score.Scorer().score_texts([turn])
try:
    import plurnk.wire
    wire = plurnk.wire.validate("Position", {"line": 1, "column": 0}).valid
except ImportError:
    wire = "absent"
inside = os.path.realpath(plurnk.__file__).startswith(os.path.realpath(os.environ["VENV"]) + os.sep)
print(inside, r.ok, plurnk.__version__, plurnk.build_commit, s.turns, wire)
' 2>&1)
commit=$("$src/tools/commit-id" "$src")
check "import plurnk from the venv: parse, score, wire, version, commit" "True True $version $commit 1 $wire" "$out"
ext=$(ls "$work"/venv/lib/python*/site-packages/plurnk/_plurnk.*.so)
check "the extension needs no libplurnk.so" 0 "$(ldd "$ext" | grep -c libplurnk)"
# The second route of doc/python.md: the source tree installed into a venv that sees Debian's
# packages (the same Meson build directory, so only the install and the packing run again).
"$python" -m venv --system-site-packages "$work/venv-src" &&
    "$work/venv-src/bin/pip" install -q --no-build-isolation --config-settings=builddir="$work/build" "$src" \
    >"$work/install-src.log" 2>&1
check "pip install --no-build-isolation of the source tree into a venv" 0 $?
check "the source install imports" "True $version" "$(env -u PYTHONPATH "$work/venv-src/bin/python" -c '
import os, sys, plurnk
print(os.path.realpath(plurnk.__file__).startswith(os.path.realpath(sys.prefix) + os.sep), plurnk.__version__)')"

awk -v a="$start" -v b="$built" -v c="$installed" 'BEGIN { printf "wheel build: %.1f s; fresh venv and install: %.1f s\n", b - a, c - b }'
exit $((fails > 0))
