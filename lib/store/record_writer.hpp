// SPDX-License-Identifier: MIT
// Items to records (private header): what the result builder and item_list::push_back() store.
// Strings inside the input being parsed become input references (no copy); every other string,
// and every list, is copied into the arena.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

#include "store/result_store.hpp"

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
    // Where `s` (inside the live input) will stay put for the result: the result's own input when
    // it already holds those bytes (parse()), else a copy in the arena.
    [[nodiscard]] const char* stable(std::string_view s) {
        if (input_ != nullptr) {
            const auto p = reinterpret_cast<std::uintptr_t>(s.data());
            const auto lo = reinterpret_cast<std::uintptr_t>(live_.data());
            const std::uint64_t abs = live_begin_ + (p - lo);
            if (abs + s.size() <= input_->end()) return input_->at(abs);
        }
        const std::string_view c = a_.copy(s);
        return c.empty() ? "" : c.data();
    }
    [[nodiscard]] std::string_view live() const noexcept { return live_; }
    // An array the caller built in the arena already: copy_array leaves it where it is.
    void set_stable_array(const void* p) noexcept { stable_array_ = p; }
    [[nodiscard]] const void* stable_array() const noexcept { return stable_array_; }
    void set_input(const input_text* in) noexcept { input_ = in; }

    // Always into the arena.
    [[nodiscard]] sref copy(std::string_view s) {
        if (s.empty()) return {};
        return sref::arena(a_.copy(s).data(), s.size());
    }
    [[nodiscard]] arena& strings() noexcept { return a_; }

private:
    arena& a_;
    const input_text* input_ = nullptr;
    const void* stable_array_ = nullptr;
    std::string_view live_;
    std::uint64_t live_begin_ = 0;
};

// The records of a statement (and its extras and URL records in the arena). The span's begin and
// the position go to the item record; spans must fit 32 bits (std::length_error otherwise).
// `target`, when given, is the statement's target already encoded (its own `target` is then
// empty): the builder's records of a target the URL fast path read (builder/fast_target.hpp).
stmt_rec encode_statement(const statement& st, string_sink& sink, const path_ref* target = nullptr);
item_rec item_record(position p, byte_span span);

}  // namespace plurnk::detail
