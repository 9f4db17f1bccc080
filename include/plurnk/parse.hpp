// SPDX-License-Identifier: MIT
// The four document tiers (SPEC §12 §tier-entrypoints, BEHAVIOUR §2.1).
#pragma once

#include "plurnk/requires_cxx20.hpp"  // one clear error unless compiled as C++20

#include <cstddef>
#include <string_view>

#include "plurnk/ast.hpp"

namespace plurnk {

enum class tier : std::uint8_t {
    parse,       // one PLAN-anchored turn, text allowed
    statements,  // protocol statements only
    log,         // one or more TURN-wrapped turns
    client,      // protocol statements plus LOOK and BUFF
};

[[nodiscard]] const char* tier_name(tier t) noexcept;
[[nodiscard]] std::optional<tier> tier_from_name(std::string_view name) noexcept;

// parse_dialect (the spelling of the language read) is declared in ast.hpp, beside the result
// that remembers it.

[[nodiscard]] const char* dialect_name(parse_dialect d) noexcept;
[[nodiscard]] std::optional<parse_dialect> dialect_from_name(std::string_view name) noexcept;

struct parse_options {
    // Deepest `<<TURN:` nesting accepted; deeper openers become a diagnostic.
    std::size_t max_turn_depth = 256;
    // Longest input parsed, in bytes. Positions and token offsets are 32-bit, so the limit is at
    // most 2^32 - 1 (larger values act as that). Bytes past it are not parsed: the result is that
    // of the first max_input_bytes bytes, plus a last error item saying how much was left out.
    std::size_t max_input_bytes = k_max_input_bytes;
    static constexpr std::size_t k_max_input_bytes = 0xFFFF'FFFFu;
    // parse(): let the result view `input` instead of keeping a copy of it. Saves one copy of the
    // input (time and memory); the caller must then keep `input` alive and unchanged for as long
    // as the result, or any copy of it or of its items, is used. The stream parser ignores it.
    bool borrow_input = false;
    // The language read: every tier, one-shot and streamed (the result is the same at every
    // chunking in either dialect).
    parse_dialect dialect = parse_dialect::contracts;
};

// Offset of the first byte of `input` that is not part of well-formed UTF-8, or npos when the
// whole input is well formed. (The parser accepts any bytes; this is for callers, like the CLI,
// that want to refuse or report ill-formed text up front.)
[[nodiscard]] std::size_t first_invalid_utf8(std::string_view input) noexcept;

// Parses `input` (UTF-8; invalid bytes count one column each) as the given tier.
// Never throws on any input; a malformed turn is reported through the result. The result keeps
// a copy of the input (unless options.borrow_input), which its items view.
parse_result parse(std::string_view input, tier t, const parse_options& options = {});

inline parse_result parse_turn(std::string_view input, const parse_options& options = {}) {
    return parse(input, tier::parse, options);
}
inline parse_result parse_statements(std::string_view input, const parse_options& options = {}) {
    return parse(input, tier::statements, options);
}
inline parse_result parse_log(std::string_view input, const parse_options& options = {}) {
    return parse(input, tier::log, options);
}
inline parse_result parse_client(std::string_view input, const parse_options& options = {}) {
    return parse(input, tier::client, options);
}

}  // namespace plurnk
