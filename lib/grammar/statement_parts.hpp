// SPDX-License-Identifier: MIT
// A well-formed statement as byte spans of the input (private header): what every route that
// recognises one hands to the result builder, which checks the parts (the validators), then
// writes them as records (store/record_writer.hpp). Plain data: offsets into the input the
// tokens were lexed from, nothing that points into it, so the parts outlive a moved buffer.
#pragma once

#include <cstdint>
#include <string_view>

#include "plurnk/ast.hpp"

namespace plurnk::detail {

// The bytes [begin, end) of the input.
struct span32 {
    std::uint32_t begin = 0, end = 0;
    // (The span lies in `in`: no bounds check.)
    [[nodiscard]] std::string_view of(std::string_view in) const noexcept { return {in.data() + begin, end - begin}; }
    friend bool operator==(const span32&, const span32&) = default;
};

struct statement_parts {
    // The slots the statement has (`present`); a slot may be there and empty (`[]`, `()`).
    enum slot : std::uint8_t { has_signal = 1, has_target = 2, has_scope = 4, has_body = 8 };

    plurnk::op op = plurnk::op::PLAN;
    std::uint8_t present = 0;
    span32 whole;   // from its `<<` to the end of its close tag
    span32 suffix;  // the opener's suffix, after `<<OP`
    span32 value;   // a one-value signal (number, executor, branch): its token; empty when none
    span32 tags;    // a tag signal: from its first tag to the end of its last (empty when none);
                    // each tag is a tag_list::ref from tags.begin, in a list handed beside the parts
    span32 target;  // inside `(...)`
    span32 scope;   // the `<...>` literal
    span32 body;    // the body's text

    [[nodiscard]] bool has(slot s) const noexcept { return (present & s) != 0; }
    friend bool operator==(const statement_parts&, const statement_parts&) = default;
};

}  // namespace plurnk::detail
