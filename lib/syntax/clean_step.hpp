// SPDX-License-Identifier: MIT
// The statement parser's fast path (private header): most statements are well formed, and for
// them the reference's error strategy (match, sync, the follow sets) only ever takes its "the
// expected token is there" branch. clean_statement() checks that a statement is one of those by
// looking at its tokens once; the clean step (clean_steps, below) then records the unit, as the
// productions would have, and runs the productions only for the rest. It accepts exactly
// the token sequences on which op_statement_body() takes no error branch, and notes the slots
// where the productions note them: signal = the `[` and signal_end one past the `]`, target and
// target_end likewise, scope = the `<L>` token, body = the first body token (0 when there is
// none) and body_end = the close tag (the productions note where the body loop stopped, body or
// not). It declines at the first token that does not fit, which is a token the productions look
// at too: declining costs no more than they then spend on the same tokens. Inline: it runs once
// per statement, and a call's overhead is a good part of a short statement's check.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
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
    // The items end by `stop` at the latest: the tokens lexed, or the content's most items.
    const std::size_t start = i;
    const std::size_t stop = content.max == signal_content::k_any ? n : std::min(n, start + content.max);
    while (i < stop && (content.items & bit(tk[i].kind))) ++i;  // (an opener's bit is no item's)
    if (i - start < content.min) return i;
    fits = i < n && tk[i].kind == tok::rbrack;
    return i;
}

// Whether the statement at toks[at] (an opener of op `o`) is a clean op statement in the given
// form (`terminal`: the terminal SEND), by its row of `shapes` (grammar/statement_shape.hpp), with
// every one of its tokens lexed: the admitted slots at most once each in any order (a scope after
// the signal where the row says so), the signal's content, an optional `:`, body text (where the
// row requires it) and the close tag. Then `u` is the unit the productions would record
// (first/last, the slot indices as they note them, clean, terminal_send), each field set here.
// Anything else returns false and leaves `u` as it was. `looked` is set to the tokens examined
// either way.
inline bool clean_statement(const token_vector& toks, std::size_t at, plurnk::op o, bool terminal, unit& u,
                            std::size_t& looked, const statement_shapes& shapes = k_contracts_shapes) noexcept {
    const token* tk = toks.data();
    const std::size_t n = toks.size();
    const statement_shape& row = shapes.of(o, terminal);
    std::size_t i = at + 1;
    // The slots taken (a slot's index is past the opener's, so 0 is none) and where they end.
    std::uint32_t sig = 0, sig_end = 0, tgt = 0, tgt_end = 0, scp = 0, body_at = 0;
    bool ok = false;
    for (;;) {  // the slots, each at most once (a second one is the productions' error too)
        if (i >= n) break;
        const tok k = tk[i].kind;
        if (k == tok::lbrack) {
            if (!row.signal || sig != 0) break;
            bool fits = false;
            const std::size_t close = fast_signal_stop(tk, i + 1, n, content_of(row.holds), fits);
            if (!fits) {
                i = close;
                break;
            }
            sig = static_cast<std::uint32_t>(i);
            sig_end = static_cast<std::uint32_t>(close + 1);
            i = close + 1;
        } else if (k == tok::lparen) {
            if (!row.target || tgt != 0) break;
            std::size_t j = i + 1;
            while (j < n && tk[j].kind == tok::target_text) ++j;
            if (j >= n || tk[j].kind != tok::rparen) {
                i = j;
                break;
            }
            tgt = static_cast<std::uint32_t>(i);
            tgt_end = static_cast<std::uint32_t>(j + 1);
            i = j + 1;
        } else if (k == tok::scope) {
            if (!row.scope || scp != 0 || (row.scope_after_signal && sig == 0)) break;
            scp = static_cast<std::uint32_t>(i);
            ++i;
        } else {
            // COLON? BODY* CLOSE. The terminal SEND has its disposition by now: the productions
            // would not require it, but predict_send() picks the terminal form only with it.
            if (row.needs_signal && sig == 0) break;
            if (k == tok::colon) ++i;
            const std::size_t body = i;
            while (i < n && tk[i].kind == tok::body_text) ++i;
            if (i >= n || tk[i].kind != tok::close_tag) break;
            const bool has_body = i > body;
            if (row.body_required && !has_body) break;  // WORK/FORK: the productions' error
            body_at = has_body ? static_cast<std::uint32_t>(body) : 0;
            ok = true;
            break;
        }
    }
    looked = (i < n ? i : n - 1) - at + 1;
    if (!ok) return false;
    u.first = static_cast<std::uint32_t>(at);
    u.last = static_cast<std::uint32_t>(i);
    u.signal = sig;
    u.signal_end = sig_end;
    u.target = tgt;
    u.target_end = tgt_end;
    u.scope = scp;
    u.body = body_at;
    u.body_end = static_cast<std::uint32_t>(i);  // the close tag
    u.clean = true;
    u.terminal_send = terminal;
    return true;
}

