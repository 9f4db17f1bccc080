// SPDX-License-Identifier: MIT
// The statement parser's productions (private header): the rules a statement is parsed by, one
// member function per rule (productions.cpp), over the parse state. Its own state is what the
// rules read besides the parse state: the dialect's slot rules and whether the signal's item run
// may be taken at once (the fast-path switch, read when the parser was made).
#pragma once

#include "grammar/statement_shape.hpp"
#include "grammar/token.hpp"
#include "syntax/parse_state.hpp"

namespace plurnk::detail {

class productions : public parse_state {
public:
    // (shapes_ and fast_ are set once, when the parser is made: a reset keeps them.)
    friend bool operator==(const productions&, const productions&) = default;

protected:
    productions(const statement_shapes& shapes, bool fast) : shapes_(&shapes), fast_(fast) {}

    // statement : one of the op statements (SEND: mid or terminal, by prediction)
    void statement_rule(tset first, tset follow);
    // A statement-level unit in the parse/log tiers: plan, mid statement or terminal SEND.
    void statement_unit(plurnk::op o, bool terminal, tset follow);
    // slots : the admitted slots in any order, each at most once; ends at anything else.
    void slot_rule(const statement_shape& r, tset follow);

    const statement_shapes* shapes_;  // the dialect's slot rules
    bool fast_;                       // thread_fast_paths().statement when constructed

private:
    void op_statement(plurnk::op o, bool terminal, tset follow);
    bool op_statement_body(plurnk::op o, bool terminal);
    void signal_rule(signal_shape shape, tset follow);
    bool signal_body(signal_shape shape);
    void take_item_run(tset item_set, tset items);
    void target_rule(tset follow);
    bool target_body();
};

}  // namespace plurnk::detail
