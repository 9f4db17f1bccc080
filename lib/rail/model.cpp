// SPDX-License-Identifier: MIT
// The rail's rule model as data (SPEC §1.2, §4, §9; BEHAVIOUR §7): the slot shapes of the twelve
// internal operations, and the checks on the two knobs a caller may turn (statement budget and
// suffix set). The lowering to a grammar lives in build.cpp.
#include <algorithm>
#include <string>

#include "plurnk/rail.hpp"

namespace plurnk::rail {

namespace {

using S = signal_shape;
using T = target_need;
using C = scope_shape;
using B = body_shape;

// SPEC §op-shapes, projected onto the rail: canonical slot order signal → target → scope, targets
// required except for EXEC and SEND, no scope where the parser admits none.
constexpr op_shape k_ops[] = {
    {op::FIND, S::tags, T::required, C::find, B::matcher},
    {op::READ, S::tags, T::required, C::read, B::matcher},
    {op::EDIT, S::tags, T::required, C::text, B::text},
    {op::COPY, S::tags, T::required, C::text, B::selection},
    {op::MOVE, S::tags, T::required, C::text, B::selection},
    {op::OPEN, S::tags, T::required, C::none, B::matcher},
    {op::FOLD, S::tags, T::required, C::none, B::matcher},
    {op::EXEC, S::executor, T::optional, C::timing, B::text},
    {op::WORK, S::branch, T::required, C::none, B::text_nonempty},
    {op::FORK, S::branch, T::required, C::none, B::text_nonempty},
    {op::KILL, S::kill_code, T::required, C::none, B::empty},
    {op::SEND, S::mid_code, T::optional, C::none, B::text},
};

constexpr std::size_t k_max_suffix_length = 8;

bool is_suffix_char(char c) noexcept {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

}  // namespace

std::span<const op_shape> internal_ops() noexcept { return k_ops; }

std::optional<std::string> check_options(const options& o) {
    if (o.max_statements > k_max_statements_limit) {
        return "max-statements must be at most " + std::to_string(k_max_statements_limit);
    }
    if (o.suffixes.empty()) return std::string("the suffix list must name at least one suffix");
    for (std::size_t i = 0; i < o.suffixes.size(); ++i) {
        const std::string& s = o.suffixes[i];
        if (s.size() > k_max_suffix_length) {
            return "suffix '" + s + "' is longer than " + std::to_string(k_max_suffix_length) + " characters";
        }
        if (!std::all_of(s.begin(), s.end(), is_suffix_char)) {
            return "suffix '" + s + "' is not [A-Za-z0-9_]*";
        }
        if (std::find(o.suffixes.begin(), o.suffixes.begin() + static_cast<std::ptrdiff_t>(i), s) !=
            o.suffixes.begin() + static_cast<std::ptrdiff_t>(i)) {
            return "suffix '" + s + "' is listed twice";
        }
    }
    return std::nullopt;
}

}  // namespace plurnk::rail
