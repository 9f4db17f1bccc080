# SPDX-License-Identifier: MIT
"""One call at a time on a StreamParser: every method that reads or changes the parser, called
while another call runs (a feed with the GIL released, or inside on_runaway), raises RuntimeError
instead of touching the state: "in use by another thread" from another thread, a one-line
re-entry error from the parser's own callback. The races that corrupted the heap (copy.copy and
take_runaways during a feed) run here many times; under ASan (tools/check) too."""
import copy
import threading

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


def race(feeder_calls, other):
    """Runs feeder_calls() in one thread and other() in a loop in another until the feeder is
    done; returns how often other() ran and the RuntimeError messages it raised (a ValueError,
    from a call after close() or end(), is taken as a refusal too, not recorded)."""
    done = threading.Event()
    ran, refused = [0], {}

    def feeder():
        try:
            feeder_calls()
        finally:
            done.set()

    def loop():
        while not done.is_set():
            try:
                other()
                ran[0] += 1
            except RuntimeError as e:
                refused[str(e)] = refused.get(str(e), 0) + 1
            except ValueError:
                pass

    threads = [threading.Thread(target=feeder), threading.Thread(target=loop)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return ran[0], refused


def test_copy_while_another_thread_feeds():
    p = StreamParser("statements")
    per_chunk = len(plurnk.parse(BIG_CHUNK, "statements").items)
    copies = []

    def feeds():
        for _ in range(60):
            p.feed(BIG_CHUNK)

    ran, refused = race(feeds, lambda: copies.append(copy.copy(p)) if len(copies) < 8 else copy.copy(p))
    assert set(refused) <= {"StreamParser is in use by another thread; use one parser per thread"}
    assert ran + sum(refused.values()) > 0
    assert p.finish() == plurnk.parse(BIG_CHUNK * 60, "statements")
    for q in copies:  # each copy is a whole parser at a chunk boundary
        r = q.finish()
        assert len(r.items) % per_chunk == 0
        assert r == plurnk.parse(BIG_CHUNK * (len(r.items) // per_chunk), "statements")


def test_take_runaways_while_another_thread_feeds():
    chunk = ":EDIT\n" + "<<READ(a)::READ\n" * 1100 + "<<EDIT(a):" + "y" * 64  # over 16 KB, ends in an open body
    feeds = 300
    p = StreamParser("statements", max_open_bytes=8)
    p.feed("<<EDIT(a):")
    taken = []

    def feed_all():
        for _ in range(feeds):
            p.feed(chunk)

    _, refused = race(feed_all, lambda: taken.extend(p.take_runaways()))
    taken += p.take_runaways()
    assert set(refused) <= {"StreamParser is in use by another thread; use one parser per thread"}
    assert len(taken) == feeds + 1  # the first EDIT's, then one per chunk: each exactly once
    assert len({o.begin for o in taken}) == feeds + 1


@pytest.mark.parametrize("name,call", CALLS, ids=[c[0] for c in CALLS])
def test_every_call_races_a_feed_safely(name, call):
    # While one thread feeds big chunks (the GIL released), another calls `name` in a loop: each
    # call runs between two feeds or raises RuntimeError, and the parser stays whole.
    p = Parser("statements")
    p.cp = p.checkpoint()
    fed = []

    def feeds():
        for _ in range(20):
            try:
                p.feed(BIG_CHUNK)
                fed.append(1)
            except (RuntimeError, ValueError):  # the other thread holds, closed or ended it
                pass

    _, refused = race(feeds, lambda: call(p))
    assert set(refused) <= {"StreamParser is in use by another thread; use one parser per thread"}
    if p.closed:  # a close() that ran between two feeds
        assert name == "close"
        return
    r = p.finish()
    if name == "feed":  # the other thread's "x" chunks are in it too
        return
    per_chunk = len(plurnk.parse(BIG_CHUNK, "statements").items)
    # restore goes back to the empty parser: only the feeds after the last restore count
    k = len(r.items) // per_chunk if name == "restore" else len(fed)
    assert r == plurnk.parse(BIG_CHUNK * k, "statements")
