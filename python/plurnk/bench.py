# SPDX-License-Identifier: MIT
"""python -m plurnk.bench [--data DIR] [--repeat N]: the Python package's costs beside the C++
parse measured in the same process, and beside what servers do without it.

Rows, for statements-1m.txt (statements tier) and turn-2k.txt (parse tier):
  C++ parse                plurnk::parse alone, timed inside the extension (no Python)
  plurnk.parse             the call from Python; items stay in C++ until asked for
  + items                  ... and the typed items built (result.items)
  + walk                   ... and every field of every item read
  + to_json                ... parse and the JSON text (what the CLI prints)
  re extractor             one regular expression over the text, the way servers find ops today
Then the stream parser over turn-2k.txt at 1/4/16-byte chunks (ns per feed(), C++ alone and
through Python), a checkpoint+restore mid-turn, and a whole turn arriving in 4-byte tokens handled
three ways: StreamParser, plurnk.parse of the whole text so far on every token, and the re
extractor on every token.

Times are thread CPU time (time.thread_time_ns, and the same clock in C++), best of N runs.
DIR defaults to bench/data under the current directory (run it from the top of the tree).
"""
import argparse
import os
import re
import sys
import time
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import plurnk
from plurnk import _plurnk, Diagnostic, Item, Matcher, ResourceSelection, SendBody, Statement, Text, UrlPath

# What servers write today: one pattern for a whole operation, the close tag found by
# back-reference. It has no notion of escapes, nesting, errors or tiers.
STATEMENT_RE = re.compile(
    r"<<(?P<op>[A-Z]{4})(?P<suffix>[A-Za-z0-9_]*)(?:\[(?P<signal>[^\]]*)\])?(?:\((?P<target>[^)]*)\))?"
    r"(?:<(?P<scope>[^>]*)>)?:(?P<body>.*?):(?P=op)(?P=suffix)", re.S)


def re_extract(text: str) -> List[Dict[str, Optional[str]]]:
    return [m.groupdict() for m in STATEMENT_RE.finditer(text)]


def walk(items: Sequence[Item]) -> int:
    """Reads every field of every item; returns a number so the work cannot be skipped."""
    n = 0
    for it in items:
        if type(it) is Statement:
            n += len(it.op) + len(it.suffix) + it.position.line + it.position.column
            sig = it.signal
            if sig is not None:
                n += 1
            t = it.target
            if t is not None:
                n += len(t.raw)
                if type(t) is UrlPath:
                    n += len(t.scheme) + len(t.pathname) + (t.port or 0)
                    n += (t.hostname is None) + (t.query is None) + (t.fragment is None) + (t.headers is None)
                    n += (t.username is None) + (t.password is None)
            m = it.line_marker
            if m is not None:
                n += len(m.marks)
            b = it.body
            if type(b) is str:
                n += len(b)
            elif type(b) is Matcher:
                n += len(b.dialect) + len(b.raw) + (b.pattern is None) + (b.flags is None)
            elif type(b) is SendBody:
                n += len(b.raw) + (b.json is None)
            elif type(b) is ResourceSelection:
                n += len(b.target.raw) + (b.line_marker is None)
        elif type(it) is Diagnostic:
            n += len(it.message) + len(it.source) + len(it.severity) + it.position.line
        elif type(it) is Text:
            n += len(it.text) + it.position.line
    return n


def best(fn: Callable[[], object], repeat: int) -> float:
    """Best thread CPU seconds of `repeat` calls of fn()."""
    b = float("inf")
    for _ in range(repeat):
        t0 = time.thread_time_ns()
        fn()
        b = min(b, (time.thread_time_ns() - t0) * 1e-9)
    return b


def fmt_time(s: float) -> str:
    if s >= 1e-3:
        return f"{s * 1e3:.2f} ms"
    return f"{s * 1e6:.1f} µs"


def parse_rows(name: str, text: str, tier: str, repeat: int) -> List[Tuple[str, float]]:
    n_bytes = len(text.encode("utf-8"))
    stmts = len(plurnk.parse(text, tier).statements)
    cpp = _plurnk._bench_parse(text, tier, repeat)

    def only() -> None:
        plurnk.parse(text, tier)

    def items() -> None:
        plurnk.parse(text, tier).items

    def walked() -> None:
        walk(plurnk.parse(text, tier).items)

    def to_json() -> None:
        plurnk.parse(text, tier).to_json()

    def rex() -> None:
        re_extract(text)

    rows = [("C++ parse", cpp)]
    for label, fn in [("plurnk.parse", only), ("plurnk.parse + items", items), ("plurnk.parse + walk", walked),
                      ("plurnk.parse + to_json", to_json), ("re extractor", rex)]:
        rows.append((label, best(fn, repeat)))
    found = len(re_extract(text))
    print(f"\n{name} ({n_bytes} bytes, {stmts} statements, tier {tier}; the re extractor finds {found})\n")
    print("| what | time | MB/s | ns/stmt | x C++ parse |")
    print("|---|---:|---:|---:|---:|")
    for label, s in rows:
        print(f"| {label} | {fmt_time(s)} | {n_bytes / s / 1e6:.1f} | {s * 1e9 / max(stmts, 1):.0f} | {s / cpp:.2f} |")
    return rows


