// SPDX-License-Identifier: MIT
// The statement parser's state under its rules (private header): the token cursor that records
// the units and the reference's error strategy (token_cursor.hpp, error_strategy.hpp), and the
// unit recording the productions do around a statement or a turn's slots (begin_unit, note_slot,
// end_unit). The productions, the clean step and the machine's snapshots all read it; what it
// adds to the error strategy is one count, the error events when the open unit began, by which
// a unit is clean.
#pragma once

#include <cstddef>
#include <cstdint>

#include "syntax/error_strategy.hpp"
#include "syntax/spans.hpp"

namespace plurnk::detail {

class parse_state : public error_strategy {
public:
    friend bool operator==(const parse_state&, const parse_state&) = default;

protected:
    // Back to the state as constructed (tier_machine::reset()).
    void reset_state() noexcept {
        reset_strategy();
        unit_errors_ = 0;
    }

    // Opens a unit for the tokens consumed next; returns the unit open before it, for end_unit().
    int begin_unit() {
        const int saved = unit_;
        tree_.units.push_back(unit{});
        unit_ = static_cast<int>(tree_.units.size()) - 1;
        unit_errors_ = error_events();
        return saved;
    }
    unit& cur_unit() { return tree_.units[static_cast<std::size_t>(unit_)]; }
    // Records the current token index in a slot field of the open unit (a TURN's slots have none).
    void note_slot(std::uint32_t unit::*field) {
        if (unit_ >= 0) cur_unit().*field = static_cast<std::uint32_t>(index());
    }
    // Closes the open unit, clean when no error event came since it began, and reopens `saved`.
    void end_unit(int saved) {
        unit& u = tree_.units[static_cast<std::size_t>(unit_)];
        u.clean = u.clean && error_events() == unit_errors_;
        unit_ = saved;
    }

    std::size_t unit_errors_ = 0;  // error_events() when the open unit began
};

}  // namespace plurnk::detail