// The clean step as the machine takes it (below), over the productions' state (the
// dialect's slot rules) and the parse state; it keeps no state of its own.
class clean_steps : public productions {
public:
    friend bool operator==(const clean_steps&, const clean_steps&) = default;

protected:
    using productions::productions;

    // The steps the machine is about to take at frame `f` (`first`: the openers a
    // statements/client sequence admits), taken without the productions for as long as each
    // one's tokens are lexed and fit without an error: a clean statement, or the one token a
    // loop checks. Each leaves the state the productions would leave, field by field, and none
    // looks past the lexed tokens. The run stops where can_step() would hold the machine back:
    // at the end of the lexed tokens, or at an opener at or past `limit` (its close tag is not
    // lexed yet; a TURN opener is never taken here). False: no step taken, nothing changed.
    bool fast_run(machine::frame& f, tset first, std::size_t limit);

private:
    bool sequence_run(machine::frame& f, tset first, std::size_t limit);
    bool turn_step(machine::frame& f, std::size_t limit);
    bool turn_loop_run(machine::frame& f, std::size_t limit);
    // What take_unit() took: nothing, a statement in its mid form or the terminal SEND.
    enum class unit_form : unsigned char { none, mid, terminal };
    unit_form take_unit(plurnk::op o, bool mid, bool terminal);
    unit_form fast_unit(plurnk::op o, bool mid, bool terminal);
    bool fast_pass(machine::frame& f, recovery_point at, tset next, int then);
};

// The clean step as the machine takes it: the steps the machine (tier_machine.cpp) is about to
// take, taken without the productions while their tokens are lexed and fit without an error. At
// an opener the rule admits, clean_statement() checks the statement in one look at its tokens
// and the unit is recorded as the productions would record it; at a loop's entry or back, the
// one token the loop checks is taken; in turn_content, a run of TEXT tokens is taken at once.
// Each leaves the state the productions would leave, field by field, and never looks past the
// lexed tokens, so there is nothing to undo; a decline changes nothing and the productions take
// the step. A run of steps is taken here rather than one per turn of the machine's loop: the
// state between two of them is a loop head the machine would only hand straight back (its
// checks, can_step() among them, are the run's `limit`). Inline here rather than in a .cpp of
// its own: a stream calls it about once per statement, and the call across translation units
// cost 0.8% of a stream with events at 16-byte chunks; the two loops are kept out of the
// machine's loop (noinline), where inlining them cost up to 1% on the rows of the other.
inline bool clean_steps::fast_run(machine::frame& f, tset first, std::size_t limit) {
    if (unit_ >= 0) return false;  // (no fast step opens one)
    if (f.r == machine::rule::sequence) return sequence_run(f, first, limit);
    if (f.r != machine::rule::turn_content) return false;
    using enum machine::phase;
    bool took = false;
    while (f.phase != P_DECIDE && f.phase != P_LOOP_BACK) {
        if (!turn_step(f, limit)) return took;
        took = true;
    }
    return turn_loop_run(f, limit) || took;
}

