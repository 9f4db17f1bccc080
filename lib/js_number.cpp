// Numbers written as JavaScript's Number#toString writes them (ECMA-262 Number::toString, radix
// 10): the shortest digit string that round-trips (std::to_chars), then placed in plain or
// exponent notation by the decimal exponent. JSON.stringify uses the same text, with NaN and the
// infinities written as null.
#include <charconv>
#include <cmath>
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
    // Shortest round-trip digits in scientific form: d[.ddd]e[+-]x
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
    std::string_view sci(buf, static_cast<std::size_t>(res.ptr - buf));
    std::size_t e_pos = sci.find('e');
    std::string digits;
    for (char c : sci.substr(0, e_pos)) {
        if (c != '.') digits += c;
    }
    int exp10 = std::atoi(std::string(sci.substr(e_pos + 1)).c_str());
    const int k = static_cast<int>(digits.size());  // number of significant digits
    const int n = exp10 + 1;                         // value = 0.digits * 10^n
    if (k <= n && n <= 21) {
        out += digits;
        out.append(static_cast<std::size_t>(n - k), '0');
    } else if (0 < n && n <= 21) {
        out.append(digits, 0, static_cast<std::size_t>(n));
        out += '.';
        out.append(digits, static_cast<std::size_t>(n));
    } else if (-6 < n && n <= 0) {
        out += "0.";
        out.append(static_cast<std::size_t>(-n), '0');
        out += digits;
    } else {
        out += digits[0];
        if (k > 1) {
            out += '.';
            out.append(digits, 1);
        }
        out += 'e';
        out += (n - 1 >= 0) ? '+' : '-';
        out += std::to_string(std::abs(n - 1));
    }
}

}  // namespace plurnk
