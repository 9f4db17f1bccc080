// SPDX-License-Identifier: MIT
// Quick readings of common statement bodies (see body_fast.hpp). Each reader walks its subset
// once, left to right, and gives up at the first byte outside it; it never says "invalid", so
// whatever it does not know costs one partial scan before the full validator runs. The subsets
// are chosen so that validity is local: in the regex subset the only errors are an unbalanced
// parenthesis and a quantifier with nothing to repeat, both seen where they stand, and nothing
// means anything else under the u or v flag; in the XPath subset every step is a name test
// (never an operator word) and every predicate an attribute test, a comparison with a literal or
// a position; in the JSONPath
// subset every selector is well typed by its form (a singular query compared with a literal, or
// alone as an existence test), names are ASCII identifiers other than the literal keywords,
// indices have at most nine digits (far inside the I-JSON range) and no leading zero. A
// selection's marks are integers of at most 15 digits, which a double holds exactly, so the sum
// of their digits is what strtod gives.
#include "builder/body_fast.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "base/ascii.hpp"
#include "grammar/scope_literal.hpp"
#include "url/fast_path.hpp"

namespace plurnk::detail {

namespace {

// spec: ECMA-262 §22.2.3.1 RegExpInitialize steps 4-5: each of dgimsuvy at most once, not both
// u and v.
// Each flag's bit, one look-up a flag (a search of the flags' string called memchr per flag).
constexpr std::string_view k_regex_flags = "dgimsuvy";
constexpr std::array<std::uint8_t, 256> k_regex_flag_bits = [] {
    std::array<std::uint8_t, 256> t{};
    for (std::size_t i = 0; i < k_regex_flags.size(); ++i) {
        t[static_cast<unsigned char>(k_regex_flags[i])] = static_cast<std::uint8_t>(1U << i);
    }
    return t;
}();
bool valid_regex_flags(std::string_view flags) noexcept {
    unsigned seen = 0;
    for (const char c : flags) {
        const unsigned bit = k_regex_flag_bits[static_cast<unsigned char>(c)];
        if (bit == 0 || (seen & bit) != 0) return false;
        seen |= bit;
    }
    constexpr unsigned u = 1U << 5, v = 1U << 6;
    return (seen & (u | v)) != (u | v);
}

// A byte the regex subset takes as a literal character (a PatternCharacter in every mode).
constexpr bool is_plain_regex_char(unsigned char c) noexcept {
    return ascii::is_alnum(c) || c == '_' || c == ' ' || c == '-';
}

// The atoms of the regex subset that are one byte: plain characters and `.`, one look-up each.
constexpr std::array<bool, 256> k_regex_atom_bytes = [] {
    std::array<bool, 256> t{};
    for (unsigned c = 0; c < 256; ++c) t[c] = is_plain_regex_char(static_cast<unsigned char>(c)) || c == '.';
    return t;
}();

// The end of the run of bytes `taken` takes in `s` from `i` on (s.size() when it runs to the end):
// four look-ups a step while four bytes remain (a body's runs are names and words), then one.
std::size_t run_end(std::string_view s, std::size_t i, const std::array<bool, 256>& taken) noexcept {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const std::size_t n = s.size();
    const auto at = [&](std::size_t k) { return unsigned{taken[p[k]]}; };  // (no branch per byte)
    while (i + 4 <= n && (at(i) & at(i + 1) & at(i + 2) & at(i + 3)) != 0) i += 4;
    while (i < n && taken[p[i]]) ++i;
    return i;
}

// JSONPath's byte classes, one look-up each: a name's bytes after its first ([A-Za-z0-9_]), a
// quoted string's (those, space, `-` and `.`).
constexpr std::array<bool, 256> k_name_bytes = [] {
    std::array<bool, 256> t{};
    for (unsigned c = 0; c < 256; ++c) t[c] = ascii::is_word_char(c);
    return t;
}();
constexpr std::array<bool, 256> k_quoted_bytes = [] {
    std::array<bool, 256> t = k_name_bytes;
    for (const unsigned char c : {' ', '-', '.'}) t[c] = true;
    return t;
}();

// JSONPath: a reader over the query; every read* advances `p` on success.
class jsonpath_reader {
public:
    explicit jsonpath_reader(std::string_view s) noexcept : s_(s) {}

    // jsonpath-query = root-identifier segments
    bool query() noexcept {
        if (!eat('$')) return false;
        while (p_ < s_.size()) {
            if (!segment(false)) return false;
        }
        return true;
    }

private:
    // segment = "." (name | "*") / "[" selector "]"; a singular one (in a filter's query) has no
    // wildcard and no filter.
    bool segment(bool singular) noexcept {
        if (eat('.')) return name() || (!singular && eat('*'));
        if (!eat('[')) return false;
        bool ok = false;
        const unsigned char c = peek();
        if (c == '\'') {
            ok = quoted();
        } else if (c == '-' || ascii::is_digit(c)) {
            ok = integer();
        } else if (!singular && c == '*') {
            ++p_;
            ok = true;
        } else if (!singular && c == '?') {
            ++p_;
            ok = filter();
        }
        return ok && eat(']');
    }

