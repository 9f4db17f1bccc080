// SPDX-License-Identifier: MIT
// The wire C API (include/plurnk/plurnk_wire.h) over plurnk/wire.hpp: JSON text in, statuses and
// library-allocated strings out, every exception (out of memory) caught at the boundary.
#include <array>
#include <cstddef>
#include <cstring>
#include <iterator>
#include <new>
#include <string>

#include "plurnk/plurnk_wire.h"
#include "plurnk/wire.hpp"
#include "grammar/op_table.hpp"

namespace {

using namespace plurnk;

char* copy_out(const std::string& s) {
    char* buf = new char[s.size() + 1];
    std::memcpy(buf, s.data(), s.size());
    buf[s.size()] = '\0';
    return buf;
}

bool known(int c) { return c >= 0 && c < PLURNK_WIRE_CONTRACT_COUNT; }
bool known_dialect(int d) { return d == PLURNK_PARSE_DIALECT_CONTRACTS || d == PLURNK_PARSE_DIALECT_SERVICE; }
parse_dialect to_dialect(int d) { return d == PLURNK_PARSE_DIALECT_SERVICE ? parse_dialect::service : parse_dialect::contracts; }

std::string_view view(const char* p, std::size_t n) { return p == nullptr ? std::string_view{} : std::string_view(p, n); }

template <class F>
plurnk_status guarded(F&& f) {
    try {
        return f();
    } catch (const std::bad_alloc&) {
        return PLURNK_ERR_OUT_OF_MEMORY;
    } catch (...) {
        return PLURNK_ERR_INTERNAL;
    }
}

// The protocol ops' keywords as a JSON array, written at compile time from the op table (its
// first k_protocol_op_count rows); wire.hpp's k_plurnk_ops must say the same.
constexpr bool protocol_ops_first() {
    for (std::size_t i = 0; i < detail::k_ops.size(); ++i) {
        const bool protocol = detail::k_ops[i].family == detail::op_family::protocol;
        if (protocol != (i < static_cast<std::size_t>(k_protocol_op_count))) return false;
    }
    if (std::size(wire::k_plurnk_ops) != static_cast<std::size_t>(k_protocol_op_count)) return false;
    for (std::size_t i = 0; i < std::size(wire::k_plurnk_ops); ++i) {
        if (wire::k_plurnk_ops[i] != detail::k_ops[i].keyword) return false;
    }
    return true;
}
static_assert(protocol_ops_first(), "the op table lists the protocol ops first, as wire::k_plurnk_ops does");

constexpr std::size_t k_ops_json_size = 7 * static_cast<std::size_t>(k_protocol_op_count) + 2;  // `"KEYW",` each
constexpr std::array<char, k_ops_json_size> k_ops_json = [] {
    std::array<char, k_ops_json_size> out{};
    std::size_t n = 0;
    out[n++] = '[';
    for (std::size_t i = 0; i < static_cast<std::size_t>(k_protocol_op_count); ++i) {
        if (i > 0) out[n++] = ',';
        out[n++] = '"';
        for (const char c : detail::k_ops[i].keyword) out[n++] = c;
        out[n++] = '"';
    }
    out[n++] = ']';
    out[n] = '\0';
    return out;
}();

std::string exception_errors(const std::string& what) {
    return wire::errors_json({wire::validation_error{"exception", "#", "#", what}});
}

}  // namespace

static_assert(PLURNK_WIRE_CONTRACT_COUNT == plurnk::wire::k_contract_count);

