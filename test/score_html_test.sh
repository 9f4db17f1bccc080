#!/bin/sh
# SPDX-License-Identifier: MIT
# Renders `plurnk score --html` in headless Chromium and leaves the screenshot beside the test
# logs (OUT_DIR/score-report.png) for a person to look at; checks that the page loaded and drew.
# usage: score_html_test.sh PLURNK SAMPLE_SCRIPT OUT_DIR
# Skipped (77) without chromium or python3.
set -u
plurnk=$1 sample=$2 out=$3
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome) || {
    echo "chromium not found: install Debian's chromium to render the report"; exit 77; }
python=$(command -v python3) || { echo "python3 not found"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
"$python" "$sample" --turns 150 > "$tmp/sample.jsonl" || exit 1
"$plurnk" score --html="$tmp/report.html" "$tmp/sample.jsonl" > /dev/null || { echo "FAIL plurnk score --html"; exit 1; }
mkdir -p "$out"
png="$out/score-report.png"
rm -f "$png"
# --no-sandbox: CI runs as root; a profile of our own keeps the run from touching $HOME.
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
    --user-data-dir="$tmp/profile" --window-size=1100,3000 --screenshot="$png" "file://$tmp/report.html" \
    > "$tmp/chromium.log" 2>&1
status=$?
[ "$status" -eq 0 ] && [ -s "$png" ] || { echo "FAIL chromium exited $status without a screenshot"; cat "$tmp/chromium.log"; exit 1; }
# A page that drew something is far from blank: more than a few kB of PNG.
size=$(wc -c < "$png")
[ "$size" -gt 20000 ] || { echo "FAIL the screenshot is nearly blank ($size bytes)"; exit 1; }
echo "ok   rendered the report: $png ($size bytes)"
