// SPDX-License-Identifier: MIT
// Wire contracts (SPEC §1.1, §12, §13; ../shared/spec/WIRE.md): the JSON Schemas of the data that
// crosses an agent runtime's process boundaries, validated with the reference's semantics
// (@plurnk/plurnk-contracts 1.4.0, whose engine is @cfworker/json-schema 4 with shortCircuit on),
// the assert rules beyond the schemas, Problems.create and the root values.
//
// This is the separate library plurnk_wire (Meson option `wire`, needs re2); the parser core does
// not depend on it. Nothing here throws on bad data: verdicts and failures are values. All
// functions may be called from several threads at once (the schemas load once, on first use).
#pragma once

#include "plurnk/requires_cxx20.hpp"  // one clear error unless compiled as C++20

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "plurnk/ast.hpp"  // parse_dialect
#include "plurnk/json.hpp"

namespace plurnk::wire {

// The 18 contracts, one schema each (schema/<Name>.json).
enum class contract : std::uint8_t {
    position,
    line_marker,
    parsed_path,
    matcher_body,
    send_body,
    resource_selection,
    plurnk_statement,
    client_statement,
    notice,
    problem_details,
    operation_result,
    entry_read_result,
    text_region,
    loop_flags,
    proposal_disposition,
    proposal_projection,
    client_display_capabilities,
    provider_cost,
};
inline constexpr std::size_t k_contract_count = 18;

// The service dialect (doc/dialects.md) has a variant of four schemas (schema/service/<Name>.json):
// ParsedPath adds the regex path {kind:"regex", raw, pattern, flags}, PlurnkStatement lets an
// OPEN or FOLD have a lineMarker and a FORK a null body, and ResourceSelection and ClientStatement
// refer to those. The calls below that take a parse_dialect validate a service result with them;
// every other contract is the same in both dialects.
inline constexpr std::size_t k_service_variant_count = 4;
[[nodiscard]] bool has_service_variant(contract c) noexcept;

// "Position", "PlurnkStatement", ... (the schema titles), and back; nullopt for another name.
[[nodiscard]] const char* contract_name(contract c) noexcept;
[[nodiscard]] std::optional<contract> contract_from_name(std::string_view name) noexcept;

// One failure, as the reference engine reports it: keyword ("type", "required", "$ref", ...),
// keyword_location ("#/properties/line/type", the path through the schemas as evaluated),
// instance_location ("#/line", a JSON Pointer into the value, URI-encoded) and message
// ("Instance type \"string\" is invalid. Expected \"integer\".").
struct validation_error {
    std::string keyword;
    std::string keyword_location;
    std::string instance_location;
    std::string message;
};

struct validation_result {
    bool valid = false;
    // In the reference's order. With shortCircuit (the reference's default) a failing property
    // or array item ends its object or array, so this is not every failure, but `valid` is exact.
    std::vector<validation_error> errors;
    // Non-empty when the reference's validate would throw instead of answering: an object key
    // holding a lone surrogate cannot be URI-encoded for an instance location ("URI malformed"),
    // and a JSON text that does not parse ("invalid JSON"). `valid` is then false.
    std::string exception;
};

// JSON.stringify of the errors the way the reference writes them in assert messages:
// [{"instanceLocation","keyword","keywordLocation","error"},...].
[[nodiscard]] std::string errors_json(const std::vector<validation_error>& errors);

// validate<Contract>: the schema verdict, plus for EntryReadResult the suffix rule (a non-null
// entry's channels each satisfy contentOffset + code points of content == contentLength; the first
// that does not gives one error with keyword "entry-read-suffix").
// Whether `value` nests deeper than k_json_max_depth (json.hpp), counted without recursion.
// validate and problems::create refuse such values (an exception / a failure), as the
// reference's own recursion fails on them.
[[nodiscard]] bool too_deep(const json_value& value);
[[nodiscard]] bool too_deep(json_ref value);

// The json_value overloads read the value through a json_document (json.hpp) built from it.
[[nodiscard]] validation_result validate(contract c, const json_value& value);
[[nodiscard]] validation_result validate(contract c, json_ref value);
// validate's verdict alone: `valid` and `exception`, `errors` left empty. The reference's engine
// keeps every error (an additional property of an instance is two, about 250 bytes); a verdict
// takes memory that does not grow with them.
[[nodiscard]] validation_result validate_verdict(contract c, json_ref value);
// The same on JSON text, read with JSON.parse semantics into a json_document.
[[nodiscard]] validation_result validate_json(contract c, std::string_view json_text);
// The same against the schemas of a dialect (parse_dialect::contracts: the calls above).
[[nodiscard]] validation_result validate(contract c, const json_value& value, parse_dialect d);
[[nodiscard]] validation_result validate(contract c, json_ref value, parse_dialect d);
[[nodiscard]] validation_result validate_verdict(contract c, json_ref value, parse_dialect d);
[[nodiscard]] validation_result validate_json(contract c, std::string_view json_text, parse_dialect d);

// assert<Contract>: ok when the value is valid and passes the contract's extra rule (WIRE.md):
// OperationResult and EntryReadResult problem status == status, TextRegion not ending before it
// starts. Otherwise error_class is the reference's error class ("InvalidNoticeError", ...) and
// message its message ("invalid Notice: [...]", "TextRegion ends before it starts", ...).
// The contracts the reference has no assert method for (the AST ones, ResourceSelection,
// ProposalDisposition, ClientDisplayCapabilities, ProviderCost) assert as they validate, with
// error_class "InvalidContractError" and message "invalid <Name>: [...]".
struct assertion {
    bool ok = false;
    std::string error_class;
    std::string message;
    explicit operator bool() const noexcept { return ok; }
};
[[nodiscard]] assertion assert_contract(contract c, const json_value& value);
[[nodiscard]] assertion assert_contract(contract c, json_ref value);
// The same against the schemas of a dialect.
[[nodiscard]] assertion assert_contract(contract c, const json_value& value, parse_dialect d);
[[nodiscard]] assertion assert_contract(contract c, json_ref value, parse_dialect d);
// Whether the reference has an assert<Contract> method for c.
[[nodiscard]] bool has_assert_method(contract c) noexcept;

// One named pair per contract, as the reference's Validator has them.
#define PLURNK_WIRE_CONTRACT(fn, id)                                                     \
    [[nodiscard]] inline validation_result validate_##fn(const json_value& v) {          \
        return validate(contract::id, v);                                                \
    }                                                                                    \
    [[nodiscard]] inline assertion assert_##fn(const json_value& v) { return assert_contract(contract::id, v); }
