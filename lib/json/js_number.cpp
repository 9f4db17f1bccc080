// SPDX-License-Identifier: MIT
// Numbers written as JavaScript's Number#toString writes them (ECMA-262 Number::toString, radix
// 10): the shortest digit string that round-trips (std::to_chars), then placed in plain or
// exponent notation by the decimal exponent. JSON.stringify uses the same text, with NaN and the
// infinities written as null. Integers below 2^53 take a shortcut (their digits are exact), and
// nothing here allocates.
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "plurnk/json.hpp"

namespace plurnk {

void append_js_number(std::string& out, double value) {
    if (std::isnan(value) || std::isinf(value)) {
        out += "null";
        return;
    }
    if (value == 0) {  // covers -0, which JavaScript prints as "0"
        out += '0';
        return;
    }
    if (value < 0) {
        out += '-';
        value = -value;
    }
    // Integers below 2^53 are exact and print as their digits (ECMA-262 case k <= n <= 21).
    if (value < 9007199254740992.0 && value == static_cast<double>(static_cast<std::int64_t>(value))) {
        char ibuf[24];
        const auto r = std::to_chars(ibuf, ibuf + sizeof ibuf, static_cast<std::int64_t>(value));
        out.append(ibuf, static_cast<std::size_t>(r.ptr - ibuf));
        return;
    }
    // Shortest round-trip digits in scientific form: d[.ddd]e[+-]x
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
    const std::string_view sci(buf, static_cast<std::size_t>(res.ptr - buf));
    const std::size_t e_pos = sci.find('e');
    char digit_buf[32];
    std::size_t k_len = 0;
    for (char c : sci.substr(0, e_pos)) {
        if (c != '.') digit_buf[k_len++] = c;
    }
    const std::string_view digits(digit_buf, k_len);
    int exp10 = 0;
    {
        std::string_view e = sci.substr(e_pos + 1);
        if (!e.empty() && e[0] == '+') e.remove_prefix(1);
        std::from_chars(e.data(), e.data() + e.size(), exp10);
    }
    const int k = static_cast<int>(digits.size());  // number of significant digits
    const int n = exp10 + 1;                         // value = 0.digits * 10^n
    if (k <= n && n <= 21) {
        out += digits;
        out.append(static_cast<std::size_t>(n - k), '0');
    } else if (0 < n && n <= 21) {
        out += digits.substr(0, static_cast<std::size_t>(n));
        out += '.';
        out += digits.substr(static_cast<std::size_t>(n));
    } else if (-6 < n && n <= 0) {
        out += "0.";
        out.append(static_cast<std::size_t>(-n), '0');
        out += digits;
    } else {
        out += digits[0];
        if (k > 1) {
            out += '.';
            out += digits.substr(1);
        }
        out += 'e';
        out += (n - 1 >= 0) ? '+' : '-';
        char ebuf[8];
        const auto r = std::to_chars(ebuf, ebuf + sizeof ebuf, std::abs(n - 1));
        out.append(ebuf, static_cast<std::size_t>(r.ptr - ebuf));
    }
}

}  // namespace plurnk
