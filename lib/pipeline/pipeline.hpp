// SPDX-License-Identifier: MIT
// What the two drivers share (private header): parse() (parse.cpp) and the push parser
// (stream.cpp) run the lexer, the statement parser and the result builder over an input.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "base/position.hpp"
#include "builder/result_builder.hpp"
#include "lex/lexer.hpp"
#include "plurnk/parse.hpp"
#include "syntax/statement_parser.hpp"

namespace plurnk::detail {

// parse_options::max_input_bytes, capped at what 32-bit offsets can address.
inline std::size_t input_limit(const parse_options& o) noexcept {
    return std::min(o.max_input_bytes, parse_options::k_max_input_bytes);
}

// parse() with windows of `window` tokens (parse.cpp; SIZE_MAX: the whole input in one). Every
// window size gives the same result; the tests check that.
parse_result parse_in_windows(std::string_view input, tier t, const parse_options& options, std::size_t window);

// The last item of a result whose input went past max_input_bytes: where parsing stopped and how
// much was left out.
void append_input_limit_error(parse_result& r, position end, std::uint64_t parsed, std::uint64_t total);

}  // namespace plurnk::detail
