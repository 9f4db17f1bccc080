# SPDX-License-Identifier: MIT
"""The stubs and annotations as mypy sees them: a typed use of the package checks clean, and a
wrong use is reported (Debian python3-mypy; skipped without it)."""
import os
import subprocess
import sys
import textwrap

import pytest

import plurnk

GOOD = '''
import plurnk
from plurnk import Statement, StreamParser

def ops(text: str) -> list[str]:
    r: plurnk.ParseResult = plurnk.parse(text, "statements", max_input_bytes=1 << 20)
    out = [s.op + s.suffix for s in r.statements]
    line: int = r.items[0].position.line if r.items else 0
    with StreamParser() as p:
        for e in p.feed(text):
            if isinstance(e.item, Statement) and e.index is not None:
                out.append(e.item.op)
        shown: str | bytes = p.take_safe()
        cp = p.checkpoint()
        p.restore(cp)
        done: plurnk.ParseResult = p.finish()
    ok: bool = plurnk.validate_regex("a+").ok and plurnk.has_glob("*.ts") and done.ok
    grammar: str = plurnk.gbnf(max_statements=3)
    return out + [str(line), str(ok), grammar[:1], str(shown)]
'''

BAD = '''
import plurnk
r = plurnk.parse("x")
n: int = r.items[0].position.line.upper()
plurnk.StreamParser().feed(5)
'''


def mypy(tmp_path, source):
    try:
        import mypy  # noqa: F401
    except ImportError:
        pytest.skip("mypy is not installed for this interpreter (Debian: python3-mypy)")
    f = tmp_path / "use.py"
    f.write_text(textwrap.dedent(source))
    env = dict(os.environ, MYPYPATH=os.path.dirname(os.path.dirname(plurnk.__file__)))
    return subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", os.devnull,
                           str(f)], capture_output=True, text=True, env=env, cwd=tmp_path)


def test_typed_use_checks_clean(tmp_path):
    out = mypy(tmp_path, GOOD)
    assert out.returncode == 0, out.stdout + out.stderr


def test_wrong_use_is_reported(tmp_path):
    out = mypy(tmp_path, BAD)
    assert out.returncode == 1
    assert '"int" has no attribute "upper"' in out.stdout
    assert 'incompatible type "int"' in out.stdout


GOOD_WIRE = '''
from typing import Any
import plurnk.wire as wire

def check(value: object, text: str) -> list[str]:
    r: wire.ValidationResult = wire.validate("Notice", value)
    out = [e.keyword + e.instance_location for e in r.errors]
    ok: bool = wire.validate_json("TextRegion", text).valid and bool(wire.validate_position(value))
    try:
        wire.assert_loop_flags(value)
        wire.assert_json("OperationResult", text.encode())
    except wire.InvalidLoopFlagsError as e:
        out.append(e.error_class)
    except wire.ContractError as e:
        out += [e.message, e.contract] + [x.message for x in e.errors]
    p: dict[str, Any] = wire.Problems.create("scheme:file", "not-found", 404, "No such file.", {"retryable": False})
    flags: dict[str, Any] = wire.default_loop_flags()
    return out + [str(ok), str(p["status"]), str(flags["mode"]), wire.PLURNK_OPS[0], wire.schema_id("Position")]
'''

BAD_WIRE = '''
import plurnk.wire as wire
wire.validate("Nope", {})
n: int = wire.validate_notice({}).errors[0].message
'''


def test_wire_typed_use_checks_clean(tmp_path):
    pytest.importorskip("plurnk.wire", reason="the wire library was not built")
    out = mypy(tmp_path, GOOD_WIRE)
    assert out.returncode == 0, out.stdout + out.stderr


def test_wire_wrong_use_is_reported(tmp_path):
    pytest.importorskip("plurnk.wire", reason="the wire library was not built")
    out = mypy(tmp_path, BAD_WIRE)
    assert out.returncode == 1
    assert '"validate" has incompatible type "Literal[\'Nope\']"' in out.stdout, out.stdout
    assert 'Incompatible types in assignment (expression has type "str", variable has type "int")' in out.stdout
