// SPDX-License-Identifier: MIT
// Fuzzes plurnk_wire: the first byte picks a contract (its index in plurnk::wire::contract; 18 and
// up: Problems.create, the rest being its argument array), the rest is JSON text. Invariants:
// no crash; the text path (validate_json) and the value path (parse_json, then validate) agree
// in verdict and errors; valid exactly when there are no errors and no exception; assert ok only
// when valid; errors_json is JSON; a valid PlurnkStatement is a valid ClientStatement; a value
// that survives stringify_json -> parse_json unchanged keeps its verdict and errors; a created
// problem is a valid ProblemDetails that stringifies to JSON. In the service dialect's schemas
// (doc/dialects.md) too: the two paths agree; the variant only widens (a value valid in 1.4.0 is
// valid there, and a contract without a variant answers exactly as in 1.4.0); a valid service
// PlurnkStatement is a valid service ClientStatement.
#include "fuzz_target.hpp"
#include "plurnk/json.hpp"
#include "plurnk/wire.hpp"

namespace {

namespace wire = plurnk::wire;

// The service dialect's invariants, given the 1.4.0 verdict r on value (text's JSON).
std::string check_service(wire::contract c, std::string_view text, const plurnk::json_value& value,
                          const wire::validation_result& r) {
    const auto service = plurnk::parse_dialect::service;
    const auto s = wire::validate(c, value, service);
    const auto by_text = wire::validate_json(c, text, service);
    if (s.valid != by_text.valid || wire::errors_json(s.errors) != wire::errors_json(by_text.errors) ||
        s.exception != by_text.exception) {
        return "validate_json and validate disagree in the service dialect";
    }
    if (s.valid != (s.errors.empty() && s.exception.empty())) return "service: valid does not mean no errors";
    if (r.valid && !s.valid) return "a value valid in 1.4.0 is not valid in the service dialect";
    if (!wire::has_service_variant(c) &&
        (s.valid != r.valid || wire::errors_json(s.errors) != wire::errors_json(r.errors) || s.exception != r.exception)) {
        return "a contract without a service variant answers differently in the service dialect";
    }
    if (wire::assert_contract(c, value, service).ok && !s.valid) return "service: assert passed an invalid value";
    if (c == wire::contract::plurnk_statement && s.valid &&
        !wire::validate(wire::contract::client_statement, value, service).valid) {
        return "a valid service PlurnkStatement is not a valid service ClientStatement";
    }
    return {};
}

std::string check(std::string_view data) {
    if (data.empty()) return {};
    const unsigned selector = static_cast<unsigned char>(data[0]);
    const std::string_view text = data.substr(1);
    const auto value = plurnk::parse_json(text);
    if (selector >= wire::k_contract_count) {
        if (!value || value->kind != plurnk::json_value::kind_t::array) return {};
        const auto p = wire::problems::create_args(value->array);
        if (!p.ok) return p.message.empty() ? "create failed without a message" : "";
        if (!wire::validate_problem_details(p.value).valid) return "a created problem is not a valid ProblemDetails";
        if (!plurnk::parse_json(plurnk::stringify_json(p.value))) return "a created problem does not stringify to JSON";
        return {};
    }
    const auto c = static_cast<wire::contract>(selector);
    const auto by_text = wire::validate_json(c, text);
    if (!value) return by_text.valid || by_text.exception != "invalid JSON" ? "non-JSON text was not refused" : "";
    const auto r = wire::validate(c, *value);
    if (r.valid != by_text.valid || wire::errors_json(r.errors) != wire::errors_json(by_text.errors) ||
        r.exception != by_text.exception) {
        return "validate_json and validate disagree";
    }
    if (r.valid != (r.errors.empty() && r.exception.empty())) return "valid does not mean no errors";
    if (wire::assert_contract(c, *value).ok && !r.valid) return "assert passed an invalid value";
    if (!plurnk::parse_json(wire::errors_json(r.errors))) return "errors_json is not JSON";
    if (c == wire::contract::plurnk_statement && r.valid && !wire::validate_client_statement(*value).valid) {
        return "a valid PlurnkStatement is not a valid ClientStatement";
    }
    const std::string once = plurnk::stringify_json(*value);
    if (const auto back = plurnk::parse_json(once); back && plurnk::stringify_json(*back) == once &&
                                                    once.find("null") == std::string::npos) {
        // (Infinity stringifies as null, so a text with "null" may not be the same value.)
        const auto again = wire::validate(c, *back);
        if (again.valid != r.valid || wire::errors_json(again.errors) != wire::errors_json(r.errors)) {
            return "the verdict changed over a stringify/parse round trip";
        }
    }
    return check_service(c, text, *value, r);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    plurnk::fuzz::require(check(plurnk::fuzz::as_view(data, size)));
    return 0;
}
