// SPDX-License-Identifier: MIT
// Fuzzes plurnk::parse in the `statements` tier and asserts the parse invariants P1-P9 (invariants.hpp).
#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view in = plurnk::fuzz::as_view(data, size);
    plurnk::fuzz::require(plurnk::fuzz::check_parse(in, plurnk::tier::statements));
    return 0;
}
