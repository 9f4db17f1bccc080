// SPDX-License-Identifier: MIT
// The lexer's rules inside a statement as pure scanners (private header), BEHAVIOUR §1: each
// reads the input from an offset and says where its token ends, or that the input ended first,
// or that a byte breaks the rule. They hold no state and look at no byte past the end of the
// input, so the two readers of a statement share them: the mode steps (modes.cpp),
// which wrap a scanner with has(), their resume hints and the error they report; and the
// whole-statement reader (statement_reader.cpp), which calls it bare and declines at anything
// but `done`. A rule is changed here, once. (The scope literal is grammar/scope_literal.hpp,
// the body's next `:` + open tag is next_tag_colon() in lexer.hpp.)
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "base/ascii.hpp"
#include "base/byte_scan.hpp"
#include "grammar/hash_regex.hpp"

namespace plurnk::detail::scan {

enum class verdict : std::uint8_t {
    done,  // the token ends at `end` (the byte there, if any, is not part of it)
    more,  // the input ended first: a longer input may move `end`; a scan of it goes on from `end`
    bad,   // the byte at `end` (or the end of the input, `end` then being its size) breaks the rule
};

struct run {
    std::size_t end = 0;
    verdict v = verdict::bad;
    int depth = 0;  // target(): the parenthesis depth at `end`; regex_unit(): the phase there
};

constexpr unsigned char byte_at(std::string_view s, std::size_t k) noexcept { return static_cast<unsigned char>(s[k]); }

// A tag's stops: `]`, `,` and whitespace.
constexpr bool is_tag_stop(unsigned char c) noexcept {
    return c == ']' || c == ',' || c == '\r' || c == '\n' || c == ' ' || c == '\t';
}

// SIGNAL_TAGS: a tag from k (its start, or where a scan that said `more` stopped) up to a stop.
// A '<' is part of the tag when the byte after it is neither a stop nor another '<'; before one
// of those it ends the tag (and is the next token's problem). `more` at the end of the input, or
// at a '<' that is its last byte.
constexpr run tag(std::string_view s, std::size_t k) noexcept {
    const std::size_t n = s.size();
    for (;;) {
        if (k >= n) return {k, verdict::more};
        const unsigned char d = byte_at(s, k);
        if (is_tag_stop(d)) return {k, verdict::done};
        if (d == '<') {
            if (k + 1 >= n) return {k, verdict::more};
            const unsigned char f = byte_at(s, k + 1);
            if (is_tag_stop(f) || f == '<') return {k, verdict::done};
            k += 2;
            continue;
        }
        ++k;
    }
}

// A run of digits from k.
constexpr run digits(std::string_view s, std::size_t k) noexcept {
    const std::size_t n = s.size();
    while (k < n && ascii::is_digit(byte_at(s, k))) ++k;
    return {k, k < n ? verdict::done : verdict::more};
}

// SIGNAL_INT: an integer or a disposition, `-`? DIGITS, starting at k (not a blank or `]`);
// `from` (at or past its first digit) resumes the digits where a scan that said `more` stopped.
// `bad` where a digit must be and none is (the end of the input included).
constexpr run integer(std::string_view s, std::size_t k, std::size_t from = 0) noexcept {
    if (k < s.size() && s[k] == '-') ++k;
    if (k >= s.size() || !ascii::is_digit(byte_at(s, k))) return {k, verdict::bad};
    return digits(s, from > k ? from : k + 1);
}

// An executor's characters after its first: word characters, `.`, `+` and `-`.
constexpr bool is_executor_char(unsigned char c) noexcept {
    return ascii::is_word_char(c) || c == '.' || c == '+' || c == '-';
}

// SIGNAL_IDENT: an executor starting at k (not a blank or `]`): a letter or `_`, then executor
// characters; `from` resumes the run as for integer(). `bad` at k when the first byte is neither.
constexpr run executor(std::string_view s, std::size_t k, std::size_t from = 0) noexcept {
    const unsigned char c = byte_at(s, k);
    if (!(ascii::is_alpha(c) || c == '_')) return {k, verdict::bad};
    const std::size_t n = s.size();
    std::size_t q = from > k + 1 ? from : k + 1;
    while (q < n && is_executor_char(byte_at(s, q))) ++q;
    return {q, q < n ? verdict::done : verdict::more};
}

// The bytes that end a plain run of target text: escapes, parentheses, line ends and '<' (which
// may start a stop pair).
inline constexpr std::array<char, 6> k_target_specials = {'\\', '(', ')', '\r', '\n', '<'};
constexpr bool is_target_special(unsigned char c) noexcept {
    return std::find(k_target_specials.begin(), k_target_specials.end(), static_cast<char>(c)) != k_target_specials.end();
}
inline constexpr std::array<bool, 256> k_target_special = [] {
    std::array<bool, 256> t{};
    for (int c = 0; c < 256; ++c) t[static_cast<std::size_t>(c)] = is_target_special(static_cast<unsigned char>(c));
    return t;
}();

// TARGET: target text from k at parenthesis depth `depth` (0 just after the `(`). `\\`, `\(` and
// `\)` are escapes and a lone backslash is text; `(` and `)` nest; the text ends (`done`) at the
// `)` that closes depth 0, at a line end, or at a '<' followed by `\`, a parenthesis, '<' or a
// line end (otherwise the pair is text). `more` where the input ended, or at the escape or '<'
// whose next byte has not arrived, with the depth there; with `final` (nothing more will come)
// a lone '\' or '<' at the end is decided as the end of the input decides it.
inline run target(std::string_view s, std::size_t k, int depth, bool final) noexcept {
    const std::size_t n = s.size();
    for (;;) {
        k = byte_scan::first_of(s, k, k_target_specials);
        if (k >= n) return {k, final ? verdict::done : verdict::more, depth};
        const unsigned char c = byte_at(s, k);
        if (c == ')') {  // (first: most targets are plain text up to their `)`)
            if (depth == 0) return {k, verdict::done, depth};
            --depth;
            ++k;
        } else if (c == '\\') {
            if (k + 1 >= n) {
                if (!final) return {k, verdict::more, depth};
                ++k;
                continue;
            }
            const unsigned char f = byte_at(s, k + 1);
            k += (f == '\\' || f == '(' || f == ')') ? 2 : 1;
        } else if (c == '(') {
            ++depth;
            ++k;
        } else if (c == '<') {
            if (k + 1 >= n) return {k, final ? verdict::done : verdict::more, depth};
            const unsigned char f = byte_at(s, k + 1);
            if (f == '\\' || f == '(' || f == ')' || f == '<' || f == '\r' || f == '\n') return {k, verdict::done, depth};
            k += 2;
        } else {  // a line end
            return {k, verdict::done, depth};
        }
    }
}

// S3, the service dialect's regex target unit, in this header's terms (the rule itself is
// grammar/hash_regex.hpp's scan_regex_unit, which the formatter reads too): from k (past the `#`
// right after a target's `(`, or where a scan that said `more` stopped, `phase` then being the
// `depth` it returned), `done` when the unit's text ends at `end`, where its `)` is; `bad` when
// the text is no unit (decided at `end`: the target is read as 1.4.0's); `more` where the input
// ended, with the phase to resume in as `depth`.
constexpr run regex_unit(std::string_view s, std::size_t k, int phase = 0) noexcept {
    const unit_scan u = scan_regex_unit(s, k, static_cast<unit_phase>(phase));
    const verdict v = u.v == unit_scan::verdict::unit   ? verdict::done
                      : u.v == unit_scan::verdict::more ? verdict::more
                                                        : verdict::bad;
    return {u.at, v, static_cast<int>(u.phase)};
}

// How many bytes of `lit` match at k, going on from `from` bytes already matched: all of them,
// or fewer where a byte differs or the input ends.
// (byte_scan::prefix_plain(): most often it differs at once, a ':' that is no close tag.)
constexpr std::size_t literal(std::string_view s, std::size_t k, std::string_view lit, std::size_t from = 0) noexcept {
    return byte_scan::prefix_plain(s, k, lit, from);
}

// A run of blanks (space, tab) from k.
constexpr std::size_t blanks(std::string_view s, std::size_t k) noexcept {
    while (k < s.size() && (s[k] == ' ' || s[k] == '\t')) ++k;
    return k;
}

// A run of whitespace (space, tab, CR, LF) from k.
constexpr std::size_t whitespace(std::string_view s, std::size_t k) noexcept {
    while (k < s.size() && ascii::is_whitespace(byte_at(s, k))) ++k;
    return k;
}

// The one-colon close, `:` + open tag, then blanks: at k, past the blanks, `done` when a line
// end, `<<` or the end of the input follows (the statement closes there), `bad` when anything
// else does (the `:` was the body's fence). `more` at the end of the input, or at a '<' that is
// its last byte, unless `final`.
constexpr verdict one_colon_close(std::string_view s, std::size_t k, bool final) noexcept {
    const std::size_t n = s.size();
    if (k >= n) return final ? verdict::done : verdict::more;
    const char c = s[k];
    if (c == '\n' || c == '\r') return verdict::done;
    if (c != '<') return verdict::bad;
    if (k + 1 >= n) return final ? verdict::bad : verdict::more;
    return s[k + 1] == '<' ? verdict::done : verdict::bad;
}

// The body's close: a `:` + open tag ending at e closes the body (`done`) unless a word
// character follows (`bad`); `more` when the input ends at e, unless `final`.
constexpr verdict body_close(std::string_view s, std::size_t e, bool final) noexcept {
    if (e >= s.size()) return final ? verdict::done : verdict::more;
    return ascii::is_word_char(byte_at(s, e)) ? verdict::bad : verdict::done;
}

}  // namespace plurnk::detail::scan
