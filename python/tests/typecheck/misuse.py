# SPDX-License-Identifier: MIT
"""Planted misuse that `mypy --strict` must report (python/tests/typecheck/check.py): each line
that ends in an "E:" comment must get an error whose message contains the comment's text, and no
other line any error."""
import plurnk
from plurnk import LocalPath, Position, Span, Statement

plurnk.Span("0", 13)  # E: Argument 1 to "Span" has incompatible type "str"; expected "int"
Position(1)  # E: Missing positional argument "column" in call to "Position"
Statement("READ", "", None, "a.md", None, None, Position(1, 0))  # E: Argument 4 to "Statement" has incompatible type "str"
Statement(op="READ", suffix="", signal=None, target=None, line_marker=None, body=None)  # E: argument "position" in call to "Statement"
s = Statement("READ", "", None, LocalPath("a.md"), None, None, Position(1, 0), Span(0, 18))
s.op = "FIND"  # E: Property "op" defined in "Statement" is read-only
n: str = s.position.line  # E: Incompatible types in assignment (expression has type "int", variable has type "str")
s.target.raw  # E: has no attribute "raw"
plurnk.ParseResult([s], "tail")  # E: Argument 2 to "ParseResult" has incompatible type "str"
plurnk.parse(42)  # E: Argument 1 to "parse" has incompatible type "int"
plurnk.StreamParser().feed(5)  # E: Argument 1 to "feed" of "StreamParser" has incompatible type "int"
plurnk.build_commit()  # E: "str" not callable
