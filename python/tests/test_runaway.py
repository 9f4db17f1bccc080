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


class Stop(Exception):
    pass


def test_on_runaway_raising_loses_no_event():
    # The first feed settles four items and runs away; on_runaway raises. The exception reaches
    # the caller, and the four events come first from the next call: each item exactly once.
    turn = ["<<PLAN:p:PLAN\n<<READ(a)::READ\n<<EXEC[sh]:ls:EXEC\n<<FIND(a):b:FIND\n<<EDIT(x):a long body that runs away",
            " and more\n:EDIT\n<<READ(b)::READ\n", "<<SEND[200]:x:SEND"]
    calls = []

    def on_runaway(info):
        calls.append(info)
        raise Stop("stop generation")

    for last in ("feed", "end"):
        p = StreamParser(max_open_bytes=24, on_runaway=on_runaway)
        events = []
        with pytest.raises(Stop):
            events += p.feed(turn[0])
        assert events == []
        if last == "feed":
            events += p.feed(turn[1])
            events += p.feed(turn[2])
        events += p.end()
        result = p.finish()
        if last == "end":
            assert result == plurnk.parse(turn[0])
        else:
            assert result == plurnk.parse("".join(turn))
        assert [e.index for e in events] == list(range(len(result.items)))
        assert [e.item for e in events] == list(result.items)
    assert len(calls) == 2


def test_restore_drops_the_runaways_and_events_of_a_rejected_draft():
    before, draft = "<<PLAN:p:PLAN\n", "<<READ(a)::READ\n<<EDIT(x):a body that runs away past the limit"
    # Polled: the draft's runaway is not left for take_runaways() after the restore.
    p = StreamParser(max_open_bytes=24)
    p.feed(before)
    cp = p.checkpoint()
    p.feed(draft)
    p.restore(cp)
    assert p.take_runaways() == []
    p.feed("<<SEND[200]:x:SEND")
    assert p.take_runaways() == []
    # The same draft on the accepted path runs away again (the limit's memory is rewound too).
    p.restore(cp)
    p.feed(draft)
    assert [o.op for o in p.take_runaways()] == ["EDIT"]
    # A runaway queued before the checkpoint is the checkpoint's: restore keeps it queued.
    q = StreamParser(max_open_bytes=24)
    q.feed(before + draft)
    cp = q.checkpoint()
    q.feed(" and more of it")
    q.restore(cp)
    assert [o.op for o in q.take_runaways()] == ["EDIT"]

    # With an on_runaway that raises inside the draft: the draft's undelivered events go with it.
    def on_runaway(info):
        raise Stop()

    p = StreamParser(max_open_bytes=24, on_runaway=on_runaway)
    events = p.feed(before)
    cp = p.checkpoint()
    with pytest.raises(Stop):
        p.feed(draft)
    p.restore(cp)
    events += p.feed("<<SEND[200]:x:SEND")
    events += p.end()
    result = p.finish()
    assert result == plurnk.parse(before + "<<SEND[200]:x:SEND")
    assert [e.item for e in events] == list(result.items)
