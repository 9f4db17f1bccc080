// SPDX-License-Identifier: MIT
// Target paths (SPEC §5, BEHAVIOUR §3.4). parse_path decodes the three target escapes in one
// left-to-right pass straight into the result's `raw`, then hands the text to the fast path
// (fast_path.cpp), which classifies a local path and reads a common URL as offsets into that
// text without allocating; the components are copied out of it. Whatever the fast path
// declines takes the full route: text without a `scheme://` prefix is a local path; otherwise
// the text is split at its first `{` into the URL and back-to-back `{name: value}` request
// metadata blocks, the blocks are checked (their faults are reported before the URL is looked
// at), the WHATWG parser (url.cpp) runs on the URL part and its record is projected onto the
// ParsedPath fields. parse_resource_selection cuts a trailing `<scope>` literal off a
// COPY/MOVE body first. glob_magic_index finds, in one pass, the magic a glob matcher honours.
// Error texts never quote input (SPEC §path-request-metadata). No exceptions.
#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/ascii.hpp"
#include "grammar/hash_regex.hpp"
#include "grammar/scope_literal.hpp"
#include "code_points.hpp"
#include "fast_path.hpp"
#include "path_fields.hpp"
#include "plurnk/path.hpp"
#include "plurnk/validate.hpp"
#include "url.hpp"

