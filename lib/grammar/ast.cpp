// SPDX-License-Identifier: MIT
// Small AST helpers: op names, tier names, the first invalid UTF-8 byte.
#include "plurnk/ast.hpp"

#include <array>

#include "base/utf8.hpp"
#include "grammar/op_table.hpp"
#include "plurnk/parse.hpp"

namespace plurnk {

namespace {
constexpr std::array<const char*, 4> k_tier_names = {"parse", "statements", "log", "client"};
constexpr std::array<const char*, 2> k_dialect_names = {"contracts", "service"};
}  // namespace

// (the keywords are string literals, so their data is NUL-terminated)
const char* op_name(op o) noexcept { return detail::traits(o).keyword.data(); }

std::optional<op> op_from_name(std::string_view word) noexcept {
    for (const detail::op_traits& t : detail::k_ops) {
        if (word == t.keyword) return t.op;
    }
    return std::nullopt;
}

std::size_t first_invalid_utf8(std::string_view input) noexcept {
    for (std::size_t i = 0; i < input.size();) {
        const std::size_t len = detail::utf8_sequence_length(input, i);
        if (len == 0) return i;
        i += len;
    }
    return std::string_view::npos;
}

const char* tier_name(tier t) noexcept { return k_tier_names[static_cast<std::size_t>(t)]; }

std::optional<tier> tier_from_name(std::string_view name) noexcept {
    for (std::size_t i = 0; i < k_tier_names.size(); ++i) {
        if (name == k_tier_names[i]) return static_cast<tier>(i);
    }
    return std::nullopt;
}

const char* dialect_name(parse_dialect d) noexcept { return k_dialect_names[static_cast<std::size_t>(d)]; }

std::optional<parse_dialect> dialect_from_name(std::string_view name) noexcept {
    for (std::size_t i = 0; i < k_dialect_names.size(); ++i) {
        if (name == k_dialect_names[i]) return static_cast<parse_dialect>(i);
    }
    return std::nullopt;
}

}  // namespace plurnk
