#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The serving loop of doc/python.md: model deltas in (OpenAI-style streaming chunks, as
server-sent events), each statement dispatched the moment it is settled, only settled prose shown
to the user (never a statement's source), speculative draft tokens rolled back when the verifier
rejects them.

usage: serve.py [RECORDED_STREAM]   (default: serve-deltas.sse beside this script)

A chunk whose delta has "x_draft": true is a speculative token; a chunk {"x_verify": {"accepted":
N}} accepts the first N pending draft tokens and rejects the rest (the recording's convention for
what a speculative-decoding server knows internally).
"""
import json
import pathlib
import sys

import plurnk


def chunks(lines):
    """The JSON payloads of a server-sent event stream, up to `data: [DONE]`."""
    for line in lines:
        if line.startswith("data: "):
            if line.strip() == "data: [DONE]":
                return
            yield json.loads(line[len("data: "):])


def serve(lines, dispatch, show):
    s = plurnk.DeltaStream()
    def emit(d):
        for call in d.statements:
            dispatch(call.statement)        # settled: no later token changes it
        show(d.content)                     # prose only, never a statement's source
    for chunk in chunks(lines):
        if "x_verify" in chunk:             # the verifier kept the first N draft tokens
            emit(s.accept(chunk["x_verify"]["accepted"]))
            continue
        delta = chunk["choices"][0]["delta"]
        if delta.get("x_draft"):
            s.draft()                       # a draft's deltas are held until it is accepted
        emit(s.feed(delta.get("content") or ""))
    emit(s.end())
    return s.finish()


def main(argv):
    path = argv[1] if len(argv) > 1 else pathlib.Path(__file__).with_name("serve-deltas.sse")
    with open(path, encoding="utf-8") as f:
        lines = f.readlines()

    def dispatch(item):
        where = f"({item.target.raw})" if item.target else ""
        print(f"\n  >> dispatch {item.op}{item.suffix}{where} at line {item.position.line}", file=sys.stderr)

    def show(text):
        sys.stdout.write(text)
        sys.stdout.flush()

    result = serve(lines, dispatch, show)
    for d in result.diagnostics:
        print(f"\n  !! {d.severity} at {d.position.line}:{d.position.column}: {d.message}", file=sys.stderr)
    print(f"\n-- turn done: {len(result.statements)} statements, ok={result.ok}", file=sys.stderr)
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
