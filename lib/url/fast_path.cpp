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
#include "code_points.hpp"
#include "url.hpp"

namespace plurnk::url_detail {
namespace {

// Byte classes, one bit each: the full parser's classes (code_points.hpp), each narrowed to the
// fast path's subset, so that a byte the full parser would change is in none of them.
// (A scheme's bytes are fast_path.hpp's k_scheme_classes.)
enum : std::uint8_t {
    k_domain = 1U << 0,       // a special host's label byte: [a-z0-9-]
    k_opaque_host = 1U << 1,  // a non-special host's byte: [a-z0-9._~-]
    k_path = 1U << 2,         // a path's byte, `/` included: pchar (below) or `/`
    k_dot = 1U << 3,          // `.` (a path with one may hold a dot segment)
    k_query = 1U << 4,        // a query's byte: pchar, `/`, `?`, `%`
    k_fragment = 1U << 5,     // a fragment's byte: pchar, `/`, `?`, `%`, `#`
};

constexpr bool in(std::string_view chars, char c) { return chars.find(c) != std::string_view::npos; }

constexpr std::array<std::uint8_t, 256> make_classes() {
    // The fast path's subsets: lowercase hosts of a few marks; in a path, query or fragment RFC
    // 3986's pchar without pct-encoded (so no `%` before the query, whose `%2e` may be a dot
    // segment) and the delimiters each part may hold.
    constexpr std::string_view lower_alnum = "abcdefghijklmnopqrstuvwxyz0123456789";
    constexpr std::string_view pchar_marks = "-._~!$&'()*+,;=:@";
    std::array<std::uint8_t, 256> t{};
    for (unsigned b = 0; b < 256; ++b) {
        const char c = static_cast<char>(b);
        const bool pchar = ascii::is_alnum(b) || in(pchar_marks, c);
        std::uint8_t bits = 0;
        if ((in(lower_alnum, c) || c == '-') && !is_forbidden_domain(c)) bits |= k_domain;
        if ((in(lower_alnum, c) || in("._~-", c)) && !is_forbidden_host(c)) bits |= k_opaque_host;
        if ((pchar || c == '/') && !in_set(static_cast<unsigned char>(b), encode_set::path)) bits |= k_path;
        if (c == '.') bits |= k_dot;
        // The special-query set holds the query set: a byte outside it is kept by either.
        if ((pchar || in("/?%", c)) && !in_set(static_cast<unsigned char>(b), encode_set::special_query)) bits |= k_query;
        if ((pchar || in("/?%#", c)) && !in_set(static_cast<unsigned char>(b), encode_set::fragment)) bits |= k_fragment;
        t[b] = bits;
    }
    return t;
}
constexpr std::array<std::uint8_t, 256> k_classes = make_classes();
// A backslash is in no class: a URL the fast path reads holds none (parse_raw_target_fast).
static_assert(k_classes[static_cast<unsigned char>('\\')] == 0 &&
              scheme_detail::k_scheme_classes[static_cast<unsigned char>('\\')] == 0);

constexpr std::uint8_t class_of(char c) noexcept { return k_classes[static_cast<unsigned char>(c)]; }
constexpr bool has(char c, std::uint8_t bits) noexcept { return (class_of(c) & bits) != 0; }

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
        if (p - label >= 4 && s[label] == 'x' && s[label + 1] == 'n' && s[label + 2] == '-' && s[label + 3] == '-') {
            return false;
        }
        if (p < n && s[p] == '.') {
            ++p;
            continue;
        }
        return !ascii::is_digit(static_cast<unsigned char>(s[label]));
    }
}

// A port `[1-9][0-9]{0,4}` or `0`, at most 65535 (the full parser fails above it and drops a
// leading zero). Advances `p` past the digits; false to decline.
bool scan_port(std::string_view s, std::size_t& p, std::uint32_t& value) noexcept {
    const std::size_t n = s.size();
    const std::size_t begin = p;
    value = 0;
    while (p < n && ascii::is_digit(static_cast<unsigned char>(s[p])) && p - begin < 6) {
        value = value * 10 + static_cast<std::uint32_t>(s[p] - '0');
        ++p;
    }
    const std::size_t len = p - begin;
    if (len == 0 || len > 5 || value > 65535) return false;
    return !(len > 1 && s[begin] == '0');
}

// Whether the `.` at `dot`, the first byte of a path segment, begins a `.` or `..` segment (one
// dot-segment removal would act on): after one more `.` at most, the segment ends -- at a `/`, at
// the end of the text, or at a byte that ends the path (where a `?` or `#` would end it; any
// other such byte makes the fast path decline anyway).
bool dot_segment_at(std::string_view s, std::size_t dot) noexcept {
    const std::size_t n = s.size();
    std::size_t k = dot + 1;
    if (k < n && s[k] == '.') ++k;
    return k == n || s[k] == '/' || (class_of(s[k]) & k_path) == 0;
}

