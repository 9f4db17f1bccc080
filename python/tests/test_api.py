# SPDX-License-Identifier: MIT
"""The typed API: items, results, validators, paths, the rail, and how misuse is reported."""
import copy
import dataclasses
import pickle
import subprocess

import pytest

import plurnk
from plurnk import (Diagnostic, LineMarker, LocalPath, Matcher, ParseResult, Position, ResourceSelection, SendBody,
                    Statement, Text, UrlPath)


def test_turn_items_are_typed(turn_text):
    r = plurnk.parse(turn_text)
    assert r.ok and r.unparsed_tail is None
    kinds = [type(i).__name__ for i in r.items]
    assert kinds == ["Text", "Statement", "Statement", "Statement", "Statement", "Statement", "Statement"]
    plan, find, read, edit, exec_, send = r.statements
    assert plan == Statement("PLAN", "", None, None, None, "Find the retry logic, then fix the jitter bound.",
                             Position(2, 0))
    assert find.signal == ("http",)
    assert find.target == LocalPath("src/**/*.ts")
    assert find.line_marker == LineMarker((1, 20))
    assert find.body == Matcher("regex", "/retry(Count|Delay)/i", "retry(Count|Delay)", "i")
    assert read.body is None and read.line_marker.marks == (35, 50)
    assert edit.body == "export const jitter = 0.2;\n"
    assert exec_.signal == "sh" and exec_.position == Position(7, 0)
    assert send.signal == 102 and isinstance(send.signal, int)
    assert send.body == SendBody("Patched the jitter bound; running the backoff tests.", None)
    assert isinstance(r.items[0], Text) and r.items[0].text.startswith("<think>")


def test_url_target_and_selection():
    r = plurnk.parse("<<READ(https://user:pw@example.com:8080/a/b?q=1#frag)::READ"
                     "<<COPY(a.txt):b.txt<3,4>:COPY<<SEND[200]:{\"b\": [1, 2.5]}:SEND", "statements")
    read, cp, send = r.statements
    assert read.target == UrlPath("https://user:pw@example.com:8080/a/b?q=1#frag", "https", "user", "pw", "example.com",
                                  8080, "/a/b", "q=1", "frag", None)
    assert cp.body == ResourceSelection(LocalPath("b.txt"), LineMarker((3, 4)))
    assert send.body.json == '{"b":[1,2.5]}' and send.body.value() == {"b": [1, 2.5]}
    assert r.to_json() == ParseResult(r.items, r.unparsed_tail).to_json()


def test_errors_are_items_not_exceptions():
    for text in ["<<READ(", "<<<<:::", "\x00\udc80", b"\xff\xfe<<EDIT(a)", "<<TURN:" * 300, ""]:
        r = plurnk.parse(text)
        assert isinstance(r, ParseResult)
        assert not r.ok
    r = plurnk.parse("<<READ(a.md)::READ<<EDIT(x):unfinished", "statements")
    assert r.unparsed_tail is not None and r.unparsed_tail.position.line == 1
    assert isinstance(r.items[0], Statement)
    d = plurnk.parse("hello", "statements").diagnostics[0]
    assert isinstance(d, Diagnostic) and d.severity == "error" and d.source in ("lexer", "parser", "visitor")


def test_dataclass_behaviour(turn_text):
    r = plurnk.parse(turn_text)
    st = r.statements[1]
    assert repr(st).startswith("Statement(op='FIND', suffix='', signal=('http',), target=LocalPath(raw='src/**/*.ts')")
    assert st == plurnk.parse(turn_text).statements[1] and st != r.statements[2]
    assert hash(st) == hash(plurnk.parse(turn_text).statements[1])
    assert not hasattr(st, "__dict__") and "op" in type(st).__slots__
    with pytest.raises(dataclasses.FrozenInstanceError):
        st.op = "READ"
    assert dataclasses.replace(st, op="READ").op == "READ"
    for obj in [r, st, r.items[0], st.target, st.body, plurnk.parse_path("https://a.b/c").path]:
        for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
            back = pickle.loads(pickle.dumps(obj, protocol))
            assert back == obj and type(back) is type(obj)
    back = pickle.loads(pickle.dumps(r))
    assert back.to_json() == r.to_json() and back.ok == r.ok
    assert copy.deepcopy(r) == r
    assert r.to_dict()["items"][1]["statement"]["op"] == "PLAN"
    assert "ParseResult(items=[Text(" in repr(r)


def test_to_json_is_the_cli_output(cli, root, tmp_path, turn_text):
    cases = [turn_text, "<<READ(a.md)::READ\n<<SEND[200]:ok:SEND", "x <<EDIT(", "<<PLAN:é ü 😀:PLAN\n<<SEND[200]:[1e21, 0.1]:SEND"]
    for i, text in enumerate(cases):
        f = tmp_path / f"t{i}.plurnk"
        f.write_text(text, encoding="utf-8")
        for pretty in (False, True):
            args = [cli, "parse"] + (["--pretty"] if pretty else []) + [str(f)]
            out = subprocess.run(args, capture_output=True).stdout
            assert out == (plurnk.parse(text).to_json(pretty) + "\n").encode("utf-8")
    bad = b"<<PLAN:\xff\xc3 x:PLAN\n<<SEND[200]:\xf0\x9f\x98:SEND"
    f = tmp_path / "bad.plurnk"
    f.write_bytes(bad)
    out = subprocess.run([cli, "parse", "--allow-invalid-utf8", str(f)], capture_output=True).stdout
    r = plurnk.parse(bad)
    assert out == (r.to_json() + "\n").encode("utf-8")
    assert r.statements[0].body == "\ufffd\ufffd x"  # one U+FFFD per ill-formed byte, as the columns count
    assert ParseResult(r.items, r.unparsed_tail).to_json() == r.to_json()


