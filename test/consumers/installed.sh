#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs plurnk (library static and shared, the wire library, headers, CLI) under a fresh
# non-system prefix and uses it as an outsider would: the installed CLI runs, finds its library
# through its RPATH and reports the commit it was built from; C++ and C programs build with
# pkg-config (the C one also fully static with --static), and so does one of plurnk_wire; a CMake
# project builds with find_package(plurnk) and the plurnk::plurnk and plurnk::plurnk_wire
# targets, and a 0.x version accepts the same minor version only. Then the install moves: a
# --destdir staging tree and a moved prefix work through pkg-config and CMake as they are (no
# PKG_CONFIG_SYSROOT_DIR), and the moved CLI still finds its library.
# usage: installed.sh SOURCE_ROOT WORK_DIR VERSION   (exit 77 when cmake or pkg-config is missing)
set -eu
src=$1 work=$2 version=$3
for tool in cmake pkg-config cc c++; do
    command -v $tool >/dev/null 2>&1 || { echo "$tool not installed (tools/bootstrap installs it)"; exit 77; }
done
prefix=$work/prefix
mkdir -p "$work"
if [ ! -f "$work/build/build.ninja" ]; then
    meson setup "$work/build" "$src" --wrap-mode=nodownload --prefix="$prefix" --buildtype=plain \
        -Ddefault_library=both -Dtests=disabled -Dbench=disabled -Dcli=enabled -Dfuzz=disabled -Dpython=disabled -Dwire=enabled
fi
meson compile -C "$work/build" -j 2
rm -rf "$prefix"
meson install -C "$work/build" --quiet
set +e  # from here on each check reports its own failure

fails=0
check() {  # check NAME COMMAND...
    name=$1; shift
    if out=$("$@" 2>&1); then echo "ok   $name"; else echo "FAIL $name:"; echo "$out"; fails=$((fails + 1)); fi
}
pc=$(find "$prefix" -name plurnk.pc)
libdir=$(dirname "$(dirname "$pc")")

commit=$("$src/tools/commit-id" "$src")

# loads_from PROGRAM LIBDIR: PROGRAM, with no help from the environment, loads libplurnk from LIBDIR.
loads_from() {
    lib=$(env -u LD_LIBRARY_PATH ldd "$1" | sed -n 's/^[[:space:]]*libplurnk\.so[^ ]* => \([^ ]*\) .*/\1/p')
    [ -n "$lib" ] && [ "$(cd "$(dirname "$lib")" && pwd -P)" = "$(cd "$2" && pwd -P)" ]
}

# The installed CLI, with no help from the environment.
check "installed CLI runs" env -u LD_LIBRARY_PATH "$prefix/bin/plurnk" --version
check "installed CLI loads the installed libplurnk" loads_from "$prefix/bin/plurnk" "$libdir"
check "installed CLI reports the commit (tools/commit-id: $commit)" sh -c \
    "env -u LD_LIBRARY_PATH '$prefix/bin/plurnk' --version | grep -q '(commit $commit;'"
check "installed CLI parses" sh -c "echo '<<READ(a)::READ' | env -u LD_LIBRARY_PATH '$prefix/bin/plurnk' parse --tier=statements"
check "installed grammar" test -s "$prefix/share/plurnk/plurnk.gbnf"

# pkg-config.
export PKG_CONFIG_PATH="$libdir/pkgconfig"
check "pkg-config --modversion" test "$(pkg-config --modversion plurnk)" = "$version"
check "pkg-config C++ consumer builds" sh -c "c++ -std=c++20 '$src/test/consumers/consumer.cpp' -o '$work/pc_cpp' \
    \$(pkg-config --cflags --libs plurnk) -Wl,-rpath,'$libdir'"
check "pkg-config C++ consumer runs" "$work/pc_cpp" "$version"
check "pkg-config C consumer builds" sh -c "cc -std=c11 '$src/test/consumers/consumer.c' -o '$work/pc_c' \
    \$(pkg-config --cflags --libs plurnk) -Wl,-rpath,'$libdir'"
check "pkg-config C consumer runs" "$work/pc_c" "$version"
check "plurnk_build_commit() is the commit" sh -c "'$work/pc_c' '$version' | grep -q 'commit $commit\$'"
check "the .pc files are relocatable" sh -c "grep -q '^prefix=\${pcfiledir}/' '$pc' && grep -q '^prefix=\${pcfiledir}/' '$libdir/pkgconfig/plurnk_wire.pc'"
check "pkg-config plurnk_wire consumer builds" sh -c "cc -std=c11 '$src/test/consumers/consumer_wire.c' -o '$work/pc_wire' \
    \$(pkg-config --cflags --libs plurnk_wire) -Wl,-rpath,'$libdir'"
