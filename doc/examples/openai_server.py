#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A small OpenAI-compatible chat-completions endpoint on the plurnk package: it replays a recorded
model stream (the `model` of the request names one of recorded/*.sse) through a DeltaStream and
answers as an inference server with a PLURNK tool parser would: prose as `content`, reasoning as
`reasoning_content`, each statement a tool call; streamed (server-sent events) or not.

usage: openai_server.py [--port N] [--recordings DIR]   (prints "listening on http://127.0.0.1:N")

A recording is the raw model stream as chunks; a delta with "x_draft": true is a speculative token
and {"x_verify": {"accepted": N}} accepts the first N pending draft tokens (rejected ones never
reach the client). A runaway statement (an op open past 4 KB) stops the turn: finish_reason
"length". With "plurnk_never_told_end": true in the request, the server behaves as an adapter
whose framework never says the turn ended (doc/serving.md): it ends the turn on peek_end().
"""
import argparse
import http.server
import json
import pathlib
import sys
import threading

import plurnk

MAX_OPEN_BYTES = 4096


def model_chunks(path):
    """The JSON payloads of a recorded model stream, up to `data: [DONE]`."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("data: "):
                if line.strip() == "data: [DONE]":
                    return
                yield json.loads(line[len("data: "):])


def turn(path, never_told_end=False):
    """(delta, finish_reason) pairs for a recorded turn; the last has the finish reason."""
    s, calls = plurnk.DeltaStream(max_open_bytes=MAX_OPEN_BYTES), 0
    for chunk in model_chunks(path):
        if "x_verify" in chunk:
            d = s.accept(chunk["x_verify"]["accepted"])
        else:
            delta = chunk["choices"][0]["delta"]
            if delta.get("x_draft"):
                s.draft()
            d = s.feed(delta.get("content") or "")
        if d.runaways:  # an op that never closes: stop generating
            yield d + s.end(), "length"
            return
        if never_told_end and not s.drafting and s.peek_end().ends_turn:
            d = d + s.end()
            calls += len(d.statements)
            yield d, "tool_calls"
            return
        calls += len(d.statements)
        yield d, None
    # A framework that never says the turn ended never calls end(): what the rule did not give
    # is lost (the test checks that nothing is).
    d = plurnk.project("") if never_told_end else s.end()
    calls += len(d.statements)
    yield d, "tool_calls" if calls else "stop"


class Handler(http.server.BaseHTTPRequestHandler):
    recordings = pathlib.Path(__file__).with_name("recorded")
    requests = 0
    lock = threading.Lock()

    def log_message(self, *args):  # quiet
        pass

    def send_json(self, code, text):
        body = text.encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        if self.path.rstrip("/") != "/v1/chat/completions":
            return self.send_json(404, '{"error":{"message":"not found"}}')
        req = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        path = self.recordings / f"{req.get('model', '')}.sse"
        if "/" in req.get("model", "/") or not path.is_file():
            return self.send_json(404, '{"error":{"message":"no such recording"}}')
        with Handler.lock:
            Handler.requests += 1
            n = Handler.requests
        cid, model, prefix = f"chatcmpl-{n}", json.dumps(req["model"]), f"call_{n}_"
        head = f'{{"id":"{cid}","object":"chat.completion.chunk","created":1764600000,"model":{model},"choices":[{{"index":0,'
        pieces = turn(path, bool(req.get("plurnk_never_told_end")))
        if not req.get("stream"):
            whole, finish = None, "stop"
            for d, finish in pieces:
                whole = d if whole is None else whole + d
            return self.send_json(200, f'{{"id":"{cid}","object":"chat.completion","created":1764600000,"model":{model},'
                                       f'"choices":[{{"index":0,"message":{whole.message_json(prefix)},'
                                       f'"finish_reason":"{finish}"}}]}}')
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()

        def event(delta_json, finish=None):
            reason = f'"{finish}"' if finish else "null"
            self.wfile.write(f'data: {head}"delta":{delta_json},"finish_reason":{reason}}}]}}\n\n'.encode())

        event('{"role":"assistant","content":""}')
        for d, finish in pieces:
            if d:
                event(d.chunk_json(prefix))
            if finish:
                event("{}", finish)
        self.wfile.write(b"data: [DONE]\n\n")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--recordings", type=pathlib.Path, default=Handler.recordings)
    args = ap.parse_args(argv[1:])
    Handler.recordings = args.recordings
    server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
