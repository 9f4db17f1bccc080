// SPDX-License-Identifier: MIT
// Fuzzes plurnk::parse_json / canonical_json / stringify_json against simdjson (check_json in invariants.hpp).
#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    plurnk::fuzz::require(plurnk::fuzz::check_json(plurnk::fuzz::as_view(data, size)));
    return 0;
}
