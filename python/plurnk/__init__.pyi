# SPDX-License-Identifier: MIT
# Type stubs for the plurnk package (the classes' own annotations live in _model.py).
from typing import Optional, Tuple, Union

from ._model import (Body as Body, Diagnostic as Diagnostic, Event as Event, Item as Item, LineMarker as LineMarker,
                     LocalPath as LocalPath, Matcher as Matcher, Migration as Migration,
                     MigrationNote as MigrationNote, OpenInfo as OpenInfo, ParseResult as ParseResult,
                     Path as Path, RegexPath as RegexPath, Span as Span,
                     PathResult as PathResult, Position as Position, ResourceSelection as ResourceSelection,
                     SelectionResult as SelectionResult, SendBody as SendBody, Signal as Signal,
                     Statement as Statement, Text as Text, UnparsedTail as UnparsedTail, Url as Url,
                     UrlPath as UrlPath, Verdict as Verdict)
from ._serve import (Call as Call, Delta as Delta, DeltaStream as DeltaStream, Draft as Draft,
                     openai_tools as openai_tools, project as project)
from ._plurnk import (Checkpoint as Checkpoint, StreamParser as StreamParser, gbnf as gbnf, has_glob as has_glob,
                      parse_url as parse_url, validate_jsonpath as validate_jsonpath,
                      validate_regex as validate_regex, validate_xpath as validate_xpath)

__version__: str
language_version: str
build_commit: str
TIERS: Tuple[str, str, str, str]
DIALECTS: Tuple[str, str]

def parse(text: Union[str, bytes, bytearray, memoryview], tier: str = ..., *, max_input_bytes: Optional[int] = ...,
          max_turn_depth: Optional[int] = ..., dialect: str = ...) -> ParseResult: ...
def validate_url(url: str) -> Verdict: ...
def parse_path(raw: str) -> PathResult: ...
def parse_resource_selection(raw: str) -> SelectionResult: ...
def format(statement: Statement, *, dialect: str = ...) -> str: ...
def format_turn(result: ParseResult) -> str: ...
def format_source(text: Union[str, bytes], tier: str = ..., *, dialect: str = ...) -> Union[str, bytes]: ...
def migrate_source(text: Union[str, bytes], tier: str = ..., *, from_dialect: str = ...,
                   to_dialect: str = ...) -> Migration: ...
