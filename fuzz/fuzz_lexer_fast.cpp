// SPDX-License-Identifier: MIT
// Fuzzes the lexer's whole-statement fast path (lib/lexer_fast.cpp) against the lexer's steps
// alone: the output for the whole input, one-shot and streamed in chunks of 1, 3, 7 and 64 bytes,
// must be the same with the fast path on and off, and the tokens a stream holds after each chunk
// a prefix of it (P15, check_lexer_fast in invariants.hpp); also with a turn depth limit of 2, and
// in the service dialect (its regex units and `#` bodies are read by the fast path too).
#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view in = plurnk::fuzz::as_view(data, size);
    plurnk::fuzz::require(plurnk::fuzz::check_lexer_fast(in));
    plurnk::fuzz::require(plurnk::fuzz::check_lexer_fast(in, 2));
    plurnk::fuzz::require(plurnk::fuzz::check_lexer_fast(in, plurnk::parse_options{}.max_turn_depth, plurnk::parse_dialect::service));
    return 0;
}