// statements : statement* EOF, from P_SEQ_LOOP or P_SEQ_BACK: clean statements, each followed
// by the loop back's sync_back() with the token after it in the loop's set, until one of them
// does not fit. One turn of the loop per statement: its statement, then its loop back.
[[gnu::noinline]] inline bool clean_steps::sequence_run(machine::frame& f, tset first, std::size_t limit) {
    using enum machine::phase;
    const token* tk = tokens().data();
    const std::size_t n = tokens().size();
    const tset next = first | bit(tok::eof);
    // The token at `p` as a step of the machine may read it (can_step()): lexed, and an opener
    // only where a statement's close is lexed.
    const auto steppable = [&](std::size_t p) { return p < n && (tk[p].kind != tok::opener || p < limit); };
    bool took = false;
    if (f.phase == P_SEQ_BACK) {
        if (!steppable(index()) || recovering()) return false;
    } else if (f.phase != P_SEQ_LOOP) {
        return false;
    }
    int phase = f.phase;
    for (;;) {
        if (phase == P_SEQ_BACK) {  // sync_back(): no error, nothing to skip
            if (!(next & bit(symbol_of(tk[index()])))) break;
            set_point(recovery_point::sequence_loop_back);
            fetch_current();
            phase = P_SEQ_LOOP;
            took = true;
        }
        // statement_rule(): any op of the tier, SEND mid or terminal
        const std::size_t p = index();
        if (!steppable(p)) break;
        const token& t = tk[p];
        if (t.kind != tok::opener || !(first & bit(t.op)) ||
            take_unit(t.op, true, t.op == plurnk::op::SEND) == unit_form::none) {
            break;
        }
        phase = P_SEQ_BACK;
        took = true;
        // (after a clean statement nothing is recovering)
        if (!steppable(index())) break;
    }
    f.phase = phase;
    return took;
}

// turn_content : TEXT* plan (mid_statement | TEXT)* terminal_send TEXT*: one step of the plan,
// the loop's entry or the terminal SEND (the loop itself is turn_loop_run()).
inline bool clean_steps::turn_step(machine::frame& f, std::size_t limit) {
    using rp = recovery_point;
    using enum machine::phase;
    const auto& toks = tokens();
    if (index() >= toks.size()) return false;
    const token& t = toks[index()];
    const bool opener = t.kind == tok::opener;
    if (opener && index() >= limit) return false;  // can_step(): the statement waits for its close
    switch (f.phase) {
        case P_PLAN:
            if (!opener || t.op != plurnk::op::PLAN || fast_unit(plurnk::op::PLAN, true, false) == unit_form::none) {
                return false;
            }
            f.phase = P_LOOP_ENTRY;
            return true;
        case P_LOOP_ENTRY: return fast_pass(f, rp::turn_loop, bit(tok::text) | k_mid_openers, P_DECIDE);
        case P_TERMINAL:
            if (!opener || t.op != plurnk::op::SEND || fast_unit(plurnk::op::SEND, false, true) == unit_form::none) {
                return false;
            }
            f.phase = P_TRAIL_ENTRY;
            return true;
        default: return false;
    }
}

