// SPDX-License-Identifier: MIT
// The statement parser's resumable machine (private header): the five top-level rules as frames
// over the productions and the clean step (tier_machine.cpp says how it runs). Its own state is
// the frames, the openers the tier's statement sequence admits, where the last close tag among
// the lexed tokens is (a statement waits for its close), and the cycle replay's anchors.
#pragma once

#include <cstddef>
#include <vector>

#include "grammar/token.hpp"
#include "plurnk/parse.hpp"
#include "syntax/clean_step.hpp"
#include "syntax/cycle_replay.hpp"
#include "syntax/machine_frames.hpp"

namespace plurnk::detail {

class tier_machine : public clean_steps {
public:
    tier_machine(tier t, parse_dialect d);

    // Parses as far as `toks` allows. Without `finished`, a step that would look past the last
    // token is undone and retried on the next call; with it, `toks` ends with the eof token and
    // parsing runs to the end.
    void advance(const token_vector& toks, bool finished);

    // See stream_syntax::release().
    [[nodiscard]] bool can_release(std::size_t tokens) const noexcept {
        return !finished() && unit_ < 0 && index() == tokens && tokens > 0;
    }
    void release(std::size_t tokens);
    // Tokens before this index are settled: their units and errors can no longer change.
    [[nodiscard]] std::size_t settled() const noexcept { return index(); }
    // See stream_syntax::note_closes() and can_step(); looked_at() is where note_closes() looks
    // from (the stream's note_closes() returns it). The last close among the
    // tokens not looked at yet is the first one found from the newest back. (Inline: a stream
    // asks at every wake, through stream_syntax.)
    bool note_closes(const token_vector& toks) noexcept {
        const std::size_t from = scanned_;
        scanned_ = toks.size();
        for (std::size_t i = toks.size(); i > from;) {
            const tok k = toks[--i].kind;
            if (k == tok::close_tag || k == tok::close_turn || k == tok::eof) {
                last_close_ = i;
                return true;
            }
        }
        return false;
    }
    [[nodiscard]] std::size_t looked_at() const noexcept { return scanned_; }
    [[nodiscard]] bool can_step(const token_vector& toks) const noexcept;

    // Back to the state the constructor gives (the same tier and dialect), every vector keeping
    // its room, so that the next parse allocates nothing the last one did: what a fresh parser
    // would do next, this one does. (It allocates only where the vectors have no room for the
    // root frame: a copy made when every frame had exited.)
    void reset();
    // Every field of every layer, for the tests that check reset() against a fresh parser.
    friend bool operator==(const tier_machine&, const tier_machine&) = default;

protected:
    using rule = machine::rule;
    using frame = machine::frame;
    using enum machine::phase;
    static constexpr std::size_t npos_ = static_cast<std::size_t>(-1);

    rule root_;   // the tier's top-level rule, the frame the machine starts with
    tset first_;  // the openers the tier's statements/client sequence admits
    std::vector<frame> frames_;
    std::size_t scanned_ = 0;       // tokens checked for close tags
    std::size_t last_close_ = npos_;  // index of the last close tag or eof
    cycle_replay replay_;           // each loop head's last visit

private:
    // A step's undo record: every layer's state, and the stepped frame (a step changes only
    // the last frame, and may push one).
    struct snapshot {
        position at;
        recovery_state rs;
        std::size_t follow, frames, unit_errors;
        frame last;
    };

    void push_root();
    void push_frame(rule r, tset follow, int parent_resume);
    void pop_frame();
    snapshot take() const;
    void restore(const snapshot& s);

    void run_machine();  // (advance()'s loop, inline there: tier_machine.cpp)
    bool replay(int phase);

    void fail_frame(std::size_t fi);
    void go(std::size_t fi, int phase) { frames_[fi].phase = phase; }
    void skip_then(std::size_t fi, tset set, int then);
    void step(std::size_t fi);
    void step_document(std::size_t fi);
    void step_turn_content(std::size_t fi);
    void step_sequence(std::size_t fi);
    void step_log(std::size_t fi);
    void step_turn(std::size_t fi);
};

}  // namespace plurnk::detail
