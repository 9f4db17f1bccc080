# SPDX-License-Identifier: MIT
"""A typed use of the package that `mypy --strict` must pass (python/tests/typecheck/check.py):
every result type built by hand, as a test or a server replaying a log would, and read back;
parsing, streaming and the validators used as documented (doc/python.md). It also runs: check.py
executes it, so what mypy accepts is also what the package does."""
import dataclasses
from typing import List, Optional, Tuple, Union

import plurnk
from plurnk import (Diagnostic, Event, LineMarker, LocalPath, Matcher, OpenInfo, ParseResult, Position,
                    ResourceSelection, SendBody, Span, Statement, Text, UnparsedTail, UrlPath, Verdict)


def build() -> ParseResult:
    at = Position(1, 0)
    span: Span = plurnk.Span(0, 13)
    plan = Statement("PLAN", "", None, None, None, "p", at, span)
    read = Statement(op="READ", suffix="", signal=("http",), target=LocalPath("a.md"),
                     line_marker=LineMarker((1, 5)), body=None, position=Position(2, 0))
    find = Statement("FIND", "", None, UrlPath("https://x.y/a", "https", None, None, "x.y", None, "/a", None, None,
                                               (("Accept", "text/plain"),)),
                     None, Matcher("regex", "/a+/i", "a+", "i"), Position(3, 0))
    send = Statement("SEND", "", 200, None, None, SendBody('{"a":1}', '{"a":1}'), Position(4, 0), Span(40, 61))
    copy = Statement("COPY", "", None, LocalPath("a.md"), None,
                     ResourceSelection(LocalPath("b.md"), LineMarker((2.5,))), Position(5, 0))
    warn = Diagnostic(Position(6, 0), "parser", "warning", "something odd", Span(62, 63))
    prose = Text("hello", Position(7, 0))
    tail = UnparsedTail(Position(8, 0), "input ended inside a statement")
    moved = dataclasses.replace(read, position=Position(9, 0))
    items: List[plurnk.Item] = [plan, read, find, send, copy, warn, prose, moved]
    return ParseResult(items, tail)


def read(r: ParseResult) -> List[str]:
    out: List[str] = []
    for it in r.items:
        where: Tuple[int, int] = (it.position.line, it.position.column)
        bytes_: int = it.span.end - it.span.start
        out.append(f"{where} {bytes_}")
        if isinstance(it, Statement):
            out.append(it.op + it.suffix)
            sig = it.signal
            if isinstance(sig, tuple):
                out += list(sig)
            elif isinstance(sig, (int, float)):
                out.append(str(sig + 1))
            target = it.target
            if isinstance(target, UrlPath):
                port: Optional[int] = target.port
                out += [target.scheme, target.hostname or "", str(port)]
                for key, value in target.headers or ():
                    out.append(key + value)
            elif isinstance(target, LocalPath):
                out.append(target.raw)
            if it.line_marker is not None:
                out += [str(m) for m in it.line_marker.marks]
            body = it.body
            if isinstance(body, Matcher):
                out += [body.dialect, body.pattern or "", body.flags or ""]
            elif isinstance(body, SendBody):
                out.append(repr(body.value()))
            elif isinstance(body, ResourceSelection):
                out.append(body.target.raw)
            elif isinstance(body, str):
                out.append(body)
        elif isinstance(it, Diagnostic):
            out += [it.source, it.severity, it.message]
        else:
            out.append(it.text)
    if r.unparsed_tail is not None:
        out.append(r.unparsed_tail.reason)
    ok: bool = r.ok
    json_text: str = r.to_json(pretty=True)
    return out + [str(ok), json_text[:1], str(len(r)), str(r == build())]


def use(text: Union[str, bytes]) -> List[str]:
    r = plurnk.parse(text, "statements", max_input_bytes=1 << 20)
    out = [s.op for s in r.statements] + [d.message for d in r.diagnostics]
    events: List[Event] = []
    with plurnk.StreamParser(tier="parse", max_open_bytes=64, on_runaway=lambda o: out.append(o.where)) as p:
        events += p.feed(text)
        cp = p.checkpoint()
        p.restore(cp)
        shown: Union[str, bytes] = p.take_safe()
        info: OpenInfo = p.open()
        events += p.end()
        done: ParseResult = p.finish()
    indexes: List[Optional[int]] = [e.index for e in events]
    verdict: Verdict = plurnk.validate_regex("(ab", "i")
    offset: Optional[int] = verdict.offset
    path = plurnk.parse_path("https://a.b/c?d").path
    return out + [str(indexes), str(bool(verdict)), str(offset), str(info.bytes), str(shown), str(done.ok),
                  str(path), plurnk.format(Statement("READ", "", None, LocalPath("a.md"), None, None, Position(1, 0))),
                  plurnk.__version__, plurnk.build_commit]


if __name__ == "__main__":
    print("\n".join(read(build())))
    print("\n".join(use("<<PLAN:p:PLAN\n<<READ(a.md)::READ\n<<SEND[200]:done:SEND")))
