# SPDX-License-Identifier: MIT
"""plurnk: a parser for PLURNK, the command language LLM agents write to act.

    import plurnk
    result = plurnk.parse(text)                 # one turn; tier="statements" / "log" / "client"
    for item in result.items:                   # Statement, Diagnostic, Text
        ...
    result.ok, result.to_json(), result.to_dict()

    with plurnk.StreamParser() as p:            # a turn as it arrives from the model
        for delta in deltas:
            for event in p.feed(delta):         # the items this chunk settled
                ...
            show(p.take_safe())                 # newly settled text, safe to show
        for event in p.end():                   # what the end of input settles
            ...
        result = p.finish()                     # == plurnk.parse(whole text)

Bad input never raises: it is a Diagnostic in the result. See doc/python.md.
"""
from __future__ import annotations

from typing import Optional, Union

from . import _plurnk
from ._model import (Body, Diagnostic, Event, Item, LineMarker, LocalPath, Matcher, Migration, MigrationNote, OpenInfo,
                     ParseResult, Path,
                     PathResult, Position, RegexPath, ResourceSelection, SelectionResult, SendBody, Signal, Span,
                     Statement, Text,
                     UnparsedTail, Url, UrlPath, Verdict, _registry)
from ._plurnk import Checkpoint, StreamParser, gbnf, has_glob, parse_url, validate_jsonpath, validate_regex, validate_xpath
from . import _serve
from ._serve import Call, Delta, DeltaStream, Draft, openai_tools, project

__version__: str = _plurnk.__version__
language_version: str = _plurnk.language_version
# The git commit the package was built from (12 hex digits, "-dirty" after them for uncommitted
# changes, or "unknown"), as `plurnk --version` reports it.
build_commit: str = _plurnk.build_commit

_plurnk._register(_registry(), ParseResult)
_serve._register(_registry(), ParseResult, Span)

TIERS = ("parse", "statements", "log", "client")
DIALECTS = ("contracts", "service")


def parse(text: Union[str, bytes], tier: str = "parse", *, max_input_bytes: Optional[int] = None,
          max_turn_depth: Optional[int] = None, dialect: str = "contracts") -> ParseResult:
    """Parses `text` (str, or UTF-8 bytes) as one document of `tier`, in `dialect` ("contracts",
    PLURNK 1.4.0, or "service", doc/dialects.md). Never raises on any text; a malformed turn is
    reported in the result. The GIL is released while parsing."""
    return ParseResult._wrap(_plurnk.parse(text, tier, max_input_bytes=max_input_bytes,
                                           max_turn_depth=max_turn_depth, dialect=dialect))


def validate_url(url: str) -> Verdict:
    """Whether `url` parses as a WHATWG URL without a base (as Node's `new URL(url)`)."""
    if _plurnk.parse_url(url) is not None:
        return Verdict(True, None, None)
    return Verdict(False, 0, "Invalid URL")


def parse_path(raw: str) -> PathResult:
    """A target slot as written (escapes not decoded) to LocalPath / UrlPath, or the error."""
    return PathResult(*_plurnk.parse_path(raw))


def parse_resource_selection(raw: str) -> SelectionResult:
    """A COPY/MOVE body to its ResourceSelection, or the error."""
    return SelectionResult(*_plurnk.parse_resource_selection(raw))


def format(statement: Statement, *, dialect: str = "contracts") -> str:
    """The canonical text of `statement` (doc/format.md) in `dialect`'s spelling (the one it was
    parsed in: a Statement does not remember it, its ParseResult does): parsing it gives the
    statement back, position aside. Raises ValueError for a part PLURNK cannot spell (a
    hand-built tag with `]`, a target with a line break, ...); never for a statement the parser
    admitted in that dialect."""
    return _plurnk.format(statement, dialect=dialect)


def format_turn(result: ParseResult) -> str:
    """The statements (canonical) and text items of `result` as one document, one statement a
    line, in the dialect `result` was read in (result.dialect). Diagnostics are left out, and
    with them the statements that failed."""
    return _plurnk.format_turn(result.items, result.unparsed_tail, dialect=result.dialect)


def format_source(text: Union[str, bytes], tier: str = "parse", *, dialect: str = "contracts") -> Union[str, bytes]:
    """`text` with every statement the parse admits in canonical form and everything else
    (text, whitespace, statements with errors) as it is: what `plurnk fmt` prints. Returns the
    type it is given."""
    return _plurnk.format_source(text, tier, dialect=dialect)



def migrate_source(text: Union[str, bytes], tier: str = "parse", *, from_dialect: str = "service",
                   to_dialect: str = "contracts") -> Migration:
    """`text` read in `from_dialect` and written in `to_dialect` (doc/dialects.md): every statement
    the parse admits in the spelling `to_dialect` reads as the same statement, everything else as
    it is; a statement `to_dialect` cannot express (a regex target into contracts, for one) is
    left as written, with a note. What `plurnk fmt --from=D --to=D` prints."""
    text_out, changed, notes = _plurnk.migrate_source(text, tier, from_dialect, to_dialect)
    return Migration(text_out, changed, [MigrationNote(line, column, message) for line, column, message in notes])

__all__ = [
    "parse", "ParseResult", "StreamParser", "Checkpoint", "Event", "TIERS", "DIALECTS",
    "DeltaStream", "Delta", "Call", "Draft", "project", "openai_tools",
    "Statement", "Diagnostic", "Text", "Position", "Span", "UnparsedTail", "Item", "OpenInfo",
    "LocalPath", "UrlPath", "RegexPath", "Path", "LineMarker", "Matcher", "SendBody", "ResourceSelection", "Signal", "Body",
    "validate_regex", "validate_xpath", "validate_jsonpath", "validate_url", "Verdict", "parse_url", "Url",
    "parse_path", "PathResult", "parse_resource_selection", "SelectionResult", "has_glob", "gbnf",
    "format", "format_turn", "format_source", "migrate_source", "Migration", "MigrationNote",
    "__version__", "language_version", "build_commit",
]
