#!/bin/sh
# SPDX-License-Identifier: MIT
# Instruction counts per input byte and per statement, repeatable on a noisy machine:
# runs `plurnk bench --repeat=1` (one warm-up parse plus one timed parse) under
# `valgrind --tool=callgrind`, collecting only inside plurnk::parse (and, for the JSON rows,
# only inside plurnk::append_json; for the streamed rows, only inside the CLI's feed loop), and
# divides by the two calls. The window rows count bench_stream's feed_window() once.
# LD_BIND_NOW=1 keeps the dynamic linker's first-call symbol binding out of the counts.
# usage: bench/callgrind.sh [BUILD_DIR]   (from the top of the tree; default build dir: build)
set -eu
build=${1:-build}
plurnk=$build/app/plurnk
data=$(dirname "$0")/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The generated inputs of the Google Benchmark programs, written out once.
"$build/bench/bench_write_inputs" "$tmp"

count() {  # count FUNCTION TIER FILE [BENCH_OPTION] -> instructions inside FUNCTION over the run
    LD_BIND_NOW=1 valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" --toggle-collect="$1" \
        "$plurnk" bench --tier="$2" --repeat=1 $4 "$3" >/dev/null 2>"$tmp/cg.err"
    sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' "$tmp/cg.err"
}

printf '%-22s %-10s %10s %8s %12s %10s %12s\n' input tier bytes stmts instr/parse instr/byte instr/stmt
row() {  # row NAME TIER FILE
    bytes=$(wc -c <"$3")
    stmts=$("$plurnk" bench --tier="$2" --repeat=1 "$3" | sed -n 's/.* bytes, \([0-9]*\) statements.*/\1/p')
    total=$(count 'plurnk::parse(*' "$2" "$3" "")
    awk -v n="$1" -v t="$2" -v b="$bytes" -v s="$stmts" -v c="$total" \
        'BEGIN { p = c / 2; printf "%-22s %-10s %10d %8d %12d %10.1f %12.0f\n", n, t, b, s, p, p / b, (s > 0 ? p / s : 0) }'
}
jrow() {  # jrow NAME TIER FILE: instructions per byte of JSON output
    out=$("$plurnk" parse --tier="$2" --allow-invalid-utf8 "$3" | wc -c)
    total=$(count 'plurnk::append_json(*' "$2" "$3" --json)
    awk -v n="$1" -v t="$2" -v o="$out" -v c="$total" \
        'BEGIN { p = c / 2; printf "%-22s %-10s %10d out %12d instr/json %8.1f instr/out-byte\n", n, t, o, p, p / o }'
}

row turn-2k parse "$data/turn-2k.txt"
row statements-1m statements "$data/statements-1m.txt"
row body-heavy-1m statements "$tmp/body-heavy-1m.txt"
row statement-dense statements "$tmp/statement-dense.txt"
echo
echo "JSON serialization alone (to_json):"
jrow turn-2k parse "$data/turn-2k.txt"
jrow statements-1m statements "$data/statements-1m.txt"

echo
echo "Streamed: a stream_parser fed in N-byte chunks, then finish() (plurnk bench --chunk=N),"
echo "against the one-shot parse of the same file (instr/call: per feed() call); the rows named"
echo "'+events' set a callback on the stream (--events), as a server taking each item does:"
printf '%-22s %8s %12s %10s %10s %10s\n' input chunk instr/run instr/byte instr/call x-one-shot
srow() {  # srow NAME TIER FILE CHUNK [--events]
    bytes=$(wc -c <"$3")
    one=$(count 'plurnk::parse(*' "$2" "$3" "")
    fed=$(count '*parse_streamed(*' "$2" "$3" "--chunk=$4 ${5:-}")
    awk -v n="$1" -v c="$4" -v b="$bytes" -v o="$one" -v f="$fed" \
        'BEGIN { p = f / 2; calls = int((b + c - 1) / c); printf "%-22s %8d %12d %10.1f %10.0f %9.2fx\n", n, c, p, p / b, p / calls, f / o }'
}
for chunk in 1 4 16 64; do srow turn-2k parse "$data/turn-2k.txt" "$chunk"; done
for chunk in 1 4 16 64; do srow turn-2k+events parse "$data/turn-2k.txt" "$chunk" --events; done
srow statements-1m statements "$data/statements-1m.txt" 16
srow body-heavy-1m statements "$tmp/body-heavy-1m.txt" 64
# One feed of the whole file (a large chunk goes in by 64 KB pieces).
srow statements-1m-turn parse "$tmp/statements-1m-turn.txt" 1048576

echo
echo "64 KB fed in 4-byte chunks after 1 KB and after 16 MB of a long turn (bench_stream --window):"
wcount() {  # wcount OFFSET -> instructions inside feed_window()
    LD_BIND_NOW=1 valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" --toggle-collect='*feed_window(*' \
        "$build/bench/bench_stream" --window="$1" >/dev/null 2>"$tmp/cg.err"
    sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' "$tmp/cg.err"
}
after_1k=$(wcount 1024)
after_16m=$(wcount 16777216)
awk -v a="$after_1k" -v b="$after_16m" 'BEGIN { w = 65536;
    printf "after 1 KB  %10d instr %8.1f instr/byte\n", a, a / w;
    printf "after 16 MB %10d instr %8.1f instr/byte  %.3fx\n", b, b / w, b / a }'