    // member-name-shorthand, ASCII only: [A-Za-z_][A-Za-z0-9_]*, not true, false or null. On
    // false nothing is consumed, so the caller's next alternative reads from the same byte
    // (`.true*` is not a name followed by `*`; a fuzz find).
    bool name() noexcept {
        const std::size_t b = p_;
        const unsigned char first = peek();
        if (!(ascii::is_alpha(first) || first == '_')) return false;
        skip(k_name_bytes);
        const std::string_view n = s_.substr(b, p_ - b);
        if ((first == 't' || first == 'f' || first == 'n') && (n == "true" || n == "false" || n == "null")) {
            p_ = b;
            return false;
        }
        return true;
    }

    // int = "0" / ["-"] DIGIT1 *DIGIT, at most nine digits
    bool integer() noexcept {
        const bool neg = eat('-');
        const std::size_t b = p_;
        std::size_t p = b;
        while (p < s_.size() && ascii::is_digit(static_cast<unsigned char>(s_[p]))) ++p;
        p_ = p;
        const std::size_t n = p - b;
        if (n == 0 || n > 9) return false;
        if (s_[b] == '0') return n == 1 && !neg;
        return true;
    }

    // A single-quoted string of ASCII letters, digits, space, `_`, `-` and `.` (no escapes).
    bool quoted() noexcept {
        if (!eat('\'')) return false;
        skip(k_quoted_bytes);
        return eat('\'');
    }

    // filter-selector = "?" (rel-singular-query [comparison-op literal])
    bool filter() noexcept {
        if (!eat('@')) return false;
        while (peek() == '.' || peek() == '[') {
            if (!segment(true)) return false;
        }
        if (peek() == ']') return true;  // an existence test
        const unsigned char c = peek();
        if (c == '=' || c == '!') {
            ++p_;
            if (!eat('=')) return false;
        } else if (c == '<' || c == '>') {
            ++p_;
            eat('=');
        } else {
            return false;
        }
        return literal();
    }

    // A comparable literal: int, a plain string, true, false, null.
    bool literal() noexcept {
        const unsigned char c = peek();
        if (c == '\'') return quoted();
        if (c == '-' || ascii::is_digit(c)) return integer();
        for (const std::string_view k : {std::string_view("true"), std::string_view("false"), std::string_view("null")}) {
            if (s_.substr(p_, k.size()) == k) {
                p_ += k.size();
                return true;
            }
        }
        return false;
    }

    // Past a run of the bytes `bytes` takes.
    void skip(const std::array<bool, 256>& bytes) noexcept { p_ = run_end(s_, p_, bytes); }
    [[nodiscard]] unsigned char peek() const noexcept {
        return p_ < s_.size() ? static_cast<unsigned char>(s_[p_]) : 0;
    }
    bool eat(char c) noexcept {
        if (p_ < s_.size() && s_[p_] == c) {
            ++p_;
            return true;
        }
        return false;
    }

