// SPDX-License-Identifier: MIT
// The ECMAScript pattern parser behind validate_regex (private header; the design is in
// regex.cpp's opening paragraph). The parser is one class because every production shares the
// position primitives and the first-error state below; its productions are defined in four
// files along the parts of ECMA-262 §22.2.1 they implement:
//   pattern.cpp             Pattern, Disjunction, Term, Quantifier, groups, back references and
//                           the capture-group pre-scan;
//   escapes.cpp             AtomEscape's CharacterEscape and CharacterClassEscape forms, \u and
//                           \x escapes (and Annex B's legacy forms);
//   classes.cpp             CharacterClass without v (ClassRanges) and the v-mode ClassSetExpression
//                           on its explicit frame stack;
//   unicode_properties.cpp  the generated property and identifier tables and their lookups.
// The position primitives stay here, inline, because every production calls them per character.
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/utf8.hpp"

namespace plurnk::regex_detail {

// The diagnostics V8 can give while parsing a pattern, in the wording of its regexp-error.h.
enum class regex_error : unsigned char {
    none,
    stack_overflow,                   // v-mode classes nested past k_class_stack_budget
    unterminated_group,               // end of input inside (
    unmatched_paren,                  // ) with no open group
    escape_at_end,                    // \ as the last character
    invalid_property_name,            // \p{…} outside a class with an unknown name
    invalid_escape,                   // identity escape not allowed in this mode
    invalid_decimal_escape,           // \0 followed by a digit (u, v)
    invalid_unicode_escape,           // bad \u, or \c without a letter (u, v)
    nothing_to_repeat,                // quantifier after nothing or after an assertion
    lone_quantifier_brackets,         // lone { } ] (u, v)
    range_out_of_order,               // {n,m} with m < n
    incomplete_quantifier,            // { not completing a quantifier after an atom (u, v)
    invalid_quantifier,               // quantified lookbehind, or lookahead (u, v)
    invalid_group,                    // (? followed by something else
    too_many_captures,                // more than k_max_capture_groups groups
    invalid_capture_group_name,       // (?<…> or \k<…> name is not an identifier
    duplicate_capture_group_name,     // the same group name twice
    invalid_named_reference,          // \k not followed by <
    invalid_named_capture_reference,  // \k<name> with no group of that name
    invalid_class_escape,             // octal escape inside a class (u, v)
    invalid_class_property_name,      // \p{…} inside a class with an unknown name
    invalid_character_class,          // class escape as a range end (u, v)
    unterminated_character_class,     // end of input inside [
    out_of_order_character_class,     // [z-a]
    invalid_class_set_operation,      // mixed or doubled set operators (v)
    invalid_character_in_class,       // unescaped syntax character in a class (v)
    negated_class_with_strings,       // [^…] that may contain strings (v)
    too_large,                        // longer than any JavaScript string (k_max_pattern_units)
    count_
};

// V8 refuses to open the 32768th capture group.
constexpr int k_max_capture_groups = 32767;
// Quantifier bounds saturate here (V8's RegExpTree::kInfinity).
constexpr int k_infinity = 0x7FFFFFFF;
// The end-of-input marker: past every code point.
constexpr std::uint32_t k_end = 1u << 21;

// V8 parses nested v-mode classes recursively and stops when its stack runs out: in Node 20
// with the default stack, at the 6269th `[` of `[[[…` and at the 3918th of `[a&&[a&&…`. Each
// open class charges its cost to this budget; past it the pattern gets V8's stack overflow
// message. This parser keeps its class frames on the heap, so the budget also caps them.
constexpr long k_class_stack_budget = 626800;
constexpr long k_class_frame_cost = 100;         // reached as a union operand or first operand
constexpr long k_class_set_frame_cost = 160;     // reached as an && or -- operand

using detail::combine_surrogates;
using detail::is_high_surrogate;
using detail::is_low_surrogate;

// spec: ECMA-262 §22.2.1 RegExpIdentifierStart and RegExpIdentifierPart (unicode_properties.cpp).
bool is_identifier_start(std::uint32_t c);
bool is_identifier_part(std::uint32_t c);

// spec: ECMA-262 §22.2.1 SyntaxCharacter, plus `/`.
constexpr bool is_syntax_character_or_slash(std::uint32_t c) noexcept {
    switch (c) {
        case '^': case '$': case '\\': case '.': case '*': case '+': case '?': case '(':
        case ')': case '[': case ']': case '{': case '}': case '|': case '/':
            return true;
        default:
            return false;
    }
}

// spec: ECMA-262 §22.2.1 ClassSetSyntaxCharacter.
constexpr bool is_class_set_syntax_character(std::uint32_t c) noexcept {
    switch (c) {
        case '(': case ')': case '[': case ']': case '{': case '}': case '/': case '-':
        case '\\': case '|':
            return true;
        default:
            return false;
    }
}

// spec: ECMA-262 §22.2.1 ClassSetReservedPunctuator.
constexpr bool is_class_set_reserved_punctuator(std::uint32_t c) noexcept {
    switch (c) {
        case '&': case '-': case '!': case '#': case '%': case ',': case ':': case ';':
        case '<': case '=': case '>': case '@': case '`': case '~':
            return true;
        default:
            return false;
    }
}

// spec: ECMA-262 §22.2.1 ClassSetReservedDoublePunctuator (the first character of the pair).
constexpr bool is_class_set_double_punctuator(std::uint32_t c) noexcept {
    switch (c) {
        case '&': case '!': case '#': case '$': case '%': case '*': case '+': case ',':
        case '.': case ':': case ';': case '<': case '=': case '>': case '?': case '@':
        case '^': case '`': case '~':
            return true;
        default:
            return false;
    }
}

enum class class_escape_context : unsigned char { not_in_class, in_class };

// How a v-mode ClassSetOperand was derived; decides what may follow `-` and MayContainStrings.
enum class operand_kind : unsigned char {
    character,           // ClassSetCharacter
    string_disjunction,  // \q{…}
    nested_class,        // [ … ]
    class_escape,        // \d, \p{…}, …
    range,               // ClassSetRange (only as the previous operand of a union)
};

struct class_operand {
    operand_kind kind = operand_kind::character;
    bool may_contain_strings = false;
    std::uint32_t character = 0;
};

// What the term just parsed was, for the quantifier that may follow it.
enum class atom_kind : unsigned char { plain, lookahead, lookbehind };

enum class group_kind : unsigned char { capture, grouping, lookahead, lookbehind };

// One open parenthesis on the group stack: two bytes, since a pattern may open a group at every
// few bytes (the name of a named group waits on a stack of its own).
struct group_frame {
    group_kind kind = group_kind::grouping;
    bool named = false;
};

// The parser over one pattern. Position primitives mirror V8's: `current_` is the character
// at `next_pos_ - 1` (a whole surrogate pair in Unicode mode), k_end past the input.
class pattern_parser {
public:
    pattern_parser(const std::u16string& units, bool unicode, bool unicode_sets)
        : in_(units), unicode_(unicode || unicode_sets), unicode_sets_(unicode_sets) {
        advance();
    }

