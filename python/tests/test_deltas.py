# SPDX-License-Identifier: MIT
"""plurnk.DeltaStream and the OpenAI mapping (doc/serving.md): deltas that add up to the one-shot
split of every vector (and every service-dialect vector), at chunks of 1, 7 and 64, in the units
fed, through random checkpoints, drafts and peek_end() calls; the end of a turn through peek_end();
tool calls whose arguments validate against the op's tool schema."""
import copy
import json
import os
import random

import pytest

import plurnk

from test_dialect import service_vectors


def chunks_of(text, size):
    return [text[i:i + size] for i in range(0, len(text), size)]


JUNK = ["<<SEND[200]:junk:SEND\n", "<think>", ":EDIT", "<<EDIT(x):", "</think> x", "<<READ(j)::READ "]


def same_delta(a, b):
    """Two deltas say the same (content, reasoning, statements with their places, the end); an
    index `a` does not know yet (after a parse-tier parser error) may be known in `b`."""
    return (a.content == b.content and a.reasoning == b.reasoning and a.ends_turn == b.ends_turn
            and [(c.statement, c.call, c.span, c.char_span) for c in a.statements]
            == [(c.statement, c.call, c.span, c.char_span) for c in b.statements]
            and all(x.index in (None, y.index) for x, y in zip(a.statements, b.statements)))


def stream(text, tier, size, rng, dialect="contracts"):
    """The deltas of `text` fed in `size` pieces with random checkpoints (a copy fed junk and
    dropped, or taken back after junk was fed), drafts (accepted, in part, rejected, junk) and
    peek_end() calls, each of which must equal end() on a copy; added up."""
    s = plurnk.DeltaStream(tier, dialect=dialect)
    pieces = chunks_of(text, size)
    junk = JUNK if isinstance(text, str) else [j.encode() for j in JUNK]
    total = s.feed(text[:0])

    def check_peek():
        peek = s.peek_end()
        assert same_delta(peek, copy.copy(s).end()), (size, "peek_end() differs from end()")

    i = 0
    while i < len(pieces):
        roll = rng.random()
        if roll < 0.04:
            copy.copy(s).feed(rng.choice(junk))
        elif roll < 0.08:
            checkpoint = copy.copy(s)
            s.feed(rng.choice(junk))
            s = checkpoint
        elif roll < 0.12:
            s.draft()
            for _ in range(rng.randint(1, 3)):
                s.feed(rng.choice(junk))
            s.reject()
        elif roll < 0.18:
            n = min(len(pieces) - i, rng.randint(1, 3))
            with s.draft() as d:
                for p in pieces[i:i + n]:
                    assert not s.feed(p)
                keep = rng.randint(0, n)
                if keep < n:
                    total = total + s.accept(keep)
            if keep == n:
                total = total + d.delta
            i += keep
            continue
        elif roll < 0.22:
            check_peek()
        total = total + s.feed(pieces[i])
        i += 1
    check_peek()
    return total + s.end(), s.finish()


def check_delta(got, want, text, where):
    assert got.content == want.content, where
    assert got.reasoning == want.reasoning, where
    assert [c.statement for c in got.statements] == [c.statement for c in want.statements], where
    # an index is known, and then right, or not known yet (after a parse-tier parser error)
    assert all(g.index in (None, w.index) for g, w in zip(got.statements, want.statements)), where
    assert [c.call for c in got.statements] == list(range(len(got.statements))), where
    assert [(c.span, c.char_span) for c in got.statements] == [(c.span, c.char_span) for c in want.statements], where
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    for c in got.statements:
        # spans usable on either: bytes on the UTF-8 input, char_span on what was fed
        source = text[c.char_span.start:c.char_span.end]
        if isinstance(source, str):
            source = source.encode("utf-8", "surrogatepass")
        assert source == data[c.span.start:c.span.end], where


# The sanitized run (build-pyasan, for memory safety) takes every 8th vector at 1 and 7 a chunk,
# as its time budget allows; the normal build runs them all.
SMALL_CHUNK_STRIDE = 8 if os.environ.get("PLURNK_SANITIZED") else 1


@pytest.mark.parametrize("size", [1, 7, 64])
def test_deltas_add_up_to_the_one_shot_split_of_every_vector(all_vectors, size):
    rng = random.Random(20261205 + size)
    for vid, tier, text, _ in all_vectors[::SMALL_CHUNK_STRIDE if size < 64 else 1]:
        want = plurnk.project(text, tier)
        got, result = stream(text, tier, size, rng)
        assert isinstance(got.content, str) and isinstance(got.reasoning, str)
        check_delta(got, want, text, (vid, size))
        assert result == plurnk.parse(text, tier), (vid, size)


@pytest.mark.parametrize("size", [1, 7, 64])
def test_deltas_add_up_in_the_service_dialect(size):
    rng = random.Random(474 + size)
    vectors = service_vectors()
    assert len(vectors) >= 474
    for v in vectors:
        text, tier = v["input"], v["tier"]
        want = plurnk.project(text, tier, dialect="service")
        got, result = stream(text, tier, size, rng, "service")
        check_delta(got, want, text, (v["id"], size))
        assert result.to_json() == plurnk.parse(text, tier, dialect="service").to_json(), (v["id"], size)
    # and the dialect is read: a regex target is a RegexPath in one, a local path in the other
    turn = "<<FIND(#src/.*#):#x#i:FIND"
    assert isinstance(plurnk.project(turn, "statements", dialect="service").statements[0].statement.target, plurnk.RegexPath)
    assert isinstance(plurnk.project(turn, "statements").statements[0].statement.target, plurnk.LocalPath)


