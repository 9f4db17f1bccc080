# SPDX-License-Identifier: MIT
"""plurnk.wire: the wire contracts of @plurnk/plurnk-contracts 1.4.0 (doc/contracts.md).

    import plurnk.wire as wire
    r = wire.validate("Notice", value)          # or wire.validate_notice(value); JSON text: validate_json
    r.valid, r.errors                           # ErrorRecord(keyword, keyword_location, instance_location, message)
    wire.assert_text_region(value)              # raises wire.InvalidTextRegionError (a ContractError)
    wire.Problems.create("scheme:file", "not-found", 404, "No such file.")   # a dict, or ProblemError
    wire.default_loop_flags()                   # a fresh dict each call

Values are JSON values with JavaScript semantics: int and float are one number type (1 == 1.0,
so 1.0 is an integer), bool is not a number, dict keys are str. validate never raises on bad
data; misuse (an unknown contract, a value that is not JSON) raises ValueError or TypeError.

A result parsed with dialect="service" (doc/dialects.md) is checked with the service variant of
ParsedPath, ResourceSelection, PlurnkStatement and ClientStatement: pass dialect="service" to
validate, validate_json, assert_contract, assert_json, schema_text and schema_id.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, Literal, Optional, Tuple, Type, Union, get_args

from . import _wire

ContractName = Literal[
    "Position", "LineMarker", "ParsedPath", "MatcherBody", "SendBody", "ResourceSelection", "PlurnkStatement",
    "ClientStatement", "Notice", "ProblemDetails", "OperationResult", "EntryReadResult", "TextRegion", "LoopFlags",
    "ProposalDisposition", "ProposalProjection", "ClientDisplayCapabilities", "ProviderCost"]
JsonText = Union[str, bytes, bytearray, memoryview]

CONTRACTS: Tuple[str, ...] = tuple(name for name, _ in _wire.contracts)
assert CONTRACTS == get_args(ContractName), "ContractName is out of step with the library"
# The contracts the reference has an assert method (and an error class of its own) for.
ASSERT_CONTRACTS: Tuple[str, ...] = tuple(name for name, has in _wire.contracts if has)

RESERVED_AUTHORITIES: Tuple[str, ...] = _wire.reserved_authorities
WORKER_NAME_PATTERN: str = _wire.worker_name_pattern
PLURNK_OPS: Tuple[str, ...] = _wire.plurnk_ops


@dataclass(frozen=True)
class ErrorRecord:
    """One failure as the reference's engine reports it."""
    keyword: str              # "type", "required", "$ref", ..., or "entry-read-suffix"
    keyword_location: str     # "#/properties/line/type": the path through the schemas as evaluated
    instance_location: str    # "#/line": a URI-encoded JSON Pointer into the value
    message: str              # 'Instance type "string" is invalid. Expected "integer".'

    def to_dict(self) -> Dict[str, str]:
        """The record as the reference writes it in assert messages."""
        return {"instanceLocation": self.instance_location, "keyword": self.keyword,
                "keywordLocation": self.keyword_location, "error": self.message}


@dataclass(frozen=True)
class ValidationResult:
    """The schema verdict. `errors` are in the reference's order; with its shortCircuit a failing
    property or item ends its object or array, so they are not every failure, but `valid` is
    exact. `exception` is set where the reference's validate would throw instead of answering
    (a key holding a lone surrogate: "URI malformed"; text that is not JSON: "invalid JSON")."""
    valid: bool
    errors: Tuple[ErrorRecord, ...] = ()
    exception: Optional[str] = None

    def __bool__(self) -> bool:
        return self.valid


class ContractError(ValueError):
    """An assert failed. `error_class` is the reference's class name, `message` its message,
    `errors` the schema failures (empty when the value is valid but breaks the contract's extra
    rule, such as a TextRegion ending before it starts)."""

    def __init__(self, contract: str, error_class: str, message: str, errors: Tuple[ErrorRecord, ...] = ()) -> None:
        super().__init__(message)
        self.contract = contract
        self.error_class = error_class
        self.message = message
        self.errors = errors


class InvalidContractError(ContractError):
    """An assert failed for a contract the reference has no assert method (nor class) for."""


