# SPDX-License-Identifier: MIT
"""doc/examples/serve.py against its recorded delta stream (doc/examples/serve-deltas.sse)."""
import importlib.util
import json
import os
import subprocess
import sys

import plurnk

from conftest import ROOT

EXAMPLE = ROOT / "doc" / "examples" / "serve.py"
RECORDING = ROOT / "doc" / "examples" / "serve-deltas.sse"


def load_example():
    spec = importlib.util.spec_from_file_location("serve_example", EXAMPLE)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def accepted_text(lines):
    """The text the model finally produced, read from the recording independently of serve.py:
    plain tokens, plus the accepted prefix of each speculative draft."""
    text, pending = [], []
    for line in lines:
        if not line.startswith("data: ") or line.strip() == "data: [DONE]":
            continue
        chunk = json.loads(line[6:])
        if "x_verify" in chunk:
            text += pending[:chunk["x_verify"]["accepted"]]
            pending = []
            continue
        delta = chunk["choices"][0]["delta"]
        (pending if delta.get("x_draft") else text).append(delta.get("content") or "")
    return "".join(text)


def test_serving_loop_dispatches_settled_statements_and_shows_settled_text():
    lines = RECORDING.read_text(encoding="utf-8").splitlines(keepends=True)
    final = accepted_text(lines)
    one_shot = plurnk.parse(final)
    assert one_shot.ok and len(one_shot.statements) == 6
    log = []
    result = load_example().serve(lines, lambda item: log.append(("dispatch", item)),
                                  lambda text: log.append(("show", text)))
    assert result == one_shot and result.to_json() == one_shot.to_json()
    shown = "".join(t for kind, t in log if kind == "show")
    assert shown == plurnk.project(final).content and "<<" not in shown  # prose only
    dispatched = [x for kind, x in log if kind == "dispatch"]
    assert dispatched == list(one_shot.statements)  # rejected drafts (an early EXEC close, a SEND) never act
    # every statement but the terminal SEND is dispatched while the turn is still arriving: what
    # the end settles (dispatched between the last two shows) is at most the SEND
    shows = [i for i, (kind, _) in enumerate(log) if kind == "show"]
    at_end = [x.op for kind, x in log[shows[-2] + 1:shows[-1]] if kind == "dispatch"]
    assert at_end in ([], ["SEND"]) and len(dispatched) == 6


def test_example_runs_as_a_script():
    env = dict(os.environ)  # the script imports the plurnk this test imports
    env["PYTHONPATH"] = os.pathsep.join([os.path.dirname(os.path.dirname(plurnk.__file__)), env.get("PYTHONPATH", "")])
    out = subprocess.run([sys.executable, str(EXAMPLE)], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert "dispatch READ(src/net/backoff.ts) at line 3" in out.stderr
    assert "turn done: 6 statements, ok=True" in out.stderr
    assert out.stdout == plurnk.project(accepted_text(RECORDING.read_text(encoding="utf-8").splitlines(keepends=True))).content
