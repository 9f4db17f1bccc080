// SPDX-License-Identifier: MIT
// The op table (private header): what each of the sixteen keywords is, in one row per op, read
// by the lexer (keywords, which signal mode `[` enters), the statement parser (which slots an op
// admits, its signal's shape, whether a body is required, which openers may start a statement),
// the builder (how the signal and the body are built, which advisories apply) and the rail
// (lib/rail/model.cpp checks its own projection against it). Adding an op: append it to
// `enum class op` (ast.hpp), add its row here, and write a production only if its shape is new
// (doc/dev/architecture.md walks through an example).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "plurnk/ast.hpp"

namespace plurnk::detail {

enum class op_family : std::uint8_t {
    protocol,  // the thirteen protocol ops (SPEC §3): a statement in every tier
    log,       // TURN: the log tier's wrapper
    client,    // LOOK, BUFF: statements of the client tier only
};

// The shape of the `[signal]` slot (BEHAVIOUR §2.2).
enum class signal_shape : std::uint8_t {
    tags,          // `[tag, tag]`: TAG and `,` in any order
    integer,       // `[INT?]`: the mid SEND
    kill_integer,  // `[INT?]` where a disposition also counts as an integer: KILL
    disposition,   // `[DISP]`: the terminal SEND (its table row says `integer`, see rules)
    ident,         // `[IDENT?]`: EXEC's executor
    branch,        // `[TAG]`: WORK/FORK's branch
};

// What the body holds once built.
enum class body_kind : std::uint8_t {
    text,       // the text as written
    matcher,    // a matcher, dialect by its leading characters (SPEC §6)
    send,       // SEND's text plus its JSON form
    selection,  // COPY/MOVE's destination target and scope
    turn,       // TURN: turn content, not a body
};

struct op_traits {
    plurnk::op op;
    std::string_view keyword;  // four upper-case letters
    op_family family;
    signal_shape signal;       // SEND: the mid form (the terminal SEND's is `disposition`)
    bool scope;                // admits `<L>` (SEND: the mid form; the terminal SEND admits it)
    body_kind body;
    bool body_required;        // an empty body is an error (WORK, FORK)
    bool mid_opener;           // may start a statement after PLAN in a turn
    bool path_tag_advisory;    // a path-shaped tag and no target draw the misplaced-target advisory
};

inline constexpr std::array<op_traits, k_op_count> k_ops = {{
    // op        keyword family                signal                      scope  body                 req.   mid    path
    {op::FIND, "FIND", op_family::protocol, signal_shape::tags, true, body_kind::matcher, false, true, false},
    {op::READ, "READ", op_family::protocol, signal_shape::tags, true, body_kind::matcher, false, true, false},
    {op::EDIT, "EDIT", op_family::protocol, signal_shape::tags, true, body_kind::text, false, true, true},
    {op::COPY, "COPY", op_family::protocol, signal_shape::tags, true, body_kind::selection, false, true, true},
    {op::MOVE, "MOVE", op_family::protocol, signal_shape::tags, true, body_kind::selection, false, true, true},
    {op::OPEN, "OPEN", op_family::protocol, signal_shape::tags, false, body_kind::matcher, false, true, false},
    {op::FOLD, "FOLD", op_family::protocol, signal_shape::tags, false, body_kind::matcher, false, true, false},
    {op::SEND, "SEND", op_family::protocol, signal_shape::integer, false, body_kind::send, false, true, false},
    {op::EXEC, "EXEC", op_family::protocol, signal_shape::ident, true, body_kind::text, false, true, false},
    {op::WORK, "WORK", op_family::protocol, signal_shape::branch, false, body_kind::text, true, true, false},
    {op::FORK, "FORK", op_family::protocol, signal_shape::branch, false, body_kind::text, true, true, false},
    {op::KILL, "KILL", op_family::protocol, signal_shape::kill_integer, false, body_kind::text, false, true, false},
    {op::PLAN, "PLAN", op_family::protocol, signal_shape::tags, true, body_kind::text, false, false, false},
    {op::TURN, "TURN", op_family::log, signal_shape::tags, true, body_kind::turn, false, false, false},
    {op::LOOK, "LOOK", op_family::client, signal_shape::tags, true, body_kind::matcher, false, false, false},
    {op::BUFF, "BUFF", op_family::client, signal_shape::tags, true, body_kind::matcher, false, false, false},
}};

constexpr bool table_in_enum_order() {
    for (std::size_t i = 0; i < k_ops.size(); ++i) {
        if (static_cast<std::size_t>(k_ops[i].op) != i || k_ops[i].keyword.size() != 4) return false;
    }
    return true;
}
static_assert(table_in_enum_order(), "k_ops lists every op once, in enum order, with a four-letter keyword");

[[nodiscard]] constexpr const op_traits& traits(plurnk::op o) noexcept { return k_ops[static_cast<std::size_t>(o)]; }

// The five disposition codes that make a SEND terminal (SPEC §9) are plurnk::k_disposition_codes
// (ast.hpp, public, as rail.hpp's rail::k_dispositions also is); the lexer and the turn-shape pass
// classify with these two.

[[nodiscard]] constexpr bool is_disposition_code(double n) noexcept {
    for (const std::uint16_t c : k_disposition_codes) {
        if (n == c) return true;
    }
    return false;
}

// Whether a SEND/KILL signal's digits are a disposition code (exactly three digits).
[[nodiscard]] constexpr bool is_disposition_digits(std::string_view digits) noexcept {
    if (digits.size() != 3) return false;
    for (const char c : digits) {
        if (c < '0' || c > '9') return false;
    }
    const unsigned v = static_cast<unsigned>(digits[0] - '0') * 100 + static_cast<unsigned>(digits[1] - '0') * 10 +
                       static_cast<unsigned>(digits[2] - '0');
    return is_disposition_code(v);
}

}  // namespace plurnk::detail
