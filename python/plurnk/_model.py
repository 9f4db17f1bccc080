# SPDX-License-Identifier: MIT
"""The typed results of a parse: frozen, slotted dataclasses (readable repr, equality, hashing,
pickling), built directly by the C++ extension, and ParseResult around a C++ result.

Field order and shapes follow the C++ AST (include/plurnk/ast.hpp) and the JSON the CLI writes;
sequences are tuples so that every value is immutable and hashable."""
from __future__ import annotations

import json as _json
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple, Union

@dataclass(frozen=True, slots=True)
class Position:
    """Where an item starts: line 1-based, column 0-based in code points ({0, 0}: unknown)."""
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Span:
    """An item's byte span [start, end) in the input: byte offsets into the UTF-8 encoding of a
    str input (text.encode()[start:end]), into a bytes input as is (doc/python.md)."""
    start: int
    end: int


# Items carry a span but do not compare (or hash) by it: an item equals one built without a span.
_NO_SPAN = Span(0, 0)


@dataclass(frozen=True, slots=True)
class LocalPath:
    """A local target, escape-decoded."""
    raw: str


@dataclass(frozen=True, slots=True)
class UrlPath:
    """A URL target decomposed as WHATWG URL does; headers are the `{key: value}` blocks."""
    raw: str
    scheme: str
    username: Optional[str]
    password: Optional[str]
    hostname: Optional[str]
    port: Optional[int]
    pathname: str
    query: Optional[str]
    fragment: Optional[str]
    headers: Optional[Tuple[Tuple[str, str], ...]]


@dataclass(frozen=True, slots=True)
class RegexPath:
    """The service dialect's regex target (doc/dialects.md): raw as written, `#pattern#flags` split."""
    raw: str
    pattern: str
    flags: str


Path = Union[LocalPath, UrlPath, RegexPath]


@dataclass(frozen=True, slots=True)
class LineMarker:
    """The `<scope>` slot: its numbers in order."""
    marks: Tuple[Union[int, float], ...]


@dataclass(frozen=True, slots=True)
class Matcher:
    """A FIND/READ/OPEN/FOLD/LOOK/BUFF body; pattern and flags are set for regex only."""
    dialect: str
    raw: str
    pattern: Optional[str]
    flags: Optional[str]


@dataclass(frozen=True, slots=True)
class SendBody:
    """A SEND body: its text and, when it is JSON, the value as JSON.stringify writes it."""
    raw: str
    json: Optional[str]

    def value(self) -> Any:
        """The JSON value (json.loads of `json`), or None when the body is not JSON."""
        return None if self.json is None else _json.loads(self.json)


@dataclass(frozen=True, slots=True)
class ResourceSelection:
    """A COPY/MOVE body: the destination and its optional scope."""
    target: Path
    line_marker: Optional[LineMarker]


Signal = Union[None, Tuple[str, ...], int, float, str]
Body = Union[None, str, Matcher, SendBody, ResourceSelection]


class _ItemJson:
    """to_json() and to_dict() of an item: its element of the result's "items", as the CLI writes it."""
    __slots__ = ()

    def to_json(self, pretty: bool = False) -> str:
        from . import _plurnk
        text: str = _plurnk.item_to_json(self, pretty)
        return text

    def to_dict(self) -> Dict[str, Any]:
        d: Dict[str, Any] = _json.loads(self.to_json())
        return d