def test_bytes_and_str_agree(all_vectors):
    for _, tier, text, _ in all_vectors[::50]:
        assert plurnk.parse(text.encode("utf-8", "surrogatepass"), tier).to_json() == plurnk.parse(text, tier).to_json()
        assert plurnk.parse(bytearray(text.encode("utf-8", "surrogatepass")), tier) == plurnk.parse(text, tier)


def test_options():
    text = "<<READ(a.md)::READ<<READ(b.md)::READ"
    r = plurnk.parse(text, "statements", max_input_bytes=18)
    assert len(r.statements) == 1 and not r.ok
    assert "input" in r.diagnostics[-1].message
    assert plurnk.parse("<<TURN:" * 5, "log", max_turn_depth=2) != plurnk.parse("<<TURN:" * 5, "log")


def test_misuse_raises_clearly():
    with pytest.raises(ValueError, match="tier must be"):
        plurnk.parse("x", "turns")
    with pytest.raises(TypeError, match="text must be str or bytes-like"):
        plurnk.parse(42)
    with pytest.raises(ValueError, match="max_input_bytes must be >= 0"):
        plurnk.parse("x", max_input_bytes=-1)
    with pytest.raises(ValueError, match="max_input_bytes must be >= 0"):
        plurnk.parse("x", max_input_bytes=-(2**70))
    # A count past what size_t holds asks for no limit, as any past the largest (2^32 - 1) does.
    text = "<<READ(a.md)::READ"
    assert plurnk.parse(text, "statements", max_input_bytes=2**70) == plurnk.parse(text, "statements")
    assert plurnk.StreamParser(max_input_bytes=2**64).finish() == plurnk.parse("")
    with pytest.raises(TypeError):
        plurnk.parse("x", max_turn_depth="2")
    with pytest.raises(TypeError, match="pattern must be str"):
        plurnk.validate_regex(b"a")
    bad = ParseResult([Statement("READ", "", None, 7, None, None, Position(1, 0))])
    with pytest.raises(TypeError, match="Statement.target must be LocalPath, UrlPath or RegexPath, not int"):
        bad.to_json()
    with pytest.raises(ValueError, match="not a PLURNK keyword"):
        ParseResult([Statement("NOPE", "", None, None, None, None, Position(1, 0))]).to_json()
    with pytest.raises(TypeError, match="items must be Statement, Diagnostic or Text"):
        ParseResult(["text"]).to_json()


def test_user_built_result():
    r = ParseResult([Text("hi", Position(1, 0)),
                     Statement("SEND", "", 200, None, None, SendBody("x", None), Position(1, 3))])
    assert r.ok and len(r) == 2
    assert r.to_dict() == {"items": [
        {"kind": "text", "text": "hi", "position": {"line": 1, "column": 0}},
        {"kind": "statement", "statement": {"op": "SEND", "suffix": "", "signal": 200, "target": None,
                                            "lineMarker": None, "body": {"raw": "x", "json": None},
                                            "position": {"line": 1, "column": 3}}}]}


def test_validators():
    assert plurnk.validate_regex("a+b", "gi")
    v = plurnk.validate_regex("(ab")
    assert not v and v.message == "Invalid regular expression: /(ab/: Unterminated group" and v.offset == 3
    assert not plurnk.validate_regex("a", "q")
    assert plurnk.validate_xpath("//a[@b='c']/text()") and not plurnk.validate_xpath("//a[")
    assert plurnk.validate_jsonpath("$.store.book[?@.price < 10]") and not plurnk.validate_jsonpath("$[")
    assert plurnk.validate_url("https://example.com/x") and not plurnk.validate_url("not a url")
    u = plurnk.parse_url("HTTPS://Example.COM:443/a/../b?x#y")
    assert u.href == "https://example.com/b?x#y" and u.port == "" and u.search == "?x"
    assert plurnk.parse_url("::") is None
    # offsets count code points of the str, not UTF-8 bytes
    assert plurnk.validate_regex("éé(").offset == plurnk.validate_regex("aa(").offset


def test_paths_and_globs():
    assert plurnk.parse_path("src/a\\(1\\).ts") == plurnk.PathResult(LocalPath("src/a(1).ts"), None)
    assert plurnk.parse_path("").path is None
    assert plurnk.parse_path("https://[::1").error == "invalid URI in path"
    sel = plurnk.parse_resource_selection("dest.md<1,2>")
    assert sel.selection == ResourceSelection(LocalPath("dest.md"), LineMarker((1, 2))) and sel.error is None
    assert plurnk.has_glob("src/**/*.ts") and plurnk.has_glob("a/{b,c}") and not plurnk.has_glob("src/a.ts")


def test_gbnf_and_version(cli):
    assert plurnk.gbnf() == subprocess.run([cli, "gbnf"], capture_output=True, text=True).stdout
    small = plurnk.gbnf(max_statements=2, suffixes=["", "x"])
    assert small == subprocess.run([cli, "gbnf", "--max-statements=2", "--suffixes=,x"], capture_output=True,
                                   text=True).stdout
    with pytest.raises(ValueError):
        plurnk.gbnf(max_statements=5000)
    with pytest.raises(TypeError):
        plurnk.gbnf(suffixes="12")
    out = subprocess.run([cli, "--version"], capture_output=True, text=True).stdout
    assert out.strip() == (f"plurnk {plurnk.__version__} (commit {plurnk.build_commit}; "
                           f"PLURNK language {plurnk.language_version})")
