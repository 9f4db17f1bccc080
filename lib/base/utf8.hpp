// SPDX-License-Identifier: MIT
// The library's one UTF-8 codec (private header): sequence validation shared by positions, the
// lexer and the JSON writer; decoding, encoding and the UTF-16 view the JavaScript-faithful
// validators (regex, JSONPath, XPath) work in, and the byte offset of a code unit, found again
// when an error needs it, so their error offsets point back into the caller's UTF-8. The policy
// (doc/limits.md): a byte that does not start a well-formed sequence (overlongs, surrogates and
// code points past U+10FFFF are ill-formed) is one column and one U+FFFD. The regex validator
// alone reads the generalized (WTF-8) three-byte form of a surrogate as that surrogate
// (utf8_surrogates::decoded), as the stored strings of parse_json are written. The fuzz oracle
// (fuzz/invariants.hpp) keeps its own decoder on purpose, so that it does not share a bug with
// what it checks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

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

// --- decoding ---

// What a decoder makes of ED A0..BF 80..BF, the generalized three-byte form of a surrogate.
enum class utf8_surrogates : bool {
    ill_formed,  // one U+FFFD per byte, like every other ill-formed sequence
    decoded,     // the surrogate itself (WTF-8)
};

// One decoded sequence.
struct utf8_char {
    std::uint32_t code_point;  // U+FFFD for an ill-formed byte
    std::size_t length;        // bytes consumed: 1 for an ill-formed byte
    bool well_formed;
};

// Decodes the sequence starting at s[i] (i < s.size()). A byte that does not start a well-formed
// sequence (including one cut short by the end of s) decodes to U+FFFD and spans that one byte.
inline utf8_char utf8_decode(std::string_view s, std::size_t i,
                             utf8_surrogates surrogates = utf8_surrogates::ill_formed) noexcept {
    const auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0x80) return {b0, 1, true};
    std::size_t len = utf8_sequence_length(s, i);
    if (len == 0 && surrogates == utf8_surrogates::decoded && b0 == 0xED && i + 3 <= s.size()) {
        const auto b1 = static_cast<unsigned char>(s[i + 1]);
        const auto b2 = static_cast<unsigned char>(s[i + 2]);
        if (b1 >= 0xA0 && b1 <= 0xBF && b2 >= 0x80 && b2 <= 0xBF) len = 3;
    }
    if (len == 0) return {0xFFFD, 1, false};
    std::uint32_t cp = b0 & (len == 2 ? 0x1Fu : len == 3 ? 0x0Fu : 0x07u);
    for (std::size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3Fu);
    return {cp, len, true};
}

// --- encoding ---

// Appends code point cp (<= U+10FFFF) as UTF-8; a surrogate gets its generalized 3-byte form, as
// parse_json stores a lone one.
inline void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        const char b[2] = {static_cast<char>(0xC0 | (cp >> 6)), static_cast<char>(0x80 | (cp & 0x3F))};
        out.append(b, 2);
    } else if (cp < 0x10000) {
        const char b[3] = {static_cast<char>(0xE0 | (cp >> 12)), static_cast<char>(0x80 | ((cp >> 6) & 0x3F)),
                           static_cast<char>(0x80 | (cp & 0x3F))};
        out.append(b, 3);
    } else {
        const char b[4] = {static_cast<char>(0xF0 | (cp >> 18)), static_cast<char>(0x80 | ((cp >> 12) & 0x3F)),
                           static_cast<char>(0x80 | ((cp >> 6) & 0x3F)), static_cast<char>(0x80 | (cp & 0x3F))};
        out.append(b, 4);
    }
}

// Appends a UTF-16 code unit (or any code point below U+10000) as UTF-8; a lone surrogate gets
// its 3-byte generalized form, as parse_json stores it.
inline void append_utf16_unit(std::string& out, std::uint32_t u) { append_utf8(out, u); }

// --- UTF-16 ---

constexpr bool is_high_surrogate(std::uint32_t u) noexcept { return u >= 0xD800 && u <= 0xDBFF; }
constexpr bool is_low_surrogate(std::uint32_t u) noexcept { return u >= 0xDC00 && u <= 0xDFFF; }
constexpr std::uint32_t combine_surrogates(std::uint32_t high, std::uint32_t low) noexcept {
    return 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
}

// Appends code point cp as UTF-16: a surrogate pair past U+FFFF, one unit otherwise.
inline void append_utf16(std::u16string& out, std::uint32_t cp) {
    if (cp >= 0x10000) {
        out.push_back(static_cast<char16_t>(0xD800 + ((cp - 0x10000) >> 10)));
        out.push_back(static_cast<char16_t>(0xDC00 + ((cp - 0x10000) & 0x3FF)));
    } else {
        out.push_back(static_cast<char16_t>(cp));
    }
}

// A UTF-8 text as UTF-16 code units. A sequence never gives more code units than it has bytes,
// so the string is sized once and cut to length at the end.
inline std::u16string to_utf16(std::string_view s, utf8_surrogates surrogates = utf8_surrogates::ill_formed) {
    std::u16string units;
    units.resize(s.size());
    char16_t* unit = units.data();
    std::size_t n = 0;
    for (std::size_t i = 0; i < s.size();) {
        const auto b0 = static_cast<unsigned char>(s[i]);
        if (b0 < 0x80) {
            unit[n++] = b0;
            ++i;
            continue;
        }
        const utf8_char c = utf8_decode(s, i, surrogates);
        if (c.code_point >= 0x10000) {
            unit[n++] = static_cast<char16_t>(0xD800 + ((c.code_point - 0x10000) >> 10));
            unit[n++] = static_cast<char16_t>(0xDC00 + ((c.code_point - 0x10000) & 0x3FF));
        } else {
            unit[n++] = static_cast<char16_t>(c.code_point);
        }
        i += c.length;
    }
    units.resize(n);
    return units;
}

// The byte offset in s where the character of to_utf16(s, surrogates)'s code unit `unit` starts
// (both units of a pair share it); s.size() for the unit count and past it. Decodes s again up to
// that unit rather than keeping an offset per unit: it is asked once, for an error's position.
inline std::size_t utf16_unit_byte_offset(std::string_view s, std::size_t unit,
                                          utf8_surrogates surrogates = utf8_surrogates::ill_formed) noexcept {
    std::size_t n = 0;
    for (std::size_t i = 0; i < s.size();) {
        const auto b0 = static_cast<unsigned char>(s[i]);
        if (b0 < 0x80) {
            if (unit == n) return i;
            ++n;
            ++i;
            continue;
        }
        const utf8_char c = utf8_decode(s, i, surrogates);
        n += c.code_point >= 0x10000 ? 2 : 1;
        if (unit < n) return i;
        i += c.length;
    }
    return s.size();
}

// Appends UTF-16 code units as UTF-8. A surrogate without its partner (a slice by code unit can
// cut a pair) has no UTF-8 form and is written as U+FFFD.
inline void append_utf16_as_utf8(std::string& out, std::u16string_view units) {
    for (std::size_t i = 0; i < units.size(); ++i) {
        const std::uint32_t u = units[i];
        if (is_high_surrogate(u) && i + 1 < units.size() && is_low_surrogate(units[i + 1])) {
            append_utf8(out, combine_surrogates(u, units[i + 1]));
            ++i;
        } else if (is_high_surrogate(u) || is_low_surrogate(u)) {
            append_utf8(out, 0xFFFD);
        } else {
            append_utf8(out, u);
        }
    }
}

}  // namespace plurnk::detail
