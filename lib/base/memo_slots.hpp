// SPDX-License-Identifier: MIT
// The slots of a direct-mapped memo (private header): an array copied with its owner, except
// that a copy between two memos that never held an entry copies nothing. parse() resets its
// thread's pipeline from a pristine one by assignment, once per parse, and a clean input never
// fills the memos of messages (record_log, error_ledger), so that copy was a few KB for nothing.
#pragma once

#include <array>
#include <cstddef>

namespace plurnk::detail {

// A memo whose slots are written only through place(): until then every slot is the default,
// so two such memos are equal and the copy can be skipped.
template <class Slot, std::size_t N>
class memo_slots {
public:
    memo_slots() = default;
    memo_slots(const memo_slots& o) : used_(o.used_) {
        if (o.used_) slots_ = o.slots_;
    }
    memo_slots(memo_slots&&) noexcept = default;
    memo_slots& operator=(const memo_slots& o) {
        if (used_ || o.used_) slots_ = o.slots_;
        used_ = o.used_;
        return *this;
    }
    memo_slots& operator=(memo_slots&&) noexcept = default;
    ~memo_slots() = default;

    static constexpr std::size_t size() noexcept { return N; }
    [[nodiscard]] const Slot& operator[](std::size_t i) const noexcept { return slots_[i]; }
    // A slot to write (the memo holds entries from now on).
    [[nodiscard]] Slot& place(std::size_t i) noexcept {
        used_ = true;
        return slots_[i];
    }

private:
    std::array<Slot, N> slots_{};
    bool used_ = false;
};

}  // namespace plurnk::detail
