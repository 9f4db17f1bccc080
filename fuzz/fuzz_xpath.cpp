// SPDX-License-Identifier: MIT
// Fuzzes plurnk::validate_xpath and check_xpath_matcher (check_xpath in invariants.hpp).
#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    plurnk::fuzz::require(plurnk::fuzz::check_xpath(plurnk::fuzz::as_view(data, size)));
    return 0;
}
