# SPDX-License-Identifier: MIT
"""plurnk.wire: both vendored wire vector files through the Python API (every vector must pass,
on the value path and the JSON text path), and the API's behaviour."""
import json
import math

import pytest

wire = pytest.importorskip("plurnk.wire", reason="the wire library was not built (Meson feature `wire`, needs re2)")

from conftest import ROOT  # noqa: E402


def same(a, b):
    """JSON equality as the suite's scorer has it: key order ignored, 1 == 1.0, True != 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def answer(v, text_path):
    """What `plurnk validate --batch` answers for one vector, through the Python API."""
    if v["contract"] == "Problems.create":
        args = v["args"]
        if text_path:  # the arguments as JSON text, read by the library
            args = wire.parse_json(json.dumps(args))
        try:
            return {"ok": True, "result": wire.Problems.create_args(*args)}
        except wire.ProblemError:
            return {"ok": False, "result": None}
    c, instance = v["contract"], v["instance"]
    if text_path:
        text = json.dumps(instance)
        r = wire.validate_json(c, text)
        check = lambda: wire.assert_json(c, text)  # noqa: E731
    else:
        r = wire.validate(c, instance)
        check = lambda: wire.assert_contract(c, instance)  # noqa: E731
    assert r.exception is None, (v["id"], r.exception)
    try:
        check()
        asserted = True
    except wire.ContractError as e:
        assert e.contract == c
        asserted = False
    assert not (asserted and not r.valid), v["id"]
    return {"valid": r.valid, "asserted": asserted}


def score(name, text_path):
    per, failed = {}, []
    with open(ROOT / "test" / "wire" / name, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            v = json.loads(line)
            got = answer(v, text_path)
            good = all(k in got and same(got[k], e) for k, e in v["expected"].items())
            n = per.setdefault(v["contract"], [0, 0])
            n[0] += good
            n[1] += 1
            if not good:
                failed.append((v["id"], got, v["expected"]))
    return per, failed


@pytest.mark.parametrize("text_path", [False, True], ids=["values", "json-text"])
@pytest.mark.parametrize("name,count", [("wire.jsonl", 2612), ("wire-reference-cases.jsonl", 143)])
def test_wire_vectors(name, count, text_path):
    per, failed = score(name, text_path)
    total = sum(n for _, n in per.values())
    assert total == count
    assert failed == [], f"{len(failed)}/{total} failed, first: {failed[:3]}"


def test_validate_returns_the_error_records():
    r = wire.validate("Position", {"line": -1, "column": 0})
    assert not r and r.valid is False and r.exception is None
    e = r.errors[-1]
    assert (e.keyword, e.keyword_location, e.instance_location) == ("minimum", "#/properties/line/minimum", "#/line")
    assert e.message == "-1 is less than 0."
    assert e.to_dict() == {"instanceLocation": "#/line", "keyword": "minimum",
                           "keywordLocation": "#/properties/line/minimum", "error": "-1 is less than 0."}
    ok = wire.validate_position({"line": 3, "column": 0})
    assert ok and ok.errors == ()


def test_int_and_float_are_one_number():
    # 1.0 is the integer 1, as the reference sees it after JSON.parse; a bool is not a number.
    assert wire.validate("Position", {"line": 1.0, "column": 2.0}).valid
    assert not wire.validate("Position", {"line": 1.5, "column": 2}).valid
    assert not wire.validate("Position", {"line": True, "column": 2}).valid
    assert wire.validate_json("Position", '{"line":1.0,"column":2e0}').valid
    # Beyond 2**53 an int rounds as JSON.parse rounds its literal; huge ints are Infinity.
    region = {"startLine": 2**53 - 1, "startColumn": 1, "endLine": 2**53 - 1, "endColumn": 1}
    assert wire.validate("TextRegion", region).valid
    assert not wire.validate("TextRegion", dict(region, startLine=2**53)).valid  # above its maximum
    assert not wire.validate("TextRegion", dict(region, startLine=10**400)).valid  # Infinity
    assert wire.validate("TextRegion", dict(region, startLine=float(2**53 - 1))).valid
    assert wire.parse_json("[1.0, 2.5, 1e400, -0]") == [1, 2.5, math.inf, 0]
    assert type(wire.parse_json("[1.0]")[0]) is int


def test_text_and_value_paths_agree_on_key_order():
    # JavaScript lists array-index keys first, ascending; the dict's order is made to match, so
    # the reference's short-circuited error list is the same on both paths.
    value = {"z": "x", "10": 1, "2": 2, "kind": "local"}
    a = wire.validate("ParsedPath", value)
    b = wire.validate_json("ParsedPath", json.dumps(value))
    assert a == b
    p = wire.Problems.create("a", "b", 404, "x", {"z": 1, "0": "zero"})
    assert list(p) == ["0", "z", "type", "title", "status", "detail"]


def test_surrogates_as_a_js_string_holds_them():
    # A surrogate pair in a str is one character (as in JS); a lone one counts as one code point.
    assert wire.validate("SendBody", {"raw": "\ud83d\ude00", "json": None}) == \
        wire.validate("SendBody", {"raw": "\U0001F600", "json": None})
    r = wire.validate_json("Notice", '{"\\udc00": 1}')
    assert r.valid is False and r.exception == "URI malformed"
    assert wire.validate("Notice", {"\udc00": 1}).exception == "URI malformed"


def test_assert_raises_typed_errors():
    region = {"startLine": 2, "startColumn": 5, "endLine": 1, "endColumn": 1}
    assert wire.validate_text_region(region).valid
    with pytest.raises(wire.InvalidTextRegionError) as e:
        wire.assert_text_region(region)
    assert e.value.error_class == "InvalidTextRegionError" and e.value.contract == "TextRegion"
    assert str(e.value) == "TextRegion ends before it starts" and e.value.errors == ()
    assert isinstance(e.value, wire.ContractError) and isinstance(e.value, ValueError)
    with pytest.raises(wire.InvalidNoticeError) as e:
        wire.assert_notice({"source": 5})
    assert e.value.message.startswith("invalid Notice: [")
    assert json.loads(e.value.message[len("invalid Notice: "):]) == [x.to_dict() for x in e.value.errors]
    assert e.value.errors
    with pytest.raises(wire.InvalidContractError) as e:  # no assert method in the reference
        wire.assert_position({"line": -1, "column": 0})
    assert e.value.message.startswith("invalid Position: [")
    with pytest.raises(wire.InvalidOperationResultError, match="does not match problem status"):
        wire.assert_operation_result({"status": 404, "problem": wire.Problems.create("a", "gone", 410, "Gone.")})
    with pytest.raises(wire.InvalidLoopFlagsError, match="invalid JSON"):
        wire.assert_json("LoopFlags", "{")
    assert wire.assert_loop_flags(wire.default_loop_flags()) is None
    assert wire.assert_json("TextRegion", b'{"startLine":1,"startColumn":1,"endLine":1,"endColumn":1}') is None


def test_bad_json_text_is_a_verdict():
    r = wire.validate_json("Position", '{"line":')
    assert r.valid is False and r.exception == "invalid JSON" and r.errors == ()
    assert wire.parse_json("{") is None


def test_misuse_raises():
    with pytest.raises(ValueError, match="unknown contract 'Nope'"):
        wire.validate("Nope", {})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="JSON object keys must be str"):
        wire.validate("Position", {1: 2})
    with pytest.raises(TypeError, match=r"value\['a'\]\[1\] is a set"):
        wire.validate("Position", {"a": [0, {1}]})
    with pytest.raises(TypeError, match="^value\\['\ud800'\\] is a set"):
        wire.validate("Position", {"\ud800": {1}})
    with pytest.raises(TypeError):
        wire.validate_json("Position", 5)
    cyclic = []
    cyclic.append(cyclic)
    with pytest.raises(RecursionError):
        wire.validate("Position", cyclic)


def test_problems():
    p = wire.Problems.create("scheme:file", "not-found", 404, "No such file.")
    assert json.dumps(p, separators=(",", ":")) == (
        '{"type":"https://problems.plurnk.dev/scheme/file/not-found","title":"Not found","status":404,'
        '"detail":"No such file."}')
    q = wire.Problems.create("daemon:entry", "entry-not-found", 404, "Missing.", {"retryable": False},
                             {"title": "Entry missing"})
    assert list(q) == ["retryable", "type", "title", "status", "detail"] and q["title"] == "Entry missing"
    assert wire.Problems.create("a", "x", 404.0, "d")["status"] == 404
    with pytest.raises(wire.ProblemError, match="problem owner must be a colon-delimited lowercase identifier"):
        wire.Problems.create("A", "x", 404, "d")
    with pytest.raises(wire.ProblemError, match="^invalid RFC 9457 Problem Details: "):
        wire.Problems.create("a", "x", 200, "d")
    with pytest.raises(wire.ProblemError, match="reading 'title'"):
        wire.Problems.create("a", "x", 404, "d", {}, None)
    with pytest.raises(wire.ProblemError):
        wire.Problems.create_args("a", "x", 404)
    assert wire.Problems.type_uri("a:b", "c") == "https://problems.plurnk.dev/a/b/c"
    assert wire.Problems.default_title("entry-not-found") == "Entry not found"


def test_root_values():
    flags = wire.default_loop_flags()
    assert flags == {"mode": "act", "auto": False, "noWeb": False, "noInteraction": False, "noProposals": False}
    flags["mode"] = "changed"
    assert wire.default_loop_flags()["mode"] == "act"
    assert wire.unknown_position() == {"line": 0, "column": 0}
    assert wire.validate_position(wire.unknown_position()).valid
    assert wire.RESERVED_AUTHORITIES == ("commons", "plurnk")
    assert wire.PLURNK_OPS[0] == "FIND" and len(wire.PLURNK_OPS) == 13
    assert wire.is_worker_name("build-1") and not wire.is_worker_name("-x") and wire.is_worker_name("plurnk")
    assert wire.is_reserved_authority("plurnk") and not wire.is_reserved_authority("other")
    assert len(wire.CONTRACTS) == 18 and set(wire.ASSERT_CONTRACTS) < set(wire.CONTRACTS)
    for c in wire.CONTRACTS:
        schema = json.loads(wire.schema_text(c))
        assert schema["$id"] == wire.schema_id(c) and schema["title"] == c
        assert (ROOT / "schema" / f"{c}.json").read_text(encoding="utf-8").strip() == wire.schema_text(c).strip()


def test_named_functions_cover_every_contract():
    for c in wire.CONTRACTS:
        snake = wire._snake(c)
        f, g = getattr(wire, "validate_" + snake), getattr(wire, "assert_" + snake)
        assert f.__name__ == "validate_" + snake and g.__name__ == "assert_" + snake
        assert f(None) == wire.validate(c, None)
        with pytest.raises(wire.ContractError):
            g(None)


def test_service_dialect_schemas():
    # Every statement parsed from the service vectors in that dialect is valid against the
    # service schemas (statement.to_dict(), as a server sends it); a regex path, an OPEN/FOLD
    # scope and a FORK without a prompt are not valid against 1.4.0's, everything else is.
    import plurnk
    seen = {"regex": 0, "scope": 0, "fork": 0}
    with open(ROOT / "test" / "conformance" / "service.jsonl", encoding="utf-8") as f:
        for line in f:
            v = json.loads(line)
            for item in plurnk.parse(v["input"], v["tier"], dialect="service").items:
                if not isinstance(item, plurnk.Statement):
                    continue
                st = item.to_dict()["statement"]  # the item as the JSON writes it
                assert wire.validate("ClientStatement", st, dialect="service"), v["id"]
                assert bool(wire.validate("PlurnkStatement", st, dialect="service")) == (st["op"] not in ("LOOK", "BUFF"))
                paths = [st["target"], st["body"].get("target") if isinstance(st["body"], dict) else None]
                regex = any(p is not None and p.get("kind") == "regex" for p in paths)
                scope = st["op"] in ("OPEN", "FOLD") and st["lineMarker"] is not None
                fork = st["op"] == "FORK" and st["body"] is None
                seen["regex"] += regex
                seen["scope"] += scope
                seen["fork"] += fork
                assert bool(wire.validate("ClientStatement", st)) == (not (regex or scope or fork)), v["id"]
    assert all(seen.values()), seen
    rx = {"kind": "regex", "raw": "#a#i", "pattern": "a", "flags": "i"}
    assert wire.validate_parsed_path(rx).valid is False
    assert wire.validate_json("ParsedPath", json.dumps(rx), dialect="service").valid
    bad = wire.validate("ParsedPath", dict(rx, raw="#"), dialect="service")
    assert not bad and any(e.instance_location == "#/raw" and e.keyword == "minLength" for e in bad.errors)
    wire.assert_contract("ParsedPath", rx, dialect="service")
    wire.assert_json("ParsedPath", json.dumps(rx), dialect="service")
    with pytest.raises(wire.InvalidContractError):
        wire.assert_contract("ParsedPath", rx)
    assert wire.schema_id("ParsedPath", dialect="service") == "https://schemas.plurnk.dev/v0/service/ParsedPath.json"
    assert json.loads(wire.schema_text("PlurnkStatement", dialect="service"))["$id"].endswith("/service/PlurnkStatement.json")
    assert wire.schema_text("Notice", dialect="service") == wire.schema_text("Notice")
    with pytest.raises(ValueError, match="dialect must be 'contracts' or 'service', not 'x'"):
        wire.validate("ParsedPath", rx, dialect="x")
