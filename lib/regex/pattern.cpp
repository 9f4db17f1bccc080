// SPDX-License-Identifier: MIT
// The pattern-level productions of the regex validator's parser (ECMA-262 §22.2.1 Pattern down to
// Atom and Quantifier, with Annex B §B.1.2): alternatives and terms in one loop with groups on an
// explicit stack, quantifiers, group specifiers and names, numbered and named back references,
// and the one-time pre-scan that counts capture groups the way V8 does. See pattern_parser.hpp.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/ascii.hpp"
#include "pattern_parser.hpp"

namespace plurnk::regex_detail {

// spec: ECMA-262 §22.2.1 Pattern :: Disjunction
void pattern_parser::parse_pattern() {
    parse_disjunction();
    if (failed()) return;
    resolve_named_references();
}

// spec: ECMA-262 §22.2.1 Disjunction :: Alternative ( | Alternative )*
//       Alternative :: Term*    Term :: Assertion | Atom Quantifier?
// Groups push a frame instead of recursing.
void pattern_parser::parse_disjunction() {
    std::vector<group_frame> groups;
    std::vector<std::u16string> names;  // the names of the open named groups, innermost last
    while (true) {
        atom_kind atom = atom_kind::plain;
        switch (current_) {
            case k_end:
                if (failed()) return;
                if (!groups.empty()) fail(regex_error::unterminated_group);
                return;
            case ')': {
                if (groups.empty()) return fail(regex_error::unmatched_paren);
                advance();
                const group_frame g = groups.back();
                if (g.kind == group_kind::capture && g.named &&
                    !named_captures_.insert(names.back()).second) {
                    return fail(regex_error::duplicate_capture_group_name);
                }
                if (g.kind == group_kind::lookahead) atom = atom_kind::lookahead;
                if (g.kind == group_kind::lookbehind) atom = atom_kind::lookbehind;
                if (g.named) {
                    open_group_names_.erase(open_group_names_.find(names.back()));
                    names.pop_back();
                }
                groups.pop_back();
                break;
            }
            case '|':
                advance();
                continue;
            case '*':
            case '+':
            case '?':
                return fail(regex_error::nothing_to_repeat);
            case '^':
            case '$':
                advance();
                continue;
            case '.':
                advance();
                break;
            case '(':
                parse_open_parenthesis(groups, names);
                if (failed()) return;
                continue;
            case '[':
                parse_character_class();
                if (failed()) return;
                break;
            case '\\':
                if (!parse_atom_escape()) continue;  // \b and \B are assertions
                if (failed()) return;
                break;
            case '{': {
                int min = 0, max = 0;
                if (parse_interval_quantifier(min, max)) {
                    return fail(regex_error::nothing_to_repeat);
                }
                [[fallthrough]];
            }
            case '}':
            case ']':
                if (unicode_mode()) return fail(regex_error::lone_quantifier_brackets);
                [[fallthrough]];
            default:
                advance();
                break;
        }
        parse_quantifier(atom);
        if (failed()) return;
    }
}

// spec: ECMA-262 §22.2.1 Quantifier :: QuantifierPrefix ?opt, after an Atom.
void pattern_parser::parse_quantifier(atom_kind atom) {
    int min = 0, max = 0;
    switch (current_) {
        case '*':
        case '+':
        case '?':
            advance();
            break;
        case '{':
            if (parse_interval_quantifier(min, max)) {
                if (max < min) return fail(regex_error::range_out_of_order);
                break;
            }
            if (unicode_mode()) fail(regex_error::incomplete_quantifier);
            return;
        default:
            return;
    }
    if (current_ == '?') advance();
    // Annex B lets a lookahead be quantified without u or v; a lookbehind never.
    if (atom == atom_kind::lookbehind || (atom == atom_kind::lookahead && unicode_mode())) {
        fail(regex_error::invalid_quantifier);
    }
}

// spec: ECMA-262 §22.2.1 QuantifierPrefix :: { DecimalDigits (, DecimalDigits?)? }

// On success consumes it; otherwise leaves the position at the `{`.
bool pattern_parser::parse_interval_quantifier(int& min_out, int& max_out) {
    const int start = position();
    advance();
    if (!ascii::is_digit(current_)) {
        reset(start);
        return false;
    }
    const int min = parse_bounded_decimal();
    int max = 0;
    if (current_ == '}') {
        max = min;
        advance();
    } else if (current_ == ',') {
        advance();
        if (current_ == '}') {
            max = k_infinity;
            advance();
        } else {
            max = parse_bounded_decimal();
            if (current_ != '}') {
                reset(start);
                return false;
            }
            advance();
        }
    } else {
        reset(start);
        return false;
    }
    min_out = min;
    max_out = max;
    return true;
}

// DecimalDigits, saturating at k_infinity.
int pattern_parser::parse_bounded_decimal() {
    int value = 0;
    while (ascii::is_digit(current_)) {
        const int digit = static_cast<int>(current_ - '0');
        if (value > (k_infinity - digit) / 10) {
            while (ascii::is_digit(current_)) advance();
            return k_infinity;
        }
        value = value * 10 + digit;
        advance();
    }
    return value;
}

// spec: ECMA-262 §22.2.1 Atom :: ( GroupSpecifier? Disjunction ) | (?: Disjunction ),
//       Assertion :: (?= (?! (?<= (?<!
void pattern_parser::parse_open_parenthesis(std::vector<group_frame>& groups, std::vector<std::u16string>& names) {
    group_frame g;
    std::u16string name;
    g.kind = group_kind::capture;
    advance();
    if (current_ == '?') {
        switch (next()) {
            case ':':
                advance(2);
                g.kind = group_kind::grouping;
                break;
            case '=':
            case '!':
                advance(2);
                g.kind = group_kind::lookahead;
                break;
            case '<':
                advance();
                if (next() == '=' || next() == '!') {
                    advance(2);
                    g.kind = group_kind::lookbehind;
                    break;
                }
                g.named = true;
                has_named_captures_ = true;
                advance();
                break;
            default:
                return fail(regex_error::invalid_group);
        }
    }
    if (g.kind == group_kind::capture) {
        if (captures_started_ >= k_max_capture_groups) {
            return fail(regex_error::too_many_captures);
        }
        ++captures_started_;
        if (g.named) {
            name = parse_capture_group_name();
            if (failed()) return;
        }
    }
    if (g.named) {
        open_group_names_.insert(name);
        names.push_back(std::move(name));
    }
    groups.push_back(g);
}

// spec: ECMA-262 §22.2.1 GroupName :: < RegExpIdentifierName >
// Called with current_ on the first character of the name; consumes through the `>`.
std::u16string pattern_parser::parse_capture_group_name() {
    // The name is read as if the u flag were set (pairs joined, \u{…} allowed), so the
    // first character is read again under that rule.
    rewind_one_code_point();
    std::u16string name;
    force_unicode_ = true;
    bool at_start = true;
    while (true) {
        advance();
        std::uint32_t c = current_;
        if (c == '\\' && next() == 'u') {
            advance(2);
            if (!parse_unicode_escape(c)) {
                force_unicode_ = false;
                fail(regex_error::invalid_unicode_escape);
                return name;
            }
            rewind_one_code_point();
        }
        if (c == '\\') break;  // refused below
        if (at_start) {
            if (!is_identifier_start(c)) break;
            at_start = false;
        } else if (c == '>') {
            force_unicode_ = false;
            advance();
            return name;
        } else if (!is_identifier_part(c)) {
            break;
        }
        detail::append_utf16(name, c);
    }
    force_unicode_ = false;
    fail(regex_error::invalid_capture_group_name);
    return name;
}

// spec: ECMA-262 §22.2.1 AtomEscape :: DecimalEscape | CharacterClassEscape |
//       CharacterEscape | k GroupName  (and Annex B's ExtendedAtom forms)
// Called on the backslash. Returns false for \b and \B, which are assertions.
bool pattern_parser::parse_atom_escape() {
    const std::uint32_t after = next();
    switch (after) {
        case k_end:
            fail(regex_error::escape_at_end);
            return true;
        case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8':
        case '9': {
            if (parse_back_reference_index()) return true;
            if (unicode_mode()) {
                fail(regex_error::invalid_escape);
                return true;
            }
            if (after == '8' || after == '9') {  // Annex B: identity escape
                advance(2);
                return true;
            }
            [[fallthrough]];
        }
        case '0':
            advance();
            if (unicode_mode() && ascii::is_digit(next())) {
                fail(regex_error::invalid_decimal_escape);
                return true;
            }
            parse_legacy_octal();
            return true;
        case 'b':
        case 'B':
            advance(2);
            return false;
        case 'd': case 'D': case 's': case 'S': case 'w': case 'W': case 'p': case 'P': {
            bool strings = false;
            if (!try_parse_character_class_escape(after, class_escape_context::not_in_class,
                                                  strings)) {
                advance(2);  // Annex B: \p and \P are identity escapes without u or v
            }
            return true;
        }
        case 'k':
            if (has_named_captures(class_escape_context::not_in_class) || unicode_mode()) {
                advance(2);
                parse_named_back_reference();
                return true;
            }
            [[fallthrough]];
        default:
            parse_character_escape(class_escape_context::not_in_class);
            return true;
    }
}

// spec: ECMA-262 §22.2.1 DecimalEscape, as a back reference. Called on the backslash;
// consumes the escape and returns true when it names an existing capture group,
// otherwise leaves the position unchanged.
bool pattern_parser::parse_back_reference_index() {
    const int start = position();
    int value = static_cast<int>(next() - '0');
    advance(2);
    while (ascii::is_digit(current_)) {
        value = value * 10 + static_cast<int>(current_ - '0');
        if (value > k_max_capture_groups) {
            reset(start);
            return false;
        }
        advance();
    }
    if (value > captures_started_) {
        if (!scanned_for_captures_) scan_for_captures(class_escape_context::not_in_class);
        if (value > capture_count_) {
            reset(start);
            return false;
        }
    }
    return true;
}

// spec: ECMA-262 §B.1.2 LegacyOctalEscapeSequence: up to three octal digits below 256.
std::uint32_t pattern_parser::parse_legacy_octal() {
    std::uint32_t value = current_ - '0';
    advance();
    if (current_ >= '0' && current_ <= '7') {
        value = value * 8 + (current_ - '0');
        advance();
        if (value < 32 && current_ >= '0' && current_ <= '7') {
            value = value * 8 + (current_ - '0');
            advance();
        }
    }
    return value;
}

// spec: ECMA-262 §22.2.1 AtomEscape :: k GroupName. Called after `\k`.
void pattern_parser::parse_named_back_reference() {
    if (current_ != '<') return fail(regex_error::invalid_named_reference);
    advance();
    std::u16string name = parse_capture_group_name();
    if (failed()) return;
    // A reference inside the group it names matches empty and needs no resolution.
    if (open_group_names_.find(name) != open_group_names_.end()) return;
    named_references_.push_back(std::move(name));
}

// spec: ECMA-262 §22.2.1.1 early errors: every \k<name> names some group.
void pattern_parser::resolve_named_references() {
    for (const auto& name : named_references_) {
        if (named_captures_.find(name) == named_captures_.end()) {
            return fail(regex_error::invalid_named_capture_reference);
        }
    }
}

// Whether the pattern has a named group anywhere (decides what \k means without u).
bool pattern_parser::has_named_captures(class_escape_context context) {
    if (has_named_captures_ || scanned_for_captures_) return has_named_captures_;
    scan_for_captures(context);
    return has_named_captures_;
}

// Counts the capture groups of the whole pattern and notes whether any is named,
// skipping escapes and classes the way V8's pre-scan does (it lets classes nest only in
// v mode, even though Annex B reads a `[` inside a class as a literal), then returns to
// where it was.
void pattern_parser::scan_for_captures(class_escape_context context) {
    const int saved = position();
    int count = captures_started_;
    if (context == class_escape_context::in_class) {
        while (current_ != k_end) {
            const std::uint32_t c = current_;
            advance();
            if (c == '\\') {
                advance();
            } else if (c == ']') {
                break;
            }
        }
    }
    while (current_ != k_end) {
        const std::uint32_t c = current_;
        advance();
        if (c == '\\') {
            advance();
        } else if (c == '[') {
            int nesting = 0;
            while (current_ != k_end) {
                const std::uint32_t d = current_;
                advance();
                if (d == '\\') {
                    advance();
                } else if (d == '[' && unicode_sets_) {  // classes nest only with v
                    ++nesting;
                } else if (d == ']') {
                    if (nesting == 0) break;
                    --nesting;
                }
            }
        } else if (c == '(') {
            if (current_ == '?') {
                advance();
                if (current_ != '<') continue;
                advance();
                if (current_ == '=' || current_ == '!') continue;
                has_named_captures_ = true;
            }
            ++count;
        }
    }
    capture_count_ = count;
    scanned_for_captures_ = true;
    reset(saved);
}

}  // namespace plurnk::regex_detail
