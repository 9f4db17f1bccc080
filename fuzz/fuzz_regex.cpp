// SPDX-License-Identifier: MIT
// Fuzzes plurnk::validate_regex, split_regex and check_regex_matcher (check_regex in invariants.hpp).
#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    plurnk::fuzz::require(plurnk::fuzz::check_regex(plurnk::fuzz::as_view(data, size)));
    return 0;
}