namespace plurnk {
namespace {

constexpr std::string_view k_invalid_uri = "invalid URI in path";
constexpr std::string_view k_meta_expected = "invalid request metadata: expected a `{name: value}` block";
constexpr std::string_view k_meta_unclosed = "invalid request metadata: unclosed `{name: value}` block";
constexpr std::string_view k_meta_no_colon = "invalid request metadata: missing `:` separator";
constexpr std::string_view k_meta_empty_name = "invalid request metadata: empty name";

using ascii::is_alpha;

// `[A-Za-z][A-Za-z0-9+.-]*://` at the start.
bool has_scheme_prefix(std::string_view s) noexcept {
    if (s.empty() || !is_alpha(s[0])) return false;
    std::size_t i = 1;
    while (i < s.size() && url_detail::is_scheme_char(static_cast<unsigned char>(s[i]))) ++i;
    return s.substr(i, 3) == "://";
}

// JavaScript String#trim whitespace, restricted to what can matter here: ASCII whitespace
// and the Unicode space separators, line/paragraph separators, NBSP and BOM (UTF-8).
std::size_t space_len_at(std::string_view s, std::size_t i) noexcept {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r') return 1;
    if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0xA0) return 2;
    if (c == 0xE1 && s.substr(i, 3) == "\xE1\x9A\x80") return 3;
    if (c == 0xE2 && i + 2 < s.size()) {
        const auto c1 = static_cast<unsigned char>(s[i + 1]);
        const auto c2 = static_cast<unsigned char>(s[i + 2]);
        if (c1 == 0x80 && (c2 <= 0x8A || c2 == 0xA8 || c2 == 0xA9 || c2 == 0xAF)) return 3;
        if (c1 == 0x81 && c2 == 0x9F) return 3;
    }
    if (c == 0xE3 && s.substr(i, 3) == "\xE3\x80\x80") return 3;
    if (c == 0xEF && s.substr(i, 3) == "\xEF\xBB\xBF") return 3;
    return 0;
}
std::string_view js_trim(std::string_view s) noexcept {
    std::size_t b = 0;
    while (b < s.size()) {
        const std::size_t n = space_len_at(s, b);
        if (n == 0) break;
        b += n;
    }
    s.remove_prefix(b);
    // Trailing: step back over whole UTF-8 sequences.
    for (;;) {
        if (s.empty()) break;
        std::size_t start = s.size() - 1;
        while (start > 0 && s.size() - start < 3 && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80) --start;
        bool trimmed = false;
        for (std::size_t k = start; k < s.size(); ++k) {
            if (space_len_at(s, k) == s.size() - k) {
                s.remove_suffix(s.size() - k);
                trimmed = true;
                break;
            }
        }
        if (!trimmed) break;
    }
    return s;
}

// BEHAVIOUR §3.4 step 4: `{name: value}` blocks, back to back, each ending at its first `}`.
std::optional<std::string> parse_header_blocks(std::string_view rest,
                                               std::vector<std::pair<std::string, std::string>>& out) {
    while (!rest.empty()) {
        if (rest.front() != '{') return std::string(k_meta_expected);
        const std::size_t close = rest.find('}');
        if (close == std::string_view::npos) return std::string(k_meta_unclosed);
        const std::string_view inner = rest.substr(1, close - 1);
        const std::size_t colon = inner.find(':');
        if (colon == std::string_view::npos) return std::string(k_meta_no_colon);
        const std::string_view name = js_trim(inner.substr(0, colon));
        if (name.empty()) return std::string(k_meta_empty_name);
        out.emplace_back(std::string(name), std::string(js_trim(inner.substr(colon + 1))));
        rest.remove_prefix(close + 1);
    }
    return std::nullopt;
}

// A whole scope literal `<n(sep n)*>` (BEHAVIOUR §3.2; read by grammar/scope_literal.hpp), each
// number's value as strtod reads it.
std::optional<std::vector<double>> parse_scope_literal(std::string_view s) {
    if (s.size() < 3 || s.front() != '<' || s.back() != '>') return std::nullopt;
    std::vector<double> m;
    const auto mark = [&](std::size_t b, std::size_t e) {
        if (m.capacity() == 0) {
            // Room for the usual handful of marks at once (one block, not a doubling series):
            // each further mark follows a `,` or `-` (a sign counts too, so this may
            // overestimate, hence the cap: a hostile `<1---...>` must not reserve in proportion
            // to its length).
            constexpr std::size_t k_marks_reserved_max = 16;
            std::size_t separators = 0;
            for (const char c : s.substr(1, s.size() - 2)) separators += (c == ',' || c == '-') ? 1 : 0;
            m.reserve(1 + std::min(separators, k_marks_reserved_max - 1));
        }
        const std::string text(s.substr(b, e - b));
        m.push_back(std::strtod(text.c_str(), nullptr));
    };
    const detail::scope_scan r = detail::scan_scope(s, 1, detail::scope_phase::number, mark);
    if (r.v != detail::scope_scan::verdict::closed || r.at != s.size()) return std::nullopt;
    return m;
}

// The ParsedPath fields of a URL the fast path read, copied out of `p.raw`, the text it read.
void project_fast(detail::path_fields& p, const url_detail::url_parts& u) {
    const parsed_path v = url_detail::project_fast(p.raw, u);
    const auto copy = [](std::optional<std::string>& field, const std::optional<std::string_view>& part) {
        if (part) field.emplace(*part);
    };
    p.kind = v.kind;
    p.scheme = v.scheme;
    copy(p.username, v.username);
    copy(p.password, v.password);
    copy(p.hostname, v.hostname);
    p.port = v.port;
    p.pathname = v.pathname;
    copy(p.query, v.query);
    copy(p.fragment, v.fragment);
}

// parse_path, through the fast path when `allow_fast` and it accepts the text. Every return
// returns `r`, so the path is built in place (no copy, no move on the hot path).
result<std::optional<detail::path_fields>> parse_target(std::string_view raw, bool allow_fast) {
    result<std::optional<detail::path_fields>> r = std::optional<detail::path_fields>();
    if (raw.empty()) return r;
    detail::path_fields& p = r.value().emplace();
    url_detail::decode_target_escapes(raw, p.raw);
    if (allow_fast) {
        url_detail::url_parts parts;
        if (url_detail::parse_target_fast(p.raw, parts)) {
            if (parts.kind == url_detail::url_parts::kind_t::url) project_fast(p, parts);
            return r;
        }
    }
    if (!has_scheme_prefix(p.raw)) return r;
    p.kind = parsed_path::kind_t::url;
    std::string_view url_text = p.raw;
    if (const std::size_t brace = url_text.find('{'); brace != std::string_view::npos) {
        if (auto err = parse_header_blocks(url_text.substr(brace), p.header_text)) {
            r = problem{0, std::move(*err)};
            return r;
        }
        url_text = url_text.substr(0, brace);
        p.headers.emplace();
        p.rebind();
    }
    std::optional<url_record> url = url_detail::parse_url_record_full(url_text);
    if (!url) {
        r = problem{0, std::string(k_invalid_uri)};
        return r;
    }
    p.scheme = url->protocol.substr(0, url->protocol.size() - 1);
    if (!url->username.empty()) p.username = url->username;
    if (!url->password.empty()) p.password = url->password;
    if (!url->hostname.empty()) p.hostname = std::move(url->hostname);
    if (!url->port.empty()) p.port = static_cast<std::uint32_t>(std::strtoul(url->port.c_str(), nullptr, 10));
    p.pathname = std::move(url->pathname);
    // The query is read off the href as the reference reads it (BEHAVIOUR §3.4): from the first
    // `?` of the whole href to the `#` after it, which keeps "" for a bare `?`. Nothing before
    // the query can hold a raw `?` (userinfo and paths encode it, hosts forbid it), but a
    // fragment can: with no query, a `?` in the fragment starts the reported one
    // (`http://foo/abcd#foo?bar` -> "bar", `http://x/#?` -> "").
    const std::string_view href = url->href;
    if (const std::size_t q = href.find('?'); q != std::string_view::npos) {
        const std::size_t end = href.find('#', q + 1);
        p.query = std::string(href.substr(q + 1, end == std::string_view::npos ? end : end - q - 1));
    }
    if (url->hash.size() > 1) p.fragment = url->hash.substr(1);
    return r;
}

}  // namespace

