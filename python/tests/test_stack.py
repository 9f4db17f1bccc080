# SPDX-License-Identifier: MIT
"""The stack bound (doc/limits.md, "Stack") through the package: every surface on the inputs that
take it deepest, in a threading.Thread whose stack is 64 KiB. An overflow kills the interpreter,
so the run fails; each answer must also equal the one on the main thread."""
import threading

import pytest

import plurnk
import plurnk.score as score

# The bound holds in the sanitized run too (build-pyasan, g++ -O1 with ASan and UBSan), whose
# frames carry redzones: what scorer::add and the rail recognizer's sorts took there is in
# doc/limits.md, "Stack".
STACK = 64 * 1024
TOO_DEEP = "Maximum call stack size exceeded"


def on_small_stack(fn):
    """fn() on a new thread with a STACK-byte stack; its value, or its exception raised here."""
    out = {}

    def work():
        try:
            out["value"] = fn()
        except BaseException as e:  # noqa: BLE001 - handed back to the caller
            out["error"] = e

    old = threading.stack_size(STACK)
    try:
        t = threading.Thread(target=work)
        t.start()
    finally:
        threading.stack_size(old)
    t.join()
    if "error" in out:
        raise out["error"]
    return out["value"]


def same_on_small_stack(fn):
    want = fn()
    assert on_small_stack(fn) == want
    return want


def deepest(make, refused, hi=100000):
    """The largest n for which refused(make(n)) is false (refusal grows with n)."""
    lo = 0
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if refused(make(mid)):
            hi = mid
        else:
            lo = mid
    return lo


def nest(head, open_, n, inner, close, tail):
    return head + open_ * n + inner + close * n + tail


JSONPATH = [
    ("$[?", "length(", "@", ")", "]"),
    ("$[?", "match(@,", "'a'", ")", "]"),
    ("$[?", "(", "@", ")", "]"),
    ("$[?", "!", "@", "", "]"),
    ("$", "[?@", "", "]", ""),
    ("$[?", "length(!(@[?", "@", "]))", "]"),
]
XPATH = [("", "(", "1", ")", ""), ("", "a[", "1", "]", ""), ("", "f(a[(-", "1", ")])", "")]
REGEX = [(("", "(", "a", ")", ""), "u"), (("", "[", "a", "]", ""), "v"), (("", "[a&&", "a", "]", ""), "v")]


def deepest_queries():
    """(validator, query) at each family's limit, one past it and far past it."""
    out = []
    for fam in JSONPATH:
        make = lambda n, f=fam: nest(f[0], f[1], n, f[2], f[3], f[4])  # noqa: E731
        n = deepest(make, lambda q: TOO_DEEP in (plurnk.validate_jsonpath(q).message or ""))
        out += [("jsonpath", make(n)), ("jsonpath", make(n + 1)), ("jsonpath", make(100000))]
    for fam in XPATH:
        make = lambda n, f=fam: nest(f[0], f[1], n, f[2], f[3], f[4])  # noqa: E731
        n = deepest(make, lambda q: "too deeply" in (plurnk.validate_xpath(q).message or ""))
        out += [("xpath", make(n)), ("xpath", make(n + 1)), ("xpath", make(100000))]
    for fam, flags in REGEX:
        make = lambda n, f=fam: nest(f[0], f[1], n, f[2], f[3], f[4])  # noqa: E731
        n = deepest(make, lambda q, fl=flags: TOO_DEEP in (plurnk.validate_regex(q, fl).message or ""))
        out += [("regex/" + flags, make(n)), ("regex/" + flags, make(n + 1))]
    return out


QUERIES = deepest_queries()


def validate(kind, q):
    if kind == "jsonpath":
        return plurnk.validate_jsonpath(q)
    if kind == "xpath":
        return plurnk.validate_xpath(q)
    return plurnk.validate_regex(q, kind.split("/")[1])


def body(kind, q):
    if kind == "jsonpath":
        return q
    if kind == "xpath":
        return "/" + q
    return "/" + q + "/" + kind.split("/")[1]


