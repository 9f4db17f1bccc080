#!/bin/sh
# SPDX-License-Identifier: MIT
# The commit the build stamps in (tools/commit-id): `plurnk --version` reports what the script
# prints for this tree; in a git checkout that is HEAD (12 hex digits) with "-dirty" exactly when
# tracked files differ; a `git archive` tarball (export-subst) and a `meson dist` tree (the dist
# script) carry HEAD; a copy without git history, also one inside another repository, is "unknown".
# usage: commit_id.sh SOURCE_ROOT PLURNK
set -u
src=$1 plurnk=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
check() {  # check NAME EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1: expected [$2], got [$3]"; fails=$((fails + 1)); fi
}
commit_id=$src/tools/commit-id
commit=$("$commit_id" "$src")
check "plurnk --version reports the tree's commit" "$commit" \
    "$("$plurnk" --version | sed -n 's/^plurnk [^ ]* (commit \([^;]*\); PLURNK language [^)]*)$/\1/p')"

# A tree without git history: tools/ as a plain copy is "unknown", inside another repository too.
mkdir -p "$tmp/copy/tools"
cp "$commit_id" "$src/tools/commit.txt" "$tmp/copy/tools/"
check "a copy without git history" unknown "$("$commit_id" "$tmp/copy")"
if command -v git >/dev/null 2>&1; then
    git init -q "$tmp/parent" && mkdir -p "$tmp/parent/vendor" && cp -r "$tmp/copy" "$tmp/parent/vendor/plurnk"
    git -C "$tmp/parent" add -A && git -C "$tmp/parent" -c user.name=t -c user.email=t@t commit -q -m parent
    check "a copy inside another repository is not that repository's commit" unknown \
        "$("$commit_id" "$tmp/parent/vendor/plurnk")"
fi

if git -C "$src" rev-parse --show-toplevel >/dev/null 2>&1; then
    head=$(git -C "$src" rev-parse HEAD)
    short=$(printf '%.12s' "$head")
    git -C "$src" update-index -q --refresh
    dirty=; git -C "$src" diff-index --quiet HEAD -- || dirty=-dirty
    check "a git checkout: HEAD, -dirty when tracked files changed" "$short$dirty" "$commit"
    mkdir "$tmp/archive"
    git -C "$src" archive HEAD tools | tar -x -C "$tmp/archive"
    check "a git archive tarball carries HEAD (export-subst)" "$short" "$("$commit_id" "$tmp/archive")"
    mkdir -p "$tmp/dist/tools"
    MESON_PROJECT_SOURCE_ROOT=$src MESON_PROJECT_DIST_ROOT=$tmp/dist "$commit_id" --dist
    cp "$commit_id" "$tmp/dist/tools/"
    check "a meson dist tree carries HEAD (the dist script)" "$short" "$("$commit_id" "$tmp/dist")"
else
    check "outside a git checkout the build reports unknown" unknown "$commit"
fi
exit $((fails > 0))
