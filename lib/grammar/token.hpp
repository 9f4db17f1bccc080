// SPDX-License-Identifier: MIT
// The token vocabulary (private header): the kinds of token the lexer emits and the statement
// parser reads, a token as a byte range of the input, and the parser's view of a token: one
// symbol per token, so that a set of symbols is one 64-bit mask. An opener is its op (0..15);
// every other token kind follows, in `tok` order. k_eps marks "the rule may end here", as
// ANTLR's nextTokens() does.
#pragma once

#include <cstdint>

#include "base/pod_vector.hpp"
#include "grammar/op_table.hpp"
#include "plurnk/ast.hpp"

namespace plurnk::detail {

enum class tok : std::uint8_t {
    opener,       // <<OPsuffix (DEFAULT)
    text,         // text between statements (DEFAULT), incl. reasoning enclosures
    close_turn,   // :TURNsuffix (DEFAULT, a TURN body open)
    lbrack,       // [ (SLOTS)
    lparen,       // ( (SLOTS)
    scope,        // <1,2> (SLOTS)
    colon,        // : body fence (SLOTS)
    close_tag,    // :OPsuffix (BODY, or the one-colon close in SLOTS)
    tag,          // SIGNAL_TAGS
    comma,        // SIGNAL_TAGS
    rbrack,       // ] (all signal modes)
    disposition,  // one of the disposition codes (SIGNAL_INT; op_table.hpp)
    integer,      // -?digits (SIGNAL_INT)
    ident,        // executor (SIGNAL_IDENT)
    target_text,  // target content run or escape (TARGET)
    rparen,       // ) closing the target (TARGET)
    body_text,    // body content (BODY)
    eof,
};

// 12 bytes: a statement that stays open holds all of its tokens.
struct token {
    std::uint32_t begin = 0;  // byte offsets into the input
    std::uint32_t end = 0;
    tok kind = tok::eof;
    plurnk::op op = plurnk::op::PLAN;  // opener, close_tag, close_turn: the op of the open tag

    friend bool operator==(const token&, const token&) = default;
};
static_assert(sizeof(token) == 12);
// The lexer's tokens: realloc'd, not copied, as they grow (pod_vector.hpp).
using token_vector = pod_vector<token>;

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
