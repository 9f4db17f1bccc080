# SPDX-License-Identifier: MIT
"""plurnk.score: the same scorer as `plurnk score`, reports that merge exactly and pickle."""
import json
import os
import pickle
import subprocess
import sys
import threading

import pytest

import plurnk.score as score

CLEAN = "<<PLAN:g:PLAN\n<<READ(a.md)::READ\n<<SEND[200]:done:SEND"
GEMMA = "<|channel>thought\nok<channel|>\n" + CLEAN


def sample(root, tmp_path, turns=60, shards=3):
    out = tmp_path / "shards"
    subprocess.run([sys.executable, str(root / "doc" / "examples" / "score_sample.py"), "--turns", str(turns),
                    "--shards", str(shards), str(out)], check=True)
    return sorted(str(p) for p in out.iterdir())


def test_near_misses():
    # A READ that lost a '<' is text, so the turn is clean; the scorer counts the near-miss.
    r = score.Scorer().score_texts([CLEAN.replace("<<READ", "<READ"), CLEAN], group="m")
    g = r.to_dict()["groups"]["m"]
    assert r.clean == 2
    assert {k: (t["count"], t["turns"]) for k, t in g["nearMisses"].items()} == {"opener-missing-lt": (1, 1)}
    assert g["nearMisses"]["opener-missing-lt"]["examples"][0]["line"] == 2


def test_texts_and_records():
    s = score.Scorer()
    r = s.score_texts([CLEAN, GEMMA, "<<READ(a)::READ"], group="m")
    d = r.to_dict()
    g = d["groups"]["m"]
    assert (r.turns, r.clean, g["statements"]) == (3, 2, 6)
    assert g["rail"] == {"gemma": 1, "none": 1}
    assert g["shape"]["no-plan-first"]["turns"] == 1
    assert [e["id"] for e in g["shape"]["no-plan-first"]["examples"]] == ["2"]
    assert d["total"]["rates"]["clean"]["rate"] == pytest.approx(2 / 3, abs=1e-6)
    recs = s.score_records([{"id": "a", "model": "x", "output": CLEAN}, {"id": "b", "model": "y", "text": "<<"},
                            {"id": "c", "text": 5}], file="mem")
    assert recs.groups == ["x", "y"]
    assert recs.invalid_records == 1
    assert s.on_rail(GEMMA) == {"gemma": True, "think": False, "none": False}


def test_options():
    assert score.Scorer(channels=["none"]).report().channels == ["none"]
    assert score.Scorer(group_by="family").score_jsonl('{"id":"g12","text":"x"}').groups == ["g"]
    with pytest.raises(ValueError):
        score.Scorer(channels=["gemmma"])
    with pytest.raises(ValueError):
        score.Scorer(tier="nope")
    with pytest.raises(ValueError):
        score.Scorer().score_jsonl("", into=score.Scorer(group_by="file").report())


def test_text_field():
    rec = '{"id":"1","prompt":"p","answer":"<<PLAN:g:PLAN<<SEND[200]:d:SEND"}\n'
    s = score.Scorer()
    r = s.score_jsonl(rec * 3)
    assert r.to_dict()["invalidRecords"]["count"] == 3 and r.turns == 0
    assert s.fields_seen == ["id", "prompt", "answer"]
    r = score.Scorer(text_field="answer").score_jsonl(rec * 3)
    assert r.to_dict()["total"]["clean"] == 3
    with pytest.raises(ValueError):
        score.Scorer(text_field="")


def test_merge_json_pickle(root, tmp_path):
    files = sample(root, tmp_path)
    s = score.Scorer()
    whole = s.report()
    for f in files:
        s.score_file(f, into=whole)
    parts = [score.score_file(f) for f in reversed(files)]
    merged = score.merge(parts)
    assert merged == whole
    assert merged.to_json() == whole.to_json()
    assert parts[0] + parts[1] + parts[2] == whole
    assert score.Report.from_json(whole.to_json(pretty=True)) == whole
    assert pickle.loads(pickle.dumps(whole)) == whole
    with pytest.raises(ValueError):
        score.Report.from_json("{}")
    with pytest.raises(ValueError):
        merged.merge(score.Scorer(group_by="file").report())
    with pytest.raises(ValueError):
        score.merge([])
    assert "<svg" in whole.to_html() and "model-a" in whole.to_table()


