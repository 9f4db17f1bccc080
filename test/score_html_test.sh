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
# Two keys (model, and the half of the sample a turn is in): the page lays the cells out as a cross-tab.
"$python" "$sample" --turns 60 --shards 2 "$tmp/halves" > /dev/null || exit 1
"$plurnk" score --group-by=model,file --html="$tmp/crosstab.html" "$tmp/halves" > /dev/null || {
    echo "FAIL plurnk score --group-by=model,file --html"; exit 1; }
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
# The sections a paper needs, as Chromium parsed them (three models): the classes per group (a
# column per model) and the pairwise differences with their intervals.
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$tmp/profile" \
    --dump-dom "file://$tmp/report.html" > "$tmp/dom.html" 2> "$tmp/chromium.log" || {
    echo "FAIL chromium --dump-dom"; cat "$tmp/chromium.log"; exit 1; }
"$python" - "$tmp/dom.html" <<'PY' || exit 1
import re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
fails = 0
def section(name):
    m = re.search(r'<section id="' + name + r'">(.*?)</section>', dom, re.S)
    return m.group(1) if m else ""
def check(name, ok):
    global fails
    print(("ok   " if ok else "FAIL ") + name)
    fails += not ok
per = section("per-group-classes")
check("the page has the classes per group, a column per model",
      all(f">{m}</th>" in per for m in ("model-a", "model-b", "model-c")) and per.count("<tr>") >= 3)
cmp = section("comparisons")
rows = re.findall(r"<tr><td>clean</td><td>(model-[abc])</td><td>(model-[abc])</td>.*?"
                  r"([+-]\d+\.\d) \[([+-]\d+\.\d), ([+-]\d+\.\d)\]", cmp)
check("the page has the pairwise differences of the three models, with intervals",
      sorted((a, b) for a, b, *_ in rows) == [("model-a", "model-b"), ("model-a", "model-c"), ("model-b", "model-c")]
      and all(float(lo) <= float(d) <= float(hi) for _, _, d, lo, hi in rows) and "Holm" in cmp)
rows = re.findall(r'<tr><td class="r">([\d,]+)</td><td class="r">[\d,]+</td><td><b>[^<]*</b></td><td>(.*?)</td></tr>', dom, re.S)
check("the class tables show examples, up to 3 a class (as many as its turns)",
      len(rows) >= 3 and all(len(re.findall(r'<div class="ex">', ex)) == min(3, int(n.replace(",", ""))) for n, ex in rows))
check("the examples are rendered messages (no {placeholder} left)",
      re.search(r"\{[a-z_]+\}", "".join(ex for _, ex in rows)) is None)
check("each example has an excerpt of several lines, its own line marked",
      any(re.search(r"<pre>.*\n.*<mark>|<pre><mark>.*\n", ex, re.S) for _, ex in rows) and
      all("<mark>" in ex for _, ex in rows if "<pre>" in ex))
near = section("near-misses")
check("the page has the near-misses (the sample's openers that lost a '<'), with examples",
      "opener-missing-lt" in near and '<div class="ex">' in near and "is missing" in near)
off = section("off-rail")
rules = re.findall(r"<td><b>([a-z0-9-]+)</b></td>", off)
check("the page groups the off-rail turns by the rule that refused them, with an example each",
      len(rules) >= 2 and off.count('<div class="ex">') >= len(rules) and "off the " in off and " rail at byte " in off)
sys.exit(1 if fails else 0)
PY
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$tmp/profile" \
    --dump-dom "file://$tmp/crosstab.html" > "$tmp/crosstab-dom.html" 2> "$tmp/chromium.log" || {
    echo "FAIL chromium --dump-dom (cross-tab)"; cat "$tmp/chromium.log"; exit 1; }
"$python" - "$tmp/crosstab-dom.html" <<'PY' || exit 1
import re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r'<section id="crosstab">(.*?)</section>', dom, re.S)
rows = re.findall(r"<tr><td>(model-[abc])</td>(.*?)</tr>", m.group(1) if m else "", re.S)
cells = [c for _, r in rows for c in re.findall(r'<td class="r">(\d+\.\d)% \[(\d+\.\d)%\u2013(\d+\.\d)%\] \((\d+)\)</td>', r)]
ok = (m is not None and sorted(n for n, _ in rows) == ["model-a", "model-b", "model-c"] and len(cells) == 6 and
      all(float(lo) <= float(v) <= float(hi) for v, lo, hi, _ in cells) and sum(int(n) for *_, n in cells) == 180)
print(("ok   " if ok else "FAIL ") + "the page of --group-by=model,file has the cross-tab, a cell per model and half")
sys.exit(0 if ok else 1)
PY
