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
from ._model import (Body, Diagnostic, Event, Item, LineMarker, LocalPath, Matcher, OpenInfo, ParseResult, Path,
                     PathResult, Position, ResourceSelection, SelectionResult, SendBody, Signal, Span, Statement, Text,
                     UnparsedTail, Url, UrlPath, Verdict, _registry)
from ._plurnk import Checkpoint, StreamParser, gbnf, has_glob, parse_url, validate_jsonpath, validate_regex, validate_xpath

__version__: str = _plurnk.__version__
language_version: str = _plurnk.language_version

_plurnk._register(_registry(), ParseResult)

TIERS = ("parse", "statements", "log", "client")


def parse(text: Union[str, bytes], tier: str = "parse", *, max_input_bytes: Optional[int] = None,
          max_turn_depth: Optional[int] = None) -> ParseResult:
    """Parses `text` (str, or UTF-8 bytes) as one document of `tier`. Never raises on any text;
    a malformed turn is reported in the result. The GIL is released while parsing."""
    return ParseResult._wrap(_plurnk.parse(text, tier, max_input_bytes=max_input_bytes,
                                           max_turn_depth=max_turn_depth))


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


__all__ = [
    "parse", "ParseResult", "StreamParser", "Checkpoint", "Event", "TIERS",
    "Statement", "Diagnostic", "Text", "Position", "Span", "UnparsedTail", "Item", "OpenInfo",
    "LocalPath", "UrlPath", "Path", "LineMarker", "Matcher", "SendBody", "ResourceSelection", "Signal", "Body",
    "validate_regex", "validate_xpath", "validate_jsonpath", "validate_url", "Verdict", "parse_url", "Url",
    "parse_path", "PathResult", "parse_resource_selection", "SelectionResult", "has_glob", "gbnf",
    "__version__", "language_version",
]
