#!/bin/sh
# SPDX-License-Identifier: MIT
# Uses plurnk as a Meson subproject of test/consumers/meson (a copy, with subprojects/plurnk
# linking to this source tree): the consumer builds and runs, only the library of ours is built,
# and neither `meson test` nor `meson install` of the parent sees anything of ours.
# usage: subproject.sh SOURCE_ROOT WORK_DIR VERSION
set -eu
src=$1 work=$2 version=$3
rm -rf "$work"  # a fresh parent every run, with our options at their defaults
mkdir -p "$work/subprojects"
cp "$src/test/consumers/meson/meson.build" "$src/test/consumers/meson/meson_options.txt" "$work/"
sed -i "s|'../consumer.cpp'|'consumer.cpp'|" "$work/meson.build"
cp "$src/test/consumers/consumer.cpp" "$work/"
ln -s "$src" "$work/subprojects/plurnk"

fails=0
check() {  # check NAME EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1: expected [$2], got [$3]"; fails=$((fails + 1)); fi
}
meson setup "$work/build" "$work" --wrap-mode=nodownload --buildtype=plain -Dexpected_version="$version"
meson compile -C "$work/build" -j 2
set +e  # from here on each check reports its own failure
check "the consumer's meson test lists only its own test" "consumer" \
    "$(meson test -C "$work/build" --list 2>/dev/null)"
check "no benchmarks of ours" "" "$(meson test -C "$work/build" --benchmark --list 2>/dev/null)"
meson test -C "$work/build" --print-errorlogs >/dev/null; check "the consumer's test passes" 0 $?
check "of ours only the library is built" "libplurnk" \
    "$(cd "$work/build/subprojects/plurnk" && find . -type f -perm -u+x ! -name '*.sh' -printf '%f\n' | sed 's/\.so.*//; s/\.a$//' | sort -u | tr '\n' ' ' | sed 's/ $//')"
meson install -C "$work/build" --destdir "$work/dest" --quiet
check "meson install installs only the consumer" "consumer" "$(find "$work/dest" -type f -printf '%f\n' | sort | tr '\n' ' ' | sed 's/ $//')"

exit $((fails > 0))
