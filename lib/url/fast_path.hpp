// SPDX-License-Identifier: MIT
// Private (lib/url, its tests and fuzz targets): the one-pass recogniser of common targets. A
// target's decoded text is either a local path or a URL simple enough that the WHATWG parser
// would hand back its pieces unchanged; for those it yields the components as offsets into the
// text, without allocating. Anything else is declined and goes through the full parser
// (url.cpp). doc/dev/validators.md lists what it accepts. parse_url_record (url.hpp), defined
// in fast_path.cpp, serves parse_url from it too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

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
};

// Reads `text`, a target after escape decoding. Returns true and fills `out` when the text is a
// local path (no `scheme://` prefix, BEHAVIOUR §3.4 step 3) or a URL in the fast subset;
// returns false, with `out` unspecified, when only the full parser can tell.
[[nodiscard]] bool parse_target_fast(std::string_view text, url_parts& out) noexcept;

// parse_target_fast() for a target as written, before its escapes are decoded: the same answer
// for a text without a backslash (whose decoding leaves it as it is), and false for one with a
// backslash (only the decoding can tell what it stands for) and for an empty text. A URL's bytes
// are read once: its scan already declines a backslash, so only a local path is searched for one.
[[nodiscard]] bool parse_raw_target_fast(std::string_view raw, url_parts& out) noexcept;

// The target the fast path read, as views of `text` (path.cpp): the fields parse_path gives.
[[nodiscard]] parsed_path project_fast(std::string_view text, const url_parts& u);

}  // namespace plurnk::url_detail