def stream_rows(text: str, tier: str, repeat: int) -> None:
    print(f"\nstream parser over turn-2k.txt ({len(text)} bytes, tier {tier})\n")
    print("| chunk | C++ ns/feed | Python ns/feed | x C++ |")
    print("|---:|---:|---:|---:|")
    for size in (1, 4, 16):
        pieces = [text[i:i + size] for i in range(0, len(text), size)]
        cpp = _plurnk._bench_feed(text, tier, size, repeat)

        def run() -> float:
            p = plurnk.StreamParser(tier)
            feed = p.feed
            t0 = time.thread_time_ns()
            for c in pieces:
                feed(c)
            return (time.thread_time_ns() - t0) / len(pieces)

        py = min(run() for _ in range(repeat))
        print(f"| {size} | {cpp:.0f} | {py:.0f} | {py / cpp:.1f} |")

    half = plurnk.StreamParser(tier)
    half.feed(text[:len(text) // 2])

    def cp_restore() -> None:
        for _ in range(100):
            half.restore(half.checkpoint())

    print(f"\ncheckpoint() + restore() after half of turn-2k.txt: {fmt_time(best(cp_restore, repeat) / 100)}")

    tokens = [text[i:i + 4] for i in range(0, len(text), 4)]

    def streamed() -> None:
        p = plurnk.StreamParser(tier)
        for t in tokens:
            p.feed(t)
            p.take_safe()
        p.end()
        p.finish()

    def reparse() -> None:
        so_far = ""
        for t in tokens:
            so_far += t
            plurnk.parse(so_far, tier).items

    def reregex() -> None:
        so_far = ""
        for t in tokens:
            so_far += t
            re_extract(so_far)

    s, rp, rr = best(streamed, repeat), best(reparse, repeat), best(reregex, repeat)
    print(f"\nturn-2k.txt arriving as {len(tokens)} 4-byte tokens, whole turn:\n")
    print("| loop | time per turn | x StreamParser |")
    print("|---|---:|---:|")
    print(f"| StreamParser.feed + take_safe per token | {fmt_time(s)} | 1.0 |")
    print(f"| plurnk.parse(text so far).items per token | {fmt_time(rp)} | {rp / s:.1f} |")
    print(f"| re extractor over text so far per token | {fmt_time(rr)} | {rr / s:.1f} |")


def delta_rows(text: str, tier: str, repeat: int) -> None:
    """A Delta per feed (DeltaStream.feed, its prose read) against StreamParser.feed (the events
    list), interleaved: runs of the two alternate and each side's best counts; and with
    peek_end() after every feed (the adapter rule of doc/serving.md)."""
    print(f"\ndeltas over turn-2k.txt ({len(text)} bytes, tier {tier}), interleaved with StreamParser\n")
    print("| chunk | StreamParser ns/feed | DeltaStream ns/feed | x | + peek_end ns/feed | x |")
    print("|---:|---:|---:|---:|---:|---:|")
    for size in (1, 4, 16, 64):
        pieces = [text[i:i + size] for i in range(0, len(text), size)]

        def events() -> float:
            p = plurnk.StreamParser(tier)
            feed = p.feed
            t0 = time.thread_time_ns()
            for c in pieces:
                feed(c)
            return (time.thread_time_ns() - t0) / len(pieces)

        def deltas(peek: bool) -> float:
            s = plurnk.DeltaStream(tier)
            feed, peek_end = s.feed, s.peek_end
            t0 = time.thread_time_ns()
            for c in pieces:
                feed(c).content
                if peek:
                    peek_end()
            return (time.thread_time_ns() - t0) / len(pieces)

        e = d = dp = float("inf")
        for _ in range(repeat):
            e, d, dp = min(e, events()), min(d, deltas(False)), min(dp, deltas(True))
        print(f"| {size} | {e:.0f} | {d:.0f} | {d / e:.2f} | {dp:.0f} | {dp / e:.2f} |")


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m plurnk.bench", description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--data", default=os.path.join("bench", "data"), help="folder with statements-1m.txt, turn-2k.txt")
    ap.add_argument("--repeat", type=int, default=7, help="runs per figure; the best counts (default 7)")
    ap.add_argument("--deltas", action="store_true", help="only the delta rows (DeltaStream against StreamParser)")
    a = ap.parse_args(argv)
    try:
        with open(os.path.join(a.data, "statements-1m.txt"), encoding="utf-8") as f:
            big = f.read()
        with open(os.path.join(a.data, "turn-2k.txt"), encoding="utf-8") as f:
            turn = f.read()
    except OSError as e:
        print(f"plurnk.bench: {e} (run from the top of the tree or pass --data)", file=sys.stderr)
        return 2
    print(f"plurnk {plurnk.__version__}, Python {sys.version.split()[0]}, best of {a.repeat}, thread CPU time")
    if a.deltas:
        delta_rows(turn, "parse", max(a.repeat, 15))
        return 0
    parse_rows("statements-1m.txt", big, "statements", a.repeat)
    parse_rows("turn-2k.txt", turn, "parse", max(a.repeat, 50))
    stream_rows(turn, "parse", a.repeat)
    delta_rows(turn, "parse", max(a.repeat, 15))
    return 0


if __name__ == "__main__":
    sys.exit(main())
