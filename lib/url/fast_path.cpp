// SPDX-License-Identifier: MIT
// The fast path for targets: one forward pass over a decoded target that classifies it as a
// local path (no `scheme://` prefix) or recognises a URL of the form
// `scheme://host[:port][/path][?query][#fragment]` whose every byte the WHATWG basic URL parser
// (url.cpp) would keep as it is, and returns the components as offsets into the text. It never
// allocates. The subset is chosen so that the proof is local to each byte: a lowercase scheme
// that is not `file`; no credentials; a host of lowercase letters, digits and a few marks (for
// the special schemes a plain DNS name whose last label cannot read as a number and with no
// `xn--` label, so that domain-to-ASCII and the IPv4 parser leave it alone); a port of one to
// five digits without a leading zero, at most 65535; path, query and fragment bytes outside
// every percent-encode set that applies, no backslash, no `.` or `..` segment (so neither dot
// segment removal nor ada's verbatim-path shortcut can act). Each byte outside those classes --
// spaces, controls, non-ASCII, `%` before the query, `\`, `@`, `[`, `{`, uppercase in the scheme
// or host -- makes it decline, and the caller runs the full parser. The differential fuzz
// target fuzz/fuzz_target_fast.cpp and test/fast_path_test.cpp hold the fast path to the full
// parser's answer on every component. parse_url_record, parse_url's route, serves the getters
// of an accepted URL from the same offsets and leaves the rest to the full parser.
#include "fast_path.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/ascii.hpp"
#include "url.hpp"

