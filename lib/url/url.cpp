// SPDX-License-Identifier: MIT
// The WHATWG URL parser without a base URL (spec: URL Standard §4.4 "basic URL parser"), as
// Node 20's global `URL` (ada 2.9) applies it. The input is cleaned first (ill-formed UTF-8
// becomes U+FFFD as a JavaScript string would hold it, leading/trailing C0-control-or-space
// is trimmed, ASCII tab and newline are removed), then one pass of the spec's state machine
// runs over the bytes. Working on UTF-8 bytes instead of code points is exact here: every
// non-ASCII code point is in every percent-encode set, so encoding it byte by byte gives the
// spec's UTF-8 percent-encoding, and the authority rewind counts bytes on both sides. Hosts
// go through the host parser (IPv6, opaque host, domain-to-ASCII via idna.cpp, IPv4 with its
// hex/octal/shortened forms); the record is serialized into the getters Node exposes.
// Where ada 2.9 departs from the current standard the parser follows ada, because Node is
// the reference: U+005E (^) is not in the path percent-encode set; spaces in an opaque path
// are kept; a path made only of plain bytes and dots may be copied verbatim with its dot
// segments (ada_verbatim_path); a final `..` on an empty non-special path leaves it empty;
// a lone file segment that starts like a drive letter (`a:b`) is never popped. Each quirk
// was confirmed against Node. No exceptions; every loop is bounded by the input.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/ascii.hpp"
#include "base/utf8.hpp"
#include "code_points.hpp"
#include "idna.hpp"
#include "url.hpp"
#include "plurnk/path.hpp"

