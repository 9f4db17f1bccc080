# SPDX-License-Identifier: MIT
"""StreamParser.open(), the runaway limit (max_open_bytes, on_runaway, take_runaways) and
gbnf's channel options."""
import subprocess

import pytest

import plurnk
from plurnk import OpenInfo, StreamParser

RUNAWAY = "<<PLAN:p:PLAN\n<<READ[oops(b.py)::READ\n<<EXEC[sh]:ls:EXEC\n<<SEND[200]:x:SEND"


def test_open_and_runaway_polled():
    p = StreamParser(max_open_bytes=32)
    assert p.open() == OpenInfo("none", None, "", 0, 0, 0, 0)
    for ch in RUNAWAY[:50]:
        p.feed(ch)
    o = p.open()
    assert (o.where, o.op, o.begin, o.bytes, o.openers) == ("body", "READ", 14, 36, 1)
    for ch in RUNAWAY[50:]:
        p.feed(ch)
    got = p.take_runaways()
    assert got == [OpenInfo("signal", "READ", "", 14, 33, 1, 0)]
    assert p.take_runaways() == []
    assert p.finish() == plurnk.parse(RUNAWAY)
    assert p.open().where == "none"


def test_runaway_callback_big_body():
    limit = 64 * 1024
    seen = []
    text = "<<PLAN:p:PLAN\n<<EDIT(big.txt):" + "x" * (1 << 20)
    p = StreamParser(max_open_bytes=limit, on_runaway=seen.append)
    for k in range(0, len(text), 4096):
        p.feed(text[k:k + 4096])
    assert len(seen) == 1
    assert (seen[0].where, seen[0].op, seen[0].begin) == ("body", "EDIT", 14)
    assert limit < seen[0].bytes <= limit + 4096
    assert p.take_runaways() == []
    assert p.finish() == plurnk.parse(text)
    quiet = StreamParser()  # no limit: nothing
    quiet.feed(text)
    assert quiet.take_runaways() == []
    with pytest.raises(TypeError):
        StreamParser(on_runaway=3)
    with pytest.raises(ValueError):
        StreamParser(max_open_bytes=-1)


def test_runaway_never_without_tail(all_vectors):
    for vid, tier, text, _ in all_vectors:
        p = StreamParser(tier, max_open_bytes=4096)
        for k in range(0, len(text), 64):
            p.feed(text[k:k + 64])
        r = p.finish()
        if r.unparsed_tail is None:
            assert p.take_runaways() == [], vid


def test_gbnf_channels(cli):
    for args, kw in ((["--channel=think"], {"channel": "think"}), (["--channel=none"], {"channel": "none"}),
                     (["--channel=gemma"], {"channel": "gemma"}),
                     (["--channel-open=<r>", "--channel-close=</r>"], {"channel_open": "<r>", "channel_close": "</r>"})):
        want = subprocess.run([cli, "gbnf", *args], capture_output=True, text=True, check=True).stdout
        assert plurnk.gbnf(**kw) == want, args
    assert plurnk.gbnf(channel="gemma") == plurnk.gbnf()
    with pytest.raises(ValueError):
        plurnk.gbnf(channel="harmony")
    with pytest.raises(ValueError):
        plurnk.gbnf(channel="none", channel_open="<r>", channel_close="</r>")
    with pytest.raises(ValueError):
        plurnk.gbnf(channel_open="<r>")