def test_cross_tab(root, tmp_path):
    files = sample(root, tmp_path)
    s = score.Scorer(group_by="model,file")
    whole = s.report()
    for f in files:
        s.score_file(f, into=whole)
    assert whole.group_by == "model,file"
    cells = {tuple(json.loads(k)): g for k, g in whole.to_dict()["groups"].items()}
    want = {(json.loads(line)["model"], f) for f in files for line in open(f) if line.strip()}
    assert sorted(cells) == sorted(want) and len(want) >= 3
    merged = score.merge([score.score_file(f, group_by="model,file") for f in reversed(files)])
    assert merged == whole and merged.to_json() == whole.to_json()
    assert score.Report.from_json(whole.to_json()) == whole
    assert 'id="crosstab"' in whole.to_html() and "clean by model \u00d7 file" in whole.to_table()
    with pytest.raises(ValueError):
        merged.merge(score.score_file(files[0]))  # grouped by model alone
    with pytest.raises(ValueError):
        score.Scorer(group_by="model,file,tier")


@pytest.mark.skipif(not os.environ.get("PLURNK_CLI"), reason="the CLI was not built")
def test_same_numbers_as_the_cli(root, tmp_path):
    files = sample(root, tmp_path)
    cli = subprocess.run([os.environ["PLURNK_CLI"], "score", "--json", *files], check=True,
                         stdout=subprocess.PIPE).stdout.decode()
    assert score.merge(score.score_file(f) for f in files).to_json() + "\n" == cli


def test_threads(root, tmp_path):
    files = sample(root, tmp_path, turns=40, shards=4)
    out = [None] * len(files)

    def work(i):
        out[i] = score.score_file(files[i])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(files))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert score.merge(out) == score.merge(score.score_file(f) for f in files)


@pytest.fixture
def race_window():
    # A test-only hook of the extension (python/src/score.cpp, race_window_us): while it is set,
    # every change the binding makes to a report reads it, changes a copy, waits this many
    # microseconds and writes the copy back, so two threads changing one report at once (without
    # the GIL) lose a count on every run rather than once in many runs on a loaded machine. It is
    # private (`_set_race_window`, in no stub and not in plurnk.score), 0 unless a test sets it,
    # and this fixture sets it back to 0 whatever the test does.
    from plurnk import _score
    _score._set_race_window(2000)
    try:
        yield
    finally:
        _score._set_race_window(0)


def test_scorers_sharing_a_report_count_exactly(race_window):
    # Each thread has its own Scorer (as the doc says); both score into one report. Every turn
    # counts once, and the report equals the one a single thread makes of the same calls. With
    # the race window, a report written without the GIL loses counts on every run.
    recs = "".join('{"id":"%d","model":"m%d","text":"<<PLAN:p:PLAN\\n<<READ(a%d)::READ\\n<<SEND[200]:x:SEND"}\n'
                   % (i, i % 97, i) for i in range(2000))
    rounds = 15
    shared = score.Scorer().report()

    def work(k):
        s = score.Scorer()
        for _ in range(rounds):
            s.score_jsonl(recs, file="f%d" % k, into=shared)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert shared.turns == 2 * rounds * 2000
    alone = score.Scorer()
    want = alone.report()
    for k in range(2):
        for _ in range(rounds):
            alone.score_jsonl(recs, file="f%d" % k, into=want)
    assert shared == want


def test_a_shared_report_is_never_seen_half_written():
    # A call scores with the GIL released; the report it adds to changes only while the GIL is
    # held, in one step: a thread reading the report meanwhile sees it before or after the call.
    n = 5000
    recs = "".join('{"id":"%d","model":"m%d","text":"<<PLAN:p:PLAN\\n<<SEND[200]:x:SEND"}\n' % (i, i % 7) for i in range(n))
    shared = score.Scorer().report()
    t = threading.Thread(target=lambda: score.Scorer().score_jsonl(recs, file="f", into=shared))
    seen = set()
    t.start()
    while t.is_alive():
        seen.add(shared.turns)
    t.join()
    assert shared.turns == n
    assert seen <= {0, n}
