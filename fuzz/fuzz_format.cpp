// SPDX-License-Identifier: MIT
// Fuzzes the canonical producer (plurnk/format.hpp) and asserts P11 (invariants.hpp): every
// statement the parse admits formats, parses back to itself and formats to the same text again,
// and format_source keeps the items and is a fixpoint. The first byte picks the tier (its value
// mod 4: parse, statements, log, client); the rest is the document.
#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    constexpr plurnk::tier k_tiers[] = {plurnk::tier::parse, plurnk::tier::statements, plurnk::tier::log,
                                        plurnk::tier::client};
    const plurnk::tier t = k_tiers[data[0] % 4];
    plurnk::fuzz::require(plurnk::fuzz::check_format(plurnk::fuzz::as_view(data + 1, size - 1), t));
    return 0;
}
