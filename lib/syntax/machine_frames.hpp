// SPDX-License-Identifier: MIT
// The frames of the statement parser's resumable machine (private header). The five top-level
// rules (document, turn_content, statements/client, log, turn) keep their position in a frame,
// so parsing can stop between any two steps: a phase is one place a rule can stop, one per loop
// iteration. Read by the machine (tier_machine.hpp) and the cycle replay (cycle_replay.hpp),
// which compares frames.
#pragma once

#include <cstdint>

#include "grammar/token.hpp"

namespace plurnk::detail::machine {

enum class rule : std::uint8_t { document, turn_content, sequence, log, turn };

enum phase : int {
    P_START, P_FAIL, P_CONSUME, P_EXIT,
    // document
    P_DOC_EOF,
    // turn_content
    P_LEAD, P_LEAD_BACK, P_PLAN, P_LOOP_ENTRY, P_DECIDE, P_LOOP_BACK, P_TERMINAL, P_TRAIL_ENTRY, P_TRAIL,
    P_TRAIL_BACK,
    // sequence
    P_SEQ_LOOP, P_SEQ_BACK, P_SEQ_EOF,
    // log
    P_LOG_TURN, P_LOG_BACK, P_LOG_NEXT, P_LOG_EOF,
    // turn
    P_TURN_SLOTS, P_TURN_COLON, P_TURN_CLOSE,
};
struct frame {
    rule r;
    int phase = P_START;
    int resume = P_EXIT;     // the parent's phase when this frame exits
    tset consume_set = 0;    // P_CONSUME: skip to a token in this set,
    int consume_then = P_EXIT;  // then go on here
    friend bool operator==(const frame&, const frame&) = default;
};

}  // namespace plurnk::detail::machine