class InvalidNoticeError(ContractError): ...
class InvalidProblemDetailsError(ContractError): ...
class InvalidOperationResultError(ContractError): ...
class InvalidEntryReadResultError(ContractError): ...
class InvalidTextRegionError(ContractError): ...
class InvalidLoopFlagsError(ContractError): ...
class InvalidProposalProjectionError(ContractError): ...


_ERROR_CLASSES: Dict[str, Type[ContractError]] = {
    c.__name__: c for c in (InvalidContractError, InvalidNoticeError, InvalidProblemDetailsError,
                            InvalidOperationResultError, InvalidEntryReadResultError, InvalidTextRegionError,
                            InvalidLoopFlagsError, InvalidProposalProjectionError)}
assert set(_ERROR_CLASSES) == {f"Invalid{n}Error" for n in ASSERT_CONTRACTS} | {"InvalidContractError"}


class ProblemError(ValueError):
    """Problems.create refused its arguments; the message is the reference's."""


def _result(raw: Tuple[bool, Any, Optional[str]]) -> ValidationResult:
    valid, errors, exception = raw
    return ValidationResult(valid, tuple(ErrorRecord(*e) for e in errors), exception)


def validate(contract: ContractName, value: object, *, dialect: str = "contracts") -> ValidationResult:
    """The schema verdict on a Python value (plus EntryReadResult's suffix rule), against the
    schemas of `dialect` ("contracts" or "service"; another name raises ValueError)."""
    return _result(_wire.validate(contract, value, dialect=dialect))


def validate_json(contract: ContractName, json_text: JsonText, *, dialect: str = "contracts") -> ValidationResult:
    """The same on JSON text (str or UTF-8 bytes), read with JSON.parse semantics."""
    return _result(_wire.validate_json(contract, json_text, dialect=dialect))


def _raise(contract: str, raw: Tuple[bool, str, str], errors: Callable[[], ValidationResult]) -> None:
    ok, error_class, message = raw
    if ok:
        return
    raise _ERROR_CLASSES[error_class](contract, error_class, message, errors().errors)


def assert_contract(contract: ContractName, value: object, *, dialect: str = "contracts") -> None:
    """Returns when the value is valid and passes the contract's extra rule; otherwise raises the
    ContractError subclass named after the reference's class (InvalidNoticeError, ...)."""
    _raise(contract, _wire.assert_contract(contract, value, dialect=dialect),
           lambda: validate(contract, value, dialect=dialect))


def assert_json(contract: ContractName, json_text: JsonText, *, dialect: str = "contracts") -> None:
    """assert_contract on JSON text; text that is not JSON fails with the message "invalid JSON"."""
    _raise(contract, _wire.assert_json(contract, json_text, dialect=dialect),
           lambda: validate_json(contract, json_text, dialect=dialect))


def parse_json(json_text: JsonText) -> Any:
    """JSON text as the library (and JavaScript's JSON.parse) reads it, or None when it is not
    JSON (so also for "null"). Numbers that are integers within 2**53 are int, others float."""
    return _wire.parse_json(json_text)


class _Missing:
    def __repr__(self) -> str:
        return "<omitted>"


_MISSING: Any = _Missing()


class Problems:
    """RFC 9457 problems as the reference's Problems builds them."""

    @staticmethod
    def create(owner: str, code: str, status: int, detail: str, extensions: Optional[Dict[str, Any]] = _MISSING,
               options: Optional[Dict[str, Any]] = _MISSING) -> Dict[str, Any]:
        """Problems.create(owner, code, status, detail, extensions = {}, options = {}): the problem
        as a dict (extension members first, then type, title, status, detail). `options["title"]`
        overrides the title derived from the code. Any JSON arguments are taken with the
        reference's JavaScript semantics; where it would throw, this raises ProblemError."""
        args = [a for a in (owner, code, status, detail, extensions, options) if a is not _MISSING]
        return Problems.create_args(*args)

    @staticmethod
    def create_args(*args: object) -> Dict[str, Any]:
        """create(...args), as a spread call: fewer than four arguments fail."""
        ok, value, message = _wire.create_problem(args)
        if not ok or value is None:
            raise ProblemError(message)
        return value

    @staticmethod
    def type_uri(owner: str, code: str) -> str:
        """"https://problems.plurnk.dev/" + owner with ':' as '/' + "/" + code (no checks)."""
        return _wire.type_uri(owner, code)

    @staticmethod
    def default_title(code: str) -> str:
        """The title create derives from a code: "entry-not-found" -> "Entry not found"."""
        return _wire.default_title(code)


