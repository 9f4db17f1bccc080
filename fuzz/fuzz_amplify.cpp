// SPDX-License-Identifier: MIT
// Fuzzes the work bound (P10 in invariants.hpp) at scale: the fuzz input is amplified to 16-256
// KB - repeated, repeated after a PLAN opener, or nested (its first half repeated, then its
// second half as often) - and parsed one-shot and streamed in 1- to 16-byte chunks in one tier;
// a quadratic path then costs thousands of times the bound and aborts. The first byte picks the
// shape, the tier and the size; the rest is the unit.
#include "fuzz_target.hpp"

namespace {

std::string amplify(std::string_view unit, unsigned shape, std::size_t size) {
    std::string out;
    out.reserve(size + 2 * unit.size() + 16);
    if (unit.empty()) return out;
    switch (shape) {
        case 0:
            while (out.size() + unit.size() <= size) out += unit;
            break;
        case 1:
            out = "<<PLAN:p:PLAN\n";
            while (out.size() + unit.size() <= size) out += unit;
            break;
        default: {
            const std::string_view a = unit.substr(0, (unit.size() + 1) / 2), b = unit.substr(a.size());
            const std::size_t n = size / unit.size();
            for (std::size_t i = 0; i < n; ++i) out += a;
            for (std::size_t i = 0; i < n; ++i) out += b;
        }
    }
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2 || size > 4096) return 0;
    const std::string_view in = plurnk::fuzz::as_view(data, size);
    const auto c = static_cast<unsigned char>(in[0]);
    static constexpr plurnk::tier k_tiers[] = {plurnk::tier::parse, plurnk::tier::statements, plurnk::tier::log,
                                               plurnk::tier::client};
    const std::size_t target = std::size_t{16} << (10 + (c >> 6));  // 16, 32, 64 or 128 KB
    const std::string big = amplify(in.substr(1), c % 3, (c & 8) ? 2 * target : target);
    plurnk::fuzz::require(plurnk::fuzz::check_work(big, k_tiers[(c >> 4) & 3]));
    return 0;
}