namespace url_detail {

// BEHAVIOUR §3.4 step 2: `\\`, `\(`, `\)` lose their backslash; any other `\x` stays. The text
// goes straight into `out` (the result's string), copied whole when it holds no backslash.
void decode_target_escapes(std::string_view raw, std::string& out) {
    const std::size_t first = raw.find('\\');
    if (first == std::string_view::npos) {
        out.assign(raw.data(), raw.size());
        return;
    }
    out.reserve(raw.size());
    out.assign(raw.data(), first);
    for (std::size_t i = first; i < raw.size(); ++i) {
        if (raw[i] == '\\' && i + 1 < raw.size() &&
            (raw[i + 1] == '\\' || raw[i + 1] == '(' || raw[i + 1] == ')')) {
            out.push_back(raw[i + 1]);
            ++i;
        } else {
            out.push_back(raw[i]);
        }
    }
}

result<std::optional<detail::path_fields>> parse_path_full(std::string_view raw) { return parse_target(raw, false); }

// As the full route projects the WHATWG record (BEHAVIOUR §3.4 step 6): an empty hostname is
// absent (and there are no credentials); the query is the href's first `?` on, which with no query
// may sit inside the fragment (to the fragment's next `#`).
parsed_path project_fast(std::string_view text, const url_parts& u) {
    parsed_path p;
    p.raw = text;
    if (u.kind == url_parts::kind_t::local) return p;
    const auto non_empty = [text](std::optional<std::string_view>& field, const text_part& part) {
        if (part.present && part.end > part.begin) field = part.of(text);
    };
    p.kind = parsed_path::kind_t::url;
    p.scheme = u.scheme.of(text);
    non_empty(p.hostname, u.hostname);
    if (u.has_port) p.port = u.port_value;
    p.pathname = u.pathname.of(text);
    if (u.query.present) {
        p.query = u.query.of(text);
    } else if (u.fragment.present) {
        const std::string_view fragment = u.fragment.of(text);
        if (const std::size_t q = fragment.find('?'); q != std::string_view::npos) {
            const std::size_t end = fragment.find('#', q + 1);
            p.query = fragment.substr(q + 1, end == std::string_view::npos ? end : end - q - 1);
        }
    }
    non_empty(p.fragment, u.fragment);
    return p;
}

}  // namespace url_detail

