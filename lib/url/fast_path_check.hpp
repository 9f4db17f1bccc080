// SPDX-License-Identifier: MIT
// Private and header-only, not part of the library: the differential check that holds the
// targets' fast path (fast_path.hpp) to the full parsers (url.hpp). fuzz/fuzz_target_fast.cpp
// runs it on every input, test/fast_path_test.cpp on its tables and the conformance targets.
// The fast path's components reach the caller through two projections, so the check compares
// both with the full route field by field: parse_path against parse_path_full (the ParsedPath
// fields) and parse_url_record against parse_url_record_full (the getters, whose href shows
// whether a query or fragment is present even when empty).
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>

#include "fast_path.hpp"
#include "plurnk/path.hpp"
#include "url.hpp"

namespace plurnk::url_detail {

namespace check_detail {

inline std::string show(std::string_view s) {
    // Built by appends: `"\"" + std::string(s)` draws a false -Wrestrict from g++ 12 at -O3.
    std::string out;
    out.reserve(s.size() + 2);
    out += '"';
    out += s;
    out += '"';
    return out;
}
inline std::string show(const std::optional<std::string_view>& s) { return s ? show(*s) : "null"; }
inline std::string show(const std::string& s) { return show(std::string_view(s)); }
inline std::string show(const std::optional<std::uint32_t>& v) { return v ? std::to_string(*v) : "null"; }

template <class T>
void compare(std::string& out, const char* field, const T& fast, const T& full) {
    if (out.empty() && !(fast == full)) out = std::string(field) + ": fast " + show(fast) + ", full " + show(full);
}

}  // namespace check_detail

// The first field in which two paths differ ("" when none does).
inline std::string path_difference(const parsed_path& fast, const parsed_path& full) {
    using check_detail::compare;
    std::string out;
    if (fast.kind != full.kind) return "kind";
    compare(out, "raw", fast.raw, full.raw);
    compare(out, "scheme", fast.scheme, full.scheme);
    compare(out, "username", fast.username, full.username);
    compare(out, "password", fast.password, full.password);
    compare(out, "hostname", fast.hostname, full.hostname);
    compare(out, "port", fast.port, full.port);
    compare(out, "pathname", fast.pathname, full.pathname);
    compare(out, "query", fast.query, full.query);
    compare(out, "fragment", fast.fragment, full.fragment);
    const bool same_headers =
        fast.headers.has_value() == full.headers.has_value() &&
        (!fast.headers || std::ranges::equal(*fast.headers, *full.headers));
    if (out.empty() && !same_headers) out = "headers";
    return out;
}

// The first getter in which two URL records differ ("" when none does).
inline std::string record_difference(const url_record& fast, const url_record& full) {
    using check_detail::compare;
    std::string out;
    compare(out, "href", fast.href, full.href);
    compare(out, "protocol", fast.protocol, full.protocol);
    compare(out, "username", fast.username, full.username);
    compare(out, "password", fast.password, full.password);
    compare(out, "hostname", fast.hostname, full.hostname);
    compare(out, "port", fast.port, full.port);
    compare(out, "pathname", fast.pathname, full.pathname);
    compare(out, "search", fast.search, full.search);
    compare(out, "hash", fast.hash, full.hash);
    return out;
}

// parse_raw_target_fast(raw) against parse_target_fast() of the decoded text, which took it
// (`took`) as `parts`: the same answer without a backslash, a decline with one or for "".
inline std::string raw_reading_difference(std::string_view raw, bool took, const url_parts& parts) {
    url_parts raw_parts;
    const bool raw_took = parse_raw_target_fast(raw, raw_parts);
    const bool plain = !raw.empty() && raw.find('\\') == std::string_view::npos;
    if (raw_took != (took && plain)) return raw_took ? "the raw reading took what it must decline" : "the raw reading declined";
    if (!raw_took || raw_parts.kind != parts.kind) return raw_took ? "the raw reading's kind" : "";
    if (parts.kind == url_parts::kind_t::local) return "";
    const bool same = raw_parts.has_port == parts.has_port && raw_parts.port_value == parts.port_value &&
                      raw_parts.scheme == parts.scheme && raw_parts.hostname == parts.hostname &&
                      raw_parts.pathname == parts.pathname && raw_parts.query == parts.query &&
                      raw_parts.fragment == parts.fragment;
    return same ? "" : "the raw reading's components";
}

// `raw` as a target and its decoded text as a URL, each through the fast path and the full
// route: "" when they agree (the fast path declined or gave every component the full parser
// gives), else what disagreed.
inline std::string fast_path_disagreement(std::string_view raw) {
    const result<std::optional<path_value>> fast = parse_path(raw);
    const result<std::optional<detail::path_fields>> full = parse_path_full(raw);
    if (fast.ok() != full.ok()) return "parse_path: value against error";
    if (!fast.ok()) {
        if (fast.problem().message != full.problem().message) return "parse_path: error message";
        if (fast.problem().offset != full.problem().offset) return "parse_path: error offset";
    } else if (fast.value().has_value() != full.value().has_value()) {
        return "parse_path: path against none";
    } else if (fast.value()) {
        if (std::string d = path_difference(*fast.value(), full.value()->view()); !d.empty()) return "parse_path " + d;
    }

    std::string text;
    decode_target_escapes(raw, text);
    url_parts parts;
    const bool took = parse_target_fast(text, parts);
    if (took && !raw.empty() && !full.ok()) return "fast path accepted what the full route rejects";
    if (took && parts.kind == url_parts::kind_t::url) {
        for (const text_part* p : {&parts.scheme, &parts.hostname, &parts.pathname, &parts.query, &parts.fragment}) {
            if (p->begin > p->end || p->end > text.size()) return "a part outside the text";
        }
    }
    if (std::string d = raw_reading_difference(raw, took, parts); !d.empty()) return d;
    const std::optional<url_record> fast_url = parse_url_record(text);
    const std::optional<url_record> full_url = parse_url_record_full(text);
    if (fast_url.has_value() != full_url.has_value()) return "parse_url: record against failure";
    if (took && parts.kind == url_parts::kind_t::url && !full_url) return "fast path accepted a URL that fails";
    if (fast_url) {
        if (std::string d = record_difference(*fast_url, *full_url); !d.empty()) return "parse_url " + d;
    }
    return {};
}

}  // namespace plurnk::url_detail
