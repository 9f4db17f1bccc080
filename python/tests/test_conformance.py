# SPDX-License-Identifier: MIT
"""Every public conformance vector through plurnk.parse(...).to_json(), scored at the two levels
of test/conformance/conformance_test.cpp (structure and exact), with the same table; when that
test program was built, its table must be the same."""
import json
import os
import pickle
import re
import subprocess

import plurnk
from plurnk import ParseResult

from conftest import ROOT, VECTORS


def family(vid):
    m = re.match(r"[A-Za-z]*", vid)
    fam = m.group(0)
    parts = vid.split("-")
    if len(parts) >= 3:
        fam += "/" + parts[1]
    return fam


def structure(result):
    """Items' kinds and order; statements and text exactly; errors' line, column, source,
    severity; the tail's presence and start."""
    out = []
    for it in result.get("items", []):
        if it.get("kind") == "error":
            e = it["error"]
            out.append(("error", e.get("line"), e.get("column"), e.get("source"), e.get("severity")))
        else:
            out.append(json.dumps(it, sort_keys=True))
    if "unparsedTail" in result:
        out.append(("tail", json.dumps(result["unparsedTail"].get("from"), sort_keys=True)))
    return out


def listed_divergences():
    ids = set()
    for line in (ROOT / "test" / "conformance" / "DIVERGENCES.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("- `"):
            ids.add(line[3:line.index("`", 3)])
    return ids


def table(counts):
    lines = ["%-12s%9s%11s%9s" % ("family", "vectors", "structure", "exact")]
    total = [0, 0, 0]
    for fam in sorted(counts):
        c = counts[fam]
        lines.append("%-12s%9d%11d%9d" % (fam, *c))
        total = [a + b for a, b in zip(total, c)]
    lines.append("%-12s%9d%11d%9d" % ("all", *total))
    return lines, total


def test_every_vector(all_vectors):
    counts, failures = {}, []
    listed = listed_divergences()
    for vid, tier, text, expected in all_vectors:
        actual = plurnk.parse(text, tier).to_json()
        s_ok = structure(json.loads(actual)) == structure(json.loads(expected))
        e_ok = s_ok and actual == expected
        c = counts.setdefault(family(vid), [0, 0, 0])
        c[0] += 1
        c[1] += s_ok
        c[2] += e_ok
        if not e_ok and vid not in listed:
            failures.append(vid)
    lines, total = table(counts)
    print("\n".join(lines))
    with open(VECTORS, encoding="utf-8") as f:
        assert total[0] == sum(1 for line in f if line.strip())
    assert failures == []
    assert total[2] == total[0] - len(listed & {v[0] for v in all_vectors})
    exe = os.environ.get("PLURNK_CONFORMANCE_TEST")
    if exe:
        cpp = subprocess.run([exe, str(VECTORS), str(ROOT / "test" / "conformance" / "DIVERGENCES.md")],
                             capture_output=True, text=True).stdout.splitlines()
        assert cpp[:len(lines)] == lines


def test_results_rebuilt_in_python_write_the_same_json(all_vectors):
    """Every result's items and tail, turned into Python objects and back (as after unpickling),
    give the same JSON, and so does each item's own to_json(): the conversions lose nothing."""
    for vid, tier, text, expected in all_vectors:
        r = plurnk.parse(text, tier)
        rebuilt = ParseResult(r.items, r.unparsed_tail)
        assert rebuilt.to_json() == expected, vid
        assert rebuilt.ok == r.ok, vid
        assert expected.startswith('{"items":[' + ",".join(it.to_json() for it in r.items) + "]"), vid
    sample = [plurnk.parse(t, tier) for _, tier, t, _ in all_vectors[::97]]
    assert pickle.loads(pickle.dumps(sample)) == sample
