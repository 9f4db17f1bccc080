// SPDX-License-Identifier: MIT
// ASCII character classes (private header), the one definition the lexer, the builder, the
// validators, the JSON reader and the rail share. They are locale-free on purpose: <cctype>
// depends on the C locale, which a host program (Python, for one) may change. Each predicate
// takes a std::uint32_t so that a byte, a UTF-16 code unit, a code point or an end-of-input
// marker can be passed as it is: a signed `char` above 0x7F or a negative marker converts to a
// value past ASCII and is in no class.
#pragma once

#include <cstdint>

namespace plurnk::ascii {

constexpr bool is_digit(std::uint32_t c) noexcept { return c >= '0' && c <= '9'; }
constexpr bool is_upper(std::uint32_t c) noexcept { return c >= 'A' && c <= 'Z'; }
constexpr bool is_lower(std::uint32_t c) noexcept { return c >= 'a' && c <= 'z'; }
constexpr bool is_alpha(std::uint32_t c) noexcept { return is_upper(c) || is_lower(c); }
constexpr bool is_alnum(std::uint32_t c) noexcept { return is_alpha(c) || is_digit(c); }
constexpr bool is_hex_digit(std::uint32_t c) noexcept {
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// [A-Za-z0-9_]: an identifier character of the command language (op suffixes, executor
// names), the word characters of a matcher body, and V8's property-name characters.
constexpr bool is_word_char(std::uint32_t c) noexcept { return is_alnum(c) || c == '_'; }

// Space, tab, CR and LF: whitespace in JSON (RFC 8259 §2), XML and XPath 1.0 (S), and JSONPath
// (RFC 9535 B). Form feed and vertical tab are not included.
constexpr bool is_whitespace(std::uint32_t c) noexcept {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

// The value of a hex digit, or -1 when c is not one.
constexpr int hex_value(std::uint32_t c) noexcept {
    if (is_digit(c)) return static_cast<int>(c - '0');
    if (c >= 'a' && c <= 'f') return static_cast<int>(c - 'a' + 10);
    if (c >= 'A' && c <= 'F') return static_cast<int>(c - 'A' + 10);
    return -1;
}

// A-Z to a-z; every other byte unchanged.
constexpr char to_lower(char c) noexcept {
    return is_upper(static_cast<unsigned char>(c)) ? static_cast<char>(c + ('a' - 'A')) : c;
}

}  // namespace plurnk::ascii
