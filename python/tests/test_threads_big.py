# SPDX-License-Identifier: MIT
"""Threads (the GIL is released while parsing; separate parsers are independent) and big inputs."""
import threading
import time

import pytest

import plurnk
from plurnk import StreamParser

from conftest import ROOT

BIG = (ROOT / "bench" / "data" / "statements-1m.txt").read_text(encoding="utf-8")


def runs_while(fn):
    """Calls fn() in a thread while this thread keeps stamping the clock; True when a stamp falls
    strictly inside fn's call. That can only happen if fn let go of the GIL: while one thread holds
    it, no other runs Python code."""
    span, stamps = [], []

    def worker():
        t0 = time.perf_counter_ns()
        fn()
        span.extend([t0, time.perf_counter_ns()])

    t = threading.Thread(target=worker)
    t.start()
    while t.is_alive():
        stamps.append(time.perf_counter_ns())
    t.join()
    return any(span[0] < s < span[1] for s in stamps)


def test_parse_releases_the_gil():
    text = BIG * 4
    assert runs_while(lambda: plurnk.parse(text, "statements"))


def test_big_feed_releases_the_gil():
    p = StreamParser("statements")
    assert runs_while(lambda: p.feed(BIG * 4))


def test_separate_parsers_in_threads(all_vectors):
    sample = all_vectors[::7]
    expected = {vid: exp for vid, _, _, exp in sample}
    errors = []

    def work(offset):
        try:
            for vid, tier, text, exp in sample[offset::4]:
                assert plurnk.parse(text, tier).to_json() == exp
                p = StreamParser(tier)
                for i in range(0, len(text), 5):
                    p.feed(text[i:i + 5])
                assert p.finish().to_json() == expected[vid]
            assert plurnk.parse(BIG, "statements").to_json() == big_json
        except BaseException as e:  # reported below, with the thread's failure
            errors.append(e)

    big_json = plurnk.parse(BIG, "statements").to_json()
    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_big_input_streamed_equals_one_shot():
    one_shot = plurnk.parse(BIG, "statements")
    assert len(one_shot.statements) > 15000
    p = StreamParser("statements")
    n_events = 0
    for i in range(0, len(BIG), 65536):
        n_events += len(p.feed(BIG[i:i + 65536]))
    n_events += len(p.end())
    assert p.finish() == one_shot and n_events == len(one_shot.items)
    assert p.finish().to_json() == one_shot.to_json()


def test_big_bodies_and_many_items():
    body = "x = 1  # a long line of code: with colons\n" * 25000  # 1 MB
    r = plurnk.parse(f"<<EDIT(big.py):{body}:EDIT", "statements")
    assert r.ok and r.statements[0].body == body
    many = "<<READ(a.md)::READ\n" * 50000
    r = plurnk.parse(many, "statements")
    assert len(r.items) == 50000 and r.items[-1].position.line == 50000


def test_one_parser_shared_by_threads_is_refused_or_serialised():
    # Two threads feeding one parser: each feed either runs alone or raises RuntimeError; the
    # parser is never corrupted (what was accepted parses as its concatenation).
    p = StreamParser("statements")
    accepted, refused = [], []
    chunk = "<<READ(a.md)::READ\n" * 2000

    def work():
        for _ in range(10):
            try:
                p.feed(chunk)
                accepted.append(1)
            except RuntimeError as e:
                assert "in use by another thread" in str(e)
                refused.append(1)

    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(accepted) + len(refused) == 20
    assert p.finish() == plurnk.parse(chunk * len(accepted), "statements")
