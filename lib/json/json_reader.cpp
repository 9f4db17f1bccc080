// SPDX-License-Identifier: MIT
// Reads JSON text into a json_document (json_tape.hpp; parse_json converts it into a json_value)
// with the semantics of JavaScript's JSON.parse, and writes a value back as JSON.stringify does,
// so canonical_json(raw) equals JSON.stringify(JSON.parse(raw)). The grammar is RFC 8259 as V8 accepts it (whitespace is only
// space, tab, LF and CR; no trailing commas, leading zeros, NaN or Infinity; no raw control
// characters in strings). Both directions are iterative over an explicit stack, so nesting depth
// is not limited and hostile input cannot exhaust the call stack; every scan is bounded by the
// input's size() and runs in linear time. Numbers are doubles read by std::from_chars (correctly
// rounded, overflow to Infinity and underflow to 0 as in JavaScript). Strings hold UTF-8; an
// escaped lone surrogate, which a JavaScript string can hold but UTF-8 cannot, is stored in its
// generalized 3-byte form (WTF-8) and written back as a \uXXXX escape as JSON.stringify writes
// it; each input byte that is not valid UTF-8 is read as U+FFFD. Object members are stored in
// JavaScript property order: array-index keys ("0".."4294967294", canonical form) first in
// ascending numeric order, then the others in insertion order; a repeated key keeps its first
// place and takes the last value (json_document.cpp puts them so when the object closes, in time
// linear in its members).
#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "plurnk/json.hpp"
#include "base/ascii.hpp"
#include "base/utf8.hpp"
#include "json_tape.hpp"
#include "base/work_counter.hpp"

namespace plurnk {

namespace {

constexpr std::string_view k_replacement = "\xEF\xBF\xBD";  // U+FFFD

using ascii::is_digit;

// Whether c may be copied verbatim into a string value (no quote, backslash, control or non-ASCII
// byte needing validation).
constexpr bool is_plain(unsigned char c) noexcept { return c >= 0x20 && c != '"' && c != '\\' && c < 0x80; }

using detail::utf8_sequence_length;  // lib/utf8.hpp: the library's one UTF-8 validation

// lib/utf8.hpp: a code point in UTF-8, a surrogate in the generalized 3-byte form.
using detail::append_utf8;

using tape::array_index;
using tape::k_not_index;

// The reader: one pass over text_ with pos_.
class reader {
public:
    explicit reader(std::string_view text) noexcept : text_(text) {}

