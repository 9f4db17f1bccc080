// SPDX-License-Identifier: MIT
// Token types and token sets of the statement parser (private header). A token type is an opener
// op (0..15) or one of the other lexer kinds; sets are 64-bit masks. EPS marks "the rule may end
// here", as ANTLR's nextTokens() does.
#pragma once

#include <cstdint>

#include "lexer.hpp"
#include "op_table.hpp"

namespace plurnk::detail {

enum ttype : int {
    T_TEXT = plurnk::k_op_count, T_CLOSE_TURN, T_LBRACK, T_LPAREN, T_SCOPE, T_COLON, T_CLOSE, T_TAG, T_COMMA,
    T_RBRACK, T_DISP, T_INT, T_IDENT, T_TGT, T_RPAREN, T_BODY, T_EOF, T_EPS,
};

using tset = std::uint64_t;

constexpr tset bit(int t) { return tset{1} << t; }
constexpr tset opener_bit(plurnk::op o) { return bit(static_cast<int>(o)); }

// Whether a token type is an opener (its op's value).
constexpr bool is_opener(int t) { return t >= 0 && t < plurnk::k_op_count; }

// The openers of the ops whose op_table row satisfies `pred`.
template <class Pred>
constexpr tset openers_where(Pred pred) {
    tset s = 0;
    for (const op_traits& o : k_ops) {
        if (pred(o)) s |= opener_bit(o.op);
    }
    return s;
}
constexpr tset k_protocol_openers = openers_where([](const op_traits& o) { return o.family == op_family::protocol; });
constexpr tset k_mid_openers = openers_where([](const op_traits& o) { return o.mid_opener; });
constexpr tset k_client_openers =
    openers_where([](const op_traits& o) { return o.family != op_family::log; });

inline int ttype_of(const token& t) {
    switch (t.kind) {
        case tok::opener: return static_cast<int>(t.op);
        case tok::text: return T_TEXT;
        case tok::close_turn: return T_CLOSE_TURN;
        case tok::lbrack: return T_LBRACK;
        case tok::lparen: return T_LPAREN;
        case tok::scope: return T_SCOPE;
        case tok::colon: return T_COLON;
        case tok::close_tag: return T_CLOSE;
        case tok::tag: return T_TAG;
        case tok::comma: return T_COMMA;
        case tok::rbrack: return T_RBRACK;
        case tok::disposition: return T_DISP;
        case tok::integer: return T_INT;
        case tok::ident: return T_IDENT;
        case tok::target_text: return T_TGT;
        case tok::rparen: return T_RPAREN;
        case tok::body_text: return T_BODY;
        case tok::eof: return T_EOF;
    }
    return T_EOF;
}

}  // namespace plurnk::detail
