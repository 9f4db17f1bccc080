# SPDX-License-Identifier: MIT
"""One call at a time on a StreamParser (and on a DeltaStream): every method that reads or
changes the parser, called while another call runs (a feed with the GIL released, or inside
on_runaway), raises RuntimeError instead of touching the state: "in use by another thread" from
another thread, a one-line re-entry error from the parser's own callback. The races that
corrupted the heap (copy.copy and take_runaways during a feed) run here many times; under ASan
(tools/check) too."""
import copy
import threading
import time

import pytest

import plurnk
from plurnk import StreamParser

# Every call that reaches the parser's state, as (name, call).
CALLS = [
    ("feed", lambda p: p.feed("x")),
    ("end", lambda p: p.end()),
    ("finish", lambda p: p.finish()),
    ("open", lambda p: p.open()),
    ("safe_prefix", lambda p: p.safe_prefix),
    ("take_safe", lambda p: p.take_safe()),
    ("take_runaways", lambda p: p.take_runaways()),
    ("checkpoint", lambda p: p.checkpoint()),
    ("restore", lambda p: p.restore(p.cp)),
    ("close", lambda p: p.close()),
    ("copy", lambda p: copy.copy(p)),
]

RUNAWAY = "<<PLAN:p:PLAN\n<<EDIT(a):" + "y" * 64


class Parser(StreamParser):
    cp = None


def inside_on_runaway(action):
    """Feeds a parser until its on_runaway fires, runs action(parser) inside the callback (while
    feed() holds the parser) and returns what the parser does afterwards: its final result."""
    holder = {}

    def on_runaway(info):
        action(holder["p"])

    p = Parser("parse", max_open_bytes=16, on_runaway=on_runaway)
    holder["p"] = p
    p.cp = p.checkpoint()
    p.feed(RUNAWAY)
    return p


def attempt(call, p, got):
    """Appends "ran" when call(p) runs, else the RuntimeError's message."""
    try:
        call(p)
        got.append("ran")
    except RuntimeError as e:
        got.append(str(e))


@pytest.mark.parametrize("name,call", CALLS, ids=[c[0] for c in CALLS])
def test_a_call_from_another_thread_during_a_feed_is_refused(name, call):
    got = []

    def action(p):
        t = threading.Thread(target=attempt, args=(call, p, got))
        t.start()
        t.join()

    p = inside_on_runaway(action)
    assert got == ["StreamParser is in use by another thread; use one parser per thread"]
    # untouched: the stream goes on as if nothing had been called
    p.feed(":EDIT\n<<SEND[200]:x:SEND")
    assert p.finish() == plurnk.parse(RUNAWAY + ":EDIT\n<<SEND[200]:x:SEND")


@pytest.mark.parametrize("name,call", CALLS, ids=[c[0] for c in CALLS])
def test_a_call_from_its_own_callback_is_a_reentry_error(name, call):
    got = []
    p = inside_on_runaway(lambda p: attempt(call, p, got))
    assert len(got) == 1
    assert "called from inside this StreamParser's own feed() (its on_runaway callback)" in got[0]
    assert got[0].endswith("call it after feed() returns") and "\n" not in got[0]
    p.feed(":EDIT\n<<SEND[200]:x:SEND")
    assert p.finish() == plurnk.parse(RUNAWAY + ":EDIT\n<<SEND[200]:x:SEND")


def test_reading_properties_inside_a_feed_is_fine():
    seen = []
    inside_on_runaway(lambda p: seen.append((p.ended, p.closed, p.tier, p.result)))
    assert seen == [(False, False, "parse", None)]


# A chunk over the 16 KB at which feed() releases the GIL.
BIG_CHUNK = "<<READ(src/a.py)<1-3>::READ\nsome text <<EXEC[sh]:ls -la:EXEC\n" * 600