def default_loop_flags() -> Dict[str, Any]:
    """DEFAULT_LOOP_FLAGS: {"mode": "act", "auto": False, "noWeb": False, ...}, a new dict each call."""
    return _wire.default_loop_flags()


def unknown_position() -> Dict[str, Any]:
    """UNKNOWN_POSITION: {"line": 0, "column": 0}, a new dict each call."""
    return _wire.unknown_position()


def is_worker_name(name: str) -> bool:
    """Whether name matches WORKER_NAME_PATTERN (reserved names match too: see is_reserved_authority)."""
    return _wire.is_worker_name(name)


def is_reserved_authority(name: str) -> bool:
    return _wire.is_reserved_authority(name)


def schema_text(contract: ContractName, *, dialect: str = "contracts") -> str:
    """The contract's JSON Schema as shipped (schema/<Name>.json; with dialect="service", its
    service variant schema/service/<Name>.json where there is one)."""
    return _wire.schema_text(contract, dialect=dialect)


def schema_id(contract: ContractName, *, dialect: str = "contracts") -> str:
    return _wire.schema_id(contract, dialect=dialect)


Validator = Callable[[object], ValidationResult]
Asserter = Callable[[object], None]


def _validator(contract: ContractName) -> Validator:
    def f(value: object) -> ValidationResult:
        return validate(contract, value)
    f.__name__ = f.__qualname__ = "validate_" + _snake(contract)
    f.__doc__ = f"validate({contract!r}, value)"
    return f


def _asserter(contract: ContractName) -> Asserter:
    def f(value: object) -> None:
        assert_contract(contract, value)
    f.__name__ = f.__qualname__ = "assert_" + _snake(contract)
    f.__doc__ = f"assert_contract({contract!r}, value)"
    return f


def _snake(name: str) -> str:
    return "".join("_" + ch.lower() if ch.isupper() and i else ch.lower() for i, ch in enumerate(name))


# One named pair per contract, as the reference's Validator has them.
validate_position: Validator = _validator("Position")
assert_position: Asserter = _asserter("Position")
validate_line_marker: Validator = _validator("LineMarker")
assert_line_marker: Asserter = _asserter("LineMarker")
validate_parsed_path: Validator = _validator("ParsedPath")
assert_parsed_path: Asserter = _asserter("ParsedPath")
validate_matcher_body: Validator = _validator("MatcherBody")
assert_matcher_body: Asserter = _asserter("MatcherBody")
validate_send_body: Validator = _validator("SendBody")
assert_send_body: Asserter = _asserter("SendBody")
validate_resource_selection: Validator = _validator("ResourceSelection")
assert_resource_selection: Asserter = _asserter("ResourceSelection")
validate_plurnk_statement: Validator = _validator("PlurnkStatement")
assert_plurnk_statement: Asserter = _asserter("PlurnkStatement")
validate_client_statement: Validator = _validator("ClientStatement")
assert_client_statement: Asserter = _asserter("ClientStatement")
validate_notice: Validator = _validator("Notice")
assert_notice: Asserter = _asserter("Notice")
validate_problem_details: Validator = _validator("ProblemDetails")
assert_problem_details: Asserter = _asserter("ProblemDetails")
validate_operation_result: Validator = _validator("OperationResult")
assert_operation_result: Asserter = _asserter("OperationResult")
validate_entry_read_result: Validator = _validator("EntryReadResult")
assert_entry_read_result: Asserter = _asserter("EntryReadResult")
validate_text_region: Validator = _validator("TextRegion")
assert_text_region: Asserter = _asserter("TextRegion")
validate_loop_flags: Validator = _validator("LoopFlags")
assert_loop_flags: Asserter = _asserter("LoopFlags")
validate_proposal_disposition: Validator = _validator("ProposalDisposition")
assert_proposal_disposition: Asserter = _asserter("ProposalDisposition")
validate_proposal_projection: Validator = _validator("ProposalProjection")
assert_proposal_projection: Asserter = _asserter("ProposalProjection")
validate_client_display_capabilities: Validator = _validator("ClientDisplayCapabilities")
assert_client_display_capabilities: Asserter = _asserter("ClientDisplayCapabilities")
validate_provider_cost: Validator = _validator("ProviderCost")
assert_provider_cost: Asserter = _asserter("ProviderCost")
