// SPDX-License-Identifier: MIT
// json_document's layout (include/plurnk/json.hpp), shared by the reader that fills it
// (json_reader.cpp) and the code that reads it (json_document.cpp).
//
// The tape holds one 64-bit word per value and per member key, in the order of the text (a
// container's word, then its children's; an object's children alternate key, value). A word's
// low 4 bits are its tag, the other 60 its payload:
//   null, false, true     payload unused
//   inline_number         a number whose last 4 bits are 0 (integers of magnitude below 2^48,
//                         halves, -0, infinities...): its other 60 bits
//   number                any other number: its place in numbers_
//   string                a string or a key: its place in strings_ (a LEB128 length, then the bytes)
//   array, object         the index of the word after its last descendant (its "end"); while it
//                         is open, the index + 1 of the container it is in (0: none)
//   ordered               an object JavaScript lists in another order than the text's, or with a
//                         repeated key merged: its place in orders_, which holds its end, its
//                         member count, then each member's value index in JavaScript's order
//                         (the member's key is the word before its value)
// Word indices are 32-bit (a document holds fewer than 2^32 - 1 words).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "plurnk/json.hpp"

namespace plurnk {

namespace tape {

enum tag : std::uint8_t { t_null, t_false, t_true, t_inline_number, t_number, t_string, t_array, t_object, t_ordered };

constexpr std::uint64_t word(tag t, std::uint64_t payload) noexcept { return (payload << 4) | t; }
constexpr tag tag_of(std::uint64_t w) noexcept { return static_cast<tag>(w & 15); }
constexpr std::uint64_t payload(std::uint64_t w) noexcept { return w >> 4; }
constexpr std::uint32_t k_max_words = 0xFFFF'FFFEu;

// The value of a key that is an array index in canonical form ("0".."4294967294", no leading
// zero), which JavaScript lists first; k_not_index for any other key.
constexpr std::uint64_t k_not_index = UINT64_MAX;
constexpr std::uint64_t array_index(std::string_view key) noexcept {
    if (key.empty() || key.size() > 10 || (key[0] == '0' && key.size() > 1)) return k_not_index;
    std::uint64_t v = 0;
    for (const char c : key) {
        if (c < '0' || c > '9') return k_not_index;
        v = v * 10 + static_cast<std::uint64_t>(c - '0');
    }
    return v <= 4294967294u ? v : k_not_index;
}

}  // namespace tape

// Read access to a document's buffers for the reader and the walkers in lib/json.
struct json_document_access {
    static std::vector<std::uint64_t>& tape(json_document& d) noexcept { return d.tape_; }
    static std::vector<double>& numbers(json_document& d) noexcept { return d.numbers_; }
    static std::string& strings(json_document& d) noexcept { return d.strings_; }
    static std::vector<std::uint32_t>& orders(json_document& d) noexcept { return d.orders_; }
    static const std::vector<std::uint64_t>& tape(const json_document& d) noexcept { return d.tape_; }
    static const std::vector<std::uint32_t>& orders(const json_document& d) noexcept { return d.orders_; }

    // The index after the value at `at` and its descendants.
    static std::uint32_t end_of(const json_document& d, std::uint32_t at) noexcept {
        const std::uint64_t w = d.tape_[at];
        switch (tape::tag_of(w)) {
            case tape::t_array:
            case tape::t_object: return static_cast<std::uint32_t>(tape::payload(w));
            case tape::t_ordered: return d.orders_[tape::payload(w)];
            default: return at + 1;
        }
    }
    // The string or key at `at`.
    static std::string_view string_at(const json_document& d, std::uint32_t at) noexcept;
    static json_ref ref(const json_document& d, std::uint32_t at) noexcept { return {&d, at}; }
};

// Appends a document's words as a reader meets the text's values: containers open and close,
// keys and values in between. Each call that adds a word returns false when the document is
// full (k_max_words). An object's members are put in JavaScript's order when it closes.
class tape_builder {
public:
    explicit tape_builder(json_document& d) noexcept;

    // Reserves room for a text of `n` bytes (only the pages written to are ever touched).
    void reserve_for_text(std::size_t n);

    bool null() { return push(tape::word(tape::t_null, 0)); }
    bool boolean(bool b) { return push(tape::word(b ? tape::t_true : tape::t_false, 0)); }
    bool number(double x);
    // A string or key: begin_string() adds its word and returns the buffer to append the
    // decoded bytes to; end_string() then records their length.
    std::string* begin_string();
    void end_string();
    bool open(bool is_object);
    void close();

    [[nodiscard]] bool in_object() const noexcept {
        return open_ != 0 && tape::tag_of(tape_[open_ - 1]) == tape::t_object;
    }
    [[nodiscard]] bool is_open() const noexcept { return open_ != 0; }

private:
    bool push(std::uint64_t w) {
        if (tape_.size() >= tape::k_max_words) return false;
        tape_.push_back(w);
        return true;
    }
    void order_members(std::uint32_t object, std::uint32_t end);

    json_document& doc_;
    std::vector<std::uint64_t>& tape_;
    std::string& strings_;
    std::size_t string_start_ = 0;  // where the open string's bytes begin
    std::uint32_t open_ = 0;        // the innermost open container's index + 1 (0: none)
    std::vector<std::uint32_t> slots_;  // order_members()'s hash index, reused
};

}  // namespace plurnk
