// SPDX-License-Identifier: MIT
// JSON: writing parse results exactly as the reference serializes them, and a small JSON reader
// (RFC 8259, JavaScript JSON.parse semantics) used for SEND bodies and the CLI's JSON Lines.
#pragma once

#include "plurnk/requires_cxx20.hpp"  // one clear error unless compiled as C++20

#include <cstdint>
#include <functional>
#include <iterator>
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

class json_document;
struct json_member;

// A value inside a json_document: a view (two words) valid while its document lives, with the
// same semantics as the json_value parse_json would build (objects in JavaScript property
// order, a repeated key merged into its first place with its last value). A default-constructed
// json_ref is "absent" (false), as find() returns for a missing member.
class json_ref {
public:
    using kind_t = json_value::kind_t;

    json_ref() = default;
    explicit operator bool() const noexcept { return doc_ != nullptr; }

    [[nodiscard]] kind_t kind() const noexcept;
    [[nodiscard]] bool boolean() const noexcept;          // false unless kind() is boolean
    [[nodiscard]] double number() const noexcept;         // 0 unless kind() is number
    [[nodiscard]] std::string_view string() const noexcept;  // empty unless kind() is string
    [[nodiscard]] bool is_container() const noexcept {
        return kind() == kind_t::array || kind() == kind_t::object;
    }
    [[nodiscard]] bool empty() const noexcept;  // no element or member (true for a scalar)
    // Elements or members, counted (linear in their number); 0 for a scalar.
    [[nodiscard]] std::size_t size() const noexcept;
    // The member `key` of an object (a linear scan), or an absent ref.
    [[nodiscard]] json_ref find(std::string_view key) const noexcept;

    using member = json_member;
    // Iterates the elements of an array or the members of an object in order (nothing for a
    // scalar). Each step is constant time.
    class iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = member;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = member;
        member operator*() const noexcept;
        iterator& operator++() noexcept;
        iterator operator++(int) noexcept {
            iterator old = *this;
            ++*this;
            return old;
        }
        bool operator==(const iterator& o) const noexcept { return at_ == o.at_ && slot_ == o.slot_; }

    private:
        friend class json_ref;
        const json_document* doc_ = nullptr;
        std::uint32_t at_ = 0;    // the member's key (objects) or the element, in written order
        std::uint32_t slot_ = 0;  // for a reordered object: the member's place in its order list
        bool object_ = false;
        bool ordered_ = false;
    };
    [[nodiscard]] iterator begin() const noexcept;
    [[nodiscard]] iterator end() const noexcept;

    [[nodiscard]] const json_document* document() const noexcept { return doc_; }
    [[nodiscard]] std::uint32_t index() const noexcept { return at_; }

private:
    friend class json_document;
    friend struct json_document_access;
    friend struct json_member;
    json_ref(const json_document* doc, std::uint32_t at) noexcept : doc_(doc), at_(at) {}
    const json_document* doc_ = nullptr;
    std::uint32_t at_ = 0;
};

// An element of an array (key a null view) or a member of an object, as json_ref iterates them.
struct json_member {
    std::string_view key;
    json_ref value;
    // An object member's key as a string value of the document (for a check that takes a value).
    [[nodiscard]] json_ref key_value() const noexcept { return {value.doc_, value.at_ - 1}; }
};

// A parsed JSON text held compactly and read-only: one 8-byte word per value and per member key
// (most numbers inline), decoded strings in one buffer, other numbers in another, and for each
// object JavaScript reorders or merges, its members' order. Reading and writing are iterative and
// linear in the text. A json_value takes 96 bytes per value and a heap block per container; this
// takes at most 5 bytes per byte of text, whatever the text (doc/limits.md). Use it for large or
// untrusted values, and to read a few fields of a large one.
class json_document {
public:
    json_document();  // holds null
    // The value `v` (members kept in their order except that an object is given JavaScript's
    // property order and merges a repeated key, as JSON.parse(JSON.stringify(v)) would; numbers
    // are kept as they are, infinities and NaN included).
    explicit json_document(const json_value& v);

    // JSON.parse semantics, as parse_json; nullopt on any syntax error, or on a text of more
    // than 2^32 - 2 values and keys (over 8 GiB of text).
    [[nodiscard]] static std::optional<json_document> parse(std::string_view text);

    [[nodiscard]] json_ref root() const noexcept { return {this, 0}; }
    // The value whose json_ref::index() is `index` (a compact handle to keep instead of a ref).
    [[nodiscard]] json_ref at(std::uint32_t index) const noexcept { return {this, index}; }
    // Bytes of its buffers in use. A parsed document reserves room for the largest it could be
    // (a word per two bytes of text) but touches only what it uses, which is what this counts.
    [[nodiscard]] std::size_t memory() const noexcept;

private:
    friend class json_ref;
    friend struct json_document_access;
    std::vector<std::uint64_t> tape_;   // one word per value and key, in text order
    std::vector<double> numbers_;       // numbers that are not small integers
    std::string strings_;               // strings and keys: a varint length, then the bytes
    std::vector<std::uint32_t> orders_;  // reordered objects: end, count, then each value's word
};

// JSON.stringify of a document's value, as stringify_json of the equivalent json_value; "null"
// for an absent ref.
void append_json_value(std::string& out, json_ref value);
[[nodiscard]] std::string stringify_json(json_ref value);
// The same text handed to `flush` in pieces of about 64 KB (the last one possibly empty).
void write_json(json_ref value, const json_flush& flush);
// The json_value of a document's value (built iteratively; copying it back recurses).
[[nodiscard]] json_value to_json_value(json_ref value);

}  // namespace plurnk