PLURNK_WIRE_CONTRACT(position, position)
PLURNK_WIRE_CONTRACT(line_marker, line_marker)
PLURNK_WIRE_CONTRACT(parsed_path, parsed_path)
PLURNK_WIRE_CONTRACT(matcher_body, matcher_body)
PLURNK_WIRE_CONTRACT(send_body, send_body)
PLURNK_WIRE_CONTRACT(resource_selection, resource_selection)
PLURNK_WIRE_CONTRACT(plurnk_statement, plurnk_statement)
PLURNK_WIRE_CONTRACT(client_statement, client_statement)
PLURNK_WIRE_CONTRACT(notice, notice)
PLURNK_WIRE_CONTRACT(problem_details, problem_details)
PLURNK_WIRE_CONTRACT(operation_result, operation_result)
PLURNK_WIRE_CONTRACT(entry_read_result, entry_read_result)
PLURNK_WIRE_CONTRACT(text_region, text_region)
PLURNK_WIRE_CONTRACT(loop_flags, loop_flags)
PLURNK_WIRE_CONTRACT(proposal_disposition, proposal_disposition)
PLURNK_WIRE_CONTRACT(proposal_projection, proposal_projection)
PLURNK_WIRE_CONTRACT(client_display_capabilities, client_display_capabilities)
PLURNK_WIRE_CONTRACT(provider_cost, provider_cost)
#undef PLURNK_WIRE_CONTRACT

// The schema text of a contract as shipped (schema/<Name>.json, also installed to
// share/plurnk/schema/), and its "$id".
[[nodiscard]] std::string_view schema_text(contract c) noexcept;
[[nodiscard]] std::string_view schema_id(contract c) noexcept;
// The same in a dialect: the service variant (schema/service/<Name>.json, installed to
// share/plurnk/schema/service/) where there is one, else the 1.4.0 schema.
[[nodiscard]] std::string_view schema_text(contract c, parse_dialect d) noexcept;
[[nodiscard]] std::string_view schema_id(contract c, parse_dialect d) noexcept;

// Root values of the reference package.
[[nodiscard]] const json_value& default_loop_flags();  // {"mode":"act","auto":false,...}
[[nodiscard]] const json_value& unknown_position();    // {"line":0,"column":0}
inline constexpr std::string_view k_reserved_authorities[] = {"commons", "plurnk"};
inline constexpr std::string_view k_worker_name_pattern = "^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$";
inline constexpr std::string_view k_plurnk_ops[] = {"FIND", "READ", "EDIT", "COPY", "MOVE", "OPEN", "FOLD",
                                                    "SEND", "EXEC", "WORK", "FORK", "KILL", "PLAN"};
// Whether name matches WORKER_NAME (a lowercase DNS label; reserved names match too: SPEC
// §worker-name keeps reservation a separate test, see is_reserved_authority).
[[nodiscard]] bool is_worker_name(std::string_view name) noexcept;
[[nodiscard]] bool is_reserved_authority(std::string_view name) noexcept;

namespace problems {

// Problems.create's outcome: ok with the problem object, or the reason the reference throws.
struct result {
    bool ok = false;
    json_value value;     // the RFC 9457 object when ok
    std::string message;  // the reference's error message when !ok
    explicit operator bool() const noexcept { return ok; }
};

// Problems.create(owner, code, status, detail, extensions = {}, options = {}) with the reference's
// JavaScript semantics on any JSON arguments (a null extensions spreads nothing, a string spreads
// its UTF-16 units, options.title null means "derive it"); nullptr stands for an omitted argument.
[[nodiscard]] result create(const json_value& owner, const json_value& code, const json_value& status,
                            const json_value& detail, const json_value* extensions = nullptr,
                            const json_value* options = nullptr);
// create(...args) as the reference's spread call does it: args[4] and args[5] may be missing;
// with fewer than four arguments create fails (status or detail would be undefined).
[[nodiscard]] result create_args(const std::vector<json_value>& args);
// The common typed call: title empty means derived from the code ("entry-not-found" -> "Entry not
// found"); extensions is an object (or null for none).
[[nodiscard]] result create(std::string_view owner, std::string_view code, int status, std::string_view detail,
                            const json_value& extensions = {}, std::string_view title = {});

// "https://problems.plurnk.dev/" + owner with ':' -> '/' + "/" + code (no checks).
[[nodiscard]] std::string type_uri(std::string_view owner, std::string_view code);
// "entry-not-found" -> "Entry not found".
[[nodiscard]] std::string default_title(std::string_view code);

}  // namespace problems

}  // namespace plurnk::wire
