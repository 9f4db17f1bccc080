// SPDX-License-Identifier: MIT
// Fuzzes plurnk::parse_path and parse_resource_selection (check_path in invariants.hpp).
#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    plurnk::fuzz::require(plurnk::fuzz::check_path(plurnk::fuzz::as_view(data, size)));
    return 0;
}
