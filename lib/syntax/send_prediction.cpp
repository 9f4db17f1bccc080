// SPDX-License-Identifier: MIT
// Mid vs. terminal SEND (see send_prediction.hpp).
#include "syntax/send_prediction.hpp"

namespace plurnk::detail {

namespace {

// One alternative, fed token types until it dies: the form's slots (its row of the slot rules)
// in any order, each at most once, then COLON? BODY* CLOSE.
struct walker {
    explicit walker(const statement_shape& form) : row(form), content(content_of(form.holds)) {}
    const statement_shape& row;
    signal_content content;
    bool alive = true;
    enum class where : std::uint8_t { slots, signal, target, body } at = where::slots;
    bool sig = false, tgt = false, scope = false;
    unsigned items = 0;  // items seen inside [ ]

    bool accept(symbol t) {
        switch (at) {
            case where::slots:
                if (t == sym(tok::lbrack) && row.signal && !sig) {
                    at = where::signal;
                    items = 0;
                    return true;
                }
                if (t == sym(tok::lparen) && row.target && !tgt) {
                    at = where::target;
                    return true;
                }
                if (t == sym(tok::scope) && row.scope && !scope && (!row.scope_after_signal || sig)) {
                    scope = true;
                    return true;
                }
                if (row.needs_signal && !sig) return false;
                if (t == sym(tok::colon) || t == sym(tok::body_text)) {
                    at = where::body;
                    return true;
                }
                return t == sym(tok::close_tag);
            case where::signal:
                if ((content.max == signal_content::k_any || items < content.max) && (content.items & bit(t))) {
                    ++items;
                    return true;
                }
                if (items < content.min) return false;  // a required item is missing
                if (t != sym(tok::rbrack)) return false;
                sig = true;
                at = where::slots;
                return true;
            case where::target:
                if (t == sym(tok::target_text)) return true;
                if (t != sym(tok::rparen)) return false;
                tgt = true;
                at = where::slots;
                return true;
            case where::body: return t == sym(tok::body_text) || t == sym(tok::close_tag);
        }
        return false;
    }
};

}  // namespace

send_alt predict_send(const token_cursor& in, std::size_t& died_at, const statement_shapes& shapes) {
    walker mid(shapes.of(plurnk::op::SEND, false)), term(shapes.of(plurnk::op::SEND, true));
    for (std::size_t i = in.index() + 1;; ++i) {
        const symbol t = symbol_of(in.tok_at(i));
        if (mid.alive) mid.alive = mid.accept(t);
        if (term.alive) term.alive = term.accept(t);
        if (mid.alive && !term.alive) return send_alt::mid;
        if (term.alive && !mid.alive) return send_alt::terminal;
        if (!mid.alive && !term.alive) {
            died_at = i;
            return send_alt::none;
        }
        if (t == sym(tok::close_tag) || t == sym(tok::eof)) break;
    }
    died_at = in.tokens().size() - 1;
    return send_alt::none;
}

}  // namespace plurnk::detail
