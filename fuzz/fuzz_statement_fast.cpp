// SPDX-License-Identifier: MIT
// Fuzzes the statement parser's fast path (lib/statement_fast.hpp) against the productions alone,
// in all four tiers: the parse state after every token, and the results, must be the same with
// the fast path on and off (P13, check_statement_fast in invariants.hpp), on the input and, when
// it is short, on the input four times over; and on the input in the service dialect, whose
// shapes and regex units the clean step reads too.
#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view in = plurnk::fuzz::as_view(data, size);
    // A short input also four times over: repeated error cycles are what the fast path's cycle
    // replay copies instead of running.
    std::string repeated;
    if (size <= 256) {
        for (int i = 0; i < 4; ++i) repeated += in;
    }
    for (const plurnk::tier t : {plurnk::tier::parse, plurnk::tier::statements, plurnk::tier::log, plurnk::tier::client}) {
        plurnk::fuzz::require(plurnk::fuzz::check_statement_fast(in, t));
        if (!repeated.empty()) plurnk::fuzz::require(plurnk::fuzz::check_statement_fast(repeated, t));
        plurnk::fuzz::require(plurnk::fuzz::check_statement_fast(in, t, plurnk::parse_dialect::service));
    }
    return 0;
}