namespace plurnk {
namespace {

// ---------------------------------------------------------------------------------------
// Code point classes and percent-encode sets (spec: §1.3 Percent-encoded bytes): code_points.hpp.

using ascii::hex_value;
using ascii::is_alpha;
using ascii::is_digit;
using ascii::is_hex_digit;
using ascii::to_lower;

using url_detail::encode_set;
using url_detail::in_set;

void percent_encode(std::string& out, char ch, encode_set set) {
    const auto c = static_cast<unsigned char>(ch);
    if (!in_set(c, set)) {
        out.push_back(ch);
        return;
    }
    constexpr char k_hex[] = "0123456789ABCDEF";
    out.push_back('%');
    out.push_back(k_hex[c >> 4]);
    out.push_back(k_hex[c & 15]);
}

// spec: §1.3 percent-decode a byte sequence.
std::string percent_decode(std::string_view in) {
    std::string out;
    out.reserve(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) {
        if (in[i] == '%' && i + 2 < in.size() && is_hex_digit(in[i + 1]) && is_hex_digit(in[i + 2])) {
            out.push_back(static_cast<char>(hex_value(in[i + 1]) * 16 + hex_value(in[i + 2])));
            i += 2;
        } else {
            out.push_back(in[i]);
        }
    }
    return out;
}

using url_detail::is_forbidden_domain;
using url_detail::is_forbidden_host;

// ---------------------------------------------------------------------------------------
// Schemes (spec: §4.1 special scheme, default port).

bool is_special(std::string_view scheme) noexcept { return url_detail::find_special(scheme) != nullptr; }
int default_port(std::string_view scheme) noexcept {
    const url_detail::special_scheme* s = url_detail::find_special(scheme);
    return s != nullptr ? s->port : -1;
}

// ---------------------------------------------------------------------------------------
// Hosts (spec: §3.5 host parsing, §3.6 host serializing).

// spec: §3.5 IPv4 number parser. nullopt on failure; values saturate above 2^32.
std::optional<std::uint64_t> parse_ipv4_number(std::string_view in) {
    if (in.empty()) return std::nullopt;
    unsigned radix = 10;
    if (in.size() >= 2 && in[0] == '0' && (in[1] == 'x' || in[1] == 'X')) {
        in.remove_prefix(2);
        radix = 16;
    } else if (in.size() >= 2 && in[0] == '0') {
        in.remove_prefix(1);
        radix = 8;
    }
    if (in.empty()) return 0;
    std::uint64_t value = 0;
    for (char c : in) {
        unsigned d = 0;
        if (radix == 16 && is_hex_digit(c)) d = static_cast<unsigned>(hex_value(c));
        else if (radix == 10 && is_digit(c)) d = static_cast<unsigned>(c - '0');
        else if (radix == 8 && c >= '0' && c <= '7') d = static_cast<unsigned>(c - '0');
        else return std::nullopt;
        value = value * radix + d;
        if (value > (std::uint64_t{1} << 40)) value = std::uint64_t{1} << 40;  // saturate
    }
    return value;
}

// The host without one trailing dot, whose dot-separated parts are the spec's parts less the
// empty last one it removes ("." keeps one empty part, as the spec's list does). The parts are
// read in place, never split into a list: a host can be a megabyte of `1.1.1.…`.
std::string_view without_trailing_dot(std::string_view in) noexcept {
    if (!in.empty() && in.back() == '.') in.remove_suffix(1);
    return in;
}

// spec: §3.5 ends in a number checker.
bool ends_in_number(std::string_view in) {
    if (in.empty()) return false;
    in = without_trailing_dot(in);
    const std::size_t dot = in.rfind('.');
    const std::string_view last = dot == std::string_view::npos ? in : in.substr(dot + 1);
    if (!last.empty()) {
        bool digits = true;
        for (char c : last) digits = digits && is_digit(c);
        if (digits) return true;
    }
    return parse_ipv4_number(last).has_value();
}

// spec: §3.5 IPv4 parser, then §3.6 serialization.
std::optional<std::string> parse_ipv4(std::string_view in) {
    in = without_trailing_dot(in);
    if (std::count(in.begin(), in.end(), '.') > 3) return std::nullopt;
    std::vector<std::uint64_t> numbers;
    for (std::size_t start = 0;;) {
        const std::size_t dot = in.find('.', start);
        auto n = parse_ipv4_number(in.substr(start, dot == std::string_view::npos ? in.size() - start : dot - start));
        if (!n) return std::nullopt;
        numbers.push_back(*n);
        if (dot == std::string_view::npos) break;
        start = dot + 1;
    }
    for (std::size_t i = 0; i + 1 < numbers.size(); ++i) if (numbers[i] > 255) return std::nullopt;
    const std::uint64_t limit = std::uint64_t{1} << (8 * (5 - numbers.size()));
    if (numbers.back() >= limit) return std::nullopt;
    std::uint64_t ipv4 = numbers.back();
    for (std::size_t i = 0; i + 1 < numbers.size(); ++i) ipv4 += numbers[i] << (8 * (3 - i));
    std::string out;
    for (int shift = 24; shift >= 0; shift -= 8) {
        out += std::to_string((ipv4 >> shift) & 255U);
        if (shift > 0) out.push_back('.');
    }
    return out;
}

// spec: §3.5 IPv6 parser, then §3.6 IPv6 serializer (with the brackets).
std::optional<std::string> parse_ipv6(std::string_view in) {
    std::array<std::uint16_t, 8> address{};
    std::size_t piece = 0;
    std::optional<std::size_t> compress;
    std::size_t p = 0;
    const std::size_t n = in.size();
    auto at = [&](std::size_t i) { return i < n ? in[i] : '\0'; };
    if (at(p) == ':') {
        if (at(p + 1) != ':') return std::nullopt;
        p += 2;
        ++piece;
        compress = piece;
    }
    while (p < n) {
        if (piece == 8) return std::nullopt;
        if (in[p] == ':') {
            if (compress) return std::nullopt;
            ++p;
            ++piece;
            compress = piece;
            continue;
        }
        unsigned value = 0;
        std::size_t length = 0;
        while (length < 4 && p < n && is_hex_digit(in[p])) {
            value = value * 16 + static_cast<unsigned>(hex_value(in[p]));
            ++p;
            ++length;
        }
        if (p < n && in[p] == '.') {
            if (length == 0) return std::nullopt;
            p -= length;
            if (piece > 6) return std::nullopt;
            int numbers_seen = 0;
            while (p < n) {
                int ipv4_piece = -1;
                if (numbers_seen > 0) {
                    if (in[p] == '.' && numbers_seen < 4) ++p;
                    else return std::nullopt;
                }
                if (p >= n || !is_digit(in[p])) return std::nullopt;
                while (p < n && is_digit(in[p])) {
                    const int number = in[p] - '0';
                    if (ipv4_piece == -1) ipv4_piece = number;
                    else if (ipv4_piece == 0) return std::nullopt;
                    else ipv4_piece = ipv4_piece * 10 + number;
                    if (ipv4_piece > 255) return std::nullopt;
                    ++p;
                }
                address[piece] = static_cast<std::uint16_t>(address[piece] * 0x100 + ipv4_piece);
                ++numbers_seen;
                if (numbers_seen == 2 || numbers_seen == 4) ++piece;
            }
            if (numbers_seen != 4) return std::nullopt;
            break;
        }
        if (p < n && in[p] == ':') {
            ++p;
            if (p >= n) return std::nullopt;
        } else if (p < n) {
            return std::nullopt;
        }
        address[piece] = static_cast<std::uint16_t>(value);
        ++piece;
    }
    if (compress) {
        std::size_t swaps = piece - *compress;
        piece = 7;
        while (piece != 0 && swaps > 0) {
            std::swap(address[piece], address[*compress + swaps - 1]);
            --piece;
            --swaps;
        }
    } else if (piece != 8) {
        return std::nullopt;
    }
    // Serialize: compress the first longest run of two or more zero pieces.
    std::size_t best_start = 8, best_len = 1;
    for (std::size_t i = 0; i < 8;) {
        if (address[i] != 0) { ++i; continue; }
        std::size_t j = i;
        while (j < 8 && address[j] == 0) ++j;
        if (j - i > best_len) { best_start = i; best_len = j - i; }
        i = j;
    }
    std::string out = "[";
    bool ignore0 = false;
    for (std::size_t i = 0; i < 8; ++i) {
        if (ignore0 && address[i] == 0) continue;
        ignore0 = false;
        if (i == best_start) {
            out += (i == 0) ? "::" : ":";
            ignore0 = true;
            continue;
        }
        constexpr char k_hex[] = "0123456789abcdef";
        char buf[4];
        std::size_t len = 0;
        unsigned v = address[i];
        do { buf[len++] = k_hex[v & 15]; v >>= 4; } while (v != 0);
        while (len > 0) out.push_back(buf[--len]);
        if (i != 7) out.push_back(':');
    }
    out.push_back(']');
    return out;
}

// spec: §3.5 host parser. Returns the serialized host.
std::optional<std::string> parse_host(std::string_view in, bool is_opaque) {
    if (!in.empty() && in.front() == '[') {
        if (in.size() < 2 || in.back() != ']') return std::nullopt;
        return parse_ipv6(in.substr(1, in.size() - 2));
    }
    if (is_opaque) {
        // spec: opaque-host parser.
        std::string out;
        for (char c : in) {
            if (is_forbidden_host(c)) return std::nullopt;
            percent_encode(out, c, encode_set::c0_control);
        }
        return out;
    }
    // Decoded into a copy only when there is something to decode: the host can be most of the URL.
    const bool escaped = in.find('%') != std::string_view::npos;
    auto ascii = url_detail::domain_to_ascii(escaped ? std::string_view(percent_decode(in)) : in);
    if (!ascii || ascii->empty()) return std::nullopt;
    for (char c : *ascii) if (is_forbidden_domain(c)) return std::nullopt;
    if (ends_in_number(*ascii)) return parse_ipv4(*ascii);
    return ascii;
}

// ---------------------------------------------------------------------------------------
// The record and the state machine (spec: §4.4 basic URL parser).

struct record {
    std::string scheme;
    std::string username;
    std::string password;
    std::optional<std::string> host;
    std::optional<std::uint32_t> port;
    bool opaque_path = false;
    std::string opaque;
    std::vector<std::string> path;
    std::optional<std::string> query;
    std::optional<std::string> fragment;
};

bool is_windows_drive_letter(std::string_view s) noexcept {
    return s.size() == 2 && is_alpha(s[0]) && (s[1] == ':' || s[1] == '|');
}
bool is_normalized_drive_letter(std::string_view s) noexcept {
    return s.size() == 2 && is_alpha(s[0]) && s[1] == ':';
}

bool equals_ci(std::string_view a, std::string_view b) noexcept {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) if (to_lower(a[i]) != to_lower(b[i])) return false;
    return true;
}
bool is_single_dot(std::string_view s) noexcept { return s == "." || equals_ci(s, "%2e"); }
bool is_double_dot(std::string_view s) noexcept {
    return s == ".." || equals_ci(s, ".%2e") || equals_ci(s, "%2e.") || equals_ci(s, "%2e%2e");
}

// spec: shorten a URL's path. Like ada 2.9, a lone file segment that merely starts with a
// normalized drive letter (`a:b`) is kept too.
void shorten_path(record& url) {
    if (url.scheme == "file" && url.path.size() == 1 && url.path[0].size() >= 2 &&
        is_normalized_drive_letter(std::string_view(url.path[0]).substr(0, 2)))
        return;
    if (!url.path.empty()) url.path.pop_back();
}

// Input cleaning: ill-formed UTF-8 to U+FFFD (maximal subparts, as TextDecoder does), trim
// C0 control or space at both ends, drop ASCII tab or newline (spec: §4.4 steps 1-3).
std::string clean_input(std::string_view raw) {
    std::size_t b = 0, e = raw.size();
    while (b < e && static_cast<unsigned char>(raw[b]) <= 0x20) ++b;
    while (e > b && static_cast<unsigned char>(raw[e - 1]) <= 0x20) --e;
    std::string out;
    out.reserve(e - b);
    for (std::size_t i = b; i < e;) {
        const auto c = static_cast<unsigned char>(raw[i]);
        if (c == '\t' || c == '\n' || c == '\r') { ++i; continue; }
        if (c < 0x80) { out.push_back(static_cast<char>(c)); ++i; continue; }
        std::size_t len = 0;
        unsigned char lo = 0x80, hi = 0xBF;
        if (c >= 0xC2 && c <= 0xDF) len = 2;
        else if (c >= 0xE0 && c <= 0xEF) { len = 3; if (c == 0xE0) lo = 0xA0; if (c == 0xED) hi = 0x9F; }
        else if (c >= 0xF0 && c <= 0xF4) { len = 4; if (c == 0xF0) lo = 0x90; if (c == 0xF4) hi = 0x8F; }
        std::size_t k = 1;
        if (len != 0) {
            for (; k < len && i + k < e; ++k) {
                const auto cc = static_cast<unsigned char>(raw[i + k]);
                if (cc < (k == 1 ? lo : 0x80) || cc > (k == 1 ? hi : 0xBF)) break;
            }
        }
        if (len != 0 && k == len) {
            out.append(raw.substr(i, len));
            i += len;
        } else {
            out += "\xEF\xBF\xBD";
            i += (len == 0) ? 1 : k;
        }
    }
    return out;
}

// Whether clean_input(raw) would be raw itself: no C0 control or space at either end, no ASCII
// tab or newline, well-formed UTF-8 (then the parser reads raw in place, without a copy).
bool is_clean(std::string_view raw) noexcept {
    if (raw.empty()) return true;
    if (static_cast<unsigned char>(raw.front()) <= 0x20 || static_cast<unsigned char>(raw.back()) <= 0x20) return false;
    for (std::size_t i = 0; i < raw.size();) {
        const auto c = static_cast<unsigned char>(raw[i]);
        if (c == '\t' || c == '\n' || c == '\r') return false;
        if (c < 0x80) {
            ++i;
            continue;
        }
        const std::size_t len = detail::utf8_sequence_length(raw, i);
        if (len == 0) return false;
        i += len;
    }
    return true;
}

// ada 2.9's shortcut for a path view (the path up to `?`/`#`, after the slash that opened
// it): a view made only of bytes that need no encoding and dots, not starting with `.`, is
// copied verbatim -- dot segments included -- when the first `/.` in it is followed by a byte
// other than `.` or `/`. Node's `URL` shows this (`https://h/a/.x/../b` keeps its `..`), so
// the parser reproduces it. A file URL whose view starts with a drive letter never takes it.
bool ada_verbatim_path(std::string_view view, bool file) noexcept {
    if (view.empty() || view.front() == '.') return false;
    if (file && view.size() >= 2 && is_windows_drive_letter(view.substr(0, 2)) &&
        (view.size() == 2 || view[2] == '/' || view[2] == '\\' || view[2] == '?' || view[2] == '#'))
        return false;
    for (char c : view) {
        if (c == '\\' || c == '%' || in_set(static_cast<unsigned char>(c), encode_set::path)) return false;
    }
    const std::size_t slash_dot = view.find("/.");
    if (slash_dot == std::string_view::npos) return false;  // no dot segment: either way agrees
    return !(slash_dot + 2 == view.size() || view[slash_dot + 2] == '.' || view[slash_dot + 2] == '/');
}

enum class state : std::uint8_t {
    scheme_start, scheme, special_authority_slashes, special_authority_ignore_slashes,
    path_or_authority, authority, host, port, file, file_slash, file_host, path_start, path,
    opaque_path, query, fragment
};

// Whether `c` ends the authority (and the host) of a URL, special or not.
constexpr bool ends_authority(char c, bool special) noexcept {
    return c == '/' || c == '?' || c == '#' || (special && c == '\\');
}

// One run of the basic URL parser with no base and no state override.
std::optional<record> basic_parse(std::string_view input) {
    record url;
    state st = state::scheme_start;
    std::string buffer;
    bool at_sign_seen = false, inside_brackets = false, password_token_seen = false;
    bool special = false;
    bool verbatim = false;  // see ada_verbatim_path
    const std::size_t n = input.size();
    auto enter_path = [&](std::size_t view_start) {
        std::size_t end = view_start;
        while (end < n && input[end] != '?' && input[end] != '#') ++end;
        verbatim = view_start <= n &&
                   ada_verbatim_path(input.substr(view_start, end - view_start),
                                     url.scheme == "file");
        st = state::path;
    };
    // `p` runs one past the end to deliver EOF; it is only ever decremented after having been
    // advanced, and each state either consumes or changes state, so the loop terminates.
    for (std::size_t p = 0; p <= n; ++p) {
        const bool eof = p == n;
        const char c = eof ? '\0' : input[p];
        auto remaining_starts = [&](char x) { return p + 1 < n && input[p + 1] == x; };
        switch (st) {
            case state::scheme_start:
                if (!eof && is_alpha(c)) {
                    buffer.push_back(to_lower(c));
                    st = state::scheme;
                } else {
                    return std::nullopt;  // no scheme state with a null base
                }
                break;
            case state::scheme:
                if (!eof && url_detail::is_scheme_char(static_cast<unsigned char>(c))) {
                    buffer.push_back(to_lower(c));
                } else if (!eof && c == ':') {
                    url.scheme = std::move(buffer);
                    buffer.clear();
                    special = is_special(url.scheme);
                    if (url.scheme == "file") {
                        st = state::file;
                    } else if (special) {
                        st = state::special_authority_slashes;
                    } else if (remaining_starts('/')) {
                        st = state::path_or_authority;
                        ++p;
                    } else {
                        url.opaque_path = true;
                        st = state::opaque_path;
                    }
                } else {
                    return std::nullopt;
                }
                break;
            case state::special_authority_slashes:
                if (c == '/' && !eof && remaining_starts('/')) {
                    st = state::special_authority_ignore_slashes;
                    ++p;
                } else {
                    st = state::special_authority_ignore_slashes;
                    --p;
                }
                break;
            case state::special_authority_ignore_slashes:
                if (eof || (c != '/' && c != '\\')) {
                    st = state::authority;
                    --p;
                }
                break;
            case state::path_or_authority:
                if (!eof && c == '/') {
                    st = state::authority;
                } else {
                    enter_path(p);
                    --p;
                }
                break;
            case state::authority:
                if (!eof && c == '@') {
                    if (at_sign_seen) buffer.insert(0, "%40");
                    at_sign_seen = true;
                    for (char b : buffer) {
                        if (b == ':' && !password_token_seen) {
                            password_token_seen = true;
                            continue;
                        }
                        percent_encode(password_token_seen ? url.password : url.username, b,
                                       encode_set::userinfo);
                    }
                    buffer.clear();
                } else if (eof || c == '/' || c == '?' || c == '#' || (special && c == '\\')) {
                    if (at_sign_seen && buffer.empty()) return std::nullopt;
                    p -= buffer.size() + 1;
                    buffer.clear();
                    st = state::host;
                } else {
                    // The authority is read again in the host state, into this buffer: size it
                    // once for what is left, not by doubling (a host can be most of the URL).
                    // The run up to the next `@` or end of the authority goes in at once.
                    if (buffer.empty()) buffer.reserve(n - p);
                    std::size_t q = p + 1;
                    while (q < n && !ends_authority(input[q], special) && input[q] != '@') ++q;
                    buffer.append(input.substr(p, q - p));
                    p = q - 1;
                }
                break;
            case state::host:
                if (!eof && c == ':' && !inside_brackets) {
                    if (buffer.empty()) return std::nullopt;
                    auto host = parse_host(buffer, !special);
                    if (!host) return std::nullopt;
                    url.host = std::move(*host);
                    buffer.clear();
                    buffer.shrink_to_fit();
                    st = state::port;
                } else if (eof || c == '/' || c == '?' || c == '#' || (special && c == '\\')) {
                    --p;
                    if (special && buffer.empty()) return std::nullopt;
                    auto host = parse_host(buffer, !special);
                    if (!host) return std::nullopt;
                    url.host = std::move(*host);
                    buffer.clear();
                    buffer.shrink_to_fit();  // sized for the authority; a path segment takes it
                    st = state::path_start;
                } else {
                    // The run up to the next `:` outside brackets or the end of the host, at once.
                    std::size_t q = p;
                    for (; q < n; ++q) {
                        const char h = input[q];
                        if (ends_authority(h, special) || (h == ':' && !inside_brackets)) break;
                        if (h == '[') inside_brackets = true;
                        if (h == ']') inside_brackets = false;
                    }
                    buffer.append(input.substr(p, q - p));
                    p = q - 1;
                }
                break;
            case state::port:
                if (!eof && is_digit(c)) {
                    buffer.push_back(c);
                } else if (eof || c == '/' || c == '?' || c == '#' || (special && c == '\\')) {
                    if (!buffer.empty()) {
                        std::uint32_t port = 0;
                        for (char d : buffer) {
                            port = port * 10 + static_cast<std::uint32_t>(d - '0');
                            if (port > 65535) return std::nullopt;
                        }
                        if (static_cast<int>(port) == default_port(url.scheme)) url.port.reset();
                        else url.port = port;
                        buffer.clear();
                    }
                    st = state::path_start;
                    --p;
                } else {
                    return std::nullopt;
                }
                break;
            case state::file:
                url.scheme = "file";
                url.host = std::string();
                if (!eof && (c == '/' || c == '\\')) {
                    st = state::file_slash;
                } else {
                    enter_path(p);
                    --p;
                }
                break;
            case state::file_slash:
                if (!eof && (c == '/' || c == '\\')) {
                    st = state::file_host;
                } else {
                    enter_path(p);
                    --p;
                }
                break;
            case state::file_host:
                if (eof || c == '/' || c == '\\' || c == '?' || c == '#') {
                    --p;
                    if (is_windows_drive_letter(buffer)) {
                        st = state::path;  // the buffer carries into the path state
                        verbatim = false;
                    } else if (buffer.empty()) {
                        url.host = std::string();
                        st = state::path_start;
                    } else {
                        auto host = parse_host(buffer, false);
                        if (!host) return std::nullopt;
                        if (*host == "localhost") host->clear();
                        url.host = std::move(*host);
                        buffer.clear();
                        st = state::path_start;
                    }
                } else {
                    buffer.push_back(c);
                }
                break;
            case state::path_start:
                if (special) {
                    if (eof || (c != '/' && c != '\\')) {
                        enter_path(p);
                        --p;
                    } else {
                        enter_path(p + 1);
                    }
                } else if (!eof && c == '?') {
                    url.query = std::string();
                    st = state::query;
                } else if (!eof && c == '#') {
                    url.fragment = std::string();
                    st = state::fragment;
                } else if (!eof) {
                    if (c != '/') {
                        enter_path(p);
                        --p;
                    } else {
                        enter_path(p + 1);
                    }
                }
                break;
            case state::path:
                if (eof || c == '/' || (special && c == '\\') || c == '?' || c == '#') {
                    const bool slash = !eof && (c == '/' || (special && c == '\\'));
                    if (verbatim) {
                        url.path.push_back(std::move(buffer));
                    } else if (is_double_dot(buffer)) {
                        // ada 2.9: a final `..` on an empty non-special path leaves it empty.
                        const bool keep_empty = !slash && !special && url.path.empty();
                        shorten_path(url);
                        if (!slash && !keep_empty) url.path.emplace_back();
                    } else if (is_single_dot(buffer)) {
                        if (!slash) url.path.emplace_back();
                    } else {
                        if (url.scheme == "file" && url.path.empty() && is_windows_drive_letter(buffer))
                            buffer[1] = ':';
                        url.path.push_back(std::move(buffer));
                    }
                    buffer.clear();
                    if (!eof && c == '?') {
                        url.query = std::string();
                        st = state::query;
                    } else if (!eof && c == '#') {
                        url.fragment = std::string();
                        st = state::fragment;
                    }
                } else {
                    // A segment is sized once for its bytes, not by doubling: it can be most of
                    // the URL. (An empty buffer's capacity is the string's own, so a short
                    // segment allocates nothing.)
                    if (buffer.empty()) {
                        buffer.reserve(std::min(input.find_first_of(special ? "/\\?#" : "/?#", p), n) - p);
                    }
                    percent_encode(buffer, c, encode_set::path);
                }
                break;
            case state::opaque_path:
                if (!eof && c == '?') {
                    url.query = std::string();
                    st = state::query;
                } else if (!eof && c == '#') {
                    url.fragment = std::string();
                    st = state::fragment;
                } else if (!eof) {
                    percent_encode(url.opaque, c, encode_set::c0_control);
                }
                break;
            case state::query:
                if (!eof && c == '#') {
                    url.fragment = std::string();
                    st = state::fragment;
                } else if (!eof) {
                    percent_encode(*url.query, c, special ? encode_set::special_query : encode_set::query);
                }
                break;
            case state::fragment:
                if (!eof) percent_encode(*url.fragment, c, encode_set::fragment);
                break;
        }
    }
    return url;
}

std::string serialize_path(const record& url) {
    if (url.opaque_path) return url.opaque;
    std::size_t size = 0;
    for (const auto& seg : url.path) size += 1 + seg.size();
    std::string out;
    out.reserve(size);
    for (const auto& seg : url.path) {
        out.push_back('/');
        out += seg;
    }
    return out;
}

}  // namespace

