# SPDX-License-Identifier: MIT
"""plurnk.score under hostile input: time linear in the turn, peak memory within 8x the input, and
reports with keys it never writes refused (the hostile-input issue, round three)."""
import json
import os
import subprocess
import sys
import time

import pytest

import plurnk.score as score

PLAN = "<<PLAN:p:PLAN\n"
# A model stuck writing the same line, each with an error (bench/hostile_shapes.hpp, loops()),
# and statement- and tag-dense turns (its read_statements and tag_lists).
SHAPES = {
    "loop_bad_scope": (PLAN, "<<READ(src/net/backoff.ts)<1,x>::READ\n"),
    "loop_bad_regex": (PLAN, "<<FIND(src/**/*.ts):/(retry(Count|Delay)/i:FIND\n"),
    "read_statements": ("", "<<READ(e)::READ\n"),
    "tag_lists": (PLAN, "<<READ[a,b,c,d,e,f](x)::READ\n"),
}


def make(shape, size):
    head, unit = SHAPES[shape]
    return head + unit * ((size - len(head)) // len(unit))


def cpu(f):
    t = time.process_time()
    f()
    return time.process_time() - t


@pytest.mark.parametrize("shape", ["loop_bad_scope", "loop_bad_regex"])
def test_time_is_linear_in_the_diagnostics_of_a_turn(shape):
    # Per-byte time at 1 MB over that at 256 KB, interleaved, best of 3: 1 when linear, 4 when
    # quadratic (each diagnostic's example used to be built with its line counted from byte 0).
    texts = {n: make(shape, n) for n in (256 << 10, 1 << 20)}
    best = {n: float("inf") for n in texts}
    for _ in range(3):
        for n, t in texts.items():
            best[n] = min(best[n], cpu(lambda: score.Scorer(tier="parse").score_texts([t])))
    growth = (best[1 << 20] / len(texts[1 << 20])) / (best[256 << 10] / len(texts[256 << 10]))
    assert growth < 2.0, f"{shape}: {growth:.2f}x the time per byte at 1 MB as at 256 KB"


PEAK = r"""
import sys, plurnk.score as score
shape, kind = sys.argv[1], sys.argv[2]
head, unit = {shapes}[shape]
text = head + unit * (({size} - len(head)) // len(unit))
if kind == "records":
    import json
    text = "".join(json.dumps({{"id": str(i), "model": "m", "text": head + unit}}) + "\n"
                   for i in range(len(text) // len(unit)))
def status(field):
    for line in open("/proc/self/status"):
        if line.startswith(field):
            return int(line.split()[1]) * 1024
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")
before = status("VmRSS:")
s = score.Scorer()
r = s.score_jsonl(text) if kind == "records" else s.score_texts([text])
assert r.turns > 0
print((status("VmHWM:") - before) / len(text.encode()))
"""


@pytest.mark.skipif(not os.path.exists("/proc/self/clear_refs"), reason="needs Linux's peak RSS reset")
@pytest.mark.skipif(bool(os.environ.get("PLURNK_SANITIZED")),
                    reason="a sanitizer build: its shadow memory and quarantine are in the peak (the normal build checks it)")
@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("kind", ["turn", "records"])
def test_peak_memory_within_8x_the_input(shape, kind):
    # In a fresh interpreter, so nothing an earlier test left to the allocator hides the peak.
    code = PEAK.format(shapes=repr(SHAPES), size=1 << 20)
    out = subprocess.run([sys.executable, "-c", code, shape, kind], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env=dict(os.environ), check=False)
    assert out.returncode == 0, out.stderr.decode()
    ratio = float(out.stdout)
    assert ratio <= 8.0, f"{shape} as {kind}: peak RSS {ratio:.1f}x the input"


def test_reports_with_keys_it_never_writes_are_refused():
    r = score.Scorer().score_texts(["<<PLAN:g:PLAN\n<<SEND[200]:d:SEND"], group="m")
    d = json.loads(r.to_json())
    for g in list(d["groups"].values()) + [d["total"]]:
        g["dispositions"] = {"<script>alert(1)</script>": 1}
    with pytest.raises(ValueError, match="not a SEND disposition code"):
        score.Report.from_json(json.dumps(d))
    d = json.loads(r.to_json())
    for g in list(d["groups"].values()) + [d["total"]]:
        g["clean"] = 2
    with pytest.raises(ValueError, match="inconsistent counts"):
        score.Report.from_json(json.dumps(d))