    // Parses the whole pattern; returns the first error V8 would report, or none.
    regex_error parse() {
        parse_pattern();
        return error_;
    }

    // Code unit index where the error was found.
    [[nodiscard]] int error_position() const noexcept { return error_pos_; }

private:
    const std::u16string& in_;
    const bool unicode_;
    const bool unicode_sets_;
    bool force_unicode_ = false;  // set while reading a group name (RegExpIdentifierName is +U)

    std::uint32_t current_ = k_end;
    int next_pos_ = 0;
    bool has_more_ = true;

    regex_error error_ = regex_error::none;
    int error_pos_ = 0;

    int captures_started_ = 0;
    int capture_count_ = 0;  // valid once scanned_for_captures_
    bool scanned_for_captures_ = false;
    bool has_named_captures_ = false;
    std::set<std::u16string> named_captures_;
    std::multiset<std::u16string> open_group_names_;  // names of the named groups now open
    std::vector<std::u16string> named_references_;
    long class_stack_used_ = 0;

    // --- position primitives ---

    [[nodiscard]] bool unicode_mode() const noexcept { return unicode_ || force_unicode_; }
    [[nodiscard]] int length() const noexcept { return static_cast<int>(in_.size()); }
    [[nodiscard]] bool failed() const noexcept { return error_ != regex_error::none; }
    [[nodiscard]] int position() const noexcept { return next_pos_ - 1; }
    [[nodiscard]] bool has_next() const noexcept { return next_pos_ < length(); }

    // The character at `pos`, a surrogate pair joined in Unicode mode; sets `width`.
    std::uint32_t read_at(int pos, int& width) const noexcept {
        const std::uint32_t c0 = in_[static_cast<std::size_t>(pos)];
        width = 1;
        if (unicode_mode() && pos + 1 < length() && is_high_surrogate(c0)) {
            const std::uint32_t c1 = in_[static_cast<std::size_t>(pos + 1)];
            if (is_low_surrogate(c1)) {
                width = 2;
                return combine_surrogates(c0, c1);
            }
        }
        return c0;
    }

