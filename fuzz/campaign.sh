#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs fuzz targets one after another, each until its CPU time (user + sys of the fuzzer
# process, read from /proc) reaches a budget, then interrupts it with SIGINT so that libFuzzer
# still prints its final stats. On a shared machine CPU time is what a campaign's length means:
# libFuzzer's own -max_total_time is wall time. Appends one line per run to OUT/summary.txt.
#
# usage: fuzz/campaign.sh [--build=DIR] [--out=DIR] [--cpu=SECONDS] [--core=N] TARGET[:SECONDS]...
#   --build  the fuzz build (default build-fuzz); its binaries are copied to OUT/bin first, so
#            rebuilding the tree during a campaign does not change what runs
#   --out    where corpora, crash files, logs and the summary go (default /tmp/plurnk-fuzz)
#   --cpu    the CPU budget of a target given without one (default 1800)
#   --core   pin the fuzzers to this core (taskset), one campaign per core
# Run from the top of the tree. A run's scratch corpus (OUT/TARGET/corpus) is kept, so running
# a target again continues it; fold new edges into fuzz/corpus/ with the merge in README.md.
set -euo pipefail
cd "$(dirname "$0")/.."

build=build-fuzz out=/tmp/plurnk-fuzz cpu=1800 core=""
targets=()
for a in "$@"; do
  case "$a" in
    --build=*) build=${a#*=} ;;
    --out=*) out=${a#*=} ;;
    --cpu=*) cpu=${a#*=} ;;
    --core=*) core=${a#*=} ;;
    -*) sed -n 's/^# \{0,1\}//; 8,13p' "$0" >&2; exit 2 ;;
    *) targets+=("$a") ;;
  esac
done
if [ ${#targets[@]} -eq 0 ]; then
  sed -n 's/^# \{0,1\}//; 8,13p' "$0" >&2
  exit 2
fi

# A private copy of the binaries and the libraries they load ($ORIGIN/../lib). Each file is
# replaced by a rename, never overwritten: another campaign may be running the old one.
install_copy() {  # install_copy FILE DIR
  cp -P "$1" "$2/.$$.tmp" && mv -f "$2/.$$.tmp" "$2/$(basename "$1")"
}
mkdir -p "$out/bin/fuzz" "$out/bin/lib/wire"
for t in "${targets[@]}"; do
  t=${t%%:*}
  [ -x "$build/fuzz/fuzz_$t" ] || { echo "campaign: no $build/fuzz/fuzz_$t" >&2; exit 2; }
  install_copy "$build/fuzz/fuzz_$t" "$out/bin/fuzz"
done
for f in "$build"/lib/libplurnk.so* "$build"/lib/wire/libplurnk_wire.so*; do
  [ -e "$f" ] && [ ! -d "$f" ] || continue
  case "$f" in */wire/*) install_copy "$f" "$out/bin/lib/wire" ;; *) install_copy "$f" "$out/bin/lib" ;; esac
done

pin=()
[ -n "$core" ] && pin=(taskset -c "$core")
hz=$(getconf CLK_TCK)
for spec in "${targets[@]}"; do
  t=${spec%%:*} want=$cpu
  [ "$spec" != "$t" ] && want=${spec#*:}
  d=$out/$t
  mkdir -p "$d/corpus" "$d/crashes"
  dict=()
  [ -f "fuzz/$t.dict" ] && dict=("-dict=fuzz/$t.dict")
  log=$d/log-$(date +%Y%m%d-%H%M%S).txt
  start=$(date +%s)
  "${pin[@]}" "$out/bin/fuzz/fuzz_$t" "$d/corpus" "fuzz/corpus/$t" "${dict[@]}" -max_total_time=86400 \
    -timeout=20 -rss_limit_mb=2048 -max_len=8192 -artifact_prefix="$d/crashes/" -print_final_stats=1 \
    > "$log" 2>&1 &
  pid=$!
  used=0
  while kill -0 "$pid" 2> /dev/null; do
    sleep 5
    stat=$(cat "/proc/$pid/stat" 2> /dev/null) || break
    # Fields 14 and 15 (utime, stime) in clock ticks; the command name (field 2) has no spaces.
    used=$(awk -v hz="$hz" '{ print int(($14 + $15) / hz) }' <<< "$stat")
    [ "$used" -ge "$want" ] && kill -INT "$pid"
  done
  rc=0
  wait "$pid" || rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log")
  last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<< "$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<< "$last")
  crashes=$(find "$d/crashes" -type f | wc -l)
  # rc 0: done; 72: interrupted at the budget (libFuzzer's exit after SIGINT); anything else
  # (a crash, 70 a timeout, 71 out of memory) left its input in crashes/.
  echo "$t rc=$rc cpu=$used wall=$(( $(date +%s) - start )) execs=${execs:-?} cov=${cov:-?} ft=${ft:-?}" \
       "corpus=$(find "$d/corpus" -type f | wc -l) rss_mb=${rss:-?} crash_files=$crashes log=$log" \
    | tee -a "$out/summary.txt"
done
