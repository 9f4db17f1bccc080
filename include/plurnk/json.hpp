// SPDX-License-Identifier: MIT
// JSON: writing parse results exactly as the reference serializes them, and a small JSON reader
// (RFC 8259, JavaScript JSON.parse semantics) used for SEND bodies and the CLI's JSON Lines.
#pragma once

#include "plurnk/requires_cxx20.hpp"  // one clear error unless compiled as C++20

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "plurnk/ast.hpp"

namespace plurnk {

struct json_options {
    bool pretty = false;  // two-space indentation, as JSON.stringify(x, null, 2)
    // Adds "span":{"start":B,"end":E} (byte offsets, item::span) as the last member of each item
    // object and of "unparsedTail". Off by default: the reference's output has no spans.
    bool spans = false;
};

// The reference's result object {"items":[...], "unparsedTail"?:{...}}. Output is valid UTF-8
// whatever the input bytes: each invalid input byte becomes U+FFFD.
[[nodiscard]] std::string to_json(const parse_result& result, const json_options& options = {});
void append_json(std::string& out, const parse_result& result, const json_options& options = {});
// The same text as to_json(), handed to `flush` in pieces (about 64 KB each, the last one
// possibly empty) as it is written, so a large result is never held as one string: the CLI
// writes each piece to stdout. A piece is valid only during the call.
using json_flush = std::function<void(std::string_view piece)>;
void write_json(const parse_result& result, const json_flush& flush, const json_options& options = {});
// One element of "items" ({"kind":...}), or one statement object, as they appear in a result.
void append_json(std::string& out, const item& it, const json_options& options = {});
void append_json(std::string& out, const statement& st, const json_options& options = {});

// Appends `text` as a JSON string literal (quotes included), escaping as JSON.stringify does
// and replacing each invalid UTF-8 byte with U+FFFD.
void append_json_string(std::string& out, std::string_view text);

// Appends a number the way JavaScript's Number#toString writes it (1e+21, 0.7, -0 -> "0").
void append_js_number(std::string& out, double value);

// A parsed JSON value. Objects keep JavaScript property order (integer-like keys ascending
// first, then the others in insertion order; a duplicate key keeps its first place, last value).
struct json_value {
    enum class kind_t : std::uint8_t { null, boolean, number, string, array, object };
    kind_t kind = kind_t::null;
    bool boolean = false;
    double number = 0;
    std::string string;  // UTF-8
    std::vector<json_value> array;
    std::vector<std::pair<std::string, json_value>> object;

    json_value() = default;
    json_value(const json_value&) = default;  // copying recurses over the nesting depth
    json_value(json_value&&) noexcept = default;
    json_value& operator=(const json_value&) = default;
    json_value& operator=(json_value&&) noexcept = default;
    // Destroys children with an explicit work list, so dropping a value nested millions deep
    // (which parse_json accepts) cannot overflow the stack.
    ~json_value();

    // Member lookup for objects (nullptr when absent or not an object).
    [[nodiscard]] const json_value* find(std::string_view key) const noexcept;
};

// JSON.parse semantics on UTF-8 text; nullopt on any syntax error. Strings are UTF-8, except
// that an escaped lone surrogate (\ud800) is kept as its 3-byte generalized UTF-8 form (WTF-8,
// ED A0 80), which stringify_json writes back as \ud800; each input byte that is not valid
// UTF-8 inside a string becomes U+FFFD. parse_json and stringify_json are iterative: nesting
// depth is not limited. k_json_max_depth is a bound for callers that recurse over a value.
inline constexpr int k_json_max_depth = 512;
[[nodiscard]] std::optional<json_value> parse_json(std::string_view text);

// Appends a string held by a json_value as JSON.stringify writes it: like append_json_string,
// except that a lone surrogate stored in WTF-8 form (as parse_json stores \ud800) is written as
// its \uXXXX escape. Use it for json_value strings and member keys.
void append_json_value_string(std::string& out, std::string_view text);

// JSON.stringify of a value (compact). Members are written in vector order (parse_json already
// stores them in JavaScript property order); NaN and infinities are written as null.
[[nodiscard]] std::string stringify_json(const json_value& value);
void append_json_value(std::string& out, const json_value& value);

// JSON.stringify(JSON.parse(raw)) or nullopt when raw is not JSON: the SEND body "json" field.
[[nodiscard]] std::optional<std::string> canonical_json(std::string_view raw);

}  // namespace plurnk
