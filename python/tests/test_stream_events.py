# SPDX-License-Identifier: MIT
"""Events own their data: every event a StreamParser returns equals, field by field (spans
included), the item at its index in the final result, and every item is delivered exactly once,
however the input is cut: whole turns, chunks of 1, 7 and 64 characters, bursts where one feed
closes several statements, random chunks from 1 byte to 16 KB, and drafts fed after a checkpoint
and rejected. Over every conformance vector and over big generated turns (a feed that settles
several items is the case that 1-12 byte feeds hide)."""
import dataclasses
import math
import random

import pytest

import plurnk
from plurnk import StreamParser

# Statements of every shape an agent writes (paths, URLs with userinfo and IDNA, JSON bodies that
# are re-serialized, regexes, JSONPath, scopes, COPY destinations), with some prose and an error
# or two, so that an event views every kind of storage the parser has.
PIECES = [
    "<<EDIT(src/file{n}.py):" + "line of body text\n" * 5 + ":EDIT\n",
    "<<READ(a\\({n}\\).md)<1-3>::READ\n",
    "<<EXEC[sh]:echo {n} && ls:EXEC\n",
    "<<FIND(src/**):/retry{n}/i:FIND\n",
    '<<SEND(worker://w):{{"b":{n},"a":[1,2]}}:SEND\n',
    "<<READ(http://u:p@xn--ls8h.example.com:80/a/../b{n}?q#f)::READ\n",
    "<<READ(http://h\u00e9{n}.example/p?q#f)::READ\n",
    "<<COPY(a{n})<1>:worker:///d<2>:COPY\n",
    "<<READ[t{n},u](x)::READ\n",
    "words {n} here, \u00fcnicode \U0001f600\n",
    "<<FIND(a):$.x[?@.y>{n}]:FIND\n",
    "<<PLAN:step {n}:PLAN\n",
    "<<READ(a{n}):/(/:READ\n",
    "<<SEND[102]:still working {n}:SEND\n",
]


def generated_turn(statements, seed):
    rng = random.Random(seed)
    return "".join(rng.choice(PIECES).format(n=i) for i in range(statements))


def fields(value):
    """Every field of a result value, recursively, the ones == leaves out (spans) included."""
    if dataclasses.is_dataclass(value):
        return (type(value).__name__,) + tuple(fields(getattr(value, f.name)) for f in dataclasses.fields(value))
    if isinstance(value, (list, tuple)):
        return tuple(fields(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, fields(v)) for k, v in value.items()))
    return value


def log_uniform_chunks(seq, rng, largest=16384):
    """Chunks of 1 byte to `largest`, log-uniform, so bursts of many statements are as likely as
    single tokens."""
    out, i = [], 0
    while i < len(seq):
        n = max(1, int(math.exp(rng.uniform(0, math.log(largest)))))
        out.append(seq[i:i + n])
        i += n
    return out


def sizes(seq, size):
    return [seq[i:i + size] for i in range(0, len(seq), size)]


def run(tier, pieces, draft_at=None, drafts=()):
    """Feeds `pieces`; before piece `draft_at` each draft is fed after a checkpoint and rejected
    (restore), with its events dropped as a server drops a rejected draft's events."""
    p = StreamParser(tier)
    events = []
    for k, c in enumerate(pieces):
        if k == draft_at:
            cp = p.checkpoint()
            for d in drafts:
                p.feed(d)
                p.restore(cp)
        events += p.feed(c)
    events += p.end()
    return events, p.finish()


def problems(events, result):
    """What is wrong with the events of a run (empty when each item came exactly once, equal to
    the final item field by field)."""
    items = result.items
    final = [fields(it) for it in items]
    out, seen, unplaced = [], set(), []
    for e in events:
        if e.index is None:
            unplaced.append(fields(e.item))
            continue
        if e.index in seen:
            out.append(f"index {e.index} delivered twice")
        seen.add(e.index)
        if e.index >= len(items) or fields(e.item) != final[e.index]:
            out.append(f"event {e.index}: {e.item!r:.200} is not the final item")
    rest = sorted(repr(final[i]) for i in range(len(items)) if i not in seen)
    if rest != sorted(map(repr, unplaced)):
        out.append(f"{len(events)} events for {len(items)} items: not each item exactly once")
    return out


JUNK = ["<<EDIT(j):draft body that is rejected\n", "\n<<SEND[200]:junk:SEND\n<<READ(z)::READ\n", "\xff<<TURN:\n"]


@pytest.mark.parametrize("how", ["whole", 1, 7, 64, "bursts", "random", "drafts"])
def test_every_event_is_its_final_item_on_every_vector(all_vectors, how):
    rng = random.Random(36)
    bad = []
    for n, (vid, tier, text, _) in enumerate(all_vectors):
        if how == "whole":
            got = run(tier, [text])
        elif isinstance(how, int):
            got = run(tier, sizes(text, how))
        elif how == "bursts":
            got = run(tier, sizes(text, 16 + n % 48))
        elif how == "random":
            got = run(tier, log_uniform_chunks(text, rng))
        else:
            pieces = log_uniform_chunks(text, rng, 256)
            got = run(tier, pieces, draft_at=n % (len(pieces) + 1), drafts=[JUNK[n % 3], text[: n % 40]])
        if p := problems(*got):
            bad.append((vid, p[:2]))
    assert bad == []


@pytest.mark.parametrize("kind", [str, bytes])
def test_every_event_is_its_final_item_on_a_big_turn(kind):
    text = generated_turn(3000, seed=2)
    data = text if kind is str else text.encode()
    for tier in ("statements", "parse"):
        for size in (1, 7, 64, 103, 256, 1024, 4096, 16384, len(data)):
            events, result = run(tier, sizes(data, size))
            assert len(result.items) > (3000 if tier == "statements" else 1000)
            assert problems(events, result) == [], (tier, size)
        rng = random.Random(7)
        for _ in range(3):
            assert problems(*run(tier, log_uniform_chunks(data, rng))) == [], tier
        pieces = log_uniform_chunks(data, rng, 4096)
        drafts = [data[:5000], JUNK[0] if kind is str else JUNK[0].encode()]
        assert problems(*run(tier, pieces, draft_at=len(pieces) // 2, drafts=drafts)) == [], tier


def test_one_feed_closing_several_statements():
    # The shortest form of the bug this guards: two items settled by one feed, the second's
    # storage reusing the first's (103 bytes were enough).
    for data in ['<<SEND(worker://w):{"b":1,"a":[1,2]}:SEND\n<<SEND(worker://w):{"d":1,"c":2}:SEND\n<<READ(a.md)::READ\n',
                 "<<READ(http://u:p@xn--ls8h.example.com:80/a/../b?q#f)::READ\n" * 3 + "<<READ(a.md)::READ\n"]:
        for tier in ("statements", "parse"):
            events, result = run(tier, [data])
            assert problems(events, result) == []
            assert [e.item for e in events] == list(result.items)


def test_events_outlive_the_parser():
    text = generated_turn(200, seed=5)
    p = StreamParser("statements")
    events = p.feed(text)
    kept = [fields(e.item) for e in events]
    for _ in range(3):
        p.feed(generated_turn(200, seed=6))
    p.close()
    del p
    assert [fields(e.item) for e in events] == kept
    assert [fields(e.item) for e in events] == [fields(it) for it in plurnk.parse(text, "statements").items[:len(events)]]
