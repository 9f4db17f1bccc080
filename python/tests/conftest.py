# SPDX-License-Identifier: MIT
"""Shared fixtures: the source tree, the conformance vectors, the CLI when it was built."""
import functools
import json
import os
import pathlib

import pytest

ROOT = pathlib.Path(os.environ.get("PLURNK_SOURCE_ROOT", pathlib.Path(__file__).resolve().parents[2]))
VECTORS = ROOT / "test" / "conformance" / "parser.jsonl"


@functools.lru_cache(maxsize=None)
def vectors():
    """(id, tier, input, expected JSON text) for every public vector. The expected text is the
    vector's own `expected` member as written in the file (JSON.stringify output)."""
    out = []
    with open(VECTORS, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            v = json.loads(line)
            # `expected` is the last member; its text runs from the key to the closing brace.
            key = ',"expected":'
            raw = line[line.index(key) + len(key):-1]
            assert json.loads(raw) == v["expected"], v["id"]
            out.append((v["id"], v["tier"], v["input"], raw))
    return out


@pytest.fixture(scope="session")
def all_vectors():
    return vectors()


@pytest.fixture(scope="session")
def root():
    return ROOT


@pytest.fixture(scope="session")
def turn_text():
    return (ROOT / "doc" / "examples" / "turn.plurnk").read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("PLURNK_CLI")
    if not path:
        pytest.skip("the plurnk CLI was not built (-Dcli=enabled); CLI comparisons skipped")
    return path
