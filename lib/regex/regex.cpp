// SPDX-License-Identifier: MIT
// ECMAScript RegExp validator: decides whether `new RegExp(pattern, flags)` in Node 20 (V8
// 11.3) would accept a pattern, and if not, which SyntaxError message V8 would give. It never
// builds a tree and never matches. The pattern is decoded from UTF-8 into UTF-16 code units,
// because that is what V8 parses: without the u or v flag every code unit is a character (a
// supplementary character is two of them), with u or v a surrogate pair read from the input is
// one character. An invalid UTF-8 byte becomes U+FFFD, as a JavaScript host would decode it.
// The parser follows the ECMA-262 Pattern grammar (§22.2.1) plus Annex B (§B.1.2) in the order
// V8 checks things, because with several errors in one pattern only the first one V8 meets is
// reported: groups are kept on an explicit stack (V8 allows any depth there), the back
// reference rules need a one-time pre-scan that counts capture groups, named back references
// are resolved after the whole pattern is read, and a duplicate group name is found when the
// second group closes. Nothing recurses: v-mode nested classes are kept on an explicit stack
// too, but V8 recurses there, so each open class is charged against k_class_stack_budget,
// which imitates the point where V8 runs out of stack ("Maximum call stack size exceeded").
// Every loop consumes input or rewinds a bounded distance once, so time is linear, and
// nothing is read past the input. Property names come from generated tables
// (gen/unicode_tables.inc, made by gen/gen_unicode_tables.py from the Unicode data files).
// This file holds the entry points (flags, the UTF-16 conversion, the messages, the matcher
// split); the parser is pattern_parser.hpp with its productions in pattern.cpp, escapes.cpp,
// classes.cpp and unicode_properties.cpp.
#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "grammar/hash_regex.hpp"
#include "pattern_parser.hpp"
#include "plurnk/validate.hpp"
#include "base/utf8.hpp"