namespace plurnk::url_detail {
namespace {

using ascii::is_alpha;
using ascii::is_digit;
using ascii::is_upper;

// Byte classes, one bit each.
enum : std::uint8_t {
    k_scheme = 1U << 0,       // [a-z0-9+.-] after the first letter (uppercase is checked apart)
    k_domain = 1U << 1,       // a special host's label byte: [a-z0-9-]
    k_opaque_host = 1U << 2,  // a non-special host's byte: [a-z0-9._~-]
    k_path = 1U << 3,         // a path segment's byte: unreserved, sub-delims, `:`, `@`
    k_query = 1U << 4,        // a query's byte: as k_path but `'`, plus `/`, `?`, `%`
    k_fragment = 1U << 5,     // a fragment's byte: as k_path plus `/`, `?`, `%`, `#`
};

constexpr std::array<std::uint8_t, 256> make_classes() {
    std::array<std::uint8_t, 256> t{};
    auto add = [&t](std::string_view chars, std::uint8_t bits) {
        for (const char c : chars) t[static_cast<unsigned char>(c)] |= bits;
    };
    constexpr std::string_view lower = "abcdefghijklmnopqrstuvwxyz";
    constexpr std::string_view upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    constexpr std::string_view digits = "0123456789";
    add(lower, k_scheme | k_domain | k_opaque_host | k_path | k_query | k_fragment);
    add(digits, k_scheme | k_domain | k_opaque_host | k_path | k_query | k_fragment);
    add(upper, k_path | k_query | k_fragment);
    add("+", k_scheme);
    add(".", k_scheme | k_opaque_host);
    add("-", k_scheme | k_domain | k_opaque_host);
    add("_~", k_opaque_host);
    // RFC 3986 pchar without pct-encoded: none of these is in the path, query (but `'`, which
    // the special-query set holds) or fragment percent-encode set of url.cpp.
    add("-._~!$&()*+,;=:@", k_path | k_query | k_fragment);
    add("'", k_path | k_fragment);
    add("/?%", k_query | k_fragment);
    add("#", k_fragment);
    return t;
}
constexpr std::array<std::uint8_t, 256> k_classes = make_classes();

constexpr bool has(char c, std::uint8_t bits) noexcept {
    return (k_classes[static_cast<unsigned char>(c)] & bits) != 0;
}

// The special schemes (URL Standard §4.1) but `file`, which the fast path leaves alone, with
// their default ports.
struct special_scheme {
    std::string_view name;
    std::uint32_t port;
};
constexpr std::array<special_scheme, 5> k_special = {{
    {"http", 80}, {"https", 443}, {"ws", 80}, {"wss", 443}, {"ftp", 21},
}};

// A special host: dot-separated labels of [a-z0-9-], none empty (no leading, doubled or
// trailing dot), none starting `xn--` (domain-to-ASCII would check its punycode), the last one
// not starting with a digit (the IPv4 parser takes a host whose last label is a number,
// decimal or 0x-hex). Such a host maps to itself under UTS #46 and is not an IPv4 address.
// Advances `p` past the host; false to decline.
bool scan_domain(std::string_view s, std::size_t& p) noexcept {
    const std::size_t n = s.size();
    for (;;) {
        const std::size_t label = p;
        while (p < n && has(s[p], k_domain)) ++p;
        if (p == label) return false;
        if (s.substr(label, 4) == "xn--") return false;
        if (p < n && s[p] == '.') {
            ++p;
            continue;
        }
        return !is_digit(static_cast<unsigned char>(s[label]));
    }
}

// A port `[1-9][0-9]{0,4}` or `0`, at most 65535 (the full parser fails above it and drops a
// leading zero). Advances `p` past the digits; false to decline.
bool scan_port(std::string_view s, std::size_t& p, std::uint32_t& value) noexcept {
    const std::size_t n = s.size();
    const std::size_t begin = p;
    value = 0;
    while (p < n && is_digit(static_cast<unsigned char>(s[p])) && p - begin < 6) {
        value = value * 10 + static_cast<std::uint32_t>(s[p] - '0');
        ++p;
    }
    const std::size_t len = p - begin;
    if (len == 0 || len > 5 || value > 65535) return false;
    return !(len > 1 && s[begin] == '0');
}

// `.` or `..`: a segment dot-segment removal would act on.
bool is_dot_segment(std::string_view s, std::size_t begin, std::size_t end) noexcept {
    const std::size_t len = end - begin;
    return (len == 1 && s[begin] == '.') || (len == 2 && s[begin] == '.' && s[begin + 1] == '.');
}

// What a target starts with: a local path, a URL the fast path declines, or a URL whose
// scheme ends at `end` (on its `://`), `special` its special scheme (null for another).
struct scheme_scan {
    enum kind_t : std::uint8_t { local_path, decline, url } kind;
    std::size_t end = 0;
    const special_scheme* special = nullptr;
};

// BEHAVIOUR §3.4 step 3: `[A-Za-z][A-Za-z0-9+.-]*://` or a local path. The scheme must be
// lowercase here: the full parser would lowercase it into a string of its own.
scheme_scan scan_scheme(std::string_view s) noexcept {
    const std::size_t n = s.size();
    std::size_t i = 0;
    bool upper = false;
    if (n == 0 || !is_alpha(static_cast<unsigned char>(s[0]))) return {scheme_scan::local_path};
    while (i < n && (has(s[i], k_scheme) || is_upper(static_cast<unsigned char>(s[i])))) {
        upper = upper || is_upper(static_cast<unsigned char>(s[i]));
        ++i;
    }
    if (s.substr(i, 3) != "://") return {scheme_scan::local_path};
    if (upper) return {scheme_scan::decline};
    const std::string_view scheme = s.substr(0, i);
    const special_scheme* special = nullptr;
    for (const special_scheme& sp : k_special) {
        if (sp.name == scheme) special = &sp;
    }
    if (special == nullptr && scheme == "file") return {scheme_scan::decline};
    return {scheme_scan::url, i, special};
}

// Authority (spec: authority, host and port states): `scheme://` always reaches it, the
// special schemes through the special-authority-slashes states, which would skip any further
// slash -- so a special host must start right here, at `p`, and must not be empty. Advances
// `p` past the host and port; false to decline.
bool scan_authority(std::string_view s, std::size_t& p, const special_scheme* special, url_parts& out) noexcept {
    const std::size_t n = s.size();
    const std::size_t host = p;
    if (special != nullptr) {
        if (!scan_domain(s, p)) return false;
    } else {
        while (p < n && has(s[p], k_opaque_host)) ++p;
    }
    out.hostname = {host, p, true};
    if (p < n && s[p] == ':') {
        if (p == host) return false;  // a port without a host fails
        ++p;
        if (!scan_port(s, p, out.port_value)) return false;
        out.has_port = special == nullptr || out.port_value != special->port;
        if (!out.has_port) out.port_value = 0;
    }
    return p == n || s[p] == '/' || s[p] == '?' || s[p] == '#';  // not `@`, `%`, `[`, ...
}

// Path (spec: path start and path states): segments of path bytes, none a dot segment. A
// special URL without one gets the record's "/", the last byte of its `://` at `scheme_end`
// (see url_parts). Advances `p` past the path; false to decline.
bool scan_path(std::string_view s, std::size_t& p, std::size_t scheme_end, bool special, url_parts& out) noexcept {
    const std::size_t n = s.size();
    if (p < n && s[p] == '/') {
        const std::size_t path = p;
        std::size_t segment = ++p;
        for (; p < n; ++p) {
            const char c = s[p];
            if (c == '/') {
                if (is_dot_segment(s, segment, p)) return false;
                segment = p + 1;
            } else if (c == '?' || c == '#') {
                break;
            } else if (!has(c, k_path)) {
                return false;
            }
        }
        if (is_dot_segment(s, segment, p)) return false;
        out.pathname = {path, p, true};
    } else if (special) {
        out.pathname = {scheme_end + 2, scheme_end + 3, true};
    } else {
        out.pathname = {p, p, true};
    }
    return true;
}

// Query and fragment (spec: query and fragment states) from `p` to the end, bytes none of their
// sets encodes; false to decline.
bool scan_query_and_fragment(std::string_view s, std::size_t p, url_parts& out) noexcept {
    const std::size_t n = s.size();
    if (p < n && s[p] == '?') {
        const std::size_t query = ++p;
        while (p < n && s[p] != '#') {
            if (!has(s[p], k_query)) return false;
            ++p;
        }
        out.query = {query, p, true};
    }
    if (p < n && s[p] == '#') {
        const std::size_t fragment = ++p;
        for (; p < n; ++p) {
            if (!has(s[p], k_fragment)) return false;
        }
        out.fragment = {fragment, p, true};
    }
    return true;
}

}  // namespace

bool parse_target_fast(std::string_view s, url_parts& out) noexcept {
    out = url_parts{};
    const scheme_scan scheme = scan_scheme(s);
    if (scheme.kind != scheme_scan::url) return scheme.kind == scheme_scan::local_path;
    out.kind = url_parts::kind_t::url;
    out.scheme = {0, scheme.end, true};
    std::size_t p = scheme.end + 3;
    return scan_authority(s, p, scheme.special, out) && scan_path(s, p, scheme.end, scheme.special != nullptr, out) &&
           scan_query_and_fragment(s, p, out);
}

// The getters of a URL the fast path read (spec: §4.5 URL serializing): the text itself but
// for the pieces the serializer restores -- the "/" of a special URL without a path and a
// default port, which vanishes.
std::optional<url_record> parse_url_record(std::string_view input) {
    url_parts u;
    if (!parse_target_fast(input, u) || u.kind != url_parts::kind_t::url) return parse_url_record_full(input);
    // `mark` then the part, as the serializer writes a present query or fragment.
    auto append_marked = [input](std::string& out, char mark, const text_part& part) {
        out.push_back(mark);
        out.append(part.of(input));
    };
    url_record r;
    r.protocol.append(u.scheme.of(input)).push_back(':');
    r.hostname = u.hostname.of(input);
    if (u.has_port) r.port = std::to_string(u.port_value);
    r.pathname = u.pathname.of(input);
    if (u.query.present && u.query.end > u.query.begin) append_marked(r.search, '?', u.query);
    if (u.fragment.present && u.fragment.end > u.fragment.begin) append_marked(r.hash, '#', u.fragment);
    std::string& h = r.href;
    h.reserve(input.size() + 1);
    h.append(r.protocol).append(2, '/').append(r.hostname);
    if (u.has_port) h.append(1, ':').append(r.port);
    h.append(r.pathname);
    if (u.query.present) append_marked(h, '?', u.query);
    if (u.fragment.present) append_marked(h, '#', u.fragment);
    return r;
}

}  // namespace plurnk::url_detail