namespace url_detail {

// spec: §4.5 URL serializing, and the URL API getters (§6.1).
std::optional<url_record> parse_url_record_full(std::string_view input) {
    const bool clean = is_clean(input);
    const std::string cleaned = clean ? std::string() : clean_input(input);
    auto parsed = basic_parse(clean ? input : std::string_view(cleaned));
    if (!parsed) return std::nullopt;
    record& url = *parsed;
    url_record r;
    r.protocol = url.scheme + ":";
    r.username = url.username;
    r.password = url.password;
    r.port = url.port ? std::to_string(*url.port) : std::string();
    r.pathname = serialize_path(url);
    const bool dot_prefix = !url.opaque_path && url.path.size() > 1 && url.path[0].empty();
    std::vector<std::string>().swap(url.path);  // serialized: one copy of a long path less below
    r.search = (url.query && !url.query->empty()) ? "?" + *url.query : std::string();
    r.hash = (url.fragment && !url.fragment->empty()) ? "#" + *url.fragment : std::string();
    // The href, sized once (the host or the path can be most of the URL): at most the pieces
    // below with their separators.
    std::string& h = r.href;
    h.reserve(r.protocol.size() + 2 + url.username.size() + 1 + url.password.size() + 1 +
              (url.host ? url.host->size() : 0) + 1 + r.port.size() + 2 + r.pathname.size() +
              (url.query ? 1 + url.query->size() : 0) + (url.fragment ? 1 + url.fragment->size() : 0));
    h = r.protocol;
    if (url.host) {
        h += "//";
        if (!url.username.empty() || !url.password.empty()) {
            h += url.username;
            if (!url.password.empty()) h += ":" + url.password;
            h += "@";
        }
        h += *url.host;
        if (url.port) h += ":" + r.port;
    } else if (dot_prefix) {
        h += "/.";
    }
    h += r.pathname;
    if (url.query) {
        h += '?';
        h += *url.query;
    }
    if (url.fragment) {
        h += '#';
        h += *url.fragment;
    }
    if (url.host) r.hostname = std::move(*url.host);
    return r;
}

}  // namespace url_detail

result<url_record> parse_url(std::string_view input) {
    std::optional<url_record> r = url_detail::parse_url_record(input);
    if (!r) return problem{0, "Invalid URL"};  // Node's TypeError message
    return std::move(*r);
}

}  // namespace plurnk
