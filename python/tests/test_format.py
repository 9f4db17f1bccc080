# SPDX-License-Identifier: MIT
"""The canonical producer from Python: plurnk.format, format_turn, format_source."""
import dataclasses

import pytest

import plurnk
from plurnk import LineMarker, LocalPath, Position, SendBody, Statement

from conftest import vectors


def test_format_writes_the_canonical_form():
    r = plurnk.parse("<<READ<1-3>(f(1).md)[a , b]:READ", "statements")
    (s,) = r.statements
    assert plurnk.format(s) == "<<READ[a,b](f\\(1\\).md)<1,3>::READ"


def test_format_of_a_hand_built_statement_picks_a_safe_suffix():
    s = Statement("SEND", "", 400, None, None, SendBody("quoted: <<READ(x):x:SEND", None), Position(0, 0))
    text = plurnk.format(s)
    assert text == "<<SEND1[400]:quoted: <<READ(x):x:SEND:SEND1"
    (back,) = plurnk.parse(text, "statements").statements
    assert back.body.raw == s.body.raw and back.suffix == "1"


def test_format_refuses_what_plurnk_cannot_spell():
    s = Statement("READ", "", None, LocalPath("a\nb"), LineMarker((1,)), None, Position(0, 0))
    with pytest.raises(ValueError, match="line break"):
        plurnk.format(s)
    with pytest.raises(TypeError):
        plurnk.format("<<READ(a)::READ")


def test_format_turn_and_format_source():
    text = "Hello  world\n<<PLAN : goal :PLAN\n<<SEND[200] :ok:SEND\n"
    r = plurnk.parse(text)
    assert plurnk.format_turn(r) == "Hello world\n<<PLAN: goal :PLAN\n<<SEND[200]:ok:SEND\n"
    assert plurnk.format_source(text) == "Hello  world\n<<PLAN: goal :PLAN\n<<SEND[200]:ok:SEND\n"
    assert plurnk.format_source(text.encode()) == plurnk.format_source(text).encode()
    with pytest.raises(ValueError):
        plurnk.format_source(text, "nope")


def test_round_trip_on_every_admitted_statement_of_the_vectors():
    count = 0
    for vid, tier, text, _ in vectors():
        for s in plurnk.parse(text, tier).statements:
            back_tier = "client" if s.op in ("LOOK", "BUFF") else "statements"
            again = plurnk.parse(plurnk.format(s), back_tier)
            assert again.ok, vid
            (s2,) = again.statements
            assert dataclasses.replace(s2, position=s.position) == s, vid
            count += 1
    assert count > 10000


def test_migrate_source_between_the_dialects():
    text = "<<FIND(src/**):#a/b#i:FIND\n<<OPEN(log:///**)<1,10>::OPEN\n<<READ(x):/etc/hosts:READ\n"
    m = plurnk.migrate_source(text, "statements")
    assert m.text == "<<FIND(src/**):/a\\/b/i:FIND\n<<OPEN(log:///**)<1,10>::OPEN\n<<READ(x):\\/etc/hosts:READ\n"
    assert m.changed
    assert m.notes == [plurnk.MigrationNote(2, 0, "<<OPEN: OPEN and FOLD take no scope in 1.4.0")]
    # The migrated statements read in contracts as they did in the service dialect.
    find, read = plurnk.parse(m.text, "statements").statements
    assert (find.body.dialect, find.body.pattern, find.body.flags) == ("regex", "a\\/b", "i")
    assert (read.body.dialect, read.body.raw) == ("glob", "\\/etc/hosts")
    assert plurnk.migrate_source(text.encode(), "statements").text == m.text.encode()
    back = plurnk.migrate_source("<<WORK[x](worker://a):go:WORK\n<<FIND(x):/a#b/:FIND", "statements",
                                 from_dialect="contracts", to_dialect="service")
    assert back.text == "<<WORK[x](worker://a):go:WORK\n<<FIND(x):#a\\#b#:FIND"
    assert back.notes == [plurnk.MigrationNote(1, 0, "<<WORK: WORK and FORK take no signal in the service dialect")]
    assert not plurnk.migrate_source("<<FIND(x)::FIND", "statements").changed
    with pytest.raises(ValueError):
        plurnk.migrate_source(text, "statements", to_dialect="nope")
