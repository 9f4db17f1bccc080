# SPDX-License-Identifier: MIT
"""The service dialect (doc/dialects.md) from Python: dialect= on parse, StreamParser,
DeltaStream, format_source, format, gbnf and Scorer (whose rail columns are the service rail), a
result's dialect (format_turn writes it);
every service vector exact one-shot and streamed; RegexPath round-trips through to_json and
format; an unknown name is a ValueError."""
import json
import os
import subprocess

import pytest

import plurnk
from plurnk import RegexPath

from conftest import ROOT

SERVICE = os.path.join(ROOT, "test", "conformance", "service.jsonl")


def service_vectors():
    with open(SERVICE, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def test_every_service_vector_exact_one_shot_and_streamed():
    vectors = service_vectors()
    assert len(vectors) >= 474
    for v in vectors:
        got = plurnk.parse(v["input"], v["tier"], dialect="service").to_json()
        assert json.loads(got) == v["expected"], v["id"]
        s = plurnk.StreamParser(v["tier"], dialect="service")
        for ch in v["input"]:
            s.feed(ch)
        assert s.finish().to_json() == got, v["id"]


def test_regex_target_and_matcher():
    r = plurnk.parse("<<FIND(#src/.*\\.test\\.ts#):#to(do)?#i:FIND", "statements", dialect="service")
    st = r.items[0]
    assert st.target == RegexPath("#src/.*\\.test\\.ts#", "src/.*\\.test\\.ts", "")
    assert (st.body.dialect, st.body.pattern, st.body.flags) == ("regex", "to(do)?", "i")
    # The same text in 1.4.0: a local path and a glob.
    c = plurnk.parse("<<FIND(#src/.*\\.test\\.ts#):#to(do)?#i:FIND", "statements")
    assert isinstance(c.items[0].target, plurnk.LocalPath)
    assert c.items[0].body.dialect == "glob"
    # A RegexPath built by hand writes the same JSON and formats to the text as written.
    assert plurnk.format(st) == "<<FIND(#src/.*\\.test\\.ts#):#to(do)?#i:FIND"
    assert json.loads(st.to_json())["statement"]["target"] == {
        "kind": "regex", "raw": "#src/.*\\.test\\.ts#", "pattern": "src/.*\\.test\\.ts", "flags": ""}


def test_delta_stream_and_format_source_take_the_dialect():
    text = "<<PLAN:p:PLAN\n<<OPEN(log:///**)<1,10>::OPEN\n<<SEND[102]:x:SEND"
    d = plurnk.DeltaStream("parse", dialect="service")
    d.feed(text)
    assert d.finish().to_json() == plurnk.parse(text, dialect="service").to_json()
    assert plurnk.parse(text, dialect="service").ok
    assert not plurnk.parse(text).ok  # 1.4.0: OPEN takes no scope
    assert plurnk.format_source(text, dialect="service") == text


def test_a_result_remembers_its_dialect_and_formats_in_it():
    text = "<<PLAN:p:PLAN\n<<OPEN(log:///**)<1,10>::OPEN\n<<FORK(worker://a)::FORK\n<<SEND[102]:x:SEND"
    r = plurnk.parse(text, dialect="service")
    assert r.dialect == "service" and plurnk.parse(text).dialect == "contracts"
    # In 1.4.0's rules the OPEN scope and the FORK without a prompt have no spelling.
    assert plurnk.format_turn(r) == text + "\n"
    s = plurnk.StreamParser("parse", dialect="service")
    s.feed(text)
    streamed = s.finish()
    assert streamed.dialect == "service" and streamed == r
    d = plurnk.DeltaStream("parse", dialect="service")
    d.feed(text)
    assert d.finish().dialect == "service"
    # A result built by hand says its dialect; equality and pickling keep it.
    by_hand = plurnk.ParseResult(r.items, None, "service")
    assert by_hand == r and plurnk.ParseResult(r.items) != r
    import pickle
    assert pickle.loads(pickle.dumps(r)).dialect == "service"
    assert "dialect='service'" in repr(r)
    # A Statement does not remember it: format takes it.
    fork = r.statements[2]
    assert plurnk.format(fork, dialect="service") == "<<FORK(worker://a)::FORK"
    with pytest.raises(ValueError, match="prompt"):
        plurnk.format(fork)


def test_scorer_takes_the_dialect():
    from plurnk.score import Scorer
    turn = "<<PLAN:p:PLAN\n<<FIND(src/**):#a|b#i:FIND\n<<OPEN(log:///**)<1,10>::OPEN\n<<SEND[102]:x:SEND"
    assert Scorer(dialect="service").score_texts([turn], group="m").clean == 1
    assert Scorer().score_texts([turn], group="m").clean == 0
    with pytest.raises(ValueError, match="unknown dialect"):
        Scorer(dialect="klingon")


def test_gbnf_takes_the_dialect(cli):
    # The service rail is `plurnk gbnf --dialect=service`, with every other option, and its golden copy.
    service = plurnk.gbnf(dialect="service")
    with open(os.path.join(ROOT, "test", "golden", "plurnk-service.gbnf"), encoding="utf-8") as f:
        assert service == f.read()
    assert service == subprocess.run([cli, "gbnf", "--dialect=service"], capture_output=True, text=True,
                                     check=True).stdout
    assert plurnk.gbnf(dialect="contracts") == plurnk.gbnf() != service
    for kw, args in (({"channel": "none", "max_statements": 3}, ["--channel=none", "--max-statements=3"]),
                     ({"suffixes": ["", "x"], "channel_open": "<r>", "channel_close": "</r>"},
                      ["--suffixes=,x", "--channel-open=<r>", "--channel-close=</r>"])):
        want = subprocess.run([cli, "gbnf", "--dialect=service", *args], capture_output=True, text=True,
                              check=True).stdout
        assert plurnk.gbnf(dialect="service", **kw) == want, args
    assert "#" in service and service.count("\n") > 100


def test_scorer_rail_is_the_dialects_rail():
    # A canonical service turn (a #regex# matcher, an OPEN scope) is on the service rail only; a
    # 1.4.0 regex body is a glob in the service dialect and on its rail too.
    from plurnk.score import Scorer
    turn = "<<PLAN:p:PLAN\n<<FIND(src/**):#a|b#i:FIND\n<<OPEN(log:///**)<1,10>::OPEN\n<<SEND[102]:x:SEND"
    assert Scorer(dialect="service").on_rail(turn)["none"] is True
    assert Scorer().on_rail(turn)["none"] is False
    classic = "<<PLAN:p:PLAN\n<<FIND(src/**):/a|b/i:FIND\n<<SEND[102]:x:SEND"
    assert Scorer().on_rail(classic)["none"] is True
    assert Scorer(dialect="service").on_rail(classic)["none"] is True
    total = Scorer(dialect="service").score_texts([turn, classic], group="m").to_dict()["total"]
    assert (total["clean"], total["rail"]["none"]) == (2, 2)
    total = Scorer().score_texts([turn, classic], group="m").to_dict()["total"]
    assert (total["clean"], total["rail"]["none"]) == (1, 1)


def test_unknown_dialect_is_a_value_error():
    for make in (lambda: plurnk.parse("x", dialect="klingon"),
                 lambda: plurnk.StreamParser(dialect="klingon"),
                 lambda: plurnk.DeltaStream(dialect="klingon"),
                 lambda: plurnk.format_source("x", dialect="klingon"),
                 lambda: plurnk.gbnf(dialect="klingon")):
        with pytest.raises(ValueError, match="dialect must be 'contracts' or 'service'"):
            make()