def documents():
    """(tier, text): each deepest query in a FIND statement, in every tier; TURN nests; URLs."""
    out = []
    for kind, q in QUERIES:
        find = "<<FIND(a):" + body(kind, q) + ":FIND\n"
        out += [("statements", find), ("client", find), ("parse", "<<PLAN:p:PLAN\n" + find),
                ("log", "<<TURN:<<PLAN:p:PLAN\n" + find + ":TURN\n")]
    for depth in (256, 257, 2000):
        out.append(("log", "<<TURN:" * depth + "<<PLAN:p:PLAN\n" + ":TURN\n" * depth))
    out.append(("statements", "<<READ(http://" + "\u00e9\u20ac." * 5000 + "com/)::READ\n"))
    out.append(("statements", "<<SEND(worker://w):" + "[" * 50000 + "]" * 50000 + ":SEND\n"))
    return out


DOCUMENTS = documents()


@pytest.mark.parametrize("kind,q", QUERIES, ids=lambda v: v if len(v) < 20 else v[:20])
def test_validators(kind, q):
    v = same_on_small_stack(lambda: validate(kind, q))
    assert v.ok or v.message


def test_url_and_paths():
    host = "http://" + "\u00e9\u20ac." * 5000 + "com/"
    same_on_small_stack(lambda: plurnk.parse_url(host) is not None)
    same_on_small_stack(lambda: plurnk.parse_path("a/" * 20000 + "b"))
    same_on_small_stack(lambda: plurnk.parse_resource_selection("src/" + "a" * 1000 + "<1,2,3,4>"))


@pytest.mark.parametrize("tier,text", DOCUMENTS, ids=lambda v: v if len(v) < 20 else v[:20])
def test_parse_stream_fmt_score(tier, text):
    same_on_small_stack(lambda: plurnk.parse(text, tier).to_json())

    def streamed(chunk):
        p = plurnk.StreamParser(tier)
        events = 0
        for i in range(0, len(text), chunk):
            events += len(p.feed(text[i:i + chunk]))
        events += len(p.end())
        return p.finish().to_json(), events

    same_on_small_stack(lambda: streamed(16))
    same_on_small_stack(lambda: plurnk.format_source(text, tier))

    def scored():
        s = score.Scorer()
        r = s.score_texts([text], group="m", tier=tier)
        return r.to_json(), s.on_rail(text)

    same_on_small_stack(scored)


def nested_list(depth):
    v = []
    for _ in range(depth - 1):
        v = [v]
    return v


LIMIT = 512  # k_json_max_depth: the wire contracts refuse a value nested deeper


@pytest.mark.parametrize("depth", [LIMIT - 1, LIMIT, LIMIT + 1])
def test_wire(depth):
    """The wire contracts on values as deep as they accept and one past: validating Python
    values and JSON text, reading JSON into Python and Problems.create, whose conversions walk
    the value on a heap stack."""
    wire = pytest.importorskip("plurnk.wire", reason="the wire library was not built")
    deep = nested_list(depth)
    text = "[" * depth + "]" * depth
    for contract in ("SendBody", "PlurnkStatement", "ProblemDetails"):
        same_on_small_stack(lambda: wire.validate(contract, deep))
        same_on_small_stack(lambda: wire.validate(contract, {"raw": "x", "json": deep}))
        same_on_small_stack(lambda: wire.validate_json(contract, text))
    assert same_on_small_stack(lambda: wire.parse_json(text)) == deep

    def created():
        try:
            return wire.Problems.create_args("o", "c", 400, "d", {"x": nested_list(depth - 1)})
        except wire.ProblemError as e:
            return str(e)

    same_on_small_stack(created)


def test_wire_past_the_recursion_limit():
    """Deeper than Python's recursion limit, a conversion raises RecursionError (as a nested call
    would), in a small thread too."""
    wire = pytest.importorskip("plurnk.wire", reason="the wire library was not built")
    deep = nested_list(100000)
    text = "[" * 100000 + "]" * 100000
    with pytest.raises(RecursionError):
        on_small_stack(lambda: wire.validate("SendBody", deep))
    with pytest.raises(RecursionError):
        on_small_stack(lambda: wire.parse_json(text))