def test_bytes_in_bytes_out(all_vectors):
    rng = random.Random(7)
    for vid, tier, text, _ in all_vectors[::10]:
        data = text.encode("utf-8", "surrogatepass")
        want = plurnk.project(data, tier)
        got, _ = stream(data, tier, rng.choice([1, 7, 64]), rng)
        assert isinstance(got.content, bytes)
        check_delta(got, want, data, vid)


def test_reasoning_streams_before_its_block_closes_and_prose_has_no_statement_source():
    think = "<think>" + "".join(f"step {i} of the thought\n" for i in range(300)) + "</think>\n"
    turn = think + "<<PLAN:p:PLAN\nSure, reading it.\n<<READ(a.md)::READ\n<<SEND[200]:done:SEND"
    s = plurnk.DeltaStream()
    deltas = [s.feed(p) for p in chunks_of(turn, 4)]
    first = next(i for i, d in enumerate(deltas) if d.reasoning)
    assert first < 8
    assert sum(len(d.reasoning) for d in deltas[:len(think) // 4]) > len(think) - 32
    prose = "".join(d.content for d in deltas) + s.peek_end().content
    assert prose == "\n\nSure, reading it.\n\n"


def test_the_final_send_through_peek_end_and_the_adapter_rule():
    turn = "<<PLAN:p:PLAN\n<<READ(a.md)::READ\n<<SEND[200]:all done:SEND"
    s = plurnk.DeltaStream()
    sent = s.feed("")
    for p in chunks_of(turn, 3):
        if s.ended:
            continue
        sent = sent + s.feed(p)
        if s.peek_end().ends_turn:
            sent = sent + s.end()
    assert s.ended
    assert [c.statement.op for c in sent.statements] == ["PLAN", "READ", "SEND"]
    assert sent.ends_turn
    with pytest.raises(ValueError):
        s.feed("x")


def test_drafts_context_manager_and_errors():
    s = plurnk.DeltaStream(max_open_bytes=32)
    s.feed("<<PLAN:p:PLAN\n")
    with pytest.raises(KeyError):
        with s.draft():
            assert not s.feed("<<EDIT(x):" + "y" * 64)   # a runaway, held
            raise KeyError("the verifier failed")
    assert not s.drafting
    with s.draft() as d:
        s.feed("<<READ(a)::READ\n")
    assert not s.drafting and [c.statement.op for c in d.delta.statements] == ["READ"]
    assert not d.delta.runaways                          # the rejected draft's runaway is gone
    s.draft()
    with pytest.raises(ValueError):
        s.end()
    s.reject()
    with pytest.raises(TypeError):
        s.feed(b"bytes after str")
    c = copy.copy(s)
    assert c.feed("<<SEND[200]:x:SEND").statements == ()
    assert [x.statement.op for x in c.end().statements] == ["SEND"]
    assert s.end().statements == ()


def test_openai_json_is_the_library_s():
    turn = '<think>hm, ok</think>\n<<PLAN:p:PLAN\nhi <<SEND[200]:{"ok":true}:SEND'
    d = plurnk.project(turn)
    chunk = json.loads(d.chunk_json("call_r_"))
    assert chunk["content"] == "\n\nhi " and chunk["reasoning_content"] == "hm, ok"
    assert [t["index"] for t in chunk["tool_calls"]] == [0, 1]
    assert chunk["tool_calls"][1]["id"] == "call_r_1"
    assert json.loads(chunk["tool_calls"][1]["function"]["arguments"])["body"]["json"] == {"ok": True}
    message = json.loads(d.message_json())
    assert message["role"] == "assistant" and "index" not in message["tool_calls"][0]
    assert json.loads(d.statements[0].tool_call_json()) == message["tool_calls"][0]
    assert plurnk.DeltaStream().feed("").chunk_json() == "{}"


def test_every_statement_s_arguments_validate_against_its_tool(all_vectors):
    jsonschema = pytest.importorskip("jsonschema")
    tools = {t["function"]["name"]: t for t in json.loads(plurnk.openai_tools("client"))}
    assert len(tools) == 15 and all(t["type"] == "function" for t in tools.values())
    validators = {name: jsonschema.Draft202012Validator(t["function"]["parameters"]) for name, t in tools.items()}
    checked = 0
    for vid, tier, text, _ in all_vectors:
        for c in plurnk.project(text, tier).statements:
            args = json.loads(c.arguments_json())
            errors = list(validators[c.statement.op].iter_errors(args))
            assert not errors, (vid, c.statement.op, args, errors[0].message)
            checked += 1
    assert checked > 10000
    # and a wrong one is refused
    assert list(validators["SEND"].iter_errors({"suffix": "", "signal": "x", "target": None, "lineMarker": None,
                                                "body": None}))
