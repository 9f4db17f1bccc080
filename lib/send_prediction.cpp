// SPDX-License-Identifier: MIT
// Mid vs. terminal SEND (see send_prediction.hpp).
#include "send_prediction.hpp"

namespace plurnk::detail {

namespace {

// One alternative, fed token types until it dies.
struct walker {
    bool alive = true;
    bool terminal = false;
    enum class where : std::uint8_t { slots, signal, target, body } at = where::slots;
    bool sig = false, tgt = false, scope = false;
    bool sig_value = false;  // a value seen inside [ ]

    bool accept(int t) {
        switch (at) {
            case where::slots:
                if (t == T_LBRACK && !sig) {
                    at = where::signal;
                    sig_value = false;
                    return true;
                }
                if (t == T_LPAREN && !tgt) {
                    at = where::target;
                    return true;
                }
                if (t == T_SCOPE && terminal && sig && !scope) {
                    scope = true;
                    return true;
                }
                if (terminal && !sig) return false;
                if (t == T_COLON || t == T_BODY) {
                    at = where::body;
                    return true;
                }
                return t == T_CLOSE;
            case where::signal:
                if (!sig_value && t == (terminal ? T_DISP : T_INT)) {
                    sig_value = true;
                    return true;
                }
                if (terminal && !sig_value) return false;  // the disposition is required
                if (t != T_RBRACK) return false;
                sig = true;
                at = where::slots;
                return true;
            case where::target:
                if (t == T_TGT) return true;
                if (t != T_RPAREN) return false;
                tgt = true;
                at = where::slots;
                return true;
            case where::body: return t == T_BODY || t == T_CLOSE;
        }
        return false;
    }
};

}  // namespace

send_alt predict_send(const token_cursor& in, std::size_t& died_at) {
    walker mid, term;
    term.terminal = true;
    for (std::size_t i = in.index() + 1;; ++i) {
        const int t = ttype_of(in.tok_at(i));
        if (mid.alive) mid.alive = mid.accept(t);
        if (term.alive) term.alive = term.accept(t);
        if (mid.alive && !term.alive) return send_alt::mid;
        if (term.alive && !mid.alive) return send_alt::terminal;
        if (!mid.alive && !term.alive) {
            died_at = i;
            return send_alt::none;
        }
        if (t == T_CLOSE || t == T_EOF) break;
    }
    died_at = in.tokens().size() - 1;
    return send_alt::none;
}

}  // namespace plurnk::detail
