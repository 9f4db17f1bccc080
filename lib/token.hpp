// SPDX-License-Identifier: MIT
// Token types and token sets of the statement parser (private header). A token type is an opener
// op (0..15) or one of the other lexer kinds; sets are 64-bit masks. EPS marks "the rule may end
// here", as ANTLR's nextTokens() does.
#pragma once

#include <cstdint>

#include "lexer.hpp"

namespace plurnk::detail {

enum ttype : int {
    T_TEXT = 16, T_CLOSE_TURN, T_LBRACK, T_LPAREN, T_SCOPE, T_COLON, T_CLOSE, T_TAG, T_COMMA,
    T_RBRACK, T_DISP, T_INT, T_IDENT, T_TGT, T_RPAREN, T_BODY, T_EOF, T_EPS,
};

using tset = std::uint64_t;

constexpr tset bit(int t) { return tset{1} << t; }
constexpr tset opener_bit(plurnk::op o) { return bit(static_cast<int>(o)); }

constexpr tset k_protocol_openers = (tset{1} << 13) - 1;  // FIND..PLAN
constexpr tset k_mid_openers = k_protocol_openers & ~opener_bit(plurnk::op::PLAN);
constexpr tset k_client_openers = k_protocol_openers | opener_bit(plurnk::op::LOOK) | opener_bit(plurnk::op::BUFF);

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