    // text -> ws value ws, then end of input.
    // value -> object | array | string | number | true | false | null
    // Fills `doc` (json_tape.hpp); the open containers are linked through their own words.
    bool parse_document(json_document& doc) {
        tape_builder b(doc);
        b.reserve_for_text(text_.size());
        for (;;) {
            // Here a value must start: the root, or the next element of the innermost container.
            skip_ws();
            if (pos_ >= text_.size()) return false;
            const auto c = static_cast<unsigned char>(text_[pos_]);
            if (c == '[' || c == '{') {
                // array -> '[' ws (value (',' value)*)? ']'
                // object -> '{' ws (member (',' member)*)? '}'    member -> ws string ws ':' value
                ++pos_;
                const bool is_object = c == '{';
                if (!b.open(is_object)) return false;
                skip_ws();
                if (!accept(is_object ? '}' : ']')) {
                    if (is_object && !parse_member_key(b)) return false;
                    continue;
                }
                b.close();
            } else if (!parse_scalar(b)) {
                return false;
            }
            // Here a value is complete: read what follows it, closing containers as they end.
            for (;;) {
                skip_ws();
                if (!b.is_open()) return pos_ == text_.size();
                if (pos_ >= text_.size()) return false;
                const bool in_object = b.in_object();
                const char d = text_[pos_++];
                if (d == ',') {
                    if (in_object) {
                        skip_ws();
                        if (!parse_member_key(b)) return false;
                    }
                    break;  // on to the next element's value
                }
                if (d != (in_object ? '}' : ']')) return false;
                b.close();
            }
        }
    }
    // JSON.stringify(JSON.parse(text)) written straight to `out`, without building values: the
    // same grammar and scalar readers as parse_document(), with the containers kept as a stack of
    // brackets and the open objects' keys in one buffer. It gives up (returns false, `out` to be
    // discarded) on invalid text and on an object whose members JavaScript would not list as
    // they come: a repeated key, an array-index key after another key that is not a smaller
    // one, or more than k_direct_members members (whose repeats this pass does not look for).
    // canonical_json() then takes the document path, but only for such an object (gave_up()):
    // text this pass found invalid, parse_document() would too.
    bool write_direct(std::string& out) {
        direct_buffers& b = buffers();
        b.open.clear();
        b.keys.clear();
        struct lent {  // what a large text grew is given back on every return
            direct_buffers& b;
            ~lent() { b.trim(); }
        } guard{b};
        std::vector<char>& open = b.open;  // '[' or '{' per open container
        std::string& scalar = b.scalar;
        for (;;) {
            skip_ws();
            if (pos_ >= text_.size()) return false;
            const auto c = static_cast<unsigned char>(text_[pos_]);
            if (c == '[' || c == '{') {
                ++pos_;
                out += static_cast<char>(c);
                skip_ws();
                if (accept(c == '[' ? ']' : '}')) {
                    out += c == '[' ? ']' : '}';
                } else {
                    open.push_back(static_cast<char>(c));
                    if (c == '{') {
                        b.keys += '\0';  // the object's mark in the key buffer
                        if (!direct_member_key(out, b.keys)) return false;
                    }
                    continue;
                }
            } else if (c == '"') {
                scalar.clear();
                if (!parse_string(scalar)) return false;
                append_json_value_string(out, scalar);
            } else if (c == 't' || c == 'f' || c == 'n') {
                const std::string_view word = c == 't' ? "true" : c == 'f' ? "false" : "null";
                if (!parse_word(word)) return false;
                out += word;
            } else {
                double number = 0;
                if (!parse_number(number)) return false;
                append_js_number(out, number);
            }
            // A value is complete: what follows it, closing containers as they end.
            for (;;) {
                if (open.empty()) {
                    skip_ws();
                    return pos_ == text_.size();
                }
                const char top = open.back();
                skip_ws();
                if (pos_ >= text_.size()) return false;
                const char d = text_[pos_++];
                if (d == ',') {
                    out += ',';
                    if (top == '{') {
                        skip_ws();
                        if (!direct_member_key(out, b.keys)) return false;
                    }
                    break;
                }
                if (d != (top == '{' ? '}' : ']')) return false;
                out += d;
                if (top == '{') drop_keys(b.keys);
                open.pop_back();
            }
        }
    }

    // Whether write_direct() returned false for an object it cannot write in order, not for
    // invalid text.
    bool gave_up() const noexcept { return gave_up_; }

private:
    static constexpr std::size_t k_direct_members = 16;

    // write_direct()'s working storage, kept by the thread between calls: canonical_json() runs
    // once per SEND body, and allocating these afresh each time cost a few hundred instructions
    // per body. What a large body grew is given back.
    struct direct_buffers {
        std::vector<char> open;
        // The keys of the open objects: for each object a 0 byte (its mark), then each key's
        // bytes followed by its length + 1 as a varint read from its end (the first byte written
        // has its high bit set).
        std::string keys;
        std::string scalar;

        void trim() {
            constexpr std::size_t k_keep = 4096;
            if (open.capacity() > k_keep) std::vector<char>().swap(open);
            if (keys.capacity() > k_keep) std::string().swap(keys);
            if (scalar.capacity() > k_keep) std::string().swap(scalar);
        }
    };
    static direct_buffers& buffers() {
        thread_local direct_buffers b;
        return b;
    }

