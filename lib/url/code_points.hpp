// SPDX-License-Identifier: MIT
// The URL Standard's code point classes, percent-encode sets and special schemes (private header,
// lib/url): the one definition that the full parser (url.cpp), the target route's scheme-prefix
// test (path.cpp) and the targets' fast path (fast_path.cpp, whose byte table is built from these
// at compile time) share. Bytes, not code points: every non-ASCII byte is in every
// percent-encode set (url.cpp says why that is exact).
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "base/ascii.hpp"

namespace plurnk::url_detail {

// spec: §4.4 scheme state: a scheme's code points after the first, an ASCII letter.
constexpr bool is_scheme_char(std::uint32_t c) noexcept {
    return ascii::is_alnum(c) || c == '+' || c == '-' || c == '.';
}

// spec: §1.3 percent-encode sets.
enum class encode_set : std::uint8_t { c0_control, fragment, query, special_query, path, userinfo };

constexpr bool in_set(unsigned char c, encode_set set) noexcept {
    if (c < 0x20 || c > 0x7E) return true;
    switch (set) {
        case encode_set::c0_control: return false;
        case encode_set::fragment: return c == ' ' || c == '"' || c == '<' || c == '>' || c == '`';
        case encode_set::query: return c == ' ' || c == '"' || c == '#' || c == '<' || c == '>';
        case encode_set::special_query:
            return c == ' ' || c == '"' || c == '#' || c == '<' || c == '>' || c == '\'';
        case encode_set::path:
            return c == ' ' || c == '"' || c == '#' || c == '<' || c == '>' || c == '?' || c == '`' ||
                   c == '{' || c == '}';
        case encode_set::userinfo:
            return c == ' ' || c == '"' || c == '#' || c == '<' || c == '>' || c == '?' || c == '`' ||
                   c == '{' || c == '}' || c == '/' || c == ':' || c == ';' || c == '=' || c == '@' ||
                   (c >= '[' && c <= '^') || c == '|';
    }
    return false;
}

// spec: §3.1 forbidden host / domain code points.
constexpr bool is_forbidden_host(char c) noexcept {
    switch (c) {
        case '\0': case '\t': case '\n': case '\r': case ' ': case '#': case '/': case ':':
        case '<': case '>': case '?': case '@': case '[': case '\\': case ']': case '^': case '|':
            return true;
        default: return false;
    }
}
constexpr bool is_forbidden_domain(char c) noexcept {
    const auto u = static_cast<unsigned char>(c);
    return is_forbidden_host(c) || u <= 0x1F || c == '%' || u == 0x7F;
}

// spec: §4.1 special schemes and their default ports (-1: none, `file`).
struct special_scheme {
    std::string_view name;
    int port;
};
inline constexpr std::array<special_scheme, 6> k_special = {{
    {"ftp", 21}, {"file", -1}, {"http", 80}, {"https", 443}, {"ws", 80}, {"wss", 443},
}};

// The special scheme named `scheme` (lowercase), or nullptr.
constexpr const special_scheme* find_special(std::string_view scheme) noexcept {
    for (const special_scheme& s : k_special) {
        if (s.name == scheme) return &s;
    }
    return nullptr;
}

}  // namespace plurnk::url_detail