    std::string_view s_;
    std::size_t p_ = 0;
};

// The marks of a whole scope literal (`s` from its `<` to its `>`; grammar/scope_literal.hpp) as
// parse_resource_selection reads them, for integers of at most 15 digits. False when `s` is not
// such a literal: a decimal mark, a longer number, or no literal at all.
bool integer_scope_literal(std::string_view s, std::vector<double>& marks) {
    marks.clear();
    if (s.size() < 3 || s.front() != '<' || s.back() != '>') return false;
    bool integers = true;
    const scope_scan r = scan_scope<true>(s, 1, scope_phase::number, [&](const scope_number& num) {
        if (!integers) return;
        if (!summed_exactly(num)) {
            integers = false;
            return;
        }
        marks.push_back(summed_value(num));
    });
    return integers && r.v == scope_scan::verdict::closed && r.at == s.size();
}

}  // namespace

bool regex_matcher_fast(std::string_view body, std::string_view& pattern, std::string_view& flags) noexcept {
    // Disjunction, Alternative, Term (spec: ECMA-262 §22.2.1) over the subset: plain characters
    // and `.` (atoms), groups `(...)` (a capture each; `(?` never gets in, as `?` after `(` has
    // nothing to repeat), `^` and `$` (assertions, which take no quantifier), and `*`, `+`, `?`
    // after an atom, each optionally lazy.
    constexpr int k_max_depth = 32;
    constexpr int k_max_groups = 100;  // far below V8's capture limit
    if (body.empty() || body.front() != '/') return false;
    int depth = 0, groups = 0;
    bool quantifiable = false;  // an atom just ended
    bool quantified = false;    // a quantifier just ended (a `?` makes it lazy)
    std::size_t i = 1;
    for (; i < body.size() && body[i] != '/'; ++i) {
        const auto c = static_cast<unsigned char>(body[i]);
        if (k_regex_atom_bytes[c]) {
            // a run of them: the last is the atom a quantifier may follow
            i = run_end(body, i + 1, k_regex_atom_bytes) - 1;
            quantifiable = true;
            quantified = false;
        } else if (c == '|' || c == '^' || c == '$') {
            quantifiable = quantified = false;
        } else if (c == '(') {
            if (depth == k_max_depth || groups == k_max_groups) return false;
            ++depth;
            ++groups;
            quantifiable = quantified = false;
        } else if (c == ')') {
            if (depth == 0) return false;
            --depth;
            quantifiable = true;
            quantified = false;
        } else if (c == '*' || c == '+' || c == '?') {
            if (quantifiable) {
                quantifiable = false;
                quantified = true;
            } else if (c == '?' && quantified) {
                quantified = false;
            } else {
                return false;
            }
        } else {
            return false;
        }
    }
    // split_regex: with no `\`, `[` or `]` before it, the first `/` after the leading one ends
    // the pattern.
    if (i == body.size() || depth != 0) return false;
    pattern = body.substr(1, i - 1);
    flags = body.substr(i + 1);
    return valid_regex_flags(flags);
}

bool jsonpath_matcher_fast(std::string_view body) noexcept { return jsonpath_reader(body).query(); }

bool xpath_matcher_fast(std::string_view body) noexcept {
    // LocationPath (spec: XPath 1.0 §2, [1]-[4], [8], [9]) over the subset: steps of a name test,
    // each after `/` or `//`, with predicates `[@name]`, `[@name=lit]`, `[@name!=lit]`,
    // `[name=lit]` and `[n]`. A name is [A-Za-z_][A-Za-z0-9_]* but none of the words the
    // reference's lexer may read as an operator or a node type.
    std::size_t p = 0;
    const std::size_t n = body.size();
    const auto name = [&]() noexcept {
        const std::size_t b = p;
        if (p >= n || !(ascii::is_alpha(static_cast<unsigned char>(body[p])) || body[p] == '_')) return false;
        while (p < n && ascii::is_word_char(static_cast<unsigned char>(body[p]))) ++p;
        const std::string_view w = body.substr(b, p - b);
        for (const std::string_view k : {"and", "or", "mod", "div", "comment", "text", "node", "processing"}) {
            if (w == k) return false;
        }
        return true;
    };
    // A literal of letters, digits, `_`, `-`, `.` and space in single or double quotes.
    const auto literal = [&]() noexcept {
        if (p >= n || (body[p] != '\'' && body[p] != '"')) return false;
        const char q = body[p++];
        while (p < n && (ascii::is_word_char(static_cast<unsigned char>(body[p])) || body[p] == '-' ||
                         body[p] == '.' || body[p] == ' ')) {
            ++p;
        }
        if (p >= n || body[p] != q) return false;
        ++p;
        return true;
    };
    const auto predicate = [&]() noexcept {
        ++p;  // `[`
        if (p < n && ascii::is_digit(static_cast<unsigned char>(body[p]))) {
            if (body[p] == '0') return false;
            const std::size_t b = p;
            while (p < n && ascii::is_digit(static_cast<unsigned char>(body[p]))) ++p;
            if (p - b > 9) return false;
        } else {
            const bool attribute = p < n && body[p] == '@';
            if (attribute) ++p;
            if (!name()) return false;
            if (p < n && (body[p] == '=' || body[p] == '!')) {
                if (body[p] == '!' && (++p >= n || body[p] != '=')) return false;
                ++p;
                if (!literal()) return false;
            } else if (!attribute) {
                return false;
            }
        }
        if (p >= n || body[p] != ']') return false;
        ++p;
        return true;
    };
    if (n == 0 || body[0] != '/') return false;
    while (p < n) {
        if (body[p] != '/') return false;
        ++p;
        if (p < n && body[p] == '/') ++p;
        if (!name()) return false;
        while (p < n && body[p] == '[') {
            if (!predicate()) return false;
        }
    }
    return true;
}

bool selection_fast(std::string_view body, std::vector<double>& marks, fast_selection& out) {
    if (body.empty()) return false;
    std::string_view target = body;
    out.marked = false;
    if (body.back() == '>') {
        // The scope literal holds no `<`, so the last `<` is its only candidate opener.
        const std::size_t open = body.rfind('<');
        if (open == std::string_view::npos || !integer_scope_literal(body.substr(open), marks)) return false;
        target = body.substr(0, open);
        out.marked = true;
    }
    if (!url_detail::parse_raw_target_fast(target, out.parts)) return false;
    out.text = target;
    return true;
}

bool selection_fast(std::string_view body, std::vector<double>& marks, resource_selection& out) {
    fast_selection f;
    if (!selection_fast(body, marks, f)) return false;
    out.target = url_detail::project_fast(f.text, f.parts);
    out.marker.reset();
    if (f.marked) out.marker = line_marker{std::span<const double>(marks)};
    return true;
}

}  // namespace plurnk::detail
