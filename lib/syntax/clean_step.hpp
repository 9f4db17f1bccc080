// SPDX-License-Identifier: MIT
// The statement parser's fast path (private header): most statements are well formed, and for
// them the reference's error strategy (match, sync, the follow sets) only ever takes its "the
// expected token is there" branch. clean_statement() checks that a statement is one of those by
// looking at its tokens once; the clean step (clean_steps, clean_step.cpp) then records the unit,
// as the productions would have, and runs the productions only for the rest. It accepts exactly
// the token sequences on which op_statement_body() takes no error branch, and notes the slots
// where the productions note them: signal = the `[` and signal_end one past the `]`, target and
// target_end likewise, scope = the `<L>` token, body = the first body token (0 when there is
// none) and body_end = the close tag (the productions note where the body loop stopped, body or
// not). It declines at the first token that does not fit, which is a token the productions look
// at too: declining costs no more than they then spend on the same tokens. Inline: it runs once
// per statement, and a call's overhead is a good part of a short statement's check.
#pragma once

#include <cstddef>
#include <vector>

#include "grammar/statement_shape.hpp"
#include "plurnk/parse.hpp"
#include "syntax/machine_frames.hpp"
#include "syntax/productions.hpp"
#include "syntax/spans.hpp"

namespace plurnk::detail {

// Where the inside of a signal (the tokens after its `[`, from i) stops: at its `]` when it holds
// what `content` says (`fits`), else at the first token that does not fit.
inline std::size_t fast_signal_stop(const token* tk, std::size_t i, std::size_t n, const signal_content& content,
                                    bool& fits) noexcept {
    fits = false;
    const std::size_t most = content.max == signal_content::k_any ? n : content.max;
    std::size_t count = 0;
    while (i < n && count < most && (content.items & bit(tk[i].kind))) {  // (an opener's bit is no item's)
        ++i;
        ++count;
    }
    if (count < content.min) return i;
    fits = i < n && tk[i].kind == tok::rbrack;
    return i;
}

// Whether the statement at toks[at] (an opener of op `o`) is a clean op statement in the given
// form (`terminal`: the terminal SEND), by its row of `shapes` (grammar/statement_shape.hpp), with
// every one of its tokens lexed: the admitted slots at most once each in any order (a scope after
// the signal where the row says so), the signal's content, an optional `:`, body text (where the
// row requires it) and the close tag. Then `u` is the unit the productions would record
// (first/last, the slot indices as they note them, clean, terminal_send). Anything else returns
// false. `looked` is set to the tokens examined either way.
inline bool clean_statement(const token_vector& toks, std::size_t at, plurnk::op o, bool terminal, unit& u,
                            std::size_t& looked, const statement_shapes& shapes = k_contracts_shapes) noexcept {
    const token* tk = toks.data();
    const std::size_t n = toks.size();
    const statement_shape& row = shapes.of(o, terminal);
    u = unit{};
    std::size_t i = at + 1;
    bool sig = false, tgt = false, scp = false;
    bool ok = false;
    for (;;) {  // the slots, each at most once (a second one is the productions' error too)
        if (i >= n) break;
        const tok k = tk[i].kind;
        if (k == tok::lbrack) {
            if (!row.signal || sig) break;
            sig = true;
            bool fits = false;
            const std::size_t close = fast_signal_stop(tk, i + 1, n, content_of(row.holds), fits);
            if (!fits) {
                i = close;
                break;
            }
            u.signal = static_cast<std::uint32_t>(i);
            u.signal_end = static_cast<std::uint32_t>(close + 1);
            i = close + 1;
        } else if (k == tok::lparen) {
            if (!row.target || tgt) break;
            tgt = true;
            std::size_t j = i + 1;
            while (j < n && tk[j].kind == tok::target_text) ++j;
            if (j >= n || tk[j].kind != tok::rparen) {
                i = j;
                break;
            }
            u.target = static_cast<std::uint32_t>(i);
            u.target_end = static_cast<std::uint32_t>(j + 1);
            i = j + 1;
        } else if (k == tok::scope) {
            if (!row.scope || scp || (row.scope_after_signal && !sig)) break;
            scp = true;
            u.scope = static_cast<std::uint32_t>(i);
            ++i;
        } else {
            // COLON? BODY* CLOSE. The terminal SEND has its disposition by now: the productions
            // would not require it, but predict_send() picks the terminal form only with it.
            if (row.needs_signal && !sig) break;
            if (k == tok::colon) ++i;
            const std::size_t body = i;
            while (i < n && tk[i].kind == tok::body_text) ++i;
            if (i >= n || tk[i].kind != tok::close_tag) break;
            const bool has_body = i > body;
            if (row.body_required && !has_body) break;  // WORK/FORK: the productions' error
            u.body = has_body ? static_cast<std::uint32_t>(body) : 0;
            u.body_end = static_cast<std::uint32_t>(i);
            ok = true;
            break;
        }
    }
    looked = (i < n ? i : n - 1) - at + 1;
    if (!ok) return false;
    u.first = static_cast<std::uint32_t>(at);
    u.last = static_cast<std::uint32_t>(i);
    u.clean = true;
    u.terminal_send = terminal;
    return true;
}

// The clean step as the machine takes it (clean_step.cpp), over the productions' state (the
// dialect's slot rules) and the parse state; it keeps no state of its own.
class clean_steps : public productions {
protected:
    using productions::productions;

    // A step the machine is about to take at frame `f` of a parser of tier `in_tier` (can_step()
    // said so), taken without the productions when the tokens it reads are lexed and fit without
    // an error: a clean statement, or the one token a loop checks. It leaves the state the
    // productions would leave, field by field, and never looks past the lexed tokens; false:
    // nothing changed, the productions take the step.
    bool fast_step(machine::frame& f, tier in_tier);

private:
    bool fast_unit(plurnk::op o, bool mid, bool terminal);
    bool fast_pass(machine::frame& f, recovery_point at, tset next, int then);
};

}  // namespace plurnk::detail
