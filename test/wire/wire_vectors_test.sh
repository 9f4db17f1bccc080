#!/bin/sh
# SPDX-License-Identifier: MIT
# Scores `plurnk validate --batch` on one wire vector file with the suite's scorer (the logic of
# ../shared/tools/wire-check): every vector must pass.
# usage: wire_vectors_test.sh PLURNK WIRE_SCORE VECTORS.jsonl
set -eu
plurnk=$1 score=$2 vectors=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$score" --requests "$vectors" > "$tmp/requests.jsonl"
# exit 1 only says that some request was answered with an error; the scorer judges each answer
"$plurnk" validate --batch < "$tmp/requests.jsonl" > "$tmp/replies.jsonl" || [ $? = 1 ]
requests=$(wc -l < "$tmp/requests.jsonl")
replies=$(wc -l < "$tmp/replies.jsonl")
[ "$requests" = "$replies" ] || { echo "$requests requests but $replies replies"; exit 1; }
"$score" "$vectors" "$tmp/replies.jsonl"
