#!/bin/sh
# SPDX-License-Identifier: MIT
# The language standard the headers ask for: each public C++ header included alone compiles as
# C++20, and compiled as C++17 it stops at one clear error saying C++20 is needed (with GCC, and
# with clang++-19 when installed); plurnk.h is plain C (C99, C11) and also compiles as C++11.
# usage: cxx_standard.sh SOURCE_ROOT GENERATED_INCLUDE_DIR   (the build's include/, with version.h)
set -u
src=$1 gen=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
check() {  # check NAME EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1: expected [$2], got [$3]"; fails=$((fails + 1)); fi
}
compilers=c++
command -v clang++-19 >/dev/null 2>&1 && compilers="$compilers clang++-19"
headers=$( (cd "$src/include" && ls plurnk/*.hpp) ; echo plurnk/version.hpp)
for h in $headers; do
    printf '#include <%s>\nint main() { return 0; }\n' "$h" >"$tmp/use.cpp"
    c++ -std=c++20 -fsyntax-only -I"$src/include" -I"$gen" "$tmp/use.cpp" 2>"$tmp/err"
    check "$h compiles alone as C++20" "0 " "$? $(head -c 300 "$tmp/err")"
    for cxx in $compilers; do
        $cxx -std=c++17 -fsyntax-only -I"$src/include" -I"$gen" "$tmp/use.cpp" 2>"$tmp/err"
        check "$cxx: $h as C++17 fails" 1 $?
        check "$cxx: $h as C++17: the first error says C++20 is needed" 1 \
            "$(grep -m 1 'error:' "$tmp/err" | grep -c "need C++20: compile with -std=c++20")"
        check "$cxx: $h as C++17: nothing else (the #error, then the stop)" 2 "$(grep -c 'error:' "$tmp/err")"
    done
done
printf '#include <plurnk/plurnk.h>\nint main(void) { return plurnk_version() == 0; }\n' >"$tmp/use.c"
for std in c99 c11; do
    cc -std=$std -pedantic-errors -fsyntax-only -I"$src/include" -I"$gen" "$tmp/use.c" 2>"$tmp/err"
    check "plurnk.h compiles as $std" "0 " "$? $(head -c 300 "$tmp/err")"
done
cp "$tmp/use.c" "$tmp/use_c.cpp"
c++ -std=c++11 -fsyntax-only -I"$src/include" -I"$gen" "$tmp/use_c.cpp" 2>"$tmp/err"
check "plurnk.h compiles as C++11" "0 " "$? $(head -c 300 "$tmp/err")"
exit $((fails > 0))