    // Walks the keys of the innermost open object in the key buffer, last first, from `end`.
    class key_cursor {
    public:
        key_cursor(const std::string& keys, std::size_t end) noexcept : keys_(keys), at_(end) {}
        // Steps to the previous key; false at the object's mark (then at() is the mark's place).
        bool next() noexcept {
            std::size_t len = 0;
            for (;;) {
                const auto b = static_cast<unsigned char>(keys_[--at_]);
                len = (len << 7) | (b & 0x7F);
                if (b >= 0x80 || len == 0) break;  // a varint's first byte, or the mark
            }
            if (len == 0) return false;
            at_ -= len - 1;
            key_ = std::string_view(keys_).substr(at_, len - 1);
            return true;
        }
        std::string_view key() const noexcept { return key_; }
        std::size_t at() const noexcept { return at_; }

    private:
        const std::string& keys_;
        std::size_t at_;
        std::string_view key_;
    };

    // A member key and its ':' for write_direct(); false when the key is invalid, or (setting
    // gave_up_) JavaScript would not list it after the object's earlier keys: a repeat of one,
    // an array index after a key that is not a smaller index, or one member too many.
    bool direct_member_key(std::string& out, std::string& keys) {
        const std::size_t start = keys.size();
        if (!parse_string(keys)) return false;
        const std::string_view key = std::string_view(keys).substr(start);
        const std::uint64_t index = array_index(key);
        std::size_t members = 1;
        for (key_cursor k(keys, start); k.next(); ++members) {
            if (members == k_direct_members || k.key() == key) return give_up();
            if (index != k_not_index && array_index(k.key()) >= index) return give_up();
        }
        skip_ws();
        if (!accept(':')) return false;
        append_json_value_string(out, key);
        out += ':';
        // The key's length + 1 after it, as a varint whose first byte is marked.
        std::size_t len = key.size() + 1;
        keys += static_cast<char>((len & 0x7F) | 0x80);
        for (len >>= 7; len != 0; len >>= 7) keys += static_cast<char>(len & 0x7F);
        return true;
    }

    // Drops the innermost open object's keys and mark from the key buffer.
    static void drop_keys(std::string& keys) {
        key_cursor k(keys, keys.size());
        while (k.next()) {
        }
        keys.resize(k.at());
    }

