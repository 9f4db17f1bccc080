// SPDX-License-Identifier: MIT
// The scope literal (private header), BEHAVIOUR §1 and §3.2:
//   scope : '<' NUM (SEP NUM)* '>'      NUM : '-'? DIGITS ('.' DIGITS)?      SEP : ',' | ', ' | '-'
// written once. The lexer's scope token (its steps, which resume where the input ended, and the
// whole-statement reader), the builder's marks of a statement's scope, and a COPY/MOVE
// destination's scope (url/path.cpp and its quick reading, builder/body_fast.cpp) all read it
// with scan_scope(); each turns the numbers into values its own way.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "base/ascii.hpp"

namespace plurnk::detail {

// Where a scan stands between two bytes: a NUM starts here; in a NUM's integer digits; in its
// fraction digits; a SEP or the closing '>' comes here.
enum class scope_phase : std::uint8_t { number, integer, fraction, separator };

struct scope_scan {
    enum class verdict : std::uint8_t {
        closed,  // a literal ends at `at` (one past its '>')
        bad,     // the byte at `at` does not fit
        more,    // the input ended (`at` is its size) before the literal did: undecided
    };
    verdict v = verdict::bad;
    std::size_t at = 0;
    // more: where a scan of the longer input goes on, and in which phase (so that a literal that
    // arrives a few bytes at a time is still read once)
    std::size_t resume = 0;
    scope_phase phase = scope_phase::number;
};

// No callback: the lexer only wants to know where the literal ends.
struct no_scope_numbers {
    constexpr void operator()(std::size_t, std::size_t) const noexcept {}
};

// A NUM as the scan passed it: its text s[b, e) (the sign included), whether it has a fraction,
// and its integer digits summed as they were passed (mod 2^64: exact up to 19 digits), so that a
// reader of short integers need not read them again.
struct scope_number {
    std::size_t b = 0;
    std::size_t e = 0;
    std::uint64_t integer = 0;
    bool fraction = false;
    bool negative = false;  // the text starts with its '-'
};

// Whether a NUM's value is the sum the scan made of its digits, exactly: no fraction and at most
// 15 integer digits (below 2^53, so a double holds it, and std::from_chars reads the same value).
constexpr bool summed_exactly(const scope_number& num) noexcept {
    return !num.fraction && num.e - num.b - (num.negative ? 1 : 0) <= 15;
}
// That value, with its sign (when summed_exactly()).
constexpr double summed_value(const scope_number& num) noexcept {
    // below 2^63: converted as a signed integer, without the unsigned fix-up
    const double v = static_cast<double>(static_cast<std::int64_t>(num.integer));
    return num.negative ? -v : v;
}

// Reads a scope literal in `s` from `k` in `phase` (just past the '<': phase number; or where a
// scan that said `more` said to resume). For each NUM that begins at or after `k`, as it ends,
// calls on_number(b, e) with its text s[b, e) (the sign included), or on_number(scope_number)
// when the callback takes one. Looks at no byte past the end of `s`, and at each byte once.
// Closed: the caller knows that `s` ends with a '>' after `k` (a whole literal, as the lexer read
// it, or a text that may be one): every byte run then stops at that '>' at the latest, so the scan
// checks no bound (and never says `more`).
template <bool Closed = false, class OnNumber = no_scope_numbers>
constexpr scope_scan scan_scope(std::string_view s, std::size_t k, scope_phase phase,
                                OnNumber&& on_number = {}) noexcept {
    using verdict = scope_scan::verdict;
    const std::size_t n = s.size();
    if constexpr (Closed) assert(k < n && s[n - 1] == '>');
    // Whether `at` is inside `s` (always, when Closed: no '>' is passed over).
    const auto in = [n](std::size_t at) { return Closed || at < n; };
    const auto digit = [&s](std::size_t at) { return ascii::is_digit(static_cast<unsigned char>(s[at])); };
    const auto more = [n](std::size_t resume, scope_phase p) { return scope_scan{verdict::more, n, resume, p}; };
    const auto bad = [](std::size_t at) { return scope_scan{verdict::bad, at, 0, scope_phase::number}; };
    constexpr std::size_t k_none = static_cast<std::size_t>(-1);
    std::size_t num = k_none;  // where the NUM being read began, when it began at or after k
    std::uint64_t integer = 0;  // its integer digits so far (when num is not k_none)
    bool fraction = false;
    bool negative = false;
    for (;;) {
        if (phase == scope_phase::number) {
            num = k;
            integer = 0;
            fraction = false;
            negative = in(k) && s[k] == '-';
            if (negative) ++k;
            if (!in(k)) return more(num, scope_phase::number);
            if (!digit(k)) return bad(k);
            phase = scope_phase::integer;
        }
        if (phase == scope_phase::integer) {
            for (; in(k) && digit(k); ++k) integer = integer * 10 + static_cast<std::uint64_t>(s[k] - '0');
            if (!in(k)) return more(k, scope_phase::integer);
            if (s[k] == '.') {
                ++k;
                if (!in(k)) return more(k - 1, scope_phase::integer);
                if (!digit(k)) return bad(k);
                phase = scope_phase::fraction;
                fraction = true;
            }
        }
        if (phase == scope_phase::fraction) {
            while (in(k) && digit(k)) ++k;
            if (!in(k)) return more(k, scope_phase::fraction);
        }
        if (num != k_none) {
            if constexpr (std::is_invocable_v<OnNumber&, scope_number>) {
                on_number(scope_number{num, k, integer, fraction, negative});
            } else {
                on_number(num, k);
            }
        }
        num = k_none;
        const std::size_t sep = k;
        if (!in(k)) return more(sep, scope_phase::separator);
        const char c = s[k];
        if (c == '>') return scope_scan{verdict::closed, k + 1, 0, scope_phase::number};
        if (c == '-') {
            ++k;
        } else if (c == ',') {
            ++k;
            if (in(k) && s[k] == ' ') ++k;
            if (!in(k)) return more(sep, scope_phase::separator);
        } else {
            return bad(k);
        }
        phase = scope_phase::number;
    }
}

}  // namespace plurnk::detail
