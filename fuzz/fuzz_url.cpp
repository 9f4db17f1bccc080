// SPDX-License-Identifier: MIT
// Fuzzes plurnk::parse_url: href is ASCII, idempotent, deterministic (check_url in invariants.hpp).
#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    plurnk::fuzz::require(plurnk::fuzz::check_url(plurnk::fuzz::as_view(data, size)));
    return 0;
}