@dataclass(frozen=True, slots=True)
class Statement(_ItemJson):
    """One operation. signal: None, a tuple of tags, a number (SEND, KILL) or a str (EXEC
    executor, WORK/FORK branch)."""
    op: str
    suffix: str
    signal: Signal
    target: Optional[Path]
    line_marker: Optional[LineMarker]
    body: Body
    position: Position
    span: Span = field(default=_NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class Diagnostic(_ItemJson):
    """An error or warning item. source: 'lexer', 'parser' or 'visitor'."""
    position: Position
    source: str
    severity: str
    message: str
    span: Span = field(default=_NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class Text(_ItemJson):
    """Text around the operations (parse and log tiers)."""
    text: str
    position: Position
    span: Span = field(default=_NO_SPAN, compare=False)


Item = Union[Statement, Diagnostic, Text]


@dataclass(frozen=True, slots=True)
class UnparsedTail:
    """Set when the input ends inside a statement: nothing from `position` on is trustworthy."""
    position: Position
    reason: str
    span: Span = field(default=_NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class Event:
    """An item the stream parser settled; index is its place in the final items, or None for
    diagnostics placed only at the end."""
    item: Item
    index: Optional[int]


@dataclass(frozen=True, slots=True)
class OpenInfo:
    """What is open at the end of the input a StreamParser was fed (StreamParser.open()), and
    what a runaway event reports. where: 'none', 'slots', 'signal', 'target', 'body' or 'turn';
    op is None when nothing is open. Offsets are bytes from the first byte fed (doc/streaming.md)."""
    where: str
    op: Optional[str]
    suffix: str
    begin: int
    bytes: int
    openers: int
    turn_depth: int


@dataclass(frozen=True, slots=True)
class Verdict:
    """A validator's answer. offset (code points into the input) and message are None when ok."""
    ok: bool
    offset: Optional[int]
    message: Optional[str]

    def __bool__(self) -> bool:
        return self.ok


@dataclass(frozen=True, slots=True)
class Url:
    """A WHATWG URL record, as Node's URL exposes it."""
    href: str
    protocol: str
    username: str
    password: str
    hostname: str
    port: str
    pathname: str
    search: str
    hash: str


@dataclass(frozen=True, slots=True)
class PathResult:
    """parse_path's answer: the path (None for empty input) or the visitor's error message."""
    path: Optional[Path]
    error: Optional[str]


@dataclass(frozen=True, slots=True)
class MigrationNote:
    """A statement migrate_source left as written: where it is (line 1-based, column 0-based in
    code points, as Position) and why the other dialect cannot express it."""
    line: int
    column: int
    message: str


@dataclass(frozen=True, slots=True)
class Migration:
    """migrate_source's answer: the text (the type it was given), whether it differs from the
    input, and a note for each statement left as written."""
    text: Union[str, bytes]
    changed: bool
    notes: List[MigrationNote]


@dataclass(frozen=True, slots=True)
class SelectionResult:
    """parse_resource_selection's answer."""
    selection: Optional[ResourceSelection]
    error: Optional[str]


class ParseResult:
    """The result of a parse: `items` (Statement, Diagnostic and Text, in the reference's order)
    and `unparsed_tail`; `dialect`, the one it was read in ("contracts" or "service"), which
    format_turn writes it in. A result from the parser keeps its C++ form: items become Python
    objects on first access, and to_json() is the library's writer, byte-identical to the CLI."""

    __slots__ = ("_native", "_items", "_tail", "_dialect")

    def __init__(self, items: Iterable["Item"] = (), unparsed_tail: Optional[UnparsedTail] = None,
                 dialect: str = "contracts"):
        self._native: Any = None
        self._items: Optional[Tuple[Item, ...]] = tuple(items)
        self._tail: Optional[UnparsedTail] = unparsed_tail
        self._dialect: str = dialect

    @classmethod
    def _wrap(cls, native: Any) -> "ParseResult":
        r = cls.__new__(cls)
        r._native = native
        r._items = None
        r._tail = None
        r._dialect = native.dialect
        return r

    @property
    def dialect(self) -> str:
        return self._dialect

    @property
    def items(self) -> Tuple[Item, ...]:
        if self._items is None:
            self._items = self._native.items()
            self._tail = self._native.tail()
        assert self._items is not None
        return self._items

    @property
    def unparsed_tail(self) -> Optional[UnparsedTail]:
        if self._items is None:
            tail: Optional[UnparsedTail] = self._native.tail()
            return tail
        return self._tail

    @property
    def statements(self) -> Tuple[Statement, ...]:
        return tuple(i for i in self.items if type(i) is Statement)

    @property
    def diagnostics(self) -> Tuple[Diagnostic, ...]:
        return tuple(i for i in self.items if type(i) is Diagnostic)

    @property
    def ok(self) -> bool:
        """No error item (warnings included, as the CLI counts them) and no tail: the CLI's exit 0."""
        if self._native is not None:
            return bool(self._native.ok)
        return self._tail is None and not any(isinstance(i, Diagnostic) for i in self.items)

    def to_json(self, pretty: bool = False) -> str:
        """The result object as the CLI prints it (without the CLI's final newline)."""
        if self._native is not None:
            text: str = self._native.to_json(pretty)
            return text
        from . import _plurnk
        return _plurnk.result_to_json(self.items, self._tail, pretty)

    def to_dict(self) -> Dict[str, Any]:
        """The JSON shape as Python values ({"items": [...], "unparsedTail"?: {...}})."""
        d: Dict[str, Any] = _json.loads(self.to_json())
        return d

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator["Item"]:
        return iter(self.items)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ParseResult):
            return NotImplemented
        return (self.items == other.items and self.unparsed_tail == other.unparsed_tail
                and self.dialect == other.dialect)

    __hash__ = None  # type: ignore[assignment]  # compared by value, not meant as a dict key

    def __repr__(self) -> str:
        dialect = "" if self.dialect == "contracts" else f", dialect={self.dialect!r}"
        return f"ParseResult(items={list(self.items)!r}, unparsed_tail={self.unparsed_tail!r}{dialect})"

    def __reduce__(self) -> Tuple[Any, ...]:
        return (ParseResult, (self.items, self.unparsed_tail, self.dialect))


def _registry() -> Dict[str, type]:
    return {c.__name__: c for c in (Position, Statement, Diagnostic, Text, LocalPath, UrlPath, RegexPath, LineMarker,
                                    Matcher, SendBody, ResourceSelection, UnparsedTail, Event, Verdict, Url, Span,
                                    OpenInfo)}
