#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs one fuzz target briefly for `meson test --suite fuzz`: the seed corpus is read-only
# input (libFuzzer writes new units only into the first corpus folder, a scratch folder in the
# build tree), crash files land in the build tree too. Any finding exits 1 (libFuzzer's own
# default, 77, would read as "skipped" to meson). The seed is fixed (PLURNK_FUZZ_SEED, default 1)
# so a CI run explores the same inputs each time; long campaigns (fuzz/README.md) vary it.
# Usage: run_smoke.sh BINARY SEED_DIR DICT SCRATCH_DIR SECONDS
set -eu
bin=$1 seeds=$2 dict=$3 scratch=$4 secs=$5
rm -rf "$scratch"
mkdir -p "$scratch/new" "$scratch/artifacts"
if [ -z "${ASAN_SYMBOLIZER_PATH:-}" ] && command -v llvm-symbolizer >/dev/null 2>&1; then
  ASAN_SYMBOLIZER_PATH=$(command -v llvm-symbolizer)
  export ASAN_SYMBOLIZER_PATH
fi
exec "$bin" "$scratch/new" "$seeds" -dict="$dict" -max_total_time="$secs" -timeout=20 -seed="${PLURNK_FUZZ_SEED:-1}" \
  -error_exitcode=1 -timeout_exitcode=1 -artifact_prefix="$scratch/artifacts/" -print_final_stats=1