def race(start, feeds=20, most=200, must_refuse=True, attempts=3):
    """start() makes a fresh stream and returns (feed_once, other): one thread calls feed_once()
    while another calls other() in a loop. other() either gets into the stream (it returns, or
    raises ValueError, as a call after close() or end() does) or is refused (RuntimeError).
    Returns the refusals' messages and how many feeds were made.

    Back to back, the feeds leave other() little room between them: it is refused while a feed
    runs with the GIL released. Once it has been refused (or after `feeds` feeds), the feeder
    pauses after each feed, so that other() also gets in between two feeds. The feeder makes
    `feeds` feeds, and more (up to `most`) until other() has both got in and been refused (got
    in only, unless `must_refuse`: a call that ends the stream, once in, leaves nothing to
    refuse). other() starts once the first feed is made; a start that still misses an outcome is
    tried again, up to `attempts` times."""
    seen = []
    for _ in range(attempts):
        feed_once, other = start()
        go, done = threading.Event(), threading.Event()
        got_in, refused, made = [0], {}, [0]

        def enough():
            return got_in[0] and (refused or not must_refuse)

        def feeder():
            try:
                while made[0] < most and not (made[0] >= feeds and enough()):
                    feed_once()
                    made[0] += 1
                    go.set()
                    if refused or made[0] >= feeds:
                        time.sleep(0.001)
            finally:
                go.set()
                done.set()

        def loop():
            go.wait()
            while not done.is_set():
                try:
                    other()
                    got_in[0] += 1
                except RuntimeError as e:
                    refused[str(e)] = refused.get(str(e), 0) + 1
                except ValueError:
                    got_in[0] += 1

        threads = [threading.Thread(target=feeder), threading.Thread(target=loop)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if enough():
            return refused, made[0]
        seen.append((got_in[0], refused, made[0]))
    pytest.fail(f"other() did not both get in and get refused: (got in, refused, feeds) per attempt {seen}")


@pytest.mark.parametrize("cls", [StreamParser, plurnk.DeltaStream], ids=["StreamParser", "DeltaStream"])
def test_copy_while_another_thread_feeds(cls):
    per_chunk = len(plurnk.parse(BIG_CHUNK, "statements").items)
    state = {}

    def start():
        p, copies = cls("statements"), []
        state.update(p=p, copies=copies)
        return (lambda: p.feed(BIG_CHUNK)), (lambda: copies.append(copy.copy(p)) if len(copies) < 8 else copy.copy(p))

    refused, fed = race(start, feeds=30)
    assert set(refused) == {f"{cls.__name__} is in use by another thread; use one parser per thread"}
    assert state["p"].finish() == plurnk.parse(BIG_CHUNK * fed, "statements")
    for q in state["copies"]:  # each copy is a whole parser at a chunk boundary
        r = q.finish()
        assert len(r.items) % per_chunk == 0
        assert r == plurnk.parse(BIG_CHUNK * (len(r.items) // per_chunk), "statements")


def test_take_runaways_while_another_thread_feeds():
    chunk = ":EDIT\n" + "<<READ(a)::READ\n" * 1100 + "<<EDIT(a):" + "y" * 64  # over 16 KB, ends in an open body
    state = {}

    def start():
        p, taken = StreamParser("statements", max_open_bytes=8), []
        p.feed("<<EDIT(a):")
        state.update(p=p, taken=taken)
        return (lambda: p.feed(chunk)), (lambda: taken.extend(p.take_runaways()))

    refused, feeds = race(start, feeds=100)
    taken = state["taken"] + state["p"].take_runaways()
    assert set(refused) == {"StreamParser is in use by another thread; use one parser per thread"}
    assert len(taken) == feeds + 1  # the first EDIT's, then one per chunk: each exactly once
    assert len({o.begin for o in taken}) == feeds + 1


def feeding(stream, fed):
    """A feed_once for race(): feeds BIG_CHUNK, counting in `fed` the feeds that ran (the other
    thread may hold, close or end the stream)."""
    def feed_once():
        try:
            stream.feed(BIG_CHUNK)
            fed.append(1)
        except (RuntimeError, ValueError):
            pass
    return feed_once


@pytest.mark.parametrize("name,call", CALLS, ids=[c[0] for c in CALLS])
def test_every_call_races_a_feed_safely(name, call):
    # While one thread feeds big chunks (the GIL released), another calls `name` in a loop: each
    # call runs between two feeds or raises RuntimeError, and the parser stays whole.
    state = {}

    def start():
        p, fed = Parser("statements"), []
        p.cp = p.checkpoint()
        state.update(p=p, fed=fed)
        return feeding(p, fed), lambda: call(p)

    # end, finish and close, once in, end the parser: there may be no feed left to refuse them
    # during (test_a_call_from_another_thread_during_a_feed_is_refused refuses each for sure)
    ends = name in ("end", "finish", "close")
    refused, _ = race(start, must_refuse=not ends)
    p, fed = state["p"], state["fed"]
    want = {"StreamParser is in use by another thread; use one parser per thread"}
    assert set(refused) <= want if ends else set(refused) == want
    if p.closed:  # a close() that ran between two feeds
        assert name == "close"
        return
    r = p.finish()
    if name == "feed":  # the other thread's "x" chunks are prose between the statements
        assert len(r.statements) == len(fed) * len(plurnk.parse(BIG_CHUNK, "statements").statements)
        return
    per_chunk = len(plurnk.parse(BIG_CHUNK, "statements").items)
    # restore goes back to the empty parser: only the feeds after the last restore count
    k = len(r.items) // per_chunk if name == "restore" else len(fed)
    assert r == plurnk.parse(BIG_CHUNK * k, "statements")


# DeltaStream (plurnk._serve) follows the same rule: every call that reads or changes the stream
# holds it (copy.copy during a feed in another thread: test_copy_while_another_thread_feeds).
DELTA_CALLS = [
    ("feed", lambda s: s.feed("x")),
    ("end", lambda s: s.end()),
    ("peek_end", lambda s: s.peek_end()),
    ("finish", lambda s: s.finish()),
    ("draft", lambda s: s.draft()),
    ("accept", lambda s: s.accept()),
    ("reject", lambda s: s.reject()),
    ("open", lambda s: s.open()),
    ("copy", lambda s: copy.copy(s)),
    ("properties", lambda s: (s.drafting, s.ended, s.tier)),
]


@pytest.mark.parametrize("name,call", DELTA_CALLS, ids=[c[0] for c in DELTA_CALLS])
def test_every_delta_stream_call_races_a_feed_safely(name, call):
    state = {}

    def start():
        s, fed = plurnk.DeltaStream("statements"), []
        if name in ("end", "finish"):  # in a draft they raise ValueError, so the stream goes on
            s.draft()
        state.update(s=s, fed=fed)
        return feeding(s, fed), lambda: call(s)

    # the properties never refuse: they read copies taken as each call leaves the stream
    refused, _ = race(start, must_refuse=name != "properties")
    s, fed = state["s"], state["fed"]
    assert set(refused) == ({"DeltaStream is in use by another thread; use one parser per thread"}
                            if name != "properties" else set())
    if s.drafting:  # a draft (the feeds after it are its chunks) is accepted whole
        s.accept()
    r = s.finish()
    if name == "feed":  # the other thread's "x" chunks are prose between the statements
        assert len(r.statements) == len(fed) * len(plurnk.parse(BIG_CHUNK, "statements").statements)
        return
    # every other call adds no input: the stream holds exactly the feeds that ran, whole
    assert r == plurnk.parse(BIG_CHUNK * len(fed), "statements")
