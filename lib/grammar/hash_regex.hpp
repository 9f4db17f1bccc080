// SPDX-License-Identifier: MIT
// The service dialect's `#pattern#flags` regex (SERVICE.md S3, S4), written once (private
// header): the split of a `#` text into pattern and flags, read by the builder for matcher
// bodies (S4) and regex paths (S7) and by the result store when it decodes a regex path; and the
// regex target unit, scanned by the lexer's target step and checked by its fast path (S3).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace plurnk::detail {

// S4: `text` starts with `#`. From after it, a `\` takes the next character with it (both stay
// in the pattern) and the first `#` not taken so ends the pattern; everything after that `#` is
// the flags. No character classes: in `#[#]#` the pattern is `[` and the flags `]#`. `closed` is
// false when no such `#` comes.
struct hash_split {
    bool closed = false;
    std::string_view pattern;
    std::string_view flags;
};

[[nodiscard]] constexpr hash_split split_hash_regex(std::string_view text) noexcept {
    for (std::size_t i = 1; i < text.size(); ++i) {
        if (text[i] == '\\') {
            ++i;
        } else if (text[i] == '#') {
            return {true, text.substr(1, i - 1), text.substr(i + 1)};
        }
    }
    return {};
}

// S3: the regex target unit. Right after a target's `(`, a `#`, then items (`\` and any one
// character but CR and LF; or one character other than `#`, `\`, CR and LF), then `#`, then
// ASCII letters, counts only when the next character is `)`. scan_regex_unit() reads from `k`
// (after the leading `#`, phase pattern, or where an earlier call said `more`) and answers:
//   unit      the unit ends at `at`, where its `)` is;
//   not_unit  it is no unit (decided at `at`): the target is lexed as in 1.4.0;
//   more      the text ends at `at` before the answer (an unfinished input): scan again from
//             `at` in `phase` once more is there.
enum class unit_phase : std::uint8_t { pattern, flags };

struct unit_scan {
    enum class verdict : std::uint8_t { unit, not_unit, more };
    verdict v = verdict::more;
    std::size_t at = 0;
    unit_phase phase = unit_phase::pattern;
};

[[nodiscard]] constexpr unit_scan scan_regex_unit(std::string_view s, std::size_t k, unit_phase phase) noexcept {
    using verdict = unit_scan::verdict;
    const std::size_t n = s.size();
    if (phase == unit_phase::pattern) {
        for (;;) {
            if (k >= n) return {verdict::more, k, phase};
            const char c = s[k];
            if (c == '#') {
                ++k;
                break;
            }
            if (c == '\r' || c == '\n') return {verdict::not_unit, k, phase};
            if (c == '\\') {
                if (k + 1 >= n) return {verdict::more, k, phase};  // resumed at the backslash
                if (s[k + 1] == '\r' || s[k + 1] == '\n') return {verdict::not_unit, k + 1, phase};
                k += 2;
            } else {
                ++k;
            }
        }
    }
    while (k < n && ((s[k] >= 'A' && s[k] <= 'Z') || (s[k] >= 'a' && s[k] <= 'z'))) ++k;
    if (k >= n) return {verdict::more, k, unit_phase::flags};
    return {s[k] == ')' ? verdict::unit : verdict::not_unit, k, unit_phase::flags};
}

}  // namespace plurnk::detail