extern "C" {

PLURNK_API const char* plurnk_wire_contract_name(int contract) {
    return known(contract) ? wire::contract_name(static_cast<wire::contract>(contract)) : nullptr;
}

PLURNK_API int plurnk_wire_contract_from_name(const char* name, size_t len) {
    const auto c = wire::contract_from_name(view(name, len));
    return c ? static_cast<int>(*c) : -1;
}

PLURNK_API plurnk_status plurnk_wire_validate(int contract, const char* json, size_t len, int* valid,
                                              char** errors_json) {
    return plurnk_wire_validate_dialect(contract, PLURNK_PARSE_DIALECT_CONTRACTS, json, len, valid, errors_json);
}

PLURNK_API plurnk_status plurnk_wire_validate_dialect(int contract, int dialect, const char* json, size_t len,
                                                      int* valid, char** errors_json) {
    if (!known(contract) || !known_dialect(dialect) || valid == nullptr) return PLURNK_ERR_INVALID_ARGUMENT;
    if (errors_json != nullptr) *errors_json = nullptr;
    return guarded([&] {
        const auto r = wire::validate_json(static_cast<wire::contract>(contract), view(json, len), to_dialect(dialect));
        *valid = r.valid ? 1 : 0;
        if (errors_json != nullptr) {
            *errors_json = copy_out(r.exception.empty() ? wire::errors_json(r.errors) : exception_errors(r.exception));
        }
        return PLURNK_OK;
    });
}

PLURNK_API plurnk_status plurnk_wire_assert(int contract, const char* json, size_t len, int* ok, char** error_class,
                                            char** message) {
    return plurnk_wire_assert_dialect(contract, PLURNK_PARSE_DIALECT_CONTRACTS, json, len, ok, error_class, message);
}

PLURNK_API plurnk_status plurnk_wire_assert_dialect(int contract, int dialect, const char* json, size_t len, int* ok,
                                                    char** error_class, char** message) {
    if (!known(contract) || !known_dialect(dialect) || ok == nullptr) return PLURNK_ERR_INVALID_ARGUMENT;
    if (error_class != nullptr) *error_class = nullptr;
    if (message != nullptr) *message = nullptr;
    return guarded([&] {
        const auto value = json_document::parse(view(json, len));
        wire::assertion a;
        if (value) {
            a = wire::assert_contract(static_cast<wire::contract>(contract), value->root(), to_dialect(dialect));
        } else {
            a.error_class = "SyntaxError";
            a.message = "invalid JSON";
        }
        *ok = a.ok ? 1 : 0;
        if (!a.ok) {
            if (error_class != nullptr) *error_class = copy_out(a.error_class);
            if (message != nullptr) *message = copy_out(a.message);
        }
        return PLURNK_OK;
    });
}

PLURNK_API plurnk_status plurnk_wire_problems_create(const char* args_json, size_t len, int* ok, char** out) {
    if (ok == nullptr) return PLURNK_ERR_INVALID_ARGUMENT;
    if (out != nullptr) *out = nullptr;
    return guarded([&] {
        const auto args = parse_json(view(args_json, len));
        if (!args || args->kind != json_value::kind_t::array) return PLURNK_ERR_INVALID_ARGUMENT;
        const auto r = wire::problems::create_args(args->array);
        *ok = r.ok ? 1 : 0;
        if (out != nullptr) *out = copy_out(r.ok ? stringify_json(r.value) : r.message);
        return PLURNK_OK;
    });
}

PLURNK_API const char* plurnk_wire_default_loop_flags(void) {
    return R"({"mode":"act","auto":false,"noWeb":false,"noInteraction":false,"noProposals":false})";
}
PLURNK_API const char* plurnk_wire_unknown_position(void) { return R"({"line":0,"column":0})"; }
PLURNK_API const char* plurnk_wire_reserved_authorities(void) { return R"(["commons","plurnk"])"; }
PLURNK_API const char* plurnk_wire_plurnk_ops(void) {
    return k_ops_json.data();
}
PLURNK_API const char* plurnk_wire_worker_name_pattern(void) { return wire::k_worker_name_pattern.data(); }

PLURNK_API int plurnk_wire_is_worker_name(const char* name, size_t len) {
    try {
        return wire::is_worker_name(view(name, len)) ? 1 : 0;
    } catch (...) {
        return 0;
    }
}

PLURNK_API const char* plurnk_wire_schema(int contract) {
    return plurnk_wire_schema_dialect(contract, PLURNK_PARSE_DIALECT_CONTRACTS);
}

PLURNK_API const char* plurnk_wire_schema_dialect(int contract, int dialect) {
    if (!known(contract) || !known_dialect(dialect)) return nullptr;
    return wire::schema_text(static_cast<wire::contract>(contract), to_dialect(dialect)).data();
}

PLURNK_API void plurnk_wire_free_string(char* s) { delete[] s; }

}  // extern "C"
