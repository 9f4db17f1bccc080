#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs plurnk (library static and shared, headers, CLI) under a fresh non-system prefix and
# uses it as an outsider would: the installed CLI runs and finds its library through its RPATH;
# C++ and C programs build with pkg-config (the C one also fully static with --static); a CMake
# project builds with find_package(plurnk) and the plurnk::plurnk target.
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
        -Ddefault_library=both -Dtests=disabled -Dbench=disabled -Dcli=enabled -Dfuzz=disabled -Dpython=disabled -Dwire=disabled
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

# The installed CLI, with no help from the environment.
check "installed CLI runs" env -u LD_LIBRARY_PATH "$prefix/bin/plurnk" --version
check "installed CLI loads the installed libplurnk" sh -c \
    "env -u LD_LIBRARY_PATH ldd '$prefix/bin/plurnk' | grep -q 'libplurnk.so.* => $libdir/'"
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
check "pkg-config --static: C consumer links fully static" sh -c "cc -static -std=c11 '$src/test/consumers/consumer.c' \
    -o '$work/pc_c_static' \$(pkg-config --static --cflags --libs plurnk)"
check "static C consumer runs" "$work/pc_c_static" "$version"
check "static C consumer has no libplurnk.so" sh -c "! ldd '$work/pc_c_static' 2>&1 | grep -q libplurnk"

# CMake.
rm -rf "$work/cmake"
check "CMake consumer configures" cmake -S "$src/test/consumers/cmake" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" \
    -DPLURNK_WANT="$version"
check "CMake consumer builds" cmake --build "$work/cmake" -j 2
check "CMake C++ consumer runs" "$work/cmake/consumer" "$version"
check "CMake C consumer runs" "$work/cmake/consumer_c" "$version"
check "find_package rejects another major version" sh -c "! cmake -S '$src/test/consumers/cmake' -B '$work/cmake-v9' \
    -DCMAKE_PREFIX_PATH='$prefix' -DPLURNK_WANT=$((${version%%.*} + 1))"
exit $((fails > 0))
