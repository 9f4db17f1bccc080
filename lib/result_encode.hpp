// SPDX-License-Identifier: MIT
// Items to records (private header): what the result builder and item_list::push_back() store.
// Strings inside the input being parsed become input references (no copy); every other string,
// and every list, is copied into the arena.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

#include "result_store.hpp"

namespace plurnk::detail {

class string_sink {
public:
    explicit string_sink(arena& a) noexcept : a_(a) {}
    // Strings inside `live` (the input from absolute offset `begin` on) are referred to, not copied.
    void set_live(std::string_view live, std::uint64_t begin) noexcept {
        live_ = live;
        live_begin_ = begin;
    }
    [[nodiscard]] sref put(std::string_view s) {
        if (s.empty()) return {};
        const auto p = reinterpret_cast<std::uintptr_t>(s.data());
        const auto lo = reinterpret_cast<std::uintptr_t>(live_.data());
        if (!live_.empty() && p >= lo && p + s.size() <= lo + live_.size()) {
            return sref::input(live_begin_ + (p - lo), s.size());
        }
        return copy(s);
    }
    // Always into the arena.
    [[nodiscard]] sref copy(std::string_view s) {
        if (s.empty()) return {};
        return sref::arena(a_.copy(s).data(), s.size());
    }
    [[nodiscard]] arena& strings() noexcept { return a_; }

private:
    arena& a_;
    std::string_view live_;
    std::uint64_t live_begin_ = 0;
};

// The records of a statement (and its extras and URL records in the arena). The span's begin and
// the position go to the item record; spans must fit 32 bits (std::length_error otherwise).
stmt_rec encode_statement(const statement& st, string_sink& sink);
item_rec item_record(position p, byte_span span);

}  // namespace plurnk::detail
