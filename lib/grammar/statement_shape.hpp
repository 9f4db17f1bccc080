// SPDX-License-Identifier: MIT
// The shape of a well-formed statement (private header): which slots a statement admits and
// what its signal holds (BEHAVIOUR §2.2), as data. One row per statement form: each op's
// statement, and the terminal SEND. The productions (syntax/statement_parser.cpp), the
// clean-statement check (syntax/clean_step.hpp), the SEND predictor (syntax/send_prediction.cpp)
// and the lexer's signal modes (the steps and the whole-statement reader) read the slot rules
// here and nowhere else.
//
// A dialect is a row set: k_contracts_shapes is PLURNK 1.4.0's, made from the op table. Another
// dialect is another constexpr statement_shapes, made by changing rows of this one (a slot
// admitted or not, a signal's content, a required body), and the same code reads it: whoever
// holds the row set (the statement parser) picks it once.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "grammar/op_table.hpp"
#include "grammar/token.hpp"
#include "plurnk/parse.hpp"

namespace plurnk::detail {

// What a signal holds between its brackets: tokens of `items`, at least `min` and at most `max`
// of them (k_any: no bound).
struct signal_content {
    static constexpr std::uint8_t k_any = 0xff;
    tset items = 0;
    std::uint8_t min = 0;
    std::uint8_t max = k_any;
};

// The content of each signal shape (op_table.hpp), in its order.
[[nodiscard]] constexpr signal_content content_of(signal_shape shape) noexcept {
    switch (shape) {
        case signal_shape::tags: return {bit(tok::tag) | bit(tok::comma), 0, signal_content::k_any};  // (TAG | ',')*
        case signal_shape::integer: return {bit(tok::integer), 0, 1};                                 // INT?
        case signal_shape::kill_integer: return {bit(tok::integer) | bit(tok::disposition), 0, 1};    // (INT | DISP)?
        case signal_shape::ident: return {bit(tok::ident), 0, 1};                                     // IDENT?
        case signal_shape::disposition: return {bit(tok::disposition), 1, 1};                         // DISP
        case signal_shape::branch: return {bit(tok::tag), 1, 1};                                      // TAG
    }
    return {};
}

// How the lexer reads what follows a `[`: tags and commas, an integer (or disposition), or an
// executor. It depends on the op only: the terminal SEND's `[` is lexed as the mid SEND's.
enum class signal_tokens : std::uint8_t { tags, integer, ident };

[[nodiscard]] constexpr signal_tokens tokens_of(signal_shape shape) noexcept {
    switch (shape) {
        case signal_shape::integer:
        case signal_shape::kill_integer:
        case signal_shape::disposition: return signal_tokens::integer;
        case signal_shape::ident: return signal_tokens::ident;
        case signal_shape::tags:
        case signal_shape::branch: return signal_tokens::tags;
    }
    return signal_tokens::tags;
}

// One statement form: slots ([signal], (target), <L>) in any order, each at most once, among
// those it admits; then COLON? BODY* CLOSE.
struct statement_shape {
    bool signal = true;                 // admits `[signal]`
    bool target = true;                 // admits `(target)`
    bool scope = true;                  // admits `<L>`
    bool scope_after_signal = false;    // ... only once its signal is there (the terminal SEND)
    // The form is recognized only with its signal before the body or the close: the SEND
    // predictor's terminal alternative dies without it (the productions, once the form is
    // chosen, do not require it).
    bool needs_signal = false;
    signal_shape holds = signal_shape::tags;      // what the signal holds (content_of)
    signal_tokens lexed = signal_tokens::tags;    // how `[` is lexed (tokens_of the op's shape)
    bool body_required = false;         // an empty body is an error (WORK, FORK)
};

// The tokens that start an admitted slot.
[[nodiscard]] constexpr tset slot_first(const statement_shape& s) noexcept {
    tset t = 0;
    if (s.signal) t |= bit(tok::lbrack);
    if (s.target) t |= bit(tok::lparen);
    if (s.scope) t |= bit(tok::scope);
    return t;
}

// A dialect's rows: each op's statement (SEND: the mid SEND) and the terminal SEND.
struct statement_shapes {
    std::array<statement_shape, k_op_count> ops{};
    statement_shape terminal_send{};

    [[nodiscard]] constexpr const statement_shape& of(plurnk::op o, bool terminal = false) const noexcept {
        return terminal && o == plurnk::op::SEND ? terminal_send : ops[static_cast<std::size_t>(o)];
    }
};

// PLURNK 1.4.0's rows, from the op table: every op admits a signal of its shape and a target;
// a scope where its row says so. The terminal SEND takes a disposition, and a scope after it.
[[nodiscard]] constexpr statement_shapes contracts_shapes() noexcept {
    statement_shapes s;
    for (const op_traits& t : k_ops) {
        statement_shape& r = s.ops[static_cast<std::size_t>(t.op)];
        r.scope = t.scope;
        r.holds = t.signal;
        r.lexed = tokens_of(t.signal);
        r.body_required = t.body_required;
    }
    s.terminal_send = s.of(plurnk::op::SEND);
    s.terminal_send.holds = signal_shape::disposition;
    s.terminal_send.scope = true;
    s.terminal_send.scope_after_signal = true;
    s.terminal_send.needs_signal = true;
    return s;
}
inline constexpr statement_shapes k_contracts_shapes = contracts_shapes();

// The service dialect's rows (SERVICE.md's slot table): 1.4.0's, with
// - S8: OPEN and FOLD admit a scope, as FIND and READ do;
// - S9: WORK and FORK admit no signal (`[` is still lexed as tags: an inadmissible slot token);
// - S10: FORK's body is optional (WORK's stays required).
[[nodiscard]] constexpr statement_shapes service_shapes() noexcept {
    statement_shapes s = contracts_shapes();
    for (const plurnk::op o : {plurnk::op::OPEN, plurnk::op::FOLD}) s.ops[static_cast<std::size_t>(o)].scope = true;
    for (const plurnk::op o : {plurnk::op::WORK, plurnk::op::FORK}) s.ops[static_cast<std::size_t>(o)].signal = false;
    s.ops[static_cast<std::size_t>(plurnk::op::FORK)].body_required = false;
    return s;
}
inline constexpr statement_shapes k_service_shapes = service_shapes();

// A dialect's rows.
[[nodiscard]] constexpr const statement_shapes& shapes_of(plurnk::parse_dialect d) noexcept {
    return d == plurnk::parse_dialect::service ? k_service_shapes : k_contracts_shapes;
}

}  // namespace plurnk::detail
