// SPDX-License-Identifier: MIT
// json_value, the tree parse_json returns (plurnk/json.hpp): its destructor and lookup, and
// writing it back as JavaScript's JSON.stringify does (a stored lone surrogate, held in its
// generalized 3-byte form, written as the \uXXXX escape JSON.stringify gives it). Writing is
// iterative over an explicit stack and destruction never recurses more than a level, so nesting
// depth is not limited.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "plurnk/json.hpp"

namespace plurnk {

namespace {

// Position of the next generalized-UTF-8 surrogate (ED A0..BF 80..BF) in s from `from`, or npos.
std::size_t find_surrogate(std::string_view s, std::size_t from) noexcept {
    for (;;) {
        from = s.find('\xED', from);
        if (from == std::string_view::npos || s.size() - from < 3) return std::string_view::npos;
        const auto b1 = static_cast<unsigned char>(s[from + 1]);
        const auto b2 = static_cast<unsigned char>(s[from + 2]);
        if (b1 >= 0xA0 && b1 <= 0xBF && b2 >= 0x80 && b2 <= 0xBF) return from;
        ++from;
    }
}

// Appends a scalar, or the opening bracket of a non-empty container (returning true so the
// caller pushes it), or "[]"/"{}" for an empty one.
bool open_value(std::string& out, const json_value& v) {
    switch (v.kind) {
        case json_value::kind_t::null: out += "null"; return false;
        case json_value::kind_t::boolean: out += v.boolean ? "true" : "false"; return false;
        case json_value::kind_t::number: append_js_number(out, v.number); return false;
        case json_value::kind_t::string: append_json_value_string(out, v.string); return false;
        case json_value::kind_t::array:
            if (v.array.empty()) {
                out += "[]";
                return false;
            }
            out += '[';
            return true;
        case json_value::kind_t::object:
            if (v.object.empty()) {
                out += "{}";
                return false;
            }
            out += '{';
            return true;
    }
    return false;
}

}  // namespace

// Consumes a stored string; writes it with append_json_string, segment by segment, and each
// stored lone surrogate (ED A0..BF xx) as the \uXXXX escape JSON.stringify gives it.
void append_json_value_string(std::string& out, std::string_view s) {
    std::size_t at = find_surrogate(s, 0);
    if (at == std::string_view::npos) {
        append_json_string(out, s);
        return;
    }
    static constexpr char k_hex[] = "0123456789abcdef";
    out += '"';
    std::size_t from = 0;
    while (from < s.size()) {
        const std::size_t end = at == std::string_view::npos ? s.size() : at;
        if (end > from) {
            // Write the segment with append_json_string and drop its quotes.
            const std::size_t mark = out.size();
            append_json_string(out, s.substr(from, end - from));
            out.pop_back();
            out.erase(mark, 1);
        }
        if (at == std::string_view::npos) break;
        const std::uint32_t u = 0xD000 | ((static_cast<std::uint32_t>(s[at + 1]) & 0x3F) << 6) |
                                (static_cast<std::uint32_t>(s[at + 2]) & 0x3F);
        const char esc[6] = {'\\', 'u', k_hex[(u >> 12) & 0xF], k_hex[(u >> 8) & 0xF], k_hex[(u >> 4) & 0xF],
                             k_hex[u & 0xF]};
        out.append(esc, 6);
        from = at + 3;
        at = find_surrogate(s, from);
    }
    out += '"';
}

json_value::~json_value() {
    if (array.empty() && object.empty()) return;
    // Move every descendant that has children of its own into a flat work list; each value is
    // then destroyed with no grandchildren left, so destruction never recurses more than a level.
    std::vector<json_value> pending;
    const auto has_children = [](const json_value& v) { return !v.array.empty() || !v.object.empty(); };
    const auto take_children = [&pending, &has_children](json_value& v) {
        for (auto& e : v.array) {
            if (has_children(e)) pending.push_back(std::move(e));
        }
        for (auto& m : v.object) {
            if (has_children(m.second)) pending.push_back(std::move(m.second));
        }
        v.array.clear();
        v.object.clear();
    };
    take_children(*this);
    while (!pending.empty()) {
        json_value v = std::move(pending.back());
        pending.pop_back();
        take_children(v);
    }
}

const json_value* json_value::find(std::string_view key) const noexcept {
    if (kind != kind_t::object) return nullptr;
    for (const auto& [k, v] : object) {
        if (k == key) return &v;
    }
    return nullptr;
}

void append_json_value(std::string& out, const json_value& value) {
    struct open_container {
        const json_value* value;
        std::size_t next;  // index of the next element or member to write
    };
    std::vector<open_container> stack;
    if (open_value(out, value)) stack.push_back({&value, 0});
    while (!stack.empty()) {
        open_container& top = stack.back();
        const json_value& v = *top.value;
        const bool is_array = v.kind == json_value::kind_t::array;
        const std::size_t size = is_array ? v.array.size() : v.object.size();
        if (top.next == size) {
            out += is_array ? ']' : '}';
            stack.pop_back();
            continue;
        }
        if (top.next > 0) out += ',';
        const json_value* child = nullptr;
        if (is_array) {
            child = &v.array[top.next];
        } else {
            append_json_value_string(out, v.object[top.next].first);
            out += ':';
            child = &v.object[top.next].second;
        }
        ++top.next;  // before the push below, which may move `top`
        if (open_value(out, *child)) stack.push_back({child, 0});
    }
}

std::string stringify_json(const json_value& value) {
    std::string out;
    append_json_value(out, value);
    return out;
}

}  // namespace plurnk
