#!/bin/sh
# SPDX-License-Identifier: MIT
# Optional: every rail variant through llama.cpp's grammar engine (test/rail_llama_check.mjs).
# Needs node and the npm package node-llama-cpp (3.x, ships llama.cpp prebuilt), found through
# NODE_PATH or PLURNK_NODE_LLAMA_CPP=DIR (a folder whose node_modules holds it); skipped (exit 77)
# when either is absent. CI does not install it: `npm install node-llama-cpp@3` in a scratch
# folder takes about two minutes. usage: rail_llama_test.sh PLURNK RAIL_TEST CHECK_SCRIPT
set -u
plurnk=$1 rail_test=$2 check=$3
if ! command -v node >/dev/null 2>&1; then
    echo "skipped: node is not installed"
    exit 77
fi
if [ -n "${PLURNK_NODE_LLAMA_CPP:-}" ]; then
    NODE_PATH="$PLURNK_NODE_LLAMA_CPP/node_modules${NODE_PATH:+:$NODE_PATH}"
    export NODE_PATH
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# An ES module resolves bare imports from its own folder, not NODE_PATH: run a copy next to a
# link to the folder that holds the package.
for d in $(echo "${NODE_PATH:-}" | tr ':' ' '); do
    if [ -d "$d/node-llama-cpp" ]; then
        ln -s "$d" "$tmp/node_modules"
        break
    fi
done
if [ ! -d "$tmp/node_modules/node-llama-cpp" ]; then
    echo "skipped: the npm package node-llama-cpp was not found (set PLURNK_NODE_LLAMA_CPP=DIR or NODE_PATH)"
    exit 77
fi
cp "$check" "$tmp/check.mjs"
PLURNK_RAIL_SAMPLES="$tmp/samples.jsonl" "$rail_test" "ten thousand sampled*,sentences of other rail options parse cleanly" >/dev/null || exit 1
PLURNK_RAIL_MUTANTS="$tmp/mutants.jsonl" "$rail_test" "one-mutation near misses*" >/dev/null || exit 1
node "$tmp/check.mjs" "$plurnk" "$tmp/samples.jsonl" "$tmp/mutants.jsonl"
