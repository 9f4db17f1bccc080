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
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ascii.hpp"
#include "plurnk/validate.hpp"
#include "utf8.hpp"

namespace plurnk {

namespace {

struct code_point_range {
    std::uint32_t first;
    std::uint32_t last;
};

#include "gen/unicode_tables.inc"

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
constexpr std::string_view k_matcher_prefix =
    "pattern leads with `/` but is not a valid `/pattern/flags` regex - ";
constexpr std::string_view k_flags_hint =
    " - use only ECMAScript flags after the closing `/`; escape a literal `/` inside the pattern "
    "as `\\/`";
constexpr std::string_view k_unclosed_message =
    "regex matcher must use `/pattern/flags`; this matcher has no closing `/`: `";
// The reference quotes at most this many UTF-16 code units of a body, then an ellipsis.
constexpr std::size_t k_quote_limit = 80;

// V8's longest string (String::kMaxLength on 64-bit hosts); positions fit in an int below it.
constexpr std::size_t k_max_pattern_units = (std::size_t{1} << 29) - 24;
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

bool in_ranges(const code_point_range* begin, const code_point_range* end, std::uint32_t c) {
    const auto* it = std::upper_bound(begin, end, c, [](std::uint32_t v, const code_point_range& r) {
        return v < r.first;
    });
    return it != begin && c <= std::prev(it)->last;
}

// spec: ECMA-262 §22.2.1 RegExpIdentifierStart (V8 adds the backslash, refused separately).
bool is_identifier_start(std::uint32_t c) {
    if (c < 0x80) {
        return ascii::is_alpha(c) || c == '$' || c == '_';
    }
    return in_ranges(std::begin(k_id_start), std::end(k_id_start), c);
}

// spec: ECMA-262 §22.2.1 RegExpIdentifierPart.
bool is_identifier_part(std::uint32_t c) {
    if (c < 0x80) {
        return ascii::is_word_char(c) || c == '$';
    }
    if (c == 0x200C || c == 0x200D) return true;
    return in_ranges(std::begin(k_id_continue), std::end(k_id_continue), c);
}

template <std::size_t N>
bool contains_name(const std::string_view (&table)[N], std::string_view name) {
    return std::binary_search(std::begin(table), std::end(table), name);
}

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

using detail::utf16_text;
using detail::utf8_char;
using detail::utf8_surrogates;

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

// One open parenthesis on the group stack.
struct group_frame {
    group_kind kind = group_kind::grouping;
    bool named = false;
    std::u16string name;
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

    // --- Pattern, Disjunction, Alternative, Term ---

    // spec: ECMA-262 §22.2.1 Pattern :: Disjunction
    void parse_pattern() {
        parse_disjunction();
        if (failed()) return;
        resolve_named_references();
    }

