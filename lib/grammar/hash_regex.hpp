// SPDX-License-Identifier: MIT
// The service dialect's `#pattern#flags` regex (SERVICE.md S4), written once (private header):
// the split of a `#` text into pattern and flags, read by the regex validator and the builder
// for matcher bodies.
#pragma once

#include <cstddef>
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

}  // namespace plurnk::detail
