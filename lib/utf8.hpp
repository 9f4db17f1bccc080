// SPDX-License-Identifier: MIT
// UTF-8 sequence validation shared by positions, the lexer and the JSON writer (private header).
// The policy (doc/limits.md): a byte that does not start a well-formed sequence (overlongs,
// surrogates and code points past U+10FFFF are ill-formed) is one column and one U+FFFD.
#pragma once

#include <cstddef>
#include <string_view>

namespace plurnk::detail {

// Length of the lead byte's sequence if it were well formed (1 for ASCII, 0 for a byte that can
// never start one).
inline std::size_t utf8_expected_length(unsigned char b0) noexcept {
    if (b0 < 0x80) return 1;
    if (b0 >= 0xC2 && b0 <= 0xDF) return 2;
    if (b0 >= 0xE0 && b0 <= 0xEF) return 3;
    if (b0 >= 0xF0 && b0 <= 0xF4) return 4;
    return 0;
}

// Length of the well-formed sequence starting at s[i], or 0 when none starts there (including a
// sequence cut short by the end of s).
inline std::size_t utf8_sequence_length(std::string_view s, std::size_t i) noexcept {
    const auto b0 = static_cast<unsigned char>(s[i]);
    const std::size_t len = utf8_expected_length(b0);
    if (len <= 1) return len;
    if (i + len > s.size()) return 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
    const auto b1 = static_cast<unsigned char>(s[i + 1]);
    if (b1 < lo || b1 > hi) return 0;
    for (std::size_t k = 2; k < len; ++k) {
        const auto b = static_cast<unsigned char>(s[i + k]);
        if (b < 0x80 || b > 0xBF) return 0;
    }
    return len;
}

}  // namespace plurnk::detail
