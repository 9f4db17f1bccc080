// SPDX-License-Identifier: MIT
// The rail's rule model as data (SPEC §1.2, §4, §9; BEHAVIOUR §7): the slot shapes of the twelve
// internal operations, the reasoning channel formats, and the checks on the knobs a caller may
// turn (statement budget, suffix set, channel). The lowering to a grammar lives in build.cpp and
// build_*.cpp.
#include <algorithm>
#include <array>
#include <utility>
#include <iterator>
#include <string>
#include <string_view>
#include <unordered_set>

#include "base/ascii.hpp"
#include "grammar/op_table.hpp"
#include "plurnk/parse.hpp"
#include "plurnk/rail.hpp"

namespace plurnk::rail {

namespace {

using S = signal_shape;
using T = target_need;
using C = scope_shape;
using B = body_shape;

// SPEC §op-shapes, projected onto the rail: canonical slot order signal → target → scope, targets
// required except for EXEC and SEND (OPEN and FOLD as SPEC says: a target or a matcher, OPEN also
// tags alone), no scope where the parser admits none.
constexpr op_shape k_ops[] = {
    {op::FIND, S::tags, T::required, C::find, B::matcher},
    {op::READ, S::tags, T::required, C::read, B::matcher},
    {op::EDIT, S::tags, T::required, C::text, B::text},
    {op::COPY, S::tags, T::required, C::text, B::selection},
    {op::MOVE, S::tags, T::required, C::text, B::selection},
    {op::OPEN, S::tags, T::required_or_tags_matcher, C::none, B::matcher},
    {op::FOLD, S::tags, T::required_or_matcher, C::none, B::matcher},
    {op::EXEC, S::executor, T::optional, C::timing, B::text},
    {op::WORK, S::branch, T::required, C::none, B::text_nonempty},
    {op::FORK, S::branch, T::required, C::none, B::text_nonempty},
    {op::KILL, S::kill_code, T::required, C::none, B::empty},
    {op::SEND, S::mid_code, T::optional, C::none, B::text},
};

// The rail is a subset of what the parser admits: each row must agree with the core's op table
// (lib/op_table.hpp) on the signal's shape, on whether a scope exists and on the body's kind.
constexpr bool agrees_with_op_table(const op_shape& r) {
    const detail::op_traits& t = detail::traits(r.op);
    if (t.family != detail::op_family::protocol || !t.mid_opener) return false;
    const bool signal_ok = (r.signal == S::tags && t.signal == detail::signal_shape::tags) ||
                           (r.signal == S::branch && t.signal == detail::signal_shape::branch) ||
                           (r.signal == S::executor && t.signal == detail::signal_shape::ident) ||
                           (r.signal == S::kill_code && t.signal == detail::signal_shape::kill_integer) ||
                           (r.signal == S::mid_code && t.signal == detail::signal_shape::integer);
    const bool scope_ok = (r.scope == C::none) == !t.scope;
    const bool body_ok = (r.body == B::matcher) == (t.body == detail::body_kind::matcher) &&
                         (r.body == B::selection) == (t.body == detail::body_kind::selection) &&
                         (r.body == B::text_nonempty) == t.body_required;
    return signal_ok && scope_ok && body_ok;
}
constexpr bool rail_agrees_with_op_table() {
    std::size_t mid = 0;
    for (const detail::op_traits& t : detail::k_ops) mid += t.mid_opener ? 1 : 0;
    if (std::size(k_ops) != mid) return false;
    for (const op_shape& r : k_ops) {
        if (!agrees_with_op_table(r)) return false;
    }
    return true;
}
static_assert(rail_agrees_with_op_table(), "the rail's k_ops must cover the mid ops as lib/op_table.hpp describes them");

// The service dialect's rows (SERVICE.md slot table): k_ops with S8 (OPEN and FOLD take READ's
// scope), S9 (WORK and FORK take no signal) and S10 (FORK's body is optional) applied.
constexpr op_shape in_service(op_shape r) {
    if (r.op == op::OPEN || r.op == op::FOLD) r.scope = C::read;
    if (r.op == op::WORK || r.op == op::FORK) r.signal = S::none;
    if (r.op == op::FORK) r.body = B::text;
    return r;
}
template <std::size_t... I>
constexpr std::array<op_shape, sizeof...(I)> service_ops(std::index_sequence<I...>) {
    return {in_service(k_ops[I])...};
}
constexpr auto k_service_ops = service_ops(std::make_index_sequence<std::size(k_ops)>{});

constexpr std::size_t k_max_suffix_length = 8;

bool is_suffix_char(char c) noexcept { return ascii::is_word_char(static_cast<unsigned char>(c)); }

constexpr const char* k_channel_names[] = {"gemma", "think", "none", "custom"};

// Why `close` cannot close a custom channel, or "". The body rule splits at the literal's first
// character (build_turn.cpp), which is exact only when that character does not occur again in it.
std::string close_problem(std::string_view close) {
    if (close.empty()) return "the channel close literal must not be empty";
    for (const char c : close) {
        if (c != '\t' && c != '\n' && (c < 0x20 || c > 0x7E)) {
            return "the channel close literal must be printable ASCII, tab or newline";
        }
    }
    if (close.find(close.front(), 1) != std::string_view::npos) {
        return "the first character of the channel close literal must not occur again in it";
    }
    return {};
}

}  // namespace

std::span<const op_shape> internal_ops(parse_dialect d) noexcept {
    if (d == parse_dialect::service) return k_service_ops;
    return k_ops;
}

const char* channel_name(channel_format f) noexcept {
    const auto i = static_cast<std::size_t>(f);
    return i < std::size(k_channel_names) ? k_channel_names[i] : "unknown";
}

std::optional<channel_format> channel_from_name(std::string_view name) noexcept {
    for (std::size_t i = 0; i < std::size(k_channel_names); ++i) {
        if (name == k_channel_names[i]) return static_cast<channel_format>(i);
    }
    return std::nullopt;
}

channel_literals literals(const options& o) noexcept {
    switch (o.channel) {
        case channel_format::gemma: return {k_channel_open, k_channel_close};
        case channel_format::think: return {k_think_open, k_think_close};
        case channel_format::none: return {};
        case channel_format::custom: return {o.channel_open, o.channel_close};
    }
    return {};
}

namespace {

// Why `o` cannot be built, or nullopt.
std::optional<std::string> why_not_buildable(const options& o) {
    if (o.max_statements > k_max_statements_limit) {
        return "max-statements must be at most " + std::to_string(k_max_statements_limit);
    }
    if (o.suffixes.empty()) return std::string("the suffix list must name at least one suffix");
    std::unordered_set<std::string_view> seen;  // linear in the list, however long
    seen.reserve(o.suffixes.size());
    for (const std::string& s : o.suffixes) {
        if (s.size() > k_max_suffix_length) {
            return "suffix '" + s + "' is longer than " + std::to_string(k_max_suffix_length) + " characters";
        }
        if (!std::all_of(s.begin(), s.end(), is_suffix_char)) {
            return "suffix '" + s + "' is not [A-Za-z0-9_]*";
        }
        if (!seen.insert(s).second) return "suffix '" + s + "' is listed twice";
    }
    if (o.channel == channel_format::custom) {
        if (o.channel_open.size() > k_max_channel_literal || o.channel_close.size() > k_max_channel_literal) {
            return "a channel literal is longer than " + std::to_string(k_max_channel_literal) + " bytes";
        }
        if (first_invalid_utf8(o.channel_open) != std::string_view::npos ||
            o.channel_open.find('\0') != std::string::npos) {
            return std::string("the channel open literal must be UTF-8 without NUL");
        }
        if (std::string why = close_problem(o.channel_close); !why.empty()) return why;
    } else if (!channel_from_name(channel_name(o.channel))) {
        return std::string("unknown channel format");
    }
    if (o.dialect != parse_dialect::contracts && o.dialect != parse_dialect::service) return std::string("unknown dialect");
    return std::nullopt;
}

}  // namespace

result<void> check_options(const options& o) {
    if (std::optional<std::string> why = why_not_buildable(o)) return problem{0, std::move(*why)};
    return {};
}

}  // namespace plurnk::rail
