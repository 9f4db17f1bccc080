# SPDX-License-Identifier: MIT
"""The service dialect (doc/dialects.md) from Python: dialect= on parse, StreamParser,
DeltaStream and format_source; every service vector exact one-shot and streamed; RegexPath
round-trips through to_json and format; an unknown name is a ValueError."""
import json
import os

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


def test_unknown_dialect_is_a_value_error():
    for make in (lambda: plurnk.parse("x", dialect="klingon"),
                 lambda: plurnk.StreamParser(dialect="klingon"),
                 lambda: plurnk.DeltaStream(dialect="klingon"),
                 lambda: plurnk.format_source("x", dialect="klingon")):
        with pytest.raises(ValueError, match="dialect must be 'contracts' or 'service'"):
            make()
