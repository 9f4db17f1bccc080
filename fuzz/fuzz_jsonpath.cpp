// SPDX-License-Identifier: MIT
// Fuzzes plurnk::validate_jsonpath and check_jsonpath_matcher (check_jsonpath in invariants.hpp).
#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    plurnk::fuzz::require(plurnk::fuzz::check_jsonpath(plurnk::fuzz::as_view(data, size)));
    return 0;
}
