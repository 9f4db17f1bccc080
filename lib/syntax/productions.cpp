// SPDX-License-Identifier: MIT
// The statement parser's productions: one function per rule below the top-level machine, each
// with its production as its first comment, over the parse state (parse_state.hpp: the token
// cursor, the reference's ANTLR error strategy and the unit recording). A statement is parsed
// within one call: the machine (tier_machine.cpp) calls statement_rule() or statement_unit() as
// one step, and step_turn() calls slot_rule() for a TURN's slots. The slot rules are the dialect's
// rows (grammar/statement_shape.hpp), the same rows the clean step and the SEND predictor read.
#include "syntax/productions.hpp"

#include <bit>

#include "syntax/send_prediction.hpp"

namespace plurnk::detail {

using rp = recovery_point;

// statement : one of the op statements (SEND: mid or terminal, by prediction)
void productions::statement_rule(tset first, tset follow) {
    rule_scope scope(*this, follow);
    const int saved = begin_unit();
    set_point(rp::statement_choice);
    const symbol t = la();
    bool ok = true;
    if (t == sym(plurnk::op::SEND)) {
        std::size_t died = 0;
        const send_alt alt = predict_send(*this, died, *shapes_);
        if (alt == send_alt::none) {
            ok = fail_no_viable(died, first);
        } else {
            op_statement(plurnk::op::SEND, alt == send_alt::terminal, bit(k_eps));
        }
    } else {
        op_statement(static_cast<plurnk::op>(t), false, bit(k_eps));
    }
    if (!ok) report_and_recover();
    end_unit(saved);
}

// A statement-level unit in the parse/log tiers: plan, mid statement or terminal SEND.
void productions::statement_unit(plurnk::op o, bool terminal, tset follow) {
    rule_scope scope(*this, follow);
    const int saved = begin_unit();
    op_statement(o, terminal, bit(k_eps));
    end_unit(saved);
}

// op statement : OPEN slots? COLON? BODY* CLOSE
void productions::op_statement(plurnk::op o, bool terminal, tset follow) {
    rule_scope scope(*this, follow);
    tree_.units[static_cast<std::size_t>(unit_)].clean = true;
    tree_.units[static_cast<std::size_t>(unit_)].terminal_send = terminal;
    if (!op_statement_body(o, terminal)) report_and_recover();
}

// The rule body of op_statement (false: the rule failed, its caller recovers).
bool productions::op_statement_body(plurnk::op o, bool terminal) {
    const statement_shape& r = shapes_->of(o, terminal);
    const tset slots = slot_first(r);
    const tset tail = bit(tok::colon) | bit(tok::body_text) | bit(tok::close_tag);
    if (!match(rp::op_open, static_cast<int>(o), slots | tail)) return false;
    if (!sync(rp::op_slots, slots | tail, sync_kind::block_start)) return false;
    if (slots & bit(la())) slot_rule(r, tail);
    if (!sync(rp::op_colon, tail, sync_kind::block_start)) return false;
    if (la() == sym(tok::colon) && !match(rp::op_colon, sym(tok::colon), bit(tok::body_text) | bit(tok::close_tag))) return false;
    const tset body_next = bit(tok::body_text) | bit(tok::close_tag);
    if (!sync(rp::op_body, body_next, sync_kind::loop_entry)) return false;
    bool has_body = false;
    cur_unit().body = static_cast<std::uint32_t>(index());
    while (la() == sym(tok::body_text)) {
        has_body = true;
        if (!match(rp::op_body, sym(tok::body_text), body_next)) return false;
        if (!sync(rp::op_body_back, body_next, sync_kind::loop_back)) return false;
    }
    cur_unit().body_end = static_cast<std::uint32_t>(index());
    if (!has_body) cur_unit().body = 0;
    if (r.body_required && !has_body && la() == sym(tok::close_tag) && !recovering()) {
        // WORK/FORK need a prompt (BEHAVIOUR §2.2); the reference pins no wording.
        add_error(lt(), syntax_error::shape::body_content, 0);
    }
    return match(rp::op_close, sym(tok::close_tag), bit(k_eps));
}

// slots : the admitted slots in any order, each at most once; ends at anything else.
void productions::slot_rule(const statement_shape& r, tset follow) {
    rule_scope scope(*this, follow);
    bool sig = false, tgt = false, scp = false;
    const tset all = slot_first(r) | bit(k_eps);
    for (;;) {
        const symbol t = la();
        if (t == sym(tok::lbrack) && r.signal && !sig) {
            sig = true;
            note_slot(&unit::signal);
            signal_rule(r.holds, all);
            note_slot(&unit::signal_end);
        } else if (t == sym(tok::lparen) && r.target && !tgt) {
            tgt = true;
            note_slot(&unit::target);
            target_rule(all);
            note_slot(&unit::target_end);
        } else if (t == sym(tok::scope) && r.scope && !scp && (!r.scope_after_signal || sig)) {
            scp = true;
            note_slot(&unit::scope);
            if (!match(rp::scope, sym(tok::scope), all)) {
                report_and_recover();
                return;
            }
        } else {
            return;
        }
    }
}

// signal : '[' (TAG | ',')* ']'          tags (and branch: '[' TAG ']')
//        | '[' value? ']'                integer, kill integer, executor
//        | '[' DISPOSITION ']'           the terminal SEND
void productions::signal_rule(signal_shape shape, tset follow) {
    rule_scope scope(*this, follow);
    if (!signal_body(shape)) report_and_recover();
}

bool productions::signal_body(signal_shape shape) {
    const signal_content c = content_of(shape);
    if (c.max == signal_content::k_any) {  // '[' (item)* ']'
        const tset items = c.items | bit(tok::rbrack);
        if (!match(rp::signal_open, sym(tok::lbrack), items)) return false;
        if (!sync(rp::signal_item, items, sync_kind::loop_entry)) return false;
        if (fast_) take_item_run(c.items, items);
        while (c.items & bit(la())) {
            if (!match_set(rp::signal_item, c.items)) return false;
            if (!sync(rp::signal_item_back, items, sync_kind::loop_back)) return false;
        }
        return match(rp::signal_close, sym(tok::rbrack), bit(k_eps));
    }
    if (c.min == 0) {  // '[' item? ']'
        if (!match(rp::signal_open, sym(tok::lbrack), c.items | bit(tok::rbrack))) return false;
        if (!sync(rp::signal_item, c.items | bit(tok::rbrack), sync_kind::block_start)) return false;
        if ((c.items & bit(la())) && !match_set(rp::signal_item, c.items)) return false;
        return match(rp::signal_close, sym(tok::rbrack), bit(k_eps));
    }
    // '[' item ']': a required item is one token kind
    const symbol value = std::countr_zero(c.items);
    if (!match(rp::signal_open, sym(tok::lbrack), bit(value))) return false;
    if (!match(rp::signal_item, value, bit(tok::rbrack))) return false;
    return match(rp::signal_close, sym(tok::rbrack), bit(k_eps));
}

// Part of the fast path: a run of signal items (tags and commas), each followed by an item or
// `]` (`next`), as the loop above takes it: per token match_set() passes (ending any error
// condition) and the loop back's sync() passes on the token after it. Taken at once, with
// what they leave: each token consumed into the unit, the one after the run fetched, the loop
// back's mark set.
void productions::take_item_run(tset item_set, tset items) {
    const auto& toks = tokens();
    const auto item = [item_set](const token& t) { return (item_set & bit(symbol_of(t))) != 0; };
    std::size_t p = index();
    if (!(p + 1 < toks.size() && item(toks[p]) && (items & bit(symbol_of(toks[p + 1]))))) return;
    (void)la();
    matched(rp::signal_item);
    const std::size_t first = p;
    do {
        consume();
        ++p;
    } while (p + 1 < toks.size() && item(toks[p]) && (items & bit(symbol_of(toks[p + 1]))));
    count_looks(3 * (p - first) - 1);
    set_point(rp::signal_item_back);
    (void)la();
}

// target : '(' TARGET_TEXT* ')'
void productions::target_rule(tset follow) {
    rule_scope scope(*this, follow);
    if (!target_body()) report_and_recover();
}

bool productions::target_body() {
    const tset next = bit(tok::target_text) | bit(tok::rparen);
    if (!match(rp::target_open, sym(tok::lparen), next)) return false;
    if (!sync(rp::target_text, next, sync_kind::loop_entry)) return false;
    while (la() == sym(tok::target_text)) {
        if (!match(rp::target_text, sym(tok::target_text), next)) return false;
        if (!sync(rp::target_text_back, next, sync_kind::loop_back)) return false;
    }
    return match(rp::target_close, sym(tok::rparen), bit(k_eps));
}

}  // namespace plurnk::detail
