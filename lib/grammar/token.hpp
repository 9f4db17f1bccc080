// SPDX-License-Identifier: MIT
// The statement parser's view of a token (private header): one symbol per token, so that a set
// of symbols is one 64-bit mask. An opener is its op (0..15); every other token kind follows, in
// the lexer's `tok` order. k_eps marks "the rule may end here", as ANTLR's nextTokens() does.
#pragma once

#include <cstdint>

#include "lex/lexer.hpp"
#include "grammar/op_table.hpp"

namespace plurnk::detail {

using symbol = int;
using tset = std::uint64_t;

constexpr symbol sym(plurnk::op o) { return static_cast<symbol>(o); }
constexpr symbol sym(tok k) { return plurnk::k_op_count - 1 + static_cast<symbol>(k); }  // k is not tok::opener
constexpr symbol k_eps = sym(tok::eof) + 1;
static_assert(static_cast<int>(tok::opener) == 0, "the openers' symbols are their ops");
static_assert(k_eps < 64, "every symbol must fit a tset");

constexpr symbol symbol_of(const token& t) { return t.kind == tok::opener ? sym(t.op) : sym(t.kind); }

constexpr tset bit(symbol s) { return tset{1} << s; }
constexpr tset bit(tok k) { return bit(sym(k)); }
constexpr tset bit(plurnk::op o) { return bit(sym(o)); }

// Whether a symbol is an opener (its op's value).
constexpr bool is_opener(symbol s) { return s >= 0 && s < plurnk::k_op_count; }

// The openers of the ops whose op_table row satisfies `pred`.
template <class Pred>
constexpr tset openers_where(Pred pred) {
    tset s = 0;
    for (const op_traits& o : k_ops) {
        if (pred(o)) s |= bit(o.op);
    }
    return s;
}
constexpr tset k_protocol_openers = openers_where([](const op_traits& o) { return o.family == op_family::protocol; });
constexpr tset k_mid_openers = openers_where([](const op_traits& o) { return o.mid_opener; });
constexpr tset k_client_openers =
    openers_where([](const op_traits& o) { return o.family != op_family::log; });

}  // namespace plurnk::detail
