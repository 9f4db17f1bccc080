# SPDX-License-Identifier: MIT
"""Byte spans on items (.span): what they cover, from str and bytes input, and from a stream cut
anywhere (the same as one-shot)."""
import plurnk
from plurnk import Span, StreamParser


def test_spans_on_items():
    text = "<<PLAN:p:PLAN\nhello <<SEND[200]:d\u00e9j\u00e0:SEND\n"
    data = text.encode()
    r = plurnk.parse(text)
    kinds = [(type(i).__name__, i.span) for i in r.items]
    assert kinds == [("Statement", Span(0, 13)), ("Text", Span(14, 19)), ("Statement", Span(20, len(data) - 1))]
    for it in r.items:
        if isinstance(it, plurnk.Text):
            assert data[it.span.start:it.span.end].decode() == it.text
        if isinstance(it, plurnk.Statement):
            assert data[it.span.start:it.span.start + 2] == b"<<"
            assert data[:it.span.end].endswith(b":" + it.op.encode() + it.suffix.encode())
    # The same spans from bytes input and from a stream cut anywhere.
    assert [i.span for i in plurnk.parse(data).items] == [i.span for i in r.items]
    for size in (1, 3, 7):
        p = StreamParser()
        events = []
        for k in range(0, len(data), size):
            events += p.feed(data[k:k + size])
        events += p.end()
        assert sorted((e.item.span.start, e.item.span.end) for e in events) == \
            sorted((i.span.start, i.span.end) for i in r.items)
        assert [i.span for i in p.finish().items] == [i.span for i in r.items]


def test_tail_span_and_default_span():
    r = plurnk.parse("hi <<EDIT(a.md):never closed")
    assert r.unparsed_tail is not None and r.unparsed_tail.span == Span(3, len("hi <<EDIT(a.md):never closed"))
    # Items built in Python without a span get Span(0, 0); JSON has no spans by default.
    t = plurnk.Text("x", plurnk.Position(1, 0))
    assert t.span == Span(0, 0) and "span" not in t.to_json()
