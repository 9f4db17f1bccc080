// SPDX-License-Identifier: MIT
// The scalar readers the JSON reader (json_reader.cpp, into a json_document) and the one-pass
// writer (json_direct.cpp, canonical_json) share: whitespace, words, numbers and strings with the
// semantics of JavaScript's JSON.parse. The grammar is RFC 8259 as V8 accepts it (whitespace is
// only space, tab, LF and CR; no leading zeros, NaN or Infinity; no raw control characters in
// strings); every scan is bounded by the text's size(). Numbers are doubles read by
// std::from_chars (correctly rounded, overflow to Infinity and underflow to 0 as in JavaScript).
// Strings hold UTF-8; an escaped lone surrogate, which a JavaScript string can hold but UTF-8
// cannot, is stored in its generalized 3-byte form (WTF-8); each input byte that is not valid
// UTF-8 is read as U+FFFD. Internal to lib/json.
#ifndef PLURNK_JSON_SCAN_HPP
#define PLURNK_JSON_SCAN_HPP

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <system_error>

#include "base/ascii.hpp"
#include "base/utf8.hpp"

namespace plurnk::detail {

// One pass over text_ with pos_.
class json_scanner {
public:
    explicit json_scanner(std::string_view text) noexcept : text_(text) {}

protected:
    static constexpr std::string_view k_replacement = "\xEF\xBF\xBD";  // U+FFFD

    // Whether c may be copied verbatim into a string value (no quote, backslash, control or
    // non-ASCII byte needing validation).
    static constexpr bool is_plain(unsigned char c) noexcept { return c >= 0x20 && c != '"' && c != '\\' && c < 0x80; }
    static constexpr bool is_digit(unsigned char c) noexcept { return ascii::is_digit(c); }

    void skip_ws() noexcept {
        // Every whitespace byte is below '!': most calls find none, with one comparison.
        while (pos_ < text_.size() && static_cast<unsigned char>(text_[pos_]) <= ' ' &&
               ascii::is_whitespace(static_cast<unsigned char>(text_[pos_]))) {
            ++pos_;
        }
    }
    bool accept(char c) noexcept {
        if (pos_ < text_.size() && text_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
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
        // Integers below 2^53 convert exactly; skip from_chars for them (and JavaScript writes
        // them as they are, but for -0: plain_integer_).
        plain_integer_ = is_integer && int_end - int_start <= 15;
        if (plain_integer_) {
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

    std::string_view text_;
    std::size_t pos_ = 0;
    bool plain_integer_ = false;  // the last number read is an integer of at most 15 digits
};

}  // namespace plurnk::detail

#endif