namespace detail {

void path_fields::rebind() {
    if (!headers) return;
    headers->clear();
    for (const auto& [name, value] : header_text) headers->push_back(header{name, value});
}

parsed_path path_fields::view() const {
    parsed_path v;
    v.kind = kind;
    v.raw = raw;
    if (kind == parsed_path::kind_t::regex) {
        const hash_split sp = split_hash_regex(v.raw);
        v.pattern = sp.pattern;
        v.flags = sp.flags;
        return v;
    }
    v.scheme = scheme;
    if (username) v.username = *username;
    if (password) v.password = *password;
    if (hostname) v.hostname = *hostname;
    v.port = port;
    v.pathname = pathname;
    if (query) v.query = *query;
    if (fragment) v.fragment = *fragment;
    if (headers) v.headers = std::span<const header>(*headers);
    return v;
}

// SERVICE.md S7: in the service dialect, a text as written that starts with `#`, splits and
// compiles as a `#pattern#flags` matcher does (S4) is a regex path; anything else is 1.4.0's.
result<std::optional<path_fields>> parse_path_fields(std::string_view raw, parse_dialect dialect) {
    if (dialect == parse_dialect::service && is_regex_path(raw)) {
        result<std::optional<path_fields>> r = std::optional<path_fields>(path_fields{});
        r.value()->kind = parsed_path::kind_t::regex;
        r.value()->raw = std::string(raw);
        return r;
    }
    return parse_target(raw, true);
}

bool is_regex_path(std::string_view raw) {
    if (raw.empty() || raw.front() != '#') return false;
    const hash_split sp = split_hash_regex(raw);
    return sp.closed && validate_regex(sp.pattern, sp.flags).ok();
}

result<std::optional<selection_fields>> parse_selection_fields(std::string_view raw, parse_dialect dialect) {
    result<std::optional<selection_fields>> r = std::optional<selection_fields>();
    if (raw.empty()) return r;
    std::optional<std::vector<double>> marker;
    std::string_view target = raw;
    if (raw.back() == '>') {
        // The scope literal holds no `<`, so the last `<` is its only candidate opener.
        if (const std::size_t open = raw.rfind('<'); open != std::string_view::npos) {
            if (auto m = parse_scope_literal(raw.substr(open))) {
                marker = std::move(m);
                target = raw.substr(0, open);
            }
        }
    }
    result<std::optional<path_fields>> p = parse_path_fields(target, dialect);
    if (!p) {
        r = p.problem();
        return r;
    }
    if (p.value()) {
        r.value().emplace(selection_fields{std::move(*p.value()), std::move(marker)});
        r.value()->target.rebind();
    }
    return r;
}

}  // namespace detail

// The public forms own their fields through a shared pointer, so copies stay valid and cheap.
path_value::path_value(detail::path_fields&& f) {
    auto own = std::make_shared<detail::path_fields>(std::move(f));
    own->rebind();
    fields_ = std::move(own);
    static_cast<parsed_path&>(*this) = fields_->view();
}

selection_value::selection_value(detail::selection_fields&& f) {
    auto own = std::make_shared<detail::selection_fields>(std::move(f));
    own->target.rebind();
    fields_ = std::move(own);
    target = fields_->target.view();
    if (fields_->marks) marker = line_marker{std::span<const double>(*fields_->marks)};
}

result<std::optional<path_value>> parse_path(std::string_view raw) {
    result<std::optional<detail::path_fields>> f = detail::parse_path_fields(raw);
    if (!f) return f.problem();
    if (!f.value()) return std::optional<path_value>();
    return std::optional<path_value>(path_value(std::move(*f.value())));
}

