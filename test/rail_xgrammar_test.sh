#!/bin/sh
# SPDX-License-Identifier: MIT
# The rail on xgrammar (test/rail_xgrammar_check.mjs): every rail variant's sampled sentences and
# mutants, the 1.4.0 rail's and the service rail's, through xgrammar's WASM build. Needs node and the npm package @mlc-ai/web-xgrammar,
# which tools/bootstrap installs into build-npm/ (or PLURNK_NPM=DIR: a folder whose node_modules
# holds it); exits 77 (skipped) when either is absent.
# usage: rail_xgrammar_test.sh PLURNK RAIL_TEST CHECK_SCRIPT NPM_DIR
set -u
plurnk=$1 rail_test=$2 check=$3 npm=${PLURNK_NPM:-$4}
if ! command -v node >/dev/null 2>&1; then
    echo "skipped: node is not installed (tools/bootstrap installs it)"
    exit 77
fi
pkg="$npm/node_modules/@mlc-ai/web-xgrammar/lib/index.js"
if [ ! -f "$pkg" ]; then
    echo "skipped: @mlc-ai/web-xgrammar is not in $npm (tools/bootstrap installs it)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The package's bundle is UMD inside a package marked "type": "module": load a .cjs copy.
cp "$pkg" "$tmp/xgrammar.cjs"
cp "$check" "$tmp/check.mjs"
PLURNK_RAIL_SAMPLES="$tmp/samples.jsonl" "$rail_test" "ten thousand sampled*,sentences of other rail options parse cleanly" >/dev/null || exit 1
PLURNK_RAIL_MUTANTS="$tmp/mutants.jsonl" "$rail_test" "one-mutation near misses*" >/dev/null || exit 1
echo "node $(node --version) (doc/serving.md: the versions tested)"
node "$tmp/check.mjs" "$tmp/xgrammar.cjs" "$plurnk" "$tmp/samples.jsonl" "$tmp/mutants.jsonl"
