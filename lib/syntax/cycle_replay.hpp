// SPDX-License-Identifier: MIT
// The statement parser's cycle replay (private header), part of its fast path.
// Hostile input can drive the machine round one error cycle for every few tokens: `<<TURN:`
// repeated in a log opens a turn, fails its content, recovers, closes the turn and loops, nine
// steps each time. The machine reads tokens' kinds and ops only. So when it comes back to a
// loop head (a rule's phase where it loops) in the state it had there one cycle before, token
// indices taken from the cursor and counts from the cycle's start, and the tokens the next
// cycle will read repeat, kind for kind, the ones the last cycle read, the next cycle does what
// the last one did, moved along: its errors, units and token marks are the last cycle's,
// shifted. The cycle is then copied instead of run, as often as the tokens keep repeating.
// Part of the fast path: with it off, every cycle runs (the tests compare the two).
// The replay owns its anchors (each loop head's last visit); the parser hands it, per look, what
// it reads of the parser's state and what it may move (cycle_replay::parser_state).
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "grammar/token.hpp"
#include "syntax/error_strategy.hpp"
#include "syntax/spans.hpp"
#include "syntax/machine_frames.hpp"

namespace plurnk::detail {

class cycle_replay {
public:
    using recovery_state = error_strategy::recovery_state;
    // What a replay reads of the parser, and what it moves: the errors, units and token marks of
    // `tree`, the recovery state, the unit error count, and the cursor (p, fetched), which the
    // parser then jumps to.
    struct parser_state {
        const token_vector& toks;
        std::size_t p, fetched;
        bool finished;
        std::size_t last_close;  // the last close tag or eof among the tokens, or npos
        const std::vector<machine::frame>& frames;
        const std::vector<tset>& follow;
        std::size_t& unit_errors;
        recovery_state& rs;
        syntax_tree& tree;
        std::size_t looks = 0;  // tokens compared, for the work counter
    };
    static constexpr std::size_t npos = static_cast<std::size_t>(-1);

    // Each loop-head phase's anchor, or -1 for a phase that is no loop head (where replay()
    // does nothing: the parser need not hand it its state). Inline: the machine asks before
    // each step the clean step did not take.
    static constexpr int anchor_slot(int phase) noexcept {
        using enum machine::phase;
        switch (phase) {
            case P_LOG_TURN: return 0;
            case P_DECIDE: return 1;
            case P_LOOP_BACK: return 2;
            case P_SEQ_LOOP: return 3;
            case P_SEQ_BACK: return 4;
            default: return -1;
        }
    }

    // At a loop head (`phase`) with no unit open: replays the cycle since this head's last visit
    // as often as it provably repeats. True: the state moved on (`s` says where to).
    bool replay(int phase, parser_state& s);
    // Forgets every anchor (the tokens were released, or the parser is reset): those written
    // since the last clear() go back to their defaults (the others are at them still).
    void clear() noexcept {
        for (unsigned t = touched_; t != 0; t &= t - 1) {
            anchors_[static_cast<std::size_t>(std::countr_zero(t))] = anchor{};
        }
        touched_ = 0;
    }
    friend bool operator==(const cycle_replay&, const cycle_replay&) = default;

private:
    using frame = machine::frame;
    static constexpr std::size_t k_anchor_depth = 4;
    struct anchor {
        bool valid = false;
        std::uint8_t depth = 0;
        std::size_t p = 0, fetched = 0, errors = 0, units = 0, unit_errors = 0;
        recovery_state rs;
        std::array<frame, k_anchor_depth> frames{};
        std::array<tset, k_anchor_depth> follow{};
        friend bool operator==(const anchor&, const anchor&) = default;
    };
    // One anchor per loop-head phase (anchor_slot()).
    static constexpr std::size_t k_anchor_slots = 5;
    static_assert(k_anchor_slots <= 8, "touched_ has a bit per slot");

    static anchor capture(const parser_state& s);
    // What one cycle from `a` to `b` changes, `k` times over.
    struct cycle {
        std::size_t tokens = 0, errors = 0, units = 0, events = 0;
        bool units_begun = false;
    };
    static anchor shifted(anchor a, const cycle& c, std::size_t k);
    static bool same_state(const anchor& a, const anchor& b);
    // Copies the cycle a → b forward k ≥ 0 times, k as large as the tokens allow; returns k.
    std::size_t replay_cycles(anchor& a, const anchor& b, parser_state& s);

    std::array<anchor, k_anchor_slots> anchors_{};
    // Bit i: anchors_[i] was written since the last clear() (the anchors clear() resets).
    std::uint8_t touched_ = 0;
};

}  // namespace plurnk::detail