result<std::optional<selection_value>> parse_resource_selection(std::string_view raw) {
    result<std::optional<detail::selection_fields>> f = detail::parse_selection_fields(raw);
    if (!f) return f.problem();
    if (!f.value()) return std::optional<selection_value>();
    return std::optional<selection_value>(selection_value(std::move(*f.value())));
}

// One forward pass (SPEC §5 §path-glob). `*`, `?` and an escape `\x` are magic where they
// stand; `[` when an unescaped `]` closes the class; `{` when its matching `}` encloses a
// top-level `,` or `..` (a brace expansion, not a literal `{x}`); `@(`, `!(`, `+(` when the
// `(` is matched (`*(` and `?(` are already magic by their first character). Open braces and
// parens live on fixed stacks; nesting deeper than k_glob_max_depth is treated as literal.
std::optional<std::size_t> glob_magic_index(std::string_view s) noexcept {
    constexpr std::size_t k_glob_max_depth = 64;
    constexpr std::size_t npos = std::string_view::npos;
    const std::size_t n = s.size();
    // The last unescaped `]`, pairing escapes from the start as the main pass does.
    std::size_t last_close = npos;
    for (std::size_t i = 0; i < n; ++i) {
        if (s[i] == '\\') ++i;
        else if (s[i] == ']') last_close = i;
    }
    struct open_brace { std::size_t pos; bool sep; };
    struct open_paren { std::size_t pos; bool ext; };
    open_brace braces[k_glob_max_depth];
    open_paren parens[k_glob_max_depth];
    std::size_t brace_depth = 0, brace_overflow = 0, paren_depth = 0, paren_overflow = 0;
    std::size_t best = npos;
    auto found = [&](std::size_t pos) { if (pos < best) best = pos; };
    for (std::size_t i = 0; i < n; ++i) {
        // Nothing still open can start before `best`: the answer is final.
        if (best != npos && brace_depth == 0 && paren_depth == 0) break;
        const char c = s[i];
        switch (c) {
            case '*': case '?': found(i); break;
            case '\\':
                if (i + 1 < n) { found(i); ++i; }
                break;
            case '[': {
                std::size_t j = i + 1;
                if (j < n && (s[j] == '!' || s[j] == '^')) ++j;
                if (last_close != npos && last_close > j) found(i);  // a leading `]` is a member
                break;
            }
            case '{':
                if (brace_depth < k_glob_max_depth) braces[brace_depth++] = {i, false};
                else ++brace_overflow;
                break;
            case ',':
                if (brace_depth > 0 && brace_overflow == 0) braces[brace_depth - 1].sep = true;
                break;
            case '.':
                if (i + 1 < n && s[i + 1] == '.' && brace_depth > 0 && brace_overflow == 0)
                    braces[brace_depth - 1].sep = true;
                break;
            case '}':
                if (brace_overflow > 0) --brace_overflow;
                else if (brace_depth > 0 && braces[--brace_depth].sep) found(braces[brace_depth].pos);
                break;
            case '(': {
                const bool ext = i > 0 && (s[i - 1] == '@' || s[i - 1] == '!' || s[i - 1] == '+');
                if (paren_depth < k_glob_max_depth) parens[paren_depth++] = {i, ext};
                else ++paren_overflow;
                break;
            }
            case ')':
                if (paren_overflow > 0) --paren_overflow;
                else if (paren_depth > 0 && parens[--paren_depth].ext) found(parens[paren_depth].pos - 1);
                break;
            default: break;
        }
    }
    if (best == npos) return std::nullopt;
    return best;
}

bool has_glob(std::string_view pathname) noexcept { return glob_magic_index(pathname).has_value(); }

bool is_worker_name(std::string_view name) noexcept {
    if (name.empty() || name.size() > 63) return false;
    auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
    if (!alnum(name.front()) || !alnum(name.back())) return false;
    for (char c : name) if (!alnum(c) && c != '-') return false;
    return true;
}

bool is_reserved_authority(std::string_view name) noexcept {
    for (auto r : k_reserved_authorities) if (r == name) return true;
    return false;
}

}  // namespace plurnk
