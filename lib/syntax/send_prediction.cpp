// SPDX-License-Identifier: MIT
// Mid vs. terminal SEND (see send_prediction.hpp).
#include "syntax/send_prediction.hpp"

namespace plurnk::detail {

namespace {

// One alternative, fed token types until it dies.
struct walker {
    bool alive = true;
    bool terminal = false;
    enum class where : std::uint8_t { slots, signal, target, body } at = where::slots;
    bool sig = false, tgt = false, scope = false;
    bool sig_value = false;  // a value seen inside [ ]

    bool accept(symbol t) {
        switch (at) {
            case where::slots:
                if (t == sym(tok::lbrack) && !sig) {
                    at = where::signal;
                    sig_value = false;
                    return true;
                }
                if (t == sym(tok::lparen) && !tgt) {
                    at = where::target;
                    return true;
                }
                if (t == sym(tok::scope) && terminal && sig && !scope) {
                    scope = true;
                    return true;
                }
                if (terminal && !sig) return false;
                if (t == sym(tok::colon) || t == sym(tok::body_text)) {
                    at = where::body;
                    return true;
                }
                return t == sym(tok::close_tag);
            case where::signal:
                if (!sig_value && t == (terminal ? sym(tok::disposition) : sym(tok::integer))) {
                    sig_value = true;
                    return true;
                }
                if (terminal && !sig_value) return false;  // the disposition is required
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

send_alt predict_send(const token_cursor& in, std::size_t& died_at) {
    walker mid, term;
    term.terminal = true;
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