    // spec: ECMA-262 §22.2.1 Disjunction :: Alternative ( | Alternative )*
    //       Alternative :: Term*    Term :: Assertion | Atom Quantifier?
    // Groups push a frame instead of recursing.
    void parse_disjunction() {
        std::vector<group_frame> groups;
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
                    group_frame& g = groups.back();
                    if (g.kind == group_kind::capture && g.named &&
                        !named_captures_.insert(g.name).second) {
                        return fail(regex_error::duplicate_capture_group_name);
                    }
                    if (g.kind == group_kind::lookahead) atom = atom_kind::lookahead;
                    if (g.kind == group_kind::lookbehind) atom = atom_kind::lookbehind;
                    if (g.named) open_group_names_.erase(open_group_names_.find(g.name));
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
                    parse_open_parenthesis(groups);
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
    void parse_quantifier(atom_kind atom) {
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
    bool parse_interval_quantifier(int& min_out, int& max_out) {
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
    int parse_bounded_decimal() {
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
    void parse_open_parenthesis(std::vector<group_frame>& groups) {
        group_frame g;
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
                g.name = parse_capture_group_name();
                if (failed()) return;
            }
        }
        if (g.named) open_group_names_.insert(g.name);
        groups.push_back(std::move(g));
    }

    // spec: ECMA-262 §22.2.1 GroupName :: < RegExpIdentifierName >
    // Called with current_ on the first character of the name; consumes through the `>`.
    std::u16string parse_capture_group_name() {
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
    bool parse_atom_escape() {
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
    bool parse_back_reference_index() {
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
    std::uint32_t parse_legacy_octal() {
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
    void parse_named_back_reference() {
        if (current_ != '<') return fail(regex_error::invalid_named_reference);
        advance();
        std::u16string name = parse_capture_group_name();
        if (failed()) return;
        // A reference inside the group it names matches empty and needs no resolution.
        if (open_group_names_.find(name) != open_group_names_.end()) return;
        named_references_.push_back(std::move(name));
    }

    // spec: ECMA-262 §22.2.1.1 early errors: every \k<name> names some group.
    void resolve_named_references() {
        for (const auto& name : named_references_) {
            if (named_captures_.find(name) == named_captures_.end()) {
                return fail(regex_error::invalid_named_capture_reference);
            }
        }
    }

    // Whether the pattern has a named group anywhere (decides what \k means without u).
    bool has_named_captures(class_escape_context context) {
        if (has_named_captures_ || scanned_for_captures_) return has_named_captures_;
        scan_for_captures(context);
        return has_named_captures_;
    }

    // Counts the capture groups of the whole pattern and notes whether any is named,
    // skipping escapes and classes the way V8's pre-scan does (it lets classes nest only in
    // v mode, even though Annex B reads a `[` inside a class as a literal), then returns to
    // where it was.
    void scan_for_captures(class_escape_context context) {
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

    // --- escapes ---

    // spec: ECMA-262 §22.2.1 CharacterClassEscape :: d D s S w W p{…} P{…}
    // Called on the backslash with `after` the character after it. Returns false (consuming
    // nothing) when this is not a class escape; true otherwise, even when the property name
    // is refused (the error is then recorded).
    bool try_parse_character_class_escape(std::uint32_t after, class_escape_context context,
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
    bool parse_property_class_name(std::string& name, std::string& value, bool& has_value) {
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

    // spec: ECMA-262 §22.2.2.9 (CompileToCharSet of UnicodePropertyValueExpression), tables
    // 67-69 of property names and values, with V8's allow-lists. Sets may_contain_strings
    // for a property of strings.
    bool lookup_property(bool negated, const std::string& name, const std::string& value,
                         bool has_value, bool& may_contain_strings) const {
        if (!has_value) {
            if (contains_name(k_general_category_values, name)) return true;
            if (contains_name(k_binary_properties, name)) return true;
            if (unicode_sets_ && contains_name(k_string_properties, name)) {
                if (negated) return false;
                may_contain_strings = true;
                return true;
            }
            return false;
        }
        if (name == "General_Category" || name == "gc") {
            return contains_name(k_general_category_values, value);
        }
        if (name == "Script" || name == "sc" || name == "Script_Extensions" || name == "scx") {
            return contains_name(k_script_values, value);
        }
        return false;
    }

    // spec: ECMA-262 §22.2.1 RegExpUnicodeEscapeSequence, after `\u`. Consumes it and sets
    // `value` on success; otherwise leaves the position where it was.
    bool parse_unicode_escape(std::uint32_t& value) {
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
    bool parse_hex_escape(int digits, std::uint32_t& value) {
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
    bool parse_hex_number_up_to(std::uint32_t max, std::uint32_t& value) {
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
    std::uint32_t parse_character_escape(class_escape_context context) {
        advance();
        const std::uint32_t c = current_;
        switch (c) {
            case 'f': advance(); return '\f';
            case 'n': advance(); return '\n';
            case 'r': advance(); return '\r';
            case 't': advance(); return '\t';
            case 'v': advance(); return '\v';
            case 'c': {
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
                if (context == class_escape_context::in_class &&
                    (ascii::is_digit(control) || control == '_')) {
                    advance(2);
                    return control & 0x1F;
                }
                return '\\';  // Annex B: the backslash is a literal; `c` is read next
            }
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
            default:
                break;
        }
        // IdentityEscape.
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

    // --- character classes ---

    // spec: ECMA-262 §22.2.1 CharacterClass :: [ ClassContents ] | [^ ClassContents ]
    // Called on the `[`.
    void parse_character_class() {
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
    void parse_class_ranges() {
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
    void parse_class_atom(std::uint32_t& value, bool& is_class_escape) {
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
    void parse_flat_class_set_operand(class_operand& operand) {
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
    std::uint32_t parse_class_set_character() {
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
    bool parse_class_string_disjunction() {
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

    static bool may_contain_strings(const class_operand& operand) noexcept {
        switch (operand.kind) {
            case operand_kind::character:
            case operand_kind::range:
                return false;
            default:
                return operand.may_contain_strings;
        }
    }

    // --- v-mode class sets, nested classes on an explicit stack ---

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

    // spec: ECMA-262 §22.2.1 ClassSetExpression :: ClassUnion | ClassIntersection |
    //       ClassSubtraction, with NestedClass :: [ ClassContents ] (v flag).
    // Called on the `[`; returns MayContainStrings. V8 recurses here; this keeps one frame per
    // open class and charges each to k_class_stack_budget as V8's stack would be charged.
    bool parse_class_set_expression() {
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
    bool open_class(std::vector<class_frame>& frames, long cost, class_operand& closed) {
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
    bool take_class_operand(class_frame& frame, class_step step, class_operand& operand) {
        frame.waiting = step;
        if (current_ == '[') return false;
        parse_flat_class_set_operand(operand);
        return true;
    }

    // Parses the rest of an open class until it needs a nested class or closes (or fails).
    class_progress continue_class(class_frame& frame) {
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
    void accept_class_operand(class_frame& frame, const class_operand& operand) {
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
    class_progress close_class(class_frame& frame) {
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
};

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

}  // namespace

verdict validate_regex(std::string_view pattern, std::string_view flags) {
    verdict v;
    const std::optional<std::string> canonical = canonical_flags(flags);
    if (!canonical) {
        v.ok = false;
        v.offset = 0;
        v.message.reserve(k_invalid_flags_prefix.size() + flags.size() + 1);
        v.message += k_invalid_flags_prefix;
        v.message += flags;
        v.message += '\'';
        return v;
    }
    if (pattern.size() > k_max_pattern_units) {  // the reference cannot even hold it
        v.ok = false;
        v.message = k_messages[static_cast<std::size_t>(regex_error::too_large)];
        return v;
    }
    const utf16_text text = detail::to_utf16(pattern, utf8_surrogates::decoded);
    const bool unicode = canonical->find('u') != std::string::npos;
    const bool unicode_sets = canonical->find('v') != std::string::npos;
    pattern_parser parser(text.units, unicode, unicode_sets);
    const regex_error e = parser.parse();
    if (e == regex_error::none) return v;
    v.ok = false;
    const int pos = std::clamp(parser.error_position(), 0, static_cast<int>(text.units.size()));
    v.offset = text.byte_offset[static_cast<std::size_t>(pos)];
    const std::string_view what = k_messages[static_cast<std::size_t>(e)];
    v.message.reserve(k_invalid_pattern_prefix.size() + pattern.size() + canonical->size() +
                      what.size() + 3);
    v.message += k_invalid_pattern_prefix;
    v.message += pattern;
    v.message += '/';
    v.message += *canonical;
    v.message += ": ";
    v.message += what;
    return v;
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

std::optional<std::string> check_regex_matcher(std::string_view body) {
    if (body.empty() || body.front() != '/') return std::nullopt;
    const regex_split split = split_regex(body);
    std::string message;
    if (!split.closed) {
        message += k_unclosed_message;
    } else {
        const verdict v = validate_regex(split.pattern, split.flags);
        if (v.ok) return std::nullopt;
        message += k_matcher_prefix;
        message += v.message;
        if (v.message.find("Invalid flags supplied") != std::string::npos) message += k_flags_hint;
        message += ": `";
    }
    message += quote_body(body);
    message += '`';
    return message;
}

}  // namespace plurnk