check "pkg-config plurnk_wire consumer runs" "$work/pc_wire"
check "pkg-config --static: C consumer links fully static" sh -c "cc -static -std=c11 '$src/test/consumers/consumer.c' \
    -o '$work/pc_c_static' \$(pkg-config --static --cflags --libs plurnk)"
check "static C consumer runs" "$work/pc_c_static" "$version"
check "static C consumer has no libplurnk.so" sh -c "! ldd '$work/pc_c_static' 2>&1 | grep -q libplurnk"

# CMake.
rm -rf "$work/cmake"
check "CMake consumer configures" cmake -S "$src/test/consumers/cmake" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" \
    -DPLURNK_WANT="$version" -DPLURNK_COMPONENTS=wire
check "CMake consumer builds" cmake --build "$work/cmake" -j 2
check "CMake C++ consumer runs" "$work/cmake/consumer" "$version"
check "CMake C consumer runs" "$work/cmake/consumer_c" "$version"
check "CMake plurnk::plurnk_wire consumer runs" "$work/cmake/consumer_wire"
# cmake_rejects NAME WANT [COMPONENTS]: find_package(plurnk WANT COMPONENTS ...) fails.
cmake_rejects() {
    check "find_package rejects $1" sh -c "! cmake -S '$src/test/consumers/cmake' -B '$work/cmake-reject' \
        -DCMAKE_PREFIX_PATH='$prefix' -DPLURNK_WANT=$2 -DPLURNK_COMPONENTS='${3:-}' >/dev/null 2>&1"
    rm -rf "$work/cmake-reject"
}
cmake_rejects "a component not installed" "$version" nonesuch
major=${version%%.*} minor=${version#*.}; minor=${minor%%.*}
cmake_rejects "another major version" $((major + 1))
if [ "$major" = 0 ] && [ "$minor" -gt 0 ]; then
    cmake_rejects "an older minor version while 0.x" "0.$((minor - 1))"
fi
check "find_package accepts MAJOR.MINOR" cmake -S "$src/test/consumers/cmake" -B "$work/cmake-mm" \
    -DCMAKE_PREFIX_PATH="$prefix" -DPLURNK_WANT="$major.$minor"
rm -rf "$work/cmake-mm"

# A --destdir staging tree: pkg-config finds it where it is, with no PKG_CONFIG_SYSROOT_DIR.
rm -rf "$work/stage"
meson install -C "$work/build" --quiet --destdir "$work/stage"
staged=$work/stage$prefix
check "pkg-config --cflags of a staged install points into it" sh -c "PKG_CONFIG_PATH='$staged${libdir#"$prefix"}/pkgconfig' \
    pkg-config --cflags plurnk | grep -q -- '-I$staged/'"
check "pkg-config C consumer builds against the staged install" sh -c "cc -std=c11 '$src/test/consumers/consumer.c' \
    -o '$work/stage_c' \$(PKG_CONFIG_PATH='$staged${libdir#"$prefix"}/pkgconfig' pkg-config --cflags --libs plurnk) \
    -Wl,-rpath,'$staged${libdir#"$prefix"}'"
check "C consumer of the staged install runs" "$work/stage_c" "$version"
rm -rf "$work/stage"

# A moved prefix: pkg-config, CMake and the CLI all follow it.
moved=$work/moved
rm -rf "$moved"
mv "$prefix" "$moved"
mlibdir=$moved${libdir#"$prefix"}
check "moved CLI runs" env -u LD_LIBRARY_PATH "$moved/bin/plurnk" --version
check "moved CLI loads the moved libplurnk" loads_from "$moved/bin/plurnk" "$mlibdir"
check "pkg-config C++ consumer builds against the moved install" sh -c "c++ -std=c++20 '$src/test/consumers/consumer.cpp' \
    -o '$work/moved_cpp' \$(PKG_CONFIG_PATH='$mlibdir/pkgconfig' pkg-config --cflags --libs plurnk) -Wl,-rpath,'$mlibdir'"
check "C++ consumer of the moved install runs" "$work/moved_cpp" "$version"
rm -rf "$work/cmake-moved"
check "CMake consumer builds against the moved install" sh -c "cmake -S '$src/test/consumers/cmake' -B '$work/cmake-moved' \
    -DCMAKE_PREFIX_PATH='$moved' -DPLURNK_WANT='$version' -DPLURNK_COMPONENTS=wire >/dev/null && cmake --build '$work/cmake-moved' -j 2"
check "CMake consumer of the moved install runs" "$work/cmake-moved/consumer_wire"
mv "$moved" "$prefix"
exit $((fails > 0))
