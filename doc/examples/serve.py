#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The serving loop of doc/python.md: model deltas in (OpenAI-style streaming chunks, as
server-sent events), each statement dispatched the moment it is settled, only settled text shown
to the user, speculative draft tokens rolled back when the verifier rejects them.

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
    parser = plurnk.StreamParser()
    draft, checkpoint, held = [], None, []

    def act(events):
        for e in events:
            dispatch(e.item)

    for chunk in chunks(lines):
        if "x_verify" in chunk:
            accepted = chunk["x_verify"]["accepted"]
            if accepted == len(draft):
                act(held)                       # the whole draft stands: act on what it settled
            else:
                parser.restore(checkpoint)      # rewind, then replay the accepted tokens only
                for token in draft[:accepted]:
                    act(parser.feed(token))
            draft, checkpoint, held = [], None, []
            show(parser.take_safe())
            continue
        delta = chunk["choices"][0]["delta"]
        token = delta.get("content") or ""
        if delta.get("x_draft"):
            if checkpoint is None:
                checkpoint = parser.checkpoint()
            draft.append(token)
            held += parser.feed(token)          # hold the draft's events until it is verified
        else:
            act(parser.feed(token))
            show(parser.take_safe())
    act(parser.end())
    show(parser.take_safe())
    return parser.finish()


def main(argv):
    path = argv[1] if len(argv) > 1 else pathlib.Path(__file__).with_name("serve-deltas.sse")
    with open(path, encoding="utf-8") as f:
        lines = f.readlines()

    def dispatch(item):
        if isinstance(item, plurnk.Statement):
            where = f"({item.target.raw})" if item.target else ""
            print(f"\n  >> dispatch {item.op}{item.suffix}{where} at line {item.position.line}", file=sys.stderr)
        elif isinstance(item, plurnk.Diagnostic):
            print(f"\n  !! {item.severity} at {item.position.line}:{item.position.column}: {item.message}",
                  file=sys.stderr)

    def show(text):
        sys.stdout.write(text)
        sys.stdout.flush()

    result = serve(lines, dispatch, show)
    print(f"\n-- turn done: {len(result.statements)} statements, ok={result.ok}", file=sys.stderr)
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
