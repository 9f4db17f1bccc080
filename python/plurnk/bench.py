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

--serve: what a Delta costs per feed at size, as build/bench/bench_serve measures it in C++ on the
same turn (serving_turn): 64 KB, 256 KB and 1 MB, fed whole and in 4- and 64-character chunks;
StreamParser (its events read), DeltaStream (each Delta's content read) and DeltaStream with
peek_end() after every feed, interleaved; and the peak RSS each adds over the input size,
measured in a fresh interpreter (--rss-child=WAY:CHUNK:SIZE).

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


def serving_turn(body: str, size: int) -> str:
    """bench/bench_serve.cpp's serving turn of about `size` bytes (ASCII, so as many characters):
    an eighth a think block, then PLAN, the lines of statements-1m.txt with a line of prose after
    every fourth statement, and a final SEND with nothing after it."""
    t = ["<think>"]
    n, i = 7, 0
    while n < size // 8:
        line = f"Step {i}: the retry path first, then the jitter bound.\n"
        t.append(line)
        n, i = n + len(line), i + 1
    head = "</think>\n<<PLAN:Stream a long turn.:PLAN\n"
    t.append(head)
    n += len(head)
    lines = [x + "\n" for x in body.split("\n")[:-1]]
    k = closed = 0
    while n < size:
        line = lines[k % len(lines)]
        k += 1
        t.append(line)
        n += len(line)
        if len(line) >= 6 and line[-6] == ":" and all("A" <= c <= "Z" for c in line[-5:-1]):
            closed += 1
            if closed % 4 == 0:
                prose = f"Checked part {closed}; moving on.\n"
                t.append(prose)
                n += len(prose)
    t.append("<<SEND[200]:done:SEND")
    return "".join(t)


SERVE_WAYS = ("events", "deltas", "peek")


def serve_run(text: str, chunk: int, way: str) -> int:
    """One run of `way` over `text` in `chunk`-character pieces (0: one feed); the number of feeds."""
    step = chunk or len(text)
    pieces = [text[i:i + step] for i in range(0, len(text), step)]
    if way == "events":
        p = plurnk.StreamParser("parse")
        for c in pieces:
            p.feed(c)
        p.finish()
    else:
        s = plurnk.DeltaStream("parse")
        feed, peek_end = s.feed, s.peek_end
        for c in pieces:
            feed(c).content
            if way == "peek":
                peek_end()
        s.end().content
        s.finish()
    return len(pieces)


def rss_child(arg: str, body: str) -> int:
    """Prints the peak RSS one run adds over the input size (-1: Linux's peak reset is missing)."""
    way, chunk, size = arg.split(":")
    text = serving_turn(body, int(size))
    serve_run(text[:64], int(chunk), way)  # the code paths warm, what they allocate once counted out

    def status_kb(field: str) -> int:
        with open("/proc/self/status", encoding="ascii") as f:
            return next(int(line.split()[1]) for line in f if line.startswith(field))
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as f:
            f.write("5")
    except OSError:
        print(-1)
        return 0
    before = status_kb("VmRSS:")
    serve_run(text, int(chunk), way)
    print(f"{(status_kb('VmHWM:') - before) * 1024 / len(text):.2f}")
    return 0


def serve_rows(body: str, repeat: int, data: str) -> None:
    import subprocess
    print("\nDeltaStream at size (the turn of bench/bench_serve), interleaved with StreamParser; RSS/in from a fresh interpreter\n")
    print("| size | chunk | feeds | StreamParser ns/feed | DeltaStream ns/feed | delta adds ns/feed | x | + peek_end ns/feed | x "
          "| RSS/in StreamParser | DeltaStream | + peek_end |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for size, label in ((64 << 10, "64K"), (256 << 10, "256K"), (1 << 20, "1M")):
        text = serving_turn(body, size)
        label += f" ({len(text)} B)"
        for chunk in (0, 4, 64):
            best = dict.fromkeys(SERVE_WAYS, float("inf"))
            feeds = 1
            for _ in range(repeat):
                for way in SERVE_WAYS:
                    t0 = time.thread_time_ns()
                    feeds = serve_run(text, chunk, way)
                    best[way] = min(best[way], time.thread_time_ns() - t0)
            rss: List[str] = []
            for way in SERVE_WAYS:
                out = subprocess.run([sys.executable, "-m", "plurnk.bench", "--data", data,
                                      f"--rss-child={way}:{chunk}:{size}"], capture_output=True, text=True)
                rss.append(out.stdout.strip() or "?")
            e, d, p = (best[w] / feeds for w in SERVE_WAYS)
            print(f"| {label} | {chunk or 'whole'} | {feeds} | {e:.0f} | {d:.0f} | {d - e:.0f} | {d / e:.2f} | {p:.0f} "
                  f"| {p / e:.2f} | {rss[0]} | {rss[1]} | {rss[2]} |", flush=True)


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m plurnk.bench", description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--data", default=os.path.join("bench", "data"), help="folder with statements-1m.txt, turn-2k.txt")
    ap.add_argument("--repeat", type=int, default=7, help="runs per figure; the best counts (default 7)")
    ap.add_argument("--deltas", action="store_true", help="only the delta rows (DeltaStream against StreamParser)")
    ap.add_argument("--serve", action="store_true", help="only the delta cost at 64 KB, 256 KB and 1 MB, with peak RSS")
    ap.add_argument("--rss-child", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    try:
        with open(os.path.join(a.data, "statements-1m.txt"), encoding="utf-8") as f:
            big = f.read()
        with open(os.path.join(a.data, "turn-2k.txt"), encoding="utf-8") as f:
            turn = f.read()
    except OSError as e:
        print(f"plurnk.bench: {e} (run from the top of the tree or pass --data)", file=sys.stderr)
        return 2
    if a.rss_child:
        return rss_child(a.rss_child, big)
    print(f"plurnk {plurnk.__version__}, Python {sys.version.split()[0]}, best of {a.repeat}, thread CPU time")
    if a.serve:
        serve_rows(big, max(a.repeat, 5), a.data)
        return 0
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
