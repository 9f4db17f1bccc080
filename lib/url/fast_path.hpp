// SPDX-License-Identifier: MIT
// Private (lib/url, its tests and fuzz targets): the one-pass recogniser of common targets. A
// target's decoded text is either a local path or a URL simple enough that the WHATWG parser
// would hand back its pieces unchanged; for those it yields the components as offsets into the
// text, without allocating. Anything else is declined and goes through the full parser
// (url.cpp). doc/dev/validators.md lists what it accepts. parse_url_record (url.hpp), defined
// in fast_path.cpp, serves parse_url from it too.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "base/ascii.hpp"
#include "base/byte_scan.hpp"
#include "code_points.hpp"
#include "plurnk/ast.hpp"

namespace plurnk::url_detail {

// One component: text[begin, end), or absent.
struct text_part {
    std::size_t begin = 0;
    std::size_t end = 0;
    bool present = false;

    [[nodiscard]] std::string_view of(std::string_view text) const noexcept {
        return text.substr(begin, end - begin);
    }
    friend bool operator==(const text_part&, const text_part&) = default;
};

// A target as the WHATWG record holds it, every string a slice of the text that was read.
// For a special URL without a path the record's pathname is "/": the slice is then the
// second slash of `://`, so that even that piece is a view of the text. The fast path declines
// credentials: a URL it reads has no username or password.
struct url_parts {
    enum class kind_t : std::uint8_t { local, url };
    kind_t kind = kind_t::local;
    // The fields below are meaningful for kind_t::url only: parse_target_fast writes each of them
    // for a URL it takes, and none for a local path.
    bool has_port = false;  // false when absent or the scheme's default port
    std::uint32_t port_value = 0;
    text_part scheme;    // without ':'
    text_part hostname;  // present (possibly empty: `worker:///x`)
    text_part pathname;  // always present
    text_part query;     // the record's query: absent without `?`, empty for a bare `?`
    text_part fragment;  // the record's fragment: absent without `#`, empty for a bare `#`
    friend bool operator==(const url_parts&, const url_parts&) = default;
};

// Reads `text`, a target after escape decoding. Returns true and fills `out` when the text is a
// local path (no `scheme://` prefix, BEHAVIOUR §3.4 step 3) or a URL in the fast subset;
// returns false, with `out` unspecified, when only the full parser can tell.
[[nodiscard]] bool parse_target_fast(std::string_view text, url_parts& out) noexcept;

// What parse_raw_target_fast() inlines where the builder reads a target: the scheme's reading.
// (A local path's search for a backslash is byte_scan::holds().)
namespace scheme_detail {

// A scheme's bytes (code_points.hpp's is_scheme_char), one look-up each: lowercase ones (and
// digits and marks) and uppercase ones, which the fast path declines.
enum : std::uint8_t { k_scheme = 1U << 0, k_upper = 1U << 1 };
inline constexpr std::array<std::uint8_t, 256> k_scheme_classes = [] {
    std::array<std::uint8_t, 256> t{};
    for (unsigned b = 0; b < 256; ++b) {
        if (is_scheme_char(b)) t[b] = ascii::is_upper(b) ? k_upper : k_scheme;
    }
    return t;
}();
constexpr bool has(char c, std::uint8_t bits) noexcept {
    return (k_scheme_classes[static_cast<unsigned char>(c)] & bits) != 0;
}

// What a target starts with: a local path, a URL the fast path declines, or a URL whose
// scheme ends at `end` (on its `://`).
struct scheme_scan {
    enum kind_t : std::uint8_t { local_path, decline, url } kind;
    std::size_t end = 0;
};

// BEHAVIOUR §3.4 step 3: `[A-Za-z][A-Za-z0-9+.-]*://` or a local path, one table look-up a byte.
// The scheme must be lowercase here: the full parser would lowercase it into a string of its own;
// an uppercase byte ends the lowercase run, and the rest of the scheme is read only to tell a
// local path from a URL the fast path declines.
constexpr scheme_scan scan_scheme(std::string_view s) noexcept {
    const std::size_t n = s.size();
    if (n == 0 || !ascii::is_alpha(static_cast<unsigned char>(s[0]))) return {scheme_scan::local_path};
    std::size_t i = 1;
    while (i < n && has(s[i], k_scheme)) ++i;
    bool upper = ascii::is_upper(static_cast<unsigned char>(s[0]));
    if (i < n && has(s[i], k_upper)) {
        upper = true;
        while (i < n && has(s[i], k_scheme | k_upper)) ++i;
    }
    if (n - i < 3 || s[i] != ':' || s[i + 1] != '/' || s[i + 2] != '/') return {scheme_scan::local_path};
    if (upper) return {scheme_scan::decline};
    return {scheme_scan::url, i};
}

// A URL whose lowercase scheme ends at `scheme_end`, on its `://` (fast_path.cpp). Out of line: a
// local path, the common case, takes none of its registers.
[[gnu::noinline]] bool read_url(std::string_view s, std::size_t scheme_end, url_parts& out) noexcept;

}  // namespace scheme_detail

// parse_target_fast() for a target as written, before its escapes are decoded: the same answer
// for a text without a backslash (whose decoding leaves it as it is), and false for one with a
// backslash (only the decoding can tell what it stands for) and for an empty text. A URL's bytes
// are read once: its scan already declines a backslash, so only a local path is searched for one.
// Inline: the result builder reads every target through it.
[[nodiscard]] inline bool parse_raw_target_fast(std::string_view raw, url_parts& out) noexcept {
    using namespace scheme_detail;
    const scheme_scan scheme = scan_scheme(raw);
    if (scheme.kind == scheme_scan::url) return read_url(raw, scheme.end, out);  // (no class holds `\\`)
    out.kind = url_parts::kind_t::local;
    return scheme.kind == scheme_scan::local_path && !raw.empty() && !detail::byte_scan::holds(raw, '\\');
}

// The target the fast path read, as views of `text` (path.cpp): the fields parse_path gives.
[[nodiscard]] parsed_path project_fast(std::string_view text, const url_parts& u);

}  // namespace plurnk::url_detail
