// SPDX-License-Identifier: MIT
// The statement parser's clean step: a step the machine (tier_machine.cpp) is about to take,
// taken without the productions when its tokens are lexed and fit without an error. At an opener
// the rule admits, clean_statement() (clean_step.hpp) checks the statement in one look at its
// tokens and the unit is recorded as the productions would record it; at a loop's entry or back,
// the one token the loop checks is taken; in turn_content, a run of TEXT tokens is taken at once.
// Each leaves the state the productions would leave, field by field, and never looks past the
// lexed tokens, so there is nothing to undo; a decline changes nothing and the productions take
// the step.
#include "syntax/clean_step.hpp"

#include <algorithm>

namespace plurnk::detail {

using rp = recovery_point;
using enum machine::phase;
using machine::rule;

bool clean_steps::fast_step(machine::frame& f, tier in_tier) {
    const auto& toks = tokens();
    if (index() >= toks.size() || unit_ >= 0) return false;
    const token& t = toks[index()];
    const bool opener = t.kind == tok::opener;
    if (f.r == rule::sequence) {
        const tset first = in_tier == tier::client ? k_client_openers : k_protocol_openers;
        switch (f.phase) {
            case P_SEQ_LOOP:  // statement_rule(): any op of the tier, SEND mid or terminal
                if (!opener || !(first & bit(t.op)) || !fast_unit(t.op, true, t.op == plurnk::op::SEND)) return false;
                f.phase = P_SEQ_BACK;
                return true;
            case P_SEQ_BACK: return fast_pass(f, rp::sequence_loop_back, first | bit(tok::eof), P_SEQ_LOOP);
            default: return false;
        }
    }
    if (f.r != rule::turn_content) return false;
    const tset loop_next = bit(tok::text) | k_mid_openers;
    switch (f.phase) {
        case P_PLAN:
            if (!opener || t.op != plurnk::op::PLAN || !fast_unit(plurnk::op::PLAN, true, false)) return false;
            f.phase = P_LOOP_ENTRY;
            return true;
        case P_LOOP_ENTRY: return fast_pass(f, rp::turn_loop, loop_next, P_DECIDE);
        case P_DECIDE:
            if (t.kind == tok::text) {  // set_point(turn_choice), then match(turn_loop, TEXT)
                // A run of TEXT tokens: before each but the first, the loop back passes (the
                // token is TEXT) and the decision takes it. The cursor ends past the run,
                // each token of it fetched, the last match's mark kept.
                std::size_t last = index();
                while (last + 1 < toks.size() && toks[last + 1].kind == tok::text) ++last;
                (void)la();
                count_looks(2 * (last - index()));
                matched(rp::turn_loop);
                jump(last + 1, std::max(fetched(), last));
                f.phase = P_LOOP_BACK;
                return true;
            }
            // A mid statement; a SEND by prediction: a clean terminal SEND is also the step
            // after (P_TERMINAL), as nothing can come between them.
            if (!opener || !(k_mid_openers & bit(t.op)) || !fast_unit(t.op, true, t.op == plurnk::op::SEND)) return false;
            f.phase = tree_.units.back().terminal_send ? P_TRAIL_ENTRY : P_LOOP_BACK;
            return true;
        case P_LOOP_BACK: return fast_pass(f, rp::turn_loop_back, loop_next, P_DECIDE);
        case P_TERMINAL:
            if (!opener || t.op != plurnk::op::SEND || !fast_unit(plurnk::op::SEND, false, true)) return false;
            f.phase = P_TRAIL_ENTRY;
            return true;
        default: return false;
    }
}

// One clean statement of op `o` at the cursor, in its mid form or (a SEND) its terminal form,
// as the productions would parse it. predict_send() picks the form that is clean, when one
// is: a clean terminal SEND has a disposition where the mid form dies, a clean mid one lacks
// the disposition the terminal form needs before its colon, body or close. Its fetches stop
// at the close tag, which the statement fetches anyway.
bool clean_steps::fast_unit(plurnk::op o, bool mid, bool terminal) {
    unit u;
    std::size_t looked = 0, more = 0;
    bool ok = mid && clean_statement(tokens(), index(), o, false, u, looked, *shapes_);
    if (!ok && terminal) {
        ok = clean_statement(tokens(), index(), o, true, u, more, *shapes_);
        looked += more;
    }
    if (!ok) {
        count_looks(looked);
        return false;
    }
    // begin_unit(), op_statement() taking no error branch (its last match is the close), end_unit()
    unit_errors_ = error_events();
    append_clean_unit(u, looked);
    matched(rp::op_close);
    return true;
}

// sync() at a loop entry or sync_back() at a loop back, the current token in `next`: no
// error, nothing to skip, the loop goes on at `then`.
bool clean_steps::fast_pass(machine::frame& f, recovery_point at, tset next, int then) {
    if (recovering() || !(next & bit(symbol_of(tokens()[index()])))) return false;
    set_point(at);
    (void)la();
    f.phase = then;
    return true;
}

}  // namespace plurnk::detail
