// SPDX-License-Identifier: MIT
// Fuzzes the canonical producer (plurnk/format.hpp) and asserts P11 and P16 (invariants.hpp):
// every statement the parse admits formats, parses back to itself and formats to the same text
// again, and format_source keeps the items and is a fixpoint; and the migration into the other
// dialect reads back as the same statements or notes them. The first byte picks the tier (its
// value mod 4: parse, statements, log, client) and the dialect read (bit 2: contracts, service);
// the rest is the document.
#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    constexpr plurnk::tier k_tiers[] = {plurnk::tier::parse, plurnk::tier::statements, plurnk::tier::log,
                                        plurnk::tier::client};
    const plurnk::tier t = k_tiers[data[0] % 4];
    const bool service = (data[0] & 4) != 0;
    plurnk::parse_options o;
    o.dialect = service ? plurnk::parse_dialect::service : plurnk::parse_dialect::contracts;
    const std::string_view in = plurnk::fuzz::as_view(data + 1, size - 1);
    plurnk::fuzz::require(plurnk::fuzz::check_format(in, t, o));
    plurnk::fuzz::require(
        plurnk::fuzz::check_migrate(in, t, service ? plurnk::parse_dialect::contracts : plurnk::parse_dialect::service, o));
    return 0;
}
