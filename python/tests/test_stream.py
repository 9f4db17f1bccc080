# SPDX-License-Identifier: MIT
"""StreamParser: streaming equals one-shot for every vector and chunking, events, the
safe-to-show watermark in the units fed, checkpoint/restore, and misuse."""
import copy
import random

import pytest

import plurnk
from plurnk import Event, StreamParser


def chunks(seq, size):
    return [seq[i:i + size] for i in range(0, len(seq), size)]


def random_chunks(seq, rng):
    out, i = [], 0
    while i < len(seq):
        n = rng.randint(1, 12)
        out.append(seq[i:i + n])
        i += n
    return out


def stream(tier, pieces):
    p = StreamParser(tier)
    events, shown = [], []
    for c in pieces:
        events += p.feed(c)
        shown.append(p.take_safe())
    events += p.end()
    shown.append(p.take_safe())
    return p, p.finish(), events, shown


def check_events(result, events):
    items = result.items
    assert all(type(e) is Event for e in events)
    assert len(events) == len(items)
    for e in events:
        if e.index is not None:
            assert items[e.index] == e.item
    assert sorted(map(repr, (e.item for e in events))) == sorted(map(repr, items))


@pytest.mark.parametrize("size", [1, 3, 7, "random"])
def test_streaming_equals_one_shot(all_vectors, size):
    rng = random.Random(1234)
    for vid, tier, text, expected in all_vectors:
        pieces = random_chunks(text, rng) if size == "random" else chunks(text, size)
        p, result, events, shown = stream(tier, pieces)
        assert result.to_json() == expected, vid
        check_events(result, events)
        assert "".join(shown) == text and p.safe_prefix == len(text), vid


def test_byte_chunks_split_utf8(all_vectors):
    rng = random.Random(99)
    for vid, tier, text, expected in all_vectors:
        if text.isascii():
            continue
        data = text.encode("utf-8", "surrogatepass")
        p, result, events, shown = stream(tier, random_chunks(data, rng))
        assert result.to_json() == expected, vid
        assert b"".join(shown) == data and p.safe_prefix == len(data)


def test_safe_prefix_is_in_code_points_for_str():
    text = "<<PLAN:é 😀:PLAN\n<<READ(ü.md)::READ\n<<SEND[200]:done:SEND"
    p = StreamParser()
    marks = []
    for c in text:
        p.feed(c)
        marks.append(p.safe_prefix)
    assert marks == sorted(marks)
    # after `:READ\n` everything up to the SEND opener is settled
    at = text.index("<<SEND")
    assert marks[at] == at and text[:marks[at]].endswith(":READ\n")
    p.end()
    assert p.safe_prefix == len(text)
    b = StreamParser()
    b.feed(text.encode())
    b.end()
    assert b.safe_prefix == len(text.encode())


def test_take_safe_returns_each_settled_piece_once(turn_text):
    p = StreamParser()
    seen = []
    for c in chunks(turn_text, 5):
        p.feed(c)
        seen.append(p.take_safe())
        assert turn_text.startswith("".join(seen))
        assert p.take_safe() == ""
    p.end()
    seen.append(p.take_safe())
    assert "".join(seen) == turn_text


def test_events_fire_when_settled():
    text = "<<PLAN:Find it.:PLAN\n<<READ(a.md)::READ\n<<SEND[200]:done:SEND"
    p = StreamParser()
    fired = [(i, [(e.item.op, e.index) for e in p.feed(c)]) for i, c in enumerate(chunks(text, 8))]
    assert fired == [(0, []), (1, []), (2, [("PLAN", 0)]), (3, []), (4, [("READ", 1)]), (5, []), (6, []), (7, [])]
    assert [(e.item.op, e.index) for e in p.end()] == [("SEND", 2)]


def test_checkpoint_restore(turn_text):
    cut = turn_text.index("<<EDIT")
    p = StreamParser()
    p.feed(turn_text[:cut])
    cp = p.checkpoint()
    before = p.safe_prefix
    for draft in ["<<EDIT(x):draft that is rejected", "garbage <<< :: >>", "<<SEND[200]:early:SEND\n"]:
        p.feed(draft)
        p.restore(cp)
        assert p.safe_prefix == before
    p.feed(turn_text[cut:])
    p.end()
    assert p.finish() == plurnk.parse(turn_text)
    # a checkpoint can be restored after the end, and the stream goes on from there
    p.restore(cp)
    assert not p.ended and p.result is None
    p.feed(turn_text[cut:])
    assert p.finish().to_json() == plurnk.parse(turn_text).to_json()
    assert p.take_safe() == turn_text


def test_copy_is_independent(turn_text):
    p = StreamParser()
    p.feed(turn_text[:100])
    q = copy.copy(p)
    q.feed("<<nonsense")
    p.feed(turn_text[100:])
    assert p.finish() == plurnk.parse(turn_text)
    assert q.finish() == plurnk.parse(turn_text[:100] + "<<nonsense")
    with pytest.raises(ValueError, match="another StreamParser"):
        q.restore(p.checkpoint())


def test_context_manager_and_misuse(turn_text):
    with StreamParser("parse") as p:
        p.feed(turn_text)
        result = p.finish()
        assert p.finish() is result
        with pytest.raises(ValueError, match="feed\\(\\) after the end of input"):
            p.feed("x")
        with pytest.raises(ValueError, match="end\\(\\) was already called"):
            p.end()
    assert p.closed and p.result is result and p.finish() is result
    with pytest.raises(ValueError, match="closed StreamParser"):
        p.feed("x")
    with StreamParser() as q:
        q.feed("<<PLAN:x")
    with pytest.raises(ValueError, match="closed"):
        q.finish()
    s = StreamParser("statements")
    s.feed("<<READ(")
    with pytest.raises(TypeError, match="fed str; feed str chunks only"):
        s.feed(b"a.md)")
    with pytest.raises(TypeError, match="chunk must be str or bytes-like"):
        s.feed(5)
    with pytest.raises(ValueError, match="tier must be"):
        StreamParser("turn")
    assert s.tier == "statements" and StreamParser().tier == "parse"


def test_max_input_bytes_streams_like_parse():
    text = "<<READ(a.md)::READ<<READ(b.md)::READ"
    p = StreamParser("statements", max_input_bytes=20)
    for c in chunks(text, 3):
        p.feed(c)
    assert p.finish() == plurnk.parse(text, "statements", max_input_bytes=20)