// A name of at most 5 bytes as one integer (its length, then its bytes), so that a scheme is
// matched against every special scheme's name (k_special, 2 to 5 bytes) by one comparison each.
constexpr std::size_t k_special_max = 5;
constexpr std::uint64_t name_key(std::string_view name) noexcept {
    std::uint64_t k = name.size();
    for (const char c : name) k = k << 8 | static_cast<unsigned char>(c);
    return k;
}
constexpr std::array<std::uint64_t, k_special.size()> k_special_keys = [] {
    std::array<std::uint64_t, k_special.size()> keys{};
    for (std::size_t i = 0; i < k_special.size(); ++i) keys[i] = name_key(k_special[i].name);
    return keys;
}();
static_assert([] {
    for (const special_scheme& sp : k_special) {
        if (sp.name.size() > k_special_max) return false;
    }
    return true;
}());

// find_special() for a lowercase scheme, without a string comparison.
const special_scheme* special_of(std::string_view scheme) noexcept {
    if (scheme.size() > k_special_max) return nullptr;
    const std::uint64_t key = name_key(scheme);
    for (std::size_t i = 0; i < k_special.size(); ++i) {
        if (k_special_keys[i] == key) return &k_special[i];
    }
    return nullptr;
}

// Authority (spec: authority, host and port states): `scheme://` always reaches it, the
// special schemes through the special-authority-slashes states, which would skip any further
// slash -- so a special host must start right here, at `p`, and must not be empty. Advances
// `p` past the host and port, writes the hostname and the port; false to decline.
bool scan_authority(std::string_view s, std::size_t& p, const special_scheme* special, url_parts& out) noexcept {
    const std::size_t n = s.size();
    const std::size_t host = p;
    if (special != nullptr) {
        if (!scan_domain(s, p)) return false;
    } else {
        while (p < n && has(s[p], k_opaque_host)) ++p;
    }
    out.hostname = {host, p, true};
    out.has_port = false;
    out.port_value = 0;
    if (p < n && s[p] == ':') {
        if (p == host) return false;  // a port without a host fails
        ++p;
        std::uint32_t port = 0;
        if (!scan_port(s, p, port)) return false;
        if (special == nullptr || port != static_cast<std::uint32_t>(special->port)) {
            out.has_port = true;
            out.port_value = port;
        }
    }
    return p == n || s[p] == '/' || s[p] == '?' || s[p] == '#';  // not `@`, `%`, `[`, ...
}

// Path (spec: path start and path states): path bytes in one run, no segment a dot segment. A
// special URL without one gets the record's "/", the last byte of its `://` at `scheme_end`
// (see url_parts). Advances `p` past the path, writes the pathname; false to decline.
bool scan_path(std::string_view s, std::size_t& p, std::size_t scheme_end, bool special, url_parts& out) noexcept {
    const std::size_t n = s.size();
    if (p == n || s[p] != '/') {
        out.pathname = special ? text_part{scheme_end + 2, scheme_end + 3, true} : text_part{p, p, true};
        return true;
    }
    const std::size_t path = p;
    for (++p; p < n; ++p) {
        const std::uint8_t c = class_of(s[p]);
        if ((c & k_path) == 0) break;
        // a dot segment, seen at its first dot (no second pass over the path)
        if ((c & k_dot) != 0 && s[p - 1] == '/' && dot_segment_at(s, p)) return false;
    }
    if (p < n && s[p] != '?' && s[p] != '#') return false;
    out.pathname = {path, p, true};
    return true;
}

// Query and fragment (spec: query and fragment states) from `p` to the end, bytes none of their
// sets encodes; writes both (absent without their mark); false to decline.
bool scan_query_and_fragment(std::string_view s, std::size_t p, url_parts& out) noexcept {
    const std::size_t n = s.size();
    out.query = {};
    out.fragment = {};
    if (p < n && s[p] == '?') {
        const std::size_t query = ++p;
        while (p < n && has(s[p], k_query)) ++p;
        if (p < n && s[p] != '#') return false;
        out.query = {query, p, true};
    }
    if (p < n) {  // at `#`
        const std::size_t fragment = ++p;
        while (p < n && has(s[p], k_fragment)) ++p;
        if (p < n) return false;
        out.fragment = {fragment, p, true};
    }
    return true;
}


}  // namespace

namespace scheme_detail {

// (Declared in the header.)
bool read_url(std::string_view s, std::size_t scheme_end, url_parts& out) noexcept {
    const special_scheme* special = special_of(s.substr(0, scheme_end));
    if (special != nullptr && special->port < 0) return false;  // `file`
    out.kind = url_parts::kind_t::url;
    out.scheme = {0, scheme_end, true};
    std::size_t p = scheme_end + 3;
    return scan_authority(s, p, special, out) && scan_path(s, p, scheme_end, special != nullptr, out) &&
           scan_query_and_fragment(s, p, out);
}

}  // namespace scheme_detail

// Writes every field of `out` for a URL and only its kind for a local path (url_parts).
bool parse_target_fast(std::string_view s, url_parts& out) noexcept {
    using namespace scheme_detail;
    const scheme_scan scheme = scan_scheme(s);
    if (scheme.kind == scheme_scan::url) return read_url(s, scheme.end, out);
    out.kind = url_parts::kind_t::local;
    return scheme.kind == scheme_scan::local_path;
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
