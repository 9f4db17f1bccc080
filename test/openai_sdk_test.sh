#!/bin/sh
# SPDX-License-Identifier: MIT
# The OpenAI SDK against doc/examples/openai_server.py (test/openai_sdk_check.mjs). Needs node and
# the npm package openai, which tools/bootstrap installs into build-npm/ (or PLURNK_NPM=DIR: a
# folder whose node_modules holds it); exits 77 (skipped) when either is absent.
# usage: openai_sdk_test.sh CHECK_SCRIPT EXPECTED.json PYTHON SERVER.py NPM_DIR
set -u
check=$1 expected=$2 python=$3 server=$4 npm=${PLURNK_NPM:-$5}
if ! command -v node >/dev/null 2>&1; then
    echo "skipped: node is not installed (tools/bootstrap installs it)"
    exit 77
fi
if [ ! -f "$npm/node_modules/openai/package.json" ]; then
    echo "skipped: the npm package openai is not in $npm (tools/bootstrap installs it)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# An ES module resolves bare imports from its own folder: run a copy beside the packages.
ln -s "$(cd "$npm" && pwd)/node_modules" "$tmp/node_modules"
cp "$check" "$tmp/check.mjs"
echo "node $(node --version) (doc/serving.md: the versions tested)"
node "$tmp/check.mjs" "$expected" "$python" "$server"
