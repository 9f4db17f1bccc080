// SPDX-License-Identifier: MIT
// The statement parser's top-level rules as a resumable machine: document, turn_content,
// statements/client, log and turn keep their position in frames (machine_frames.hpp), so parsing
// can stop between any two steps and go on when more tokens arrive. Each step is atomic: it runs
// to its end or, when it needs a token not lexed yet, is undone as a whole (a snapshot of every
// layer's state). Skipping tokens during recovery is a step per token, so it never repeats work.
// A statement is one step, parsed by the productions (productions.cpp) or, when it is clean, by
// the clean step (clean_step.hpp); at a loop head with no unit open, the cycle replay
// (cycle_replay.hpp) takes a provably repeating cycle at once.
#include "syntax/tier_machine.hpp"

#include <algorithm>

#include "base/fast_paths.hpp"
#include "base/work_counter.hpp"
#include "syntax/send_prediction.hpp"

namespace plurnk::detail {

using rp = recovery_point;

namespace {
machine::rule root_rule(tier t) noexcept {
    switch (t) {
        case tier::parse: return machine::rule::document;
        case tier::statements:
        case tier::client: return machine::rule::sequence;
        case tier::log: return machine::rule::log;
    }
    return machine::rule::document;
}
}  // namespace

tier_machine::tier_machine(tier t, parse_dialect d)
    : clean_steps(shapes_of(d), thread_fast_paths().statement),
      root_(root_rule(t)),
      first_(t == tier::client ? k_client_openers : k_protocol_openers) {
    // Room for the nesting of a turn's rules (document, TURN, statement, its slots: under 16
    // deep), so that a first parse does not grow the stacks frame by frame.
    constexpr std::size_t k_first_depth = 16;
    frames_.reserve(k_first_depth);
    follow_.reserve(k_first_depth);
    push_root();
}

// Each layer's own reset (the cursor and the tree, the error strategy, the unit count), then
// the machine's: field by field, the vectors cleared (tier_machine.hpp).
void tier_machine::reset() {
    reset_state();
    frames_.clear();
    push_root();
    scanned_ = 0;
    last_close_ = npos_;
    replay_.clear();
}

// Parses as far as `toks` allows. Without `finished`, a step that would look past the last
// token is undone and retried on the next call; with it, `toks` ends with the eof token and
// parsing runs to the end.
void tier_machine::advance(const token_vector& toks, bool finished) {
    attach(toks, finished);
    (void)note_closes(toks);
    if (toks.empty()) return;
    run_machine();
    settle_marks();
    if constexpr (k_work_counter) count_token_looks(take_looks());
}

// See stream_syntax::release().
void tier_machine::release(std::size_t tokens) {
    scanned_ = 0;
    last_close_ = npos_;
    release_tokens(tokens);
    release_recovery(tokens);
    replay_.clear();
}

// The tier's top-level rule, the only frame (none before it), as push_frame() would push it.
void tier_machine::push_root() {
    frames_.push_back(frame{root_});
    follow_.push_back(0);
}
void tier_machine::push_frame(rule r, tset follow, int parent_resume) {
    if (!frames_.empty()) frames_.back().phase = parent_resume;
    frames_.push_back(frame{r});
    follow_.push_back(follow);
}
void tier_machine::pop_frame() {
    frames_.pop_back();
    follow_.pop_back();
}

tier_machine::snapshot tier_machine::take() const {
    return snapshot{save_position(), rs_, follow_.size(), frames_.size(), unit_errors_, frames_.back()};
}

void tier_machine::restore(const snapshot& s) {
    restore_position(s.at);
    rs_ = s.rs;
    follow_.resize(s.follow);
    frames_.resize(s.frames);
    frames_.back() = s.last;
    unit_errors_ = s.unit_errors;
}

[[gnu::always_inline]] inline void tier_machine::run_machine() {
    while (!frames_.empty()) {
        frame& f = frames_.back();
        if (f.phase == P_EXIT) {
            pop_frame();
            continue;
        }
        if (f.phase == P_CONSUME) {
            // One token at a time: what is skipped stays skipped.
            const symbol t = la();
            if (take_starved()) return;
            if (t == sym(tok::eof) || (f.consume_set & bit(t))) {
                f.phase = f.consume_then;
            } else {
                consume();
            }
            continue;
        }
        if (!finished() && !can_step(tokens())) return;
        if (fast_) {
            // The steps the fast path can take, each one the machine would take (so each
            // after can_step(): the run stops at an opener past `limit`, the last close); they
            // never look past the tokens lexed so far, so there is nothing to undo. The step it
            // declines goes to the productions at once, after a look for a repeated cycle
            // (replay()) when it took none: a replay is exact between any two visits of a loop
            // head, so skipping the look where the fast path takes a step changes nothing but
            // its cost (a stream that parses each statement as it closes paid for it once per
            // statement).
            const std::size_t limit = finished() ? npos_ : last_close_ == npos_ ? 0 : last_close_ + 1;
            const bool took = fast_run(f, first_, limit);
            if (took && !finished() && !can_step(tokens())) return;
            if (!took && unit_ < 0 && replay(f.phase)) continue;
        }
        if (finished()) {
            // Every token is there: a step cannot run out of them, so nothing to undo.
            step(frames_.size() - 1);
            continue;
        }
        const snapshot snap = take();
        step(frames_.size() - 1);
        if (take_starved()) {
            restore(snap);
            return;
        }
    }
}

// Cheap checks that a step cannot finish with the tokens lexed so far (it would only be
// undone): the next token is not there yet, or a statement starts with no close tag after it.
// (A TURN opener is not such a statement: the turn rule's steps end at its `:`, and its close
// comes after the turn's content, so waiting for it would hold every token of an open turn.)
bool tier_machine::can_step(const token_vector& toks) const noexcept {
    if (index() >= toks.size()) return false;
    const token& t = toks[index()];
    if (t.kind == tok::opener && t.op != plurnk::op::TURN && (last_close_ == npos_ || last_close_ < index())) {
        return false;
    }
    return true;
}

// --- cycle replay (cycle_replay.hpp) ------------------------------------------------------
// At a loop head with no unit open: the cycle since this head's last visit, replayed as often
// as it provably repeats. True: the state moved on (the machine looks again from the top).
bool tier_machine::replay(int phase) {
    if (cycle_replay::anchor_slot(phase) < 0) return false;
    // The replay reads the marks before the cursor (written) and writes the ones from it to
    // where it moves the cursor, the cycle's marks shifted.
    cycle_replay::parser_state st{tokens(), index(), fetched(), finished(), last_close_, frames_, follow_,
                                  unit_errors_, rs_, tree_};
    const bool moved = replay_.replay(phase, st);
    count_looks(st.looks);
    if (moved) {
        marked_through(st.p);
        jump(st.p, st.fetched);
    }
    return moved;
}

// The catch block of an outer rule: report and arrange to skip to the recovery set.
void tier_machine::fail_frame(std::size_t fi) {
    report_and_note();
    frame& f = frames_[fi];
    f.consume_set = recovery_set();
    f.consume_then = P_EXIT;
    f.phase = P_CONSUME;
}

void tier_machine::skip_then(std::size_t fi, tset set, int then) {
    if (set == 0) return go(fi, then);
    frames_[fi].consume_set = set;
    frames_[fi].consume_then = then;
    frames_[fi].phase = P_CONSUME;
}

void tier_machine::step(std::size_t fi) {
    switch (frames_[fi].r) {
        case rule::document: return step_document(fi);
        case rule::turn_content: return step_turn_content(fi);
        case rule::sequence: return step_sequence(fi);
        case rule::log: return step_log(fi);
        case rule::turn: return step_turn(fi);
    }
}

// document : turn_content EOF
void tier_machine::step_document(std::size_t fi) {
    switch (frames_[fi].phase) {
        case P_START: return push_frame(rule::turn_content, bit(tok::eof), P_DOC_EOF);
        case P_DOC_EOF:
            if (!match(rp::document_eof, sym(tok::eof), bit(k_eps))) return go(fi, P_FAIL);
            return go(fi, P_EXIT);
        case P_FAIL: return fail_frame(fi);
        default: return go(fi, P_EXIT);
    }
}

// turn_content : TEXT* plan (mid_statement | TEXT)* terminal_send TEXT*
void tier_machine::step_turn_content(std::size_t fi) {
    const tset lead = bit(tok::text) | bit(plurnk::op::PLAN);
    const tset loop_next = bit(tok::text) | k_mid_openers;
    const tset trail = bit(tok::text) | bit(k_eps);
    switch (frames_[fi].phase) {
        case P_START:
            if (!sync(rp::turn_lead, lead, sync_kind::loop_entry)) return go(fi, P_FAIL);
            return go(fi, P_LEAD);
        case P_LEAD:
            if (la() != sym(tok::text)) return go(fi, P_PLAN);
            if (!match(rp::turn_lead, sym(tok::text), lead)) return go(fi, P_FAIL);
            return go(fi, P_LEAD_BACK);
        case P_LEAD_BACK: return skip_then(fi, sync_back(rp::turn_lead_back, lead), P_LEAD);
        case P_PLAN:
            statement_unit(plurnk::op::PLAN, false, loop_next);
            return go(fi, P_LOOP_ENTRY);
        case P_LOOP_ENTRY:
            if (!sync(rp::turn_loop, loop_next, sync_kind::loop_entry)) return go(fi, P_FAIL);
            return go(fi, P_DECIDE);
        case P_DECIDE: {
            set_point(rp::turn_choice);
            const symbol t = la();
            bool more = false;
            if (t == sym(tok::text)) {
                more = true;
            } else if (is_opener(t) && (k_mid_openers & bit(t)) && t != sym(plurnk::op::SEND)) {
                more = true;
            } else if (t == sym(plurnk::op::SEND)) {
                std::size_t died = 0;
                const send_alt alt = predict_send(*this, died, *shapes_);
                if (alt == send_alt::none) {
                    fail_no_viable(died, loop_next);
                    return go(fi, P_FAIL);
                }
                more = alt == send_alt::mid;
            } else {
                fail_no_viable(index(), loop_next);
                return go(fi, P_FAIL);
            }
            if (!more) return go(fi, P_TERMINAL);
            if (t == sym(tok::text)) {
                if (!match(rp::turn_loop, sym(tok::text), loop_next)) return go(fi, P_FAIL);
            } else {
                statement_unit(static_cast<plurnk::op>(t), false, loop_next);
            }
            return go(fi, P_LOOP_BACK);
        }
        case P_LOOP_BACK: return skip_then(fi, sync_back(rp::turn_loop_back, loop_next), P_DECIDE);
        case P_TERMINAL:
            statement_unit(plurnk::op::SEND, true, bit(tok::text) | bit(k_eps));
            return go(fi, P_TRAIL_ENTRY);
        case P_TRAIL_ENTRY:
            if (!sync(rp::turn_trail, trail, sync_kind::loop_entry)) return go(fi, P_FAIL);
            return go(fi, P_TRAIL);
        case P_TRAIL:
            if (la() != sym(tok::text)) return go(fi, P_EXIT);
            if (!match(rp::turn_trail, sym(tok::text), trail)) return go(fi, P_FAIL);
            return go(fi, P_TRAIL_BACK);
        case P_TRAIL_BACK: return skip_then(fi, sync_back(rp::turn_trail_back, trail), P_TRAIL);
        case P_FAIL: return fail_frame(fi);
        default: return go(fi, P_EXIT);
    }
}

// statements : statement* EOF ; client : (statement | look | buff)* EOF
void tier_machine::step_sequence(std::size_t fi) {
    const tset first = first_;
    const tset next = first | bit(tok::eof);
    switch (frames_[fi].phase) {
        case P_START:
            if (!sync(rp::sequence_loop, next, sync_kind::loop_entry)) return go(fi, P_FAIL);
            return go(fi, P_SEQ_LOOP);
        case P_SEQ_LOOP:
            if (!(is_opener(la()) && (first & bit(la())))) return go(fi, P_SEQ_EOF);
            statement_rule(first, next);
            return go(fi, P_SEQ_BACK);
        case P_SEQ_BACK: return skip_then(fi, sync_back(rp::sequence_loop_back, next), P_SEQ_LOOP);
        case P_SEQ_EOF:
            if (!match(rp::sequence_eof, sym(tok::eof), bit(k_eps))) return go(fi, P_FAIL);
            return go(fi, P_EXIT);
        case P_FAIL: return fail_frame(fi);
        default: return go(fi, P_EXIT);
    }
}

// log : turn+ EOF
void tier_machine::step_log(std::size_t fi) {
    const tset turn_open = bit(plurnk::op::TURN);
    switch (frames_[fi].phase) {
        case P_START:
            if (!sync(rp::log_first_turn, turn_open, sync_kind::block_start)) return go(fi, P_FAIL);
            return go(fi, P_LOG_TURN);
        case P_LOG_TURN: return push_frame(rule::turn, turn_open | bit(tok::eof), P_LOG_BACK);
        case P_LOG_BACK: return skip_then(fi, sync_back(rp::log_loop_back, turn_open | bit(tok::eof)), P_LOG_NEXT);
        case P_LOG_NEXT: return go(fi, la() == sym(plurnk::op::TURN) ? P_LOG_TURN : P_LOG_EOF);
        case P_LOG_EOF:
            if (!match(rp::log_eof, sym(tok::eof), bit(k_eps))) return go(fi, P_FAIL);
            return go(fi, P_EXIT);
        case P_FAIL: return fail_frame(fi);
        default: return go(fi, P_EXIT);
    }
}

// turn : TURN_OPEN slots? COLON turn_content CLOSE_TURN
void tier_machine::step_turn(std::size_t fi) {
    const statement_shape& r = shapes_->of(plurnk::op::TURN);
    const tset slots = slot_first(r);
    switch (frames_[fi].phase) {
        case P_START:
            if (!match(rp::turn_open, sym(plurnk::op::TURN), slots | bit(tok::colon))) return go(fi, P_FAIL);
            return go(fi, P_TURN_SLOTS);
        case P_TURN_SLOTS:
            if (!sync(rp::turn_slots, slots | bit(tok::colon), sync_kind::block_start)) return go(fi, P_FAIL);
            if (slots & bit(la())) slot_rule(r, bit(tok::colon));
            return go(fi, P_TURN_COLON);
        case P_TURN_COLON:
            if (!match(rp::turn_colon, sym(tok::colon), bit(tok::text) | bit(plurnk::op::PLAN))) return go(fi, P_FAIL);
            return push_frame(rule::turn_content, bit(tok::close_turn), P_TURN_CLOSE);
        case P_TURN_CLOSE:
            if (!match(rp::turn_close, sym(tok::close_turn), bit(k_eps))) return go(fi, P_FAIL);
            return go(fi, P_EXIT);
        case P_FAIL: return fail_frame(fi);
        default: return go(fi, P_EXIT);
    }
}

}  // namespace plurnk::detail
