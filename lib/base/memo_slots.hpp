// SPDX-License-Identifier: MIT
// The slots of a direct-mapped memo (private header): an array copied with its owner, except
// that a memo that never held an entry neither fills nor copies its slots. A stream's copy
// copies its pipeline, and a clean input never fills the memos of messages (record_log,
// error_ledger), so filling and copying them would be a few KB for nothing.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <cstring>
#include <memory>
#include <type_traits>

namespace plurnk::detail {

// A memo whose slots are written only through place(): until then every slot reads as the
// default (one shared slot), and the array is neither filled nor copied; the first place()
// fills it with defaults.
template <class Slot, std::size_t N>
class memo_slots {
    static_assert(std::is_trivially_copyable_v<Slot> && std::is_trivially_destructible_v<Slot>);

public:
    memo_slots() noexcept {}  // NOLINT(modernize-use-equals-default): the slots stay unfilled
    memo_slots(const memo_slots& o) noexcept : used_(o.used_) {
        if (o.used_) std::construct_at(&s_.slots, o.s_.slots);
    }
    memo_slots& operator=(const memo_slots& o) noexcept {
        if (this != &o && o.used_) std::construct_at(&s_.slots, o.s_.slots);  // (trivial: no old one to end)
        used_ = o.used_;
        return *this;
    }
    memo_slots(memo_slots&& o) noexcept : memo_slots(o) {}
    memo_slots& operator=(memo_slots&& o) noexcept { return *this = o; }
    ~memo_slots() = default;

    static constexpr std::size_t size() noexcept { return N; }
    // Back to as constructed: every slot reads as the default again (the array is not touched).
    void reset() noexcept { used_ = false; }
    // Whether every slot reads the same (slots without an equality of their own compare as bytes).
    friend bool operator==(const memo_slots& a, const memo_slots& b) noexcept {
        for (std::size_t i = 0; i < N; ++i) {
            if constexpr (std::equality_comparable<Slot>) {
                if (!(a[i] == b[i])) return false;
            } else {
                if (std::memcmp(&a[i], &b[i], sizeof(Slot)) != 0) return false;
            }
        }
        return true;
    }
    [[nodiscard]] const Slot& operator[](std::size_t i) const noexcept { return used_ ? s_.slots[i] : k_empty; }
    // A slot to write (the memo holds entries from now on).
    [[nodiscard]] Slot& place(std::size_t i) noexcept {
        if (!used_) {
            std::construct_at(&s_.slots);  // every slot the default
            used_ = true;
        }
        return s_.slots[i];
    }

private:
    // The slots, filled only once used_ (a union member is not initialized unless asked).
    union storage {
        storage() noexcept {}  // NOLINT(modernize-use-equals-default)
        std::array<Slot, N> slots;
    };
    static constexpr Slot k_empty{};
    storage s_;
    bool used_ = false;
};

}  // namespace plurnk::detail
