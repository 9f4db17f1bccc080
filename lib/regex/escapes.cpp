// SPDX-License-Identifier: MIT
// The escapes of the regex validator's parser (ECMA-262 §22.2.1 CharacterClassEscape,
// CharacterEscape, RegExpUnicodeEscapeSequence and Annex B's identity, control and legacy octal
// escapes). Each is called on the backslash and, on failure, records V8's error for the mode it
// is in (u/v or Annex B) and the context (inside a class or not). See pattern_parser.hpp.
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/ascii.hpp"
#include "pattern_parser.hpp"

namespace plurnk::regex_detail {

// spec: ECMA-262 §22.2.1 CharacterClassEscape :: d D s S w W p{…} P{…}

// Called on the backslash with `after` the character after it. Returns false (consuming
// nothing) when this is not a class escape; true otherwise, even when the property name
// is refused (the error is then recorded).
bool pattern_parser::try_parse_character_class_escape(std::uint32_t after, class_escape_context context,
                                                      bool& may_contain_strings) {
    switch (after) {
        case 'd': case 'D': case 's': case 'S': case 'w': case 'W':
            advance(2);
            return true;
        case 'p':
        case 'P': {
            if (!unicode_mode()) return false;
            const bool negated = after == 'P';
            advance(2);
            std::string name;
            std::string value;
            bool has_value = false;
            if (!parse_property_class_name(name, value, has_value) ||
                !lookup_property(negated, name, value, has_value, may_contain_strings)) {
                fail(context == class_escape_context::in_class
                         ? regex_error::invalid_class_property_name
                         : regex_error::invalid_property_name);
            }
            return true;
        }
        default:
            return false;
    }
}

// spec: ECMA-262 §22.2.1 UnicodePropertyValueExpression, the `{name}` or `{name=value}`
// after \p. Names are [A-Za-z0-9_]+ as V8 sees them.
bool pattern_parser::parse_property_class_name(std::string& name, std::string& value, bool& has_value) {
    if (current_ != '{') return false;
    for (advance(); current_ != '}' && current_ != '='; advance()) {
        const char c = static_cast<char>(current_);  // V8 truncates each to a char
        if (!ascii::is_word_char(static_cast<unsigned char>(c)) || !has_next()) return false;
        name.push_back(c);
    }
    if (current_ == '=') {
        has_value = true;
        for (advance(); current_ != '}'; advance()) {
            const char c = static_cast<char>(current_);
            if (!ascii::is_word_char(static_cast<unsigned char>(c)) || !has_next()) return false;
            value.push_back(c);
        }
    }
    advance();
    return true;
}

// spec: ECMA-262 §22.2.1 RegExpUnicodeEscapeSequence, after `\u`. Consumes it and sets
// `value` on success; otherwise leaves the position where it was.
bool pattern_parser::parse_unicode_escape(std::uint32_t& value) {
    if (current_ == '{' && unicode_mode()) {
        const int start = position();
        advance();
        if (parse_hex_number_up_to(0x10FFFF, value) && current_ == '}') {
            advance();
            return true;
        }
        reset(start);
        return false;
    }
    const bool ok = parse_hex_escape(4, value);
    if (ok && unicode_mode() && is_high_surrogate(value) && current_ == '\\') {
        const int start = position();
        if (next() == 'u') {
            advance(2);
            std::uint32_t trail = 0;
            if (parse_hex_escape(4, trail) && is_low_surrogate(trail)) {
                value = combine_surrogates(value, trail);
                return true;
            }
        }
        reset(start);
    }
    return ok;
}

// Exactly `digits` hex digits; on failure the position is left unchanged.
bool pattern_parser::parse_hex_escape(int digits, std::uint32_t& value) {
    const int start = position();
    std::uint32_t v = 0;
    for (int i = 0; i < digits; ++i) {
        const int d = ascii::hex_value(current_);
        if (d < 0) {
            reset(start);
            return false;
        }
        v = v * 16 + static_cast<std::uint32_t>(d);
        advance();
    }
    value = v;
    return true;
}

// One or more hex digits whose value stays within `max`.
bool pattern_parser::parse_hex_number_up_to(std::uint32_t max, std::uint32_t& value) {
    int d = ascii::hex_value(current_);
    if (d < 0) return false;
    std::uint32_t v = 0;
    while (d >= 0) {
        v = v * 16 + static_cast<std::uint32_t>(d);
        if (v > max) return false;
        advance();
        d = ascii::hex_value(current_);
    }
    value = v;
    return true;
}

// spec: ECMA-262 §22.2.1 CharacterEscape (and Annex B IdentityEscape, c ClassControlLetter,
// LegacyOctalEscapeSequence). Called on the backslash; returns the character's value.
std::uint32_t pattern_parser::parse_character_escape(class_escape_context context) {
    advance();
    const std::uint32_t c = current_;
    switch (c) {
        case 'f': advance(); return '\f';
        case 'n': advance(); return '\n';
        case 'r': advance(); return '\r';
        case 't': advance(); return '\t';
        case 'v': advance(); return '\v';
        case 'c': return parse_control_escape(context);
        case '0':
            if (!ascii::is_digit(next())) {
                advance();
                return 0;
            }
            [[fallthrough]];
        case '1': case '2': case '3': case '4': case '5': case '6': case '7':
            if (unicode_mode()) {
                fail(regex_error::invalid_class_escape);
                return 0;
            }
            return parse_legacy_octal();
        case 'x': {
            advance();
            std::uint32_t value = 0;
            if (parse_hex_escape(2, value)) return value;
            if (unicode_mode()) {
                fail(regex_error::invalid_escape);
                return 0;
            }
            return 'x';
        }
        case 'u': {
            advance();
            std::uint32_t value = 0;
            if (parse_unicode_escape(value)) return value;
            if (unicode_mode()) {
                fail(regex_error::invalid_unicode_escape);
                return 0;
            }
            return 'u';
        }
        default: return parse_identity_escape(c, context);
    }
}

// spec: ECMA-262 §22.2.1 `c` AsciiLetter (and Annex B `c` ClassControlLetter, the lone `\c`).
// Called on the `c`.
std::uint32_t pattern_parser::parse_control_escape(class_escape_context context) {
    const std::uint32_t control = next();
    const std::uint32_t letter = control & ~std::uint32_t{'A' ^ 'a'};
    if (letter >= 'A' && letter <= 'Z') {
        advance(2);
        return control & 0x1F;
    }
    if (unicode_mode()) {
        fail(regex_error::invalid_unicode_escape);
        return 0;
    }
    if (context == class_escape_context::in_class && (ascii::is_digit(control) || control == '_')) {
        advance(2);
        return control & 0x1F;
    }
    return '\\';  // Annex B: the backslash is a literal; `c` is read next
}

// spec: ECMA-262 §22.2.1 IdentityEscape (and Annex B's, which takes any character but `k`
// where the pattern has named groups). Called on `c`, the character after the backslash.
std::uint32_t pattern_parser::parse_identity_escape(std::uint32_t c, class_escape_context context) {
    if (unicode_sets_ && context == class_escape_context::in_class &&
        is_class_set_reserved_punctuator(c)) {
        advance();
        return c;
    }
    if (unicode_mode()) {
        if (!is_syntax_character_or_slash(c)) {
            fail(regex_error::invalid_escape);
            return 0;
        }
        advance();
        return c;
    }
    advance();
    if (c == 'k' && has_named_captures(context)) {
        fail(regex_error::invalid_escape);
        return 0;
    }
    return c;
}

}  // namespace plurnk::regex_detail