    // The character after current_, without consuming it.
    [[nodiscard]] std::uint32_t next() const noexcept {
        if (!has_next()) return k_end;
        int width = 0;
        return read_at(next_pos_, width);
    }

    void advance() noexcept {
        if (has_next()) {
            int width = 0;
            current_ = read_at(next_pos_, width);
            next_pos_ += width;
        } else {
            current_ = k_end;
            next_pos_ = length() + 1;
            has_more_ = false;
        }
    }

    // Moves by `distance` characters' worth of code units from current_ (negative: back).
    void advance(int distance) noexcept {
        next_pos_ = std::max(0, next_pos_ + distance - 1);
        advance();
    }

    void reset(int pos) noexcept {
        next_pos_ = pos;
        has_more_ = pos < length();
        advance();
    }

    // Steps back over the character just read, so the next advance() reads it again.
    void rewind_one_code_point() noexcept {
        if (!has_more_) return;
        advance(current_ > 0xFFFF ? -2 : -1);
    }

    // Records the first error and jumps to the end so nothing more is read.
    void fail(regex_error e) noexcept {
        if (failed()) return;
        error_ = e;
        error_pos_ = position();
        current_ = k_end;
        next_pos_ = length();
        has_more_ = false;
    }

    // --- Pattern, Disjunction, Alternative, Term (pattern.cpp) ---

    void parse_pattern();
    void parse_disjunction();
    void parse_quantifier(atom_kind atom);
    bool parse_interval_quantifier(int& min_out, int& max_out);
    int parse_bounded_decimal();
    void parse_open_parenthesis(std::vector<group_frame>& groups, std::vector<std::u16string>& names);
    std::u16string parse_capture_group_name();
    bool parse_atom_escape();
    bool parse_back_reference_index();
    std::uint32_t parse_legacy_octal();
    void parse_named_back_reference();
    void resolve_named_references();
    bool has_named_captures(class_escape_context context);
    void scan_for_captures(class_escape_context context);

    // --- escapes (escapes.cpp; lookup_property in unicode_properties.cpp) ---

    bool try_parse_character_class_escape(std::uint32_t after, class_escape_context context,
                                          bool& may_contain_strings);
    bool parse_property_class_name(std::string& name, std::string& value, bool& has_value);
    bool lookup_property(bool negated, const std::string& name, const std::string& value,
                         bool has_value, bool& may_contain_strings) const;
    bool parse_unicode_escape(std::uint32_t& value);
    bool parse_hex_escape(int digits, std::uint32_t& value);
    bool parse_hex_number_up_to(std::uint32_t max, std::uint32_t& value);
    std::uint32_t parse_character_escape(class_escape_context context);
    std::uint32_t parse_control_escape(class_escape_context context);
    std::uint32_t parse_identity_escape(std::uint32_t c, class_escape_context context);

    // --- character classes (classes.cpp) ---

    void parse_character_class();
    void parse_class_ranges();
    void parse_class_atom(std::uint32_t& value, bool& is_class_escape);
    void parse_flat_class_set_operand(class_operand& operand);
    std::uint32_t parse_class_set_character();
    bool parse_class_string_disjunction();
    static bool may_contain_strings(const class_operand& operand) noexcept;

    // --- v-mode class sets, nested classes on an explicit stack (classes.cpp) ---

    // What a class frame parses next, and so where it resumes when a nested class it asked
    // for is complete.
    enum class class_step : unsigned char {
        first_operand,         // the first ClassSetOperand, before the operator is known
        union_operand,         // an operand of ClassUnion
        range_end,             // the operand after `-` in ClassSetRange
        intersection_operand,  // an operand after `&&`
        subtraction_operand,   // an operand after `--`
    };

    enum class class_shape : unsigned char { undecided, set_union, intersection, subtraction };

    // One open v-mode class.
    struct class_frame {
        bool negated = false;
        class_shape shape = class_shape::undecided;
        class_step waiting = class_step::first_operand;
        bool may_contain_strings = false;  // MayContainStrings so far
        operand_kind last = operand_kind::character;
        std::uint32_t character = 0;  // value of the last operand when it was a character
        std::uint32_t range_from = 0;
        long cost = 0;
    };

    enum class class_progress : unsigned char { needs_nested_class, closed };
    bool parse_class_set_expression();
    bool open_class(std::vector<class_frame>& frames, long cost, class_operand& closed);
    bool take_class_operand(class_frame& frame, class_step step, class_operand& operand);
    class_progress continue_class(class_frame& frame);
    void accept_class_operand(class_frame& frame, const class_operand& operand);
    class_progress close_class(class_frame& frame);
};

}  // namespace plurnk::regex_detail