// turn_content's (mid_statement | TEXT)* loop, from P_DECIDE or P_LOOP_BACK: mid statements and
// runs of TEXT, each followed by the loop back's sync_back() with the token after it in the
// loop's set, until one of them does not fit; a clean terminal SEND ends it at P_TRAIL_ENTRY.
[[gnu::noinline]] inline bool clean_steps::turn_loop_run(machine::frame& f, std::size_t limit) {
    using rp = recovery_point;
    using enum machine::phase;
    const token* tk = tokens().data();
    const std::size_t n = tokens().size();
    const tset loop_next = bit(tok::text) | k_mid_openers;
    int phase = f.phase;
    if (phase == P_LOOP_BACK && recovering()) return false;  // (after a fast step nothing is)
    bool took = false;
    for (;;) {
        const std::size_t p = index();
        if (p >= n || (tk[p].kind == tok::opener && p >= limit)) break;  // can_step(), as in sequence_run()
        const token& t = tk[p];
        if (phase == P_LOOP_BACK) {  // sync_back(): no error, nothing to skip; then the decision
            if (!(loop_next & bit(symbol_of(t)))) break;
            set_point(rp::turn_loop_back);
            fetch_current();
            phase = P_DECIDE;
            took = true;
        }
        if (t.kind == tok::text) {  // set_point(turn_choice), then match(turn_loop, TEXT)
            // A run of TEXT tokens: before each but the first, the loop back passes (the
            // token is TEXT) and the decision takes it. The cursor ends past the run,
            // each token of it fetched (the fetch mark at least at its last token, its first
            // one's fetch counted), the last match's mark kept.
            std::size_t last = p;
            while (last + 1 < n && tk[last + 1].kind == tok::text) ++last;
            count_looks(1 + 2 * (last - p));
            matched(rp::turn_loop);
            unmark_run(p, last + 1);
            jump(last + 1, std::max(fetched(), last));
        } else {
            // A mid statement; a SEND by prediction: a clean terminal SEND is also the step
            // after (P_TERMINAL), as nothing can come between them.
            if (t.kind != tok::opener || !(k_mid_openers & bit(t.op))) break;
            const unit_form form = fast_unit(t.op, true, t.op == plurnk::op::SEND);
            if (form == unit_form::none) break;
            if (form == unit_form::terminal) {
                phase = P_TRAIL_ENTRY;
                took = true;
                break;
            }
        }
        phase = P_LOOP_BACK;
        took = true;
    }
    f.phase = phase;
    return took;
}

// One clean statement of op `o` at the cursor, in its mid form or (a SEND) its terminal form,
// as the productions would parse it. predict_send() picks the form that is clean, when one
// is: a clean terminal SEND has a disposition where the mid form dies, a clean mid one lacks
// the disposition the terminal form needs before its colon, body or close. Its fetches stop
// at the close tag, which the statement fetches anyway. Always inline: sequence_run() takes it
// inline (12 instructions a statement less than the call); turn_content calls it as fast_unit().
[[gnu::always_inline]] inline clean_steps::unit_form clean_steps::take_unit(plurnk::op o, bool mid, bool terminal) {
    using rp = recovery_point;
    unit u;
    std::size_t looked = 0, more = 0;
    bool ok = mid && clean_statement(tokens(), index(), o, false, u, looked, *shapes_);
    if (!ok && terminal) {
        ok = clean_statement(tokens(), index(), o, true, u, more, *shapes_);
        looked += more;
    }
    if (!ok) {
        count_looks(looked);
        return unit_form::none;
    }
    // begin_unit(), op_statement() taking no error branch (its last match is the close), end_unit()
    unit_errors_ = error_events();
    append_clean_unit(u, looked);
    matched(rp::op_close);
    return u.terminal_send ? unit_form::terminal : unit_form::mid;
}

// take_unit() as a call, for turn_content (inline there, it cost its rows more than the call).
inline clean_steps::unit_form clean_steps::fast_unit(plurnk::op o, bool mid, bool terminal) {
    return take_unit(o, mid, terminal);
}

// sync() at a loop entry or sync_back() at a loop back, the current token in `next`: no
// error, nothing to skip, the loop goes on at `then`.
inline bool clean_steps::fast_pass(machine::frame& f, recovery_point at, tset next, int then) {
    if (recovering() || !(next & bit(symbol_of(tokens()[index()])))) return false;
    set_point(at);
    (void)la();
    f.phase = then;
    return true;
}

}  // namespace plurnk::detail
