// SPDX-License-Identifier: MIT
// The character classes of the regex validator's parser. Without the v flag a class is ECMA-262
// §22.2.1 ClassContents :: ClassRanges, read in one loop. With v it is a ClassSetExpression
// (union, intersection or subtraction) whose nested classes V8 parses recursively; here each open
// class is a frame on an explicit stack, charged against k_class_stack_budget so that a pattern
// nested past V8's stack gets V8's stack-overflow message. See pattern_parser.hpp.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/ascii.hpp"
#include "pattern_parser.hpp"

namespace plurnk::regex_detail {

// spec: ECMA-262 §22.2.1 CharacterClass :: [ ClassContents ] | [^ ClassContents ]
// Called on the `[`.
void pattern_parser::parse_character_class() {
    if (unicode_sets_) {
        parse_class_set_expression();
        return;
    }
    advance();
    if (current_ == '^') advance();
    if (current_ == ']') {
        advance();
        return;
    }
    parse_class_ranges();
    if (failed()) return;
    if (!has_more_) return fail(regex_error::unterminated_character_class);
    advance();
}

// spec: ECMA-262 §22.2.1 ClassRanges (no v flag): ClassAtom ( - ClassAtom )? …
void pattern_parser::parse_class_ranges() {
    while (has_more_ && current_ != ']') {
        std::uint32_t from = 0;
        bool from_is_class = false;
        parse_class_atom(from, from_is_class);
        if (failed()) return;
        if (current_ != '-') continue;
        advance();
        if (!has_more_) return;  // unterminated, reported by the caller
        if (current_ == ']') return;
        std::uint32_t to = 0;
        bool to_is_class = false;
        parse_class_atom(to, to_is_class);
        if (failed()) return;
        if (from_is_class || to_is_class) {
            // Annex B treats the `-` literally; with u a class escape cannot bound a range.
            if (unicode_mode()) return fail(regex_error::invalid_character_class);
            continue;
        }
        if (from > to) return fail(regex_error::out_of_order_character_class);
    }
}

// spec: ECMA-262 §22.2.1 ClassAtom :: - | ClassAtomNoDash, ClassEscape :: b | - | …
void pattern_parser::parse_class_atom(std::uint32_t& value, bool& is_class_escape) {
    is_class_escape = false;
    if (current_ != '\\') {
        value = current_;
        advance();
        return;
    }
    const std::uint32_t after = next();
    switch (after) {
        case 'b':
            value = '\b';
            advance(2);
            return;
        case '-':
            if (unicode_mode()) {
                value = '-';
                advance(2);
                return;
            }
            break;
        case k_end:
            return fail(regex_error::escape_at_end);
        default:
            break;
    }
    bool strings = false;
    is_class_escape =
        try_parse_character_class_escape(after, class_escape_context::in_class, strings);
    if (is_class_escape) return;
    value = parse_character_escape(class_escape_context::in_class);
}

// spec: ECMA-262 §22.2.1 ClassSetOperand :: ClassStringDisjunction | ClassSetCharacter |
//       \ CharacterClassEscape (v flag) — every form but NestedClass, which the caller
//       handles because it opens a new frame.
void pattern_parser::parse_flat_class_set_operand(class_operand& operand) {
    operand = class_operand{};
    if (current_ == '\\') {
        const std::uint32_t after = next();
        if (after == 'q') {
            operand.kind = operand_kind::string_disjunction;
            operand.may_contain_strings = parse_class_string_disjunction();
            return;
        }
        bool strings = false;
        if (try_parse_character_class_escape(after, class_escape_context::in_class,
                                             strings)) {
            operand.kind = operand_kind::class_escape;
            operand.may_contain_strings = strings;
            return;
        }
    }
    operand.kind = operand_kind::character;
    operand.character = parse_class_set_character();
}

// spec: ECMA-262 §22.2.1 ClassSetCharacter.
std::uint32_t pattern_parser::parse_class_set_character() {
    const std::uint32_t c = current_;
    if (c == '\\') {
        const std::uint32_t after = next();
        if (after == 'b') {
            advance(2);
            return '\b';
        }
        if (after == k_end) {
            fail(regex_error::escape_at_end);
            return 0;
        }
        return parse_character_escape(class_escape_context::in_class);
    }
    if (is_class_set_syntax_character(c)) {
        fail(regex_error::invalid_character_in_class);
        return 0;
    }
    if (is_class_set_double_punctuator(c) && next() == c) {
        fail(regex_error::invalid_class_set_operation);
        return 0;
    }
    advance();
    return c;
}

// spec: ECMA-262 §22.2.1 ClassStringDisjunction :: \q{ ClassString ( | ClassString )* }

// Returns whether some ClassString is not exactly one character long.
bool pattern_parser::parse_class_string_disjunction() {
    advance(2);
    if (current_ != '{') {
        fail(regex_error::invalid_escape);
        return false;
    }
    advance();
    bool has_strings = false;
    int length = 0;
    while (has_more_ && current_ != '}') {
        if (current_ == '|') {
            if (length != 1) has_strings = true;
            length = 0;
            advance();
        } else {
            parse_class_set_character();
            if (failed()) return false;
            ++length;
        }
    }
    if (length != 1) has_strings = true;
    // A missing `}` surfaces as an unterminated class or an invalid `]` in the caller.
    advance();
    return has_strings;
}

bool pattern_parser::may_contain_strings(const class_operand& operand) noexcept {
    switch (operand.kind) {
        case operand_kind::character:
        case operand_kind::range:
            return false;
        default:
            return operand.may_contain_strings;
    }
}

// spec: ECMA-262 §22.2.1 ClassSetExpression :: ClassUnion | ClassIntersection |
//       ClassSubtraction, with NestedClass :: [ ClassContents ] (v flag).
// Called on the `[`; returns MayContainStrings. V8 recurses here; this keeps one frame per
// open class and charges each to k_class_stack_budget as V8's stack would be charged.
bool pattern_parser::parse_class_set_expression() {
    std::vector<class_frame> frames;
    class_operand closed;  // the class that just closed, for the frame below it
    bool have_closed = open_class(frames, k_class_frame_cost, closed);
    while (!failed()) {
        if (have_closed) {
            if (frames.empty()) return closed.may_contain_strings;
            accept_class_operand(frames.back(), closed);
            have_closed = false;
            continue;
        }
        class_frame& frame = frames.back();
        if (continue_class(frame) == class_progress::needs_nested_class) {
            const bool set_operand = frame.waiting == class_step::intersection_operand ||
                                     frame.waiting == class_step::subtraction_operand;
            have_closed = open_class(
                frames, set_operand ? k_class_set_frame_cost : k_class_frame_cost, closed);
        } else if (!failed()) {
            closed = class_operand{};
            closed.kind = operand_kind::nested_class;
            closed.may_contain_strings = frame.may_contain_strings;
            class_stack_used_ -= frame.cost;
            frames.pop_back();
            have_closed = true;
        }
    }
    return false;
}

// Consumes `[` and `^`; pushes a frame, or returns true with `closed` set for `[]`/`[^]`.
bool pattern_parser::open_class(std::vector<class_frame>& frames, long cost, class_operand& closed) {
    if (class_stack_used_ + cost > k_class_stack_budget) {
        fail(regex_error::stack_overflow);
        return false;
    }
    advance();
    class_frame frame;
    if (current_ == '^') {
        frame.negated = true;
        advance();
    }
    if (current_ == ']') {
        advance();
        closed = class_operand{};
        closed.kind = operand_kind::nested_class;
        return true;
    }
    frame.cost = cost;
    class_stack_used_ += cost;
    frames.push_back(frame);
    return false;
}

// Reads the operand for `step`: false when it is a nested class the caller must open.
bool pattern_parser::take_class_operand(class_frame& frame, class_step step, class_operand& operand) {
    frame.waiting = step;
    if (current_ == '[') return false;
    parse_flat_class_set_operand(operand);
    return true;
}

// Parses the rest of an open class until it needs a nested class or closes (or fails).
pattern_parser::class_progress pattern_parser::continue_class(class_frame& frame) {
    class_operand operand;
    while (!failed()) {
        switch (frame.shape) {
            case class_shape::undecided:
                if (!take_class_operand(frame, class_step::first_operand, operand)) {
                    return class_progress::needs_nested_class;
                }
                break;
            // spec: ECMA-262 §22.2.1 ClassUnion :: ( ClassSetRange | ClassSetOperand )*
            case class_shape::set_union:
                if (!has_more_ || current_ == ']') return close_class(frame);
                if (current_ == '-') {
                    if (next() == '-') {  // a range and a subtraction cannot mix
                        fail(regex_error::invalid_class_set_operation);
                        break;
                    }
                    advance();
                    if (!has_more_) return close_class(frame);
                    if (frame.last != operand_kind::character) {
                        fail(regex_error::invalid_character_class);
                        break;
                    }
                    frame.range_from = frame.character;
                    if (!take_class_operand(frame, class_step::range_end, operand)) {
                        return class_progress::needs_nested_class;
                    }
                } else if (!take_class_operand(frame, class_step::union_operand, operand)) {
                    return class_progress::needs_nested_class;
                }
                break;
            // spec: ECMA-262 §22.2.1 ClassIntersection :: ClassSetOperand && [lookahead ≠ &]
            //       ClassSetOperand ( && [lookahead ≠ &] ClassSetOperand )*
            case class_shape::intersection:
                if (!has_more_ || current_ == ']') return close_class(frame);
                if (current_ != '&' || next() != '&') {
                    fail(regex_error::invalid_class_set_operation);
                    break;
                }
                advance(2);
                if (current_ == '&') {
                    fail(regex_error::invalid_character_in_class);
                    break;
                }
                if (!take_class_operand(frame, class_step::intersection_operand, operand)) {
                    return class_progress::needs_nested_class;
                }
                break;
            // spec: ECMA-262 §22.2.1 ClassSubtraction :: ClassSetOperand -- ClassSetOperand
            //       ( -- ClassSetOperand )*
            case class_shape::subtraction:
                if (!has_more_ || current_ == ']') return close_class(frame);
                if (current_ != '-' || next() != '-') {
                    fail(regex_error::invalid_class_set_operation);
                    break;
                }
                advance(2);
                if (!take_class_operand(frame, class_step::subtraction_operand, operand)) {
                    return class_progress::needs_nested_class;
                }
                break;
        }
        if (failed()) break;
        accept_class_operand(frame, operand);
    }
    return class_progress::closed;
}

// Folds an operand into the frame that was waiting for it.
void pattern_parser::accept_class_operand(class_frame& frame, const class_operand& operand) {
    if (failed()) return;
    switch (frame.waiting) {
        case class_step::first_operand:
            frame.may_contain_strings = may_contain_strings(operand);
            if (current_ == '-' && next() == '-') {
                frame.shape = class_shape::subtraction;
                if (frame.negated && frame.may_contain_strings) {
                    fail(regex_error::negated_class_with_strings);
                }
            } else if (current_ == '&' && next() == '&') {
                frame.shape = class_shape::intersection;
            } else {
                frame.shape = class_shape::set_union;
                frame.last = operand.kind;
                frame.character = operand.character;
            }
            return;
        case class_step::union_operand:
            frame.may_contain_strings = frame.may_contain_strings || may_contain_strings(operand);
            frame.last = operand.kind;
            frame.character = operand.character;
            return;
        case class_step::range_end:
            if (operand.kind != operand_kind::character) {
                return fail(regex_error::invalid_character_class);
            }
            if (frame.range_from > operand.character) {
                return fail(regex_error::out_of_order_character_class);
            }
            frame.last = operand_kind::range;
            return;
        case class_step::intersection_operand:
            frame.may_contain_strings = frame.may_contain_strings && may_contain_strings(operand);
            return;
        case class_step::subtraction_operand:
            return;
    }
}

// At the `]` (or the end of input) of an open class.
pattern_parser::class_progress pattern_parser::close_class(class_frame& frame) {
    if (!has_more_) {
        fail(regex_error::unterminated_character_class);
        return class_progress::closed;
    }
    advance();
    // V8 checks a union after its `]`, an intersection before; the outcome is the same.
    if (frame.negated && frame.may_contain_strings && frame.shape != class_shape::subtraction) {
        fail(regex_error::negated_class_with_strings);
    }
    return class_progress::closed;
}

}  // namespace plurnk::regex_detail