    void skip_ws() noexcept {
        while (pos_ < text_.size() && ascii::is_whitespace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    }
    bool accept(char c) noexcept {
        if (pos_ < text_.size() && text_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }

    // string (pos_ at its opening quote), as a string value or key of the document.
    bool parse_tape_string(tape_builder& b) {
        std::string* s = b.begin_string();
        if (s == nullptr || !parse_string(*s)) return false;
        b.end_string();
        return true;
    }

    // member-key -> string ws ':' (pos_ at the string's opening quote).
    bool parse_member_key(tape_builder& b) {
        if (!parse_tape_string(b)) return false;
        skip_ws();
        return accept(':');
    }

    // scalar -> string | number | true | false | null
    bool parse_scalar(tape_builder& b) {
        switch (text_[pos_]) {
            case '"': return parse_tape_string(b);
            case 't': return parse_word("true") && b.boolean(true);
            case 'f': return parse_word("false") && b.boolean(false);
            case 'n': return parse_word("null") && b.null();
            default: {
                double x = 0;
                return parse_number(x) && b.number(x);
            }
        }
    }

    bool parse_word(std::string_view word) noexcept {
        if (text_.substr(pos_, word.size()) != word) return false;
        pos_ += word.size();
        return true;
    }

    // number -> '-'? ('0' | [1-9][0-9]*) ('.' [0-9]+)? ([eE] [+-]? [0-9]+)?
    bool parse_number(double& out) noexcept {
        const std::size_t start = pos_;
        const std::size_t n = text_.size();
        const bool negative = accept('-');
        if (pos_ >= n || !is_digit(static_cast<unsigned char>(text_[pos_]))) return false;
        const std::size_t int_start = pos_;
        if (text_[pos_] == '0') {
            ++pos_;
        } else {
            while (pos_ < n && is_digit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
        }
        const std::size_t int_end = pos_;
        bool is_integer = true;
        if (accept('.')) {
            is_integer = false;
            if (pos_ >= n || !is_digit(static_cast<unsigned char>(text_[pos_]))) return false;
            while (pos_ < n && is_digit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
        }
        std::size_t exp_start = 0;
        if (pos_ < n && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
            is_integer = false;
            ++pos_;
            if (pos_ < n && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
            exp_start = pos_;
            if (pos_ >= n || !is_digit(static_cast<unsigned char>(text_[pos_]))) return false;
            while (pos_ < n && is_digit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
        }
        // Integers below 2^53 convert exactly; skip from_chars for them.
        if (is_integer && int_end - int_start <= 15) {
            std::uint64_t m = 0;
            for (std::size_t i = int_start; i < int_end; ++i) m = m * 10 + static_cast<std::uint64_t>(text_[i] - '0');
            const auto d = static_cast<double>(m);
            out = negative ? -d : d;
            return true;
        }
        const char* first = text_.data() + start;
        const char* last = text_.data() + pos_;
        double d = 0;
        const auto res = std::from_chars(first, last, d);
        if (res.ec == std::errc::result_out_of_range) {
            d = overflows(int_start, exp_start) ? std::numeric_limits<double>::infinity() : 0.0;
            if (negative) d = -d;
        } else if (res.ec != std::errc() || res.ptr != last) {
            return false;  // cannot happen for text the grammar above accepted
        }
        out = d;
        return true;
    }

    // For a number from_chars found out of range: whether it is too large (else too small).
    // Compares the decimal exponent of the leading nonzero digit with 0, saturating the exponent.
    bool overflows(std::size_t int_start, std::size_t exp_start) const noexcept {
        std::int64_t lead = 0;  // decimal exponent of the leading nonzero digit, before the exponent part
        std::size_t i = int_start;
        std::int64_t int_digits = 0;
        while (i < text_.size() && is_digit(static_cast<unsigned char>(text_[i]))) {
            ++int_digits;
            ++i;
        }
        if (!(int_digits == 1 && text_[int_start] == '0')) {
            lead = int_digits - 1;
        } else if (i < text_.size() && text_[i] == '.') {
            ++i;
            std::int64_t zeros = 0;
            while (i < text_.size() && text_[i] == '0') {
                ++zeros;
                ++i;
            }
            lead = -zeros - 1;
        }
        std::int64_t e = 0;
        if (exp_start != 0) {
            for (std::size_t k = exp_start; k < text_.size() && is_digit(static_cast<unsigned char>(text_[k])); ++k) {
                e = std::min<std::int64_t>(e * 10 + (text_[k] - '0'), std::int64_t{1} << 40);
            }
            if (text_[exp_start - 1] == '-') e = -e;
        }
        return lead + e > 0;
    }

    // string -> '"' char* '"' (pos_ at the opening quote), decoded and appended to out.
    bool parse_string(std::string& out) {
        const std::size_t n = text_.size();
        if (pos_ >= n || text_[pos_] != '"') return false;
        ++pos_;
        for (;;) {
            // Copy the longest run of plain bytes and valid UTF-8 sequences in one append.
            const std::size_t run = pos_;
            unsigned char c = 0;
            for (;;) {
                pos_ = skip_plain(pos_);
                if (pos_ >= n) return false;
                c = static_cast<unsigned char>(text_[pos_]);
                if (c < 0x80) break;
                const std::size_t len = utf8_sequence_length(text_, pos_);
                if (len == 0) break;
                pos_ += len;
            }
            out.append(text_.data() + run, pos_ - run);
            if (c == '"') {
                ++pos_;
                return true;
            }
            if (c >= 0x80) {  // not valid UTF-8
                out += k_replacement;
                ++pos_;
                continue;
            }
            if (c < 0x20) return false;
            // A backslash escape.
            ++pos_;
            if (pos_ >= n) return false;
            switch (text_[pos_++]) {
                case '"': out += '"'; break;
                case '\\': out += '\\'; break;
                case '/': out += '/'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'n': out += '\n'; break;
                case 'r': out += '\r'; break;
                case 't': out += '\t'; break;
                case 'u': {
                    std::uint32_t u = 0;
                    if (!read_hex4(pos_, u)) return false;
                    pos_ += 4;
                    // A high surrogate directly followed by an escaped low one is one code point.
                    if (u >= 0xD800 && u <= 0xDBFF && text_.size() - pos_ >= 6 && text_[pos_] == '\\' &&
                        text_[pos_ + 1] == 'u') {
                        std::uint32_t low = 0;
                        if (read_hex4(pos_ + 2, low) && low >= 0xDC00 && low <= 0xDFFF) {
                            u = 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00);
                            pos_ += 6;
                        }
                    }
                    append_utf8(out, u);
                    break;
                }
                default: return false;
            }
        }
    }

    // Returns the position of the first byte at or after i that is not plain (or size()),
    // testing eight bytes at a time while eight remain.
    std::size_t skip_plain(std::size_t i) const noexcept {
        const std::size_t n = text_.size();
        if constexpr (std::endian::native == std::endian::little) {
            constexpr std::uint64_t ones = 0x0101010101010101u;
            constexpr std::uint64_t high = 0x8080808080808080u;
            while (n - i >= 8) {
                std::uint64_t w = 0;
                std::memcpy(&w, text_.data() + i, 8);
                // High bit set in each byte that is >= 0x80, < 0x20, '"' or '\\'; a borrow can
                // only mark bytes after a truly marked one, so the lowest mark is exact.
                const std::uint64_t quote = w ^ (ones * '"');
                const std::uint64_t backslash = w ^ (ones * '\\');
                const std::uint64_t marks = (w | ((w - ones * 0x20) & ~w) | ((quote - ones) & ~quote) |
                                             ((backslash - ones) & ~backslash)) &
                                            high;
                if (marks != 0) return i + static_cast<std::size_t>(std::countr_zero(marks) / 8);
                i += 8;
            }
        }
        while (i < n && is_plain(static_cast<unsigned char>(text_[i]))) ++i;
        return i;
    }

    // Reads four hex digits at text_[at] into u.
    bool read_hex4(std::size_t at, std::uint32_t& u) const noexcept {
        if (text_.size() - at < 4) return false;
        u = 0;
        for (std::size_t k = 0; k < 4; ++k) {
            const int h = ascii::hex_value(static_cast<unsigned char>(text_[at + k]));
            if (h < 0) return false;
            u = (u << 4) | static_cast<std::uint32_t>(h);
        }
        return true;
    }

    bool give_up() noexcept {
        gave_up_ = true;
        return false;
    }

    std::string_view text_;
    std::size_t pos_ = 0;
    bool gave_up_ = false;
};

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

std::optional<json_document> json_document::parse(std::string_view text) {
    std::optional<json_document> doc(std::in_place);
    detail::count_json_bytes(text.size());
    if (!reader(text).parse_document(*doc)) return std::nullopt;
    return doc;
}

std::optional<json_value> parse_json(std::string_view text) {
    const auto doc = json_document::parse(text);
    if (!doc) return std::nullopt;
    return to_json_value(doc->root());
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

std::optional<std::string> canonical_json(std::string_view raw) {
    {
        std::string out;
        out.reserve(raw.size());
        reader direct(raw);
        const bool written = direct.write_direct(out);
        detail::count_json_bytes(raw.size() + out.size());
        if (written) return out;
        // Invalid text: parse_document() would stop at the same byte.
        if (!direct.gave_up()) return std::nullopt;
    }
    const auto doc = json_document::parse(raw);
    if (!doc) return std::nullopt;
    std::string out;
    out.reserve(raw.size());
    append_json_value(out, doc->root());
    detail::count_json_bytes(out.size());
    return out;
}

}  // namespace plurnk