namespace plurnk {

namespace {

using namespace regex_detail;

constexpr std::array<std::string_view, static_cast<std::size_t>(regex_error::count_)>
    k_messages = {
        "",
        "Maximum call stack size exceeded",
        "Unterminated group",
        "Unmatched ')'",
        "\\ at end of pattern",
        "Invalid property name",
        "Invalid escape",
        "Invalid decimal escape",
        "Invalid Unicode escape",
        "Nothing to repeat",
        "Lone quantifier brackets",
        "numbers out of order in {} quantifier",
        "Incomplete quantifier",
        "Invalid quantifier",
        "Invalid group",
        "Too many captures",
        "Invalid capture group name",
        "Duplicate capture group name",
        "Invalid named reference",
        "Invalid named capture referenced",
        "Invalid class escape",
        "Invalid property name in character class",
        "Invalid character class",
        "Unterminated character class",
        "Range out of order in character class",
        "Invalid set operation in character class",
        "Invalid character in character class",
        "Negated character class may contain strings",
        "Regular expression too large",
};
static_assert(k_messages.size() == static_cast<std::size_t>(regex_error::count_),
              "one message per regex_error");

constexpr std::string_view k_invalid_pattern_prefix = "Invalid regular expression: /";
constexpr std::string_view k_invalid_flags_prefix = "Invalid flags supplied to RegExp constructor '";
// The texts of a regex matcher's two failures, by its fence: `/` (1.4.0) or `#` (the service
// dialect, SERVICE.md S5, worded as 1.4.0's with `#`).
struct fence_texts {
    std::string_view prefix;    // the engine refuses: this, then the engine's text
    std::string_view hint;      // appended when the engine's text is about the flags
    std::string_view unclosed;  // no closing fence
};
constexpr fence_texts k_slash_texts = {
    "pattern leads with `/` but is not a valid `/pattern/flags` regex - ",
    " - use only ECMAScript flags after the closing `/`; escape a literal `/` inside the pattern as `\\/`",
    "regex matcher must use `/pattern/flags`; this matcher has no closing `/`: `",
};
constexpr fence_texts k_hash_texts = {
    "pattern leads with `#` but is not a valid `#pattern#flags` regex - ",
    " - use only ECMAScript flags after the closing `#`; escape a literal `#` inside the pattern as `\\#`",
    "regex matcher must use `#pattern#flags`; this matcher has no closing `#`: `",
};
// The reference quotes at most this many UTF-16 code units of a body, then an ellipsis.
constexpr std::size_t k_quote_limit = 80;

// V8's longest string (String::kMaxLength on 64-bit hosts); positions fit in an int below it.
constexpr std::size_t k_max_pattern_units = (std::size_t{1} << 29) - 24;

using detail::utf8_char;
using detail::utf8_surrogates;

// The flags in V8's canonical order, or nullopt when V8 refuses them.
// spec: ECMA-262 §22.2.3.1 RegExpInitialize steps 4-5 (each of dgimsuvy at most once, and
// not both u and v).
std::optional<std::string> canonical_flags(std::string_view flags) {
    constexpr std::string_view k_order = "dgimsuvy";
    std::array<bool, k_order.size()> seen{};
    for (const char c : flags) {
        const std::size_t i = k_order.find(c);
        if (i == std::string_view::npos || seen[i]) return std::nullopt;
        seen[i] = true;
    }
    if (seen[k_order.find('u')] && seen[k_order.find('v')]) return std::nullopt;
    std::string out;
    for (std::size_t i = 0; i < k_order.size(); ++i) {
        if (seen[i]) out.push_back(k_order[i]);
    }
    return out;
}

// `body` as the reference quotes it: whole up to k_quote_limit UTF-16 code units, otherwise
// the first k_quote_limit units and an ellipsis. Where the cut goes through a surrogate pair the
// reference keeps the lone lead surrogate, which UTF-8 cannot hold: the message gets one U+FFFD
// in its place (what the reference's string becomes when encoded as UTF-8), so it stays valid
// UTF-8 for every caller (test/conformance/DIVERGENCES.md).
std::string quote_body(std::string_view body) {
    std::size_t units = 0;
    for (std::size_t i = 0; i < body.size();) {
        const utf8_char d = detail::utf8_decode(body, i, utf8_surrogates::decoded);
        const std::size_t width = d.code_point >= 0x10000 ? 2 : 1;
        if (units + width > k_quote_limit) {
            std::string out(body.substr(0, i));
            if (units < k_quote_limit) out += "\uFFFD";  // half of a pair fits
            out += "\u2026";
            return out;
        }
        units += width;
        i += d.length;
    }
    return std::string(body);
}

// validate_regex's verdict, its message led by `lead` and with room for `spare` more bytes, so
// that check_regex_matcher words its own message in the same string: the message quotes the
// whole pattern, and every copy of it would cost the pattern's size again.
result<void> validate_regex_into(std::string_view pattern, std::string_view flags, std::string_view lead,
                                 std::size_t spare) {
    const std::optional<std::string> canonical = canonical_flags(flags);
    problem p;
    if (!canonical) {
        p.message.reserve(lead.size() + k_invalid_flags_prefix.size() + flags.size() + 1 + spare);
        p.message += lead;
        p.message += k_invalid_flags_prefix;
        p.message += flags;
        p.message += '\'';
        return p;
    }
    if (pattern.size() > k_max_pattern_units) {  // the reference cannot even hold it
        const std::string_view what = k_messages[static_cast<std::size_t>(regex_error::too_large)];
        p.message.reserve(lead.size() + what.size() + spare);
        p.message += lead;
        p.message += what;
        return p;
    }
    regex_error e = regex_error::none;
    std::size_t pos = 0;
    {
        // The code units go before the message is built: both are the size of the pattern.
        const std::u16string units = detail::to_utf16(pattern, utf8_surrogates::decoded);
        const bool unicode = canonical->find('u') != std::string::npos;
        const bool unicode_sets = canonical->find('v') != std::string::npos;
        pattern_parser parser(units, unicode, unicode_sets);
        e = parser.parse();
        if (e == regex_error::none) return {};
        pos = static_cast<std::size_t>(std::clamp(parser.error_position(), 0, static_cast<int>(units.size())));
    }
    p.offset = detail::utf16_unit_byte_offset(pattern, pos, utf8_surrogates::decoded);
    const std::string_view what = k_messages[static_cast<std::size_t>(e)];
    p.message.reserve(lead.size() + k_invalid_pattern_prefix.size() + pattern.size() + canonical->size() +
                      what.size() + 3 + spare);
    p.message += lead;
    p.message += k_invalid_pattern_prefix;
    p.message += pattern;
    p.message += '/';
    p.message += *canonical;
    p.message += ": ";
    p.message += what;
    return p;
}

}  // namespace

result<void> validate_regex(std::string_view pattern, std::string_view flags) {
    return validate_regex_into(pattern, flags, {}, 0);
}

// BEHAVIOUR §5: after the leading `/`, a backslash skips the next character, `[` enters a
// class and `]` leaves it, and the first `/` outside a class ends the pattern.
regex_split split_regex(std::string_view body) noexcept {
    regex_split s;
    bool in_class = false;
    for (std::size_t i = 1; i < body.size(); ++i) {
        const char c = body[i];
        if (c == '\\') {
            ++i;
        } else if (c == '[') {
            in_class = true;
        } else if (c == ']') {
            in_class = false;
        } else if (c == '/' && !in_class) {
            s.closed = true;
            s.pattern = body.substr(1, i - 1);
            s.flags = body.substr(i + 1);
            return s;
        }
    }
    return s;
}

namespace {

// A regex matcher `body` split by its fence into `sp` (closed, pattern, flags): ok when the engine
// admits it, else the visitor message `t` words.
result<void> check_fenced_matcher(std::string_view body, bool closed, std::string_view pattern, std::string_view flags,
                                  const fence_texts& t) {
    problem p;
    if (!closed) {
        p.offset = body.size();
        p.message += t.unclosed;
    } else {
        const std::string quote = quote_body(body);
        const std::size_t spare = t.hint.size() + 3 + quote.size() + 1;
        result<void> v = validate_regex_into(pattern, flags, t.prefix, spare);
        if (v.ok()) return {};
        p = std::move(v).problem();
        const std::string_view what = std::string_view(p.message).substr(t.prefix.size());
        const bool bad_flags = what.starts_with(k_invalid_flags_prefix);
        if (bad_flags) p.offset = 2 + pattern.size();
        else p.offset += 1;
        if (what.find("Invalid flags supplied") != std::string::npos) p.message += t.hint;
        p.message += ": `";
        p.message += quote;
        p.message += '`';
        return p;
    }
    p.message += quote_body(body);
    p.message += '`';
    return p;
}

}  // namespace

result<void> check_regex_matcher(std::string_view body) {
    if (body.empty() || body.front() != '/') return {};
    const regex_split split = split_regex(body);
    return check_fenced_matcher(body, split.closed, split.pattern, split.flags, k_slash_texts);
}

result<void> check_hash_regex_matcher(std::string_view body) {
    if (body.empty() || body.front() != '#') return {};
    const detail::hash_split split = detail::split_hash_regex(body);
    return check_fenced_matcher(body, split.closed, split.pattern, split.flags, k_hash_texts);
}

}  // namespace plurnk
