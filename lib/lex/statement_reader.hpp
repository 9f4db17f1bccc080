// SPDX-License-Identifier: MIT
// The lexer's whole-statement fast path (private header; lexer_fast.cpp). On by default; the
// differential tests and the fuzz target turn it off to compare the steps alone. The switch is
// read when a lexer is constructed.
#pragma once

namespace plurnk::detail {

void set_lexer_fast_path(bool on) noexcept;
[[nodiscard]] bool lexer_fast_path() noexcept;

}  // namespace plurnk::detail
