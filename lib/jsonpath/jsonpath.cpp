// SPDX-License-Identifier: MIT
// JSONPath (RFC 9535) validator, matching what json-p3's `JSONPathEnvironment().compile()` accepts
// in its default strict mode, with its exact error texts. The reference works in two passes and so
// does this file: a lexer, written as a small set of mode functions over UTF-16 code units (the
// reference is JavaScript, so every position and every quoted character is a code unit), turns the
// query into tokens; a Pratt-style recursive descent over that token vector then builds just
// enough of a filter-expression tree to apply RFC 9535's well-typedness rules (§2.4.3), the
// singular-query rules (§2.3.5.1) and the literal checks. Both passes keep the reference's
// ordering of checks, because the first problem found decides the message. Errors are values: the
// first failure is recorded, every function returns early once it is set. Messages carry the
// reference's context suffix `('<up to 9 code units of the query>':<code-unit index>)`; the
// verdict offset is that index converted back to a byte offset into the caller's UTF-8 view.
// Nothing here evaluates a query, so the I-Regexp arguments of match()/search() are not checked:
// json-p3 only checks them when a filter runs.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ascii.hpp"
#include "plurnk/json.hpp"
#include "plurnk/validate.hpp"
#include "utf8.hpp"

namespace plurnk {
namespace {

// Nesting budget shared by the recursive functions (filter expressions, their operands, bracketed
// selections). Node overflows its own stack at roughly 1100 nested filters or 3700 chained `&&`;
// this stays below every such shape so a deep query is refused here no later than there.
constexpr int k_max_nesting = 1024;

// RFC 9535 §2.1: integers must be within I-JSON's exact range, ±(2^53 − 1).
constexpr std::u16string_view k_max_index_digits = u"9007199254740991";

constexpr std::string_view k_matcher_prefix = "pattern leads with `$` but is not a valid jsonpath - ";

constexpr int k_end = -1;  // what next()/peek() return at the end of input (the reference's "")

// ---------------------------------------------------------------------------------------------
// Diagnostics: every message json-p3's compile() can give, in its words. `{}` marks an argument.

enum class diag : std::uint8_t {
    // lexer
    expected_root,                // the query does not start with "$"
    expected_segment,             // between segments, not ".", ".." or "["
    trailing_whitespace,          // whitespace at the very end (becomes a TOKEN_ERROR)
    bald_descendant,              // ".." at the end
    bad_descendant_selection,     // ".." followed by something other than a name, "*" or "["
    whitespace_after_dot,
    bad_shorthand_selector,       // "." followed by something other than a name or "*"
    cannot_backup,                // "." at the end: the reference's lexer trips over itself
    emit_before_whitespace,       // lexer invariant (unreachable in practice)
    unbalanced_brackets,          // "]" or ")" closing the wrong opener, or one left open
    unclosed_bracketed_selection,
    bad_bracketed_character,
    bad_filter_character,
    fraction_digit_required,
    invalid_escape,               // a backslash not followed by one of \ / b f n r t u or the quote
    unclosed_string,
    // parser: structure
    unexpected_token_kind,
    expected_token,
    unexpected_end_of_query,
    bad_bracketed_token,
    trailing_comma,
    empty_bracketed_segment,
    leading_zero,
    index_out_of_range,           // RFC 9535 §2.1: outside ±(2^53 − 1)
    unexpected_end_of_expression,
    unexpected_value,
    invalid_number,
    empty_paren,
    unbalanced_parens,
    expected_expression,
    // parser: types (RFC 9535 §2.4.3) and literals
    no_such_function,
    wrong_arity,
    argument_not_value,
    argument_not_logical,
    argument_not_nodes,
    function_result_uncompared,   // the reference's text has two spaces before "must"
    function_result_incomparable,
    non_singular_comparison,
    literal_uncompared,
    // string literals (RFC 9535 §2.3.1.1)
    unknown_escape,
    incomplete_escape,
    low_surrogate_first,
    expected_low_surrogate,
    invalid_hex_escape,
    invalid_character,            // a unit below U+0020, raw or escaped
    // JavaScript runtime errors, which the reference reports without a context suffix
    too_deep,                     // V8's RangeError once the parser's stack runs out
    read_past_end,                // V8's TypeError for a token read past the token array
    count_
};

struct diag_text {
    std::string_view text;
    bool context;  // whether the reference appends `('<query excerpt>':<index>)`
};

constexpr diag_text k_diag_texts[] = {
    {"expected '$', found '{}'", true},
    {"expected '.', '..' or a bracketed selection, found '{}'", true},
    {"trailing whitespace", true},
    {"bald descendant segment", true},
    {"unexpected descendent selection token '{}'", true},
    {"unexpected whitespace after dot", true},
    {"unexpected shorthand selector '{}'", true},
    {"can't backup beyond start", true},
    {"must emit or ignore before consuming whitespace ('{}':{})", true},
    {"unbalanced brackets", true},
    {"unclosed bracketed selection", true},
    {"unexpected token '{}' in bracketed selection", true},
    {"unexpected filter selector token '{}'", true},
    {"a fractional digit is required after a decimal point", true},
    {"invalid escape", true},
    {"unclosed string starting at index {}", true},
    {"unexpected token '{}'", true},
    {"expected token '{}', found '{}'", true},
    {"unexpected end of query", true},
    {"unexpected token in bracketed selection '{}'", true},
    {"unexpected trailing comma", true},
    {"empty bracketed segment", true},
    {"leading zero in index selector", true},
    {"index out of range", true},
    {"unexpected end of expression", true},
    {"unexpected '{}'", true},
    {"invalid number literal '{}'", true},
    {"empty paren expression", true},
    {"unbalanced parentheses", true},
    {"expected an expression, found '{}'", true},
    {"no such function '{}'", true},
    {"{}() takes {} argument{}, {} given", true},
    {"{}() argument {} must be of ValueType", true},
    {"{}() argument {} must be of LogicalType", true},
    {"{}() argument {} must be of NodesType", true},
    {"result of {}()  must be compared", true},
    {"result of {}() is not comparable", true},
    {"non-singular query is not comparable", true},
    {"filter expression literals ({}) must be compared", true},
    {"unknown escape sequence at index {}", true},
    {"incomplete escape sequence at index {}", true},
    {"unexpected low surrogate codepoint at index {}", true},
    {"unexpected codepoint at index {}", true},
    {"invalid \\uXXXX escape sequence", true},
    {"invalid character", true},
    {"Maximum call stack size exceeded", false},
    {"Cannot read properties of undefined (reading 'kind')", false},
};
static_assert(std::size(k_diag_texts) == static_cast<std::size_t>(diag::count_),
              "diagnostic text table out of step with the diag enum");

// The message for `d` with each `{}` replaced by the next argument.
std::string format(diag d, std::initializer_list<std::string_view> args = {}) {
    const std::string_view text = k_diag_texts[static_cast<std::size_t>(d)].text;
    std::string out;
    auto arg = args.begin();
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '{' && i + 1 < text.size() && text[i + 1] == '}' && arg != args.end()) {
            out += *arg++;
            ++i;
        } else {
            out += text[i];
        }
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// Tokens

enum class tok : std::uint8_t {
    and_, colon, comma, current, ddot, double_quote_string, eof, eq, error, false_, filter,
    function, ge, gt, index, lbracket, le, lparen, lt, name, ne, not_, null, number, or_,
    rbracket, root, rparen, single_quote_string, true_, wild,
    count_  // not a token: the table size
};

// The reference's token-kind names, which appear verbatim in some of its messages.
constexpr std::string_view k_token_names[] = {
    "TOKEN_AND", "TOKEN_COLON", "TOKEN_COMMA", "TOKEN_CURRENT_VALUE", "TOKEN_DDOT",
    "TOKEN_DOUBLE_QUOTE_STRING", "TOKEN_EOF", "TOKEN_EQ", "TOKEN_ERROR", "TOKEN_FALSE",
    "TOKEN_FILTER_START", "TOKEN_FUNCTION", "TOKEN_GE", "TOKEN_GT", "TOKEN_INDEX",
    "TOKEN_LBRACKET", "TOKEN_LE", "TOKEN_LPAREN", "TOKEN_LT", "TOKEN_NAME", "TOKEN_NE",
    "TOKEN_NOT", "TOKEN_NULL", "NUMBER", "TOKEN_OR", "TOKEN_RBRACKET", "TOKEN_ROOT",
    "TOKEN_RPAREN", "TOKEN_SINGLE_QUOTE_STRING", "TOKEN_TRUE", "TOKEN_WILD",
};
static_assert(std::size(k_token_names) == static_cast<std::size_t>(tok::count_),
              "token name table out of step with the token enum");

constexpr std::string_view token_name(tok k) { return k_token_names[static_cast<std::size_t>(k)]; }

struct token {
    tok kind;
    std::size_t begin;  // value = units[begin, end), except for error tokens (message)
    std::size_t end;
    std::size_t index;  // code-unit position reported in messages
};

// A recorded failure: the message without its context suffix, and where to point.
struct failure {
    std::string message;
    std::ptrdiff_t index = 0;
    bool context = true;

    failure(diag d, std::string text, std::ptrdiff_t at)
        : message(std::move(text)), index(at), context(k_diag_texts[static_cast<std::size_t>(d)].context) {}
};

// ---------------------------------------------------------------------------------------------
// UTF-8 <-> UTF-16 code units

// lib/utf8.hpp's codec; an ill-formed byte becomes one U+FFFD unit, and units converted back to
// UTF-8 write a surrogate cut from its partner as U+FFFD.
using detail::append_utf16_as_utf8;
using detail::is_high_surrogate;
using detail::is_low_surrogate;
using detail::to_utf16;
using detail::utf16_text;

std::string units_to_utf8(std::u16string_view units) {
    std::string out;
    append_utf16_as_utf8(out, units);
    return out;
}

// ---------------------------------------------------------------------------------------------
// Character classes of the reference's lexer patterns (applied per code unit)

using ascii::is_digit;
// RFC 9535 §2.5.1.1 name-first: ALPHA / "_" / %x80-... (the reference: any unit >= U+0080)
bool is_name_first(int c) { return c >= 0x80 || ascii::is_alpha(static_cast<std::uint32_t>(c)) || c == '_'; }
// name-char = name-first / DIGIT (the reference also admits "-")
bool is_name_char(int c) { return is_name_first(c) || is_digit(static_cast<std::uint32_t>(c)) || c == '-'; }

// ---------------------------------------------------------------------------------------------
// Lexer: mode functions over code units, after the reference's state functions. Each returns the
// next mode; `stop` ends the scan (after an error token or the EOF token).

enum class mode : std::uint8_t {
    stop, root, segment, descendant_selection, dot_selector, bracketed_selection, filter,
    string,  // string_quote_ and string_return_ say which quote and which mode to resume
};

class lexer {
public:
    explicit lexer(std::u16string_view src) : src_(src) {}

    // Tokenizes the whole query; returns the failure that tokenizing alone decides, if any.
    std::optional<failure> run() {
        mode m = mode::root;
        while (m != mode::stop && !fatal_) m = step(m);
        if (fatal_) return fatal_;
        if (!tokens_.empty() && tokens_.back().kind == tok::error) {
            return failure(error_diag_, error_text_, static_cast<std::ptrdiff_t>(tokens_.back().index));
        }
        if (!brackets_.empty()) {  // unbalanced `[` or `(` left open at the end
            return failure(diag::unbalanced_brackets, format(diag::unbalanced_brackets),
                           static_cast<std::ptrdiff_t>(brackets_.back().second));
        }
        return std::nullopt;
    }

    const std::vector<token>& tokens() const { return tokens_; }
    const std::string& error_text() const { return error_text_; }

private:
    mode step(mode m) {
        switch (m) {
            case mode::root: return lex_root();
            case mode::segment: return lex_segment();
            case mode::descendant_selection: return lex_descendant_selection();
            case mode::dot_selector: return lex_dot_selector();
            case mode::bracketed_selection: return lex_bracketed_selection();
            case mode::filter: return lex_filter();
            case mode::string: return lex_string();
            case mode::stop: break;
        }
        return mode::stop;
    }

    // --- primitives over start_/pos_

    int next() {
        if (pos_ >= src_.size()) return k_end;
        return src_[pos_++];
    }
    void backup() {
        if (pos_ <= start_) {
            fail_fatal(diag::cannot_backup, format(diag::cannot_backup), pos_);
            return;
        }
        --pos_;
    }
    int peek() {
        const int c = next();
        if (c != k_end) backup();
        return c;
    }
    void ignore() { start_ = pos_; }
    void emit(tok k) {
        tokens_.push_back(token{k, start_, pos_, start_});
        start_ = pos_;
    }
    // Records an error token at the current position; the scan normally stops after it.
    void error(diag d, std::initializer_list<std::string_view> args = {}) {
        error_diag_ = d;
        error_text_ = format(d, args);
        tokens_.push_back(token{tok::error, 0, 0, pos_});
    }
    void fail_fatal(diag d, std::string message, std::size_t index) {
        if (!fatal_) fatal_ = failure(d, std::move(message), static_cast<std::ptrdiff_t>(index));
    }
    bool ignore_whitespace() {
        if (pos_ != start_) {
            const std::string pending = units_to_utf8(src_.substr(start_, pos_ - start_));
            fail_fatal(diag::emit_before_whitespace,
                       format(diag::emit_before_whitespace, {pending, std::to_string(pos_)}), pos_);
            return false;
        }
        bool found = false;
        // RFC 9535 §2.3.5.1 B: space, tab, LF, CR
        while (pos_ < src_.size() && ascii::is_whitespace(src_[pos_])) {
            ++pos_;
            found = true;
        }
        if (found) ignore();
        return found;
    }
    bool accept_literal(std::u16string_view word) {
        if (src_.substr(pos_, word.size()) != word) return false;
        pos_ += word.size();
        return true;
    }
    // name-first *name-char
    bool accept_name() {
        if (pos_ >= src_.size() || !is_name_first(src_[pos_])) return false;
        ++pos_;
        while (pos_ < src_.size() && is_name_char(src_[pos_])) ++pos_;
        return true;
    }
    // -?DIGIT+ (the reference's index and int patterns)
    bool accept_int() {
        std::size_t p = pos_;
        if (p < src_.size() && src_[p] == '-') ++p;
        const std::size_t digits = p;
        while (p < src_.size() && is_digit(src_[p])) ++p;
        if (p == digits) return false;
        pos_ = p;
        return true;
    }
    // [eE][+-]?DIGIT+
    bool accept_exponent() {
        std::size_t p = pos_;
        if (p >= src_.size() || (src_[p] != 'e' && src_[p] != 'E')) return false;
        ++p;
        if (p < src_.size() && (src_[p] == '+' || src_[p] == '-')) ++p;
        const std::size_t digits = p;
        while (p < src_.size() && is_digit(src_[p])) ++p;
        if (p == digits) return false;
        pos_ = p;
        return true;
    }
    // RFC 9535 §2.4 function-name = function-name-first *function-name-char
    bool accept_function_name() {
        if (pos_ >= src_.size() || !ascii::is_lower(src_[pos_])) return false;
        ++pos_;
        while (pos_ < src_.size() &&
               (ascii::is_lower(src_[pos_]) || src_[pos_] == '_' || is_digit(src_[pos_]))) {
            ++pos_;
        }
        return true;
    }

    // The code unit the reference quotes in a message ("" at the end of input).
    static std::string unit_text(int c) {
        if (c == k_end) return {};
        const char16_t u = static_cast<char16_t>(c);
        return units_to_utf8(std::u16string_view(&u, 1));
    }

    // --- modes

    // spec: RFC 9535 §2.2 root-identifier = "$"
    mode lex_root() {
        const int c = next();
        if (c != '$') {
            backup();
            if (fatal_) return mode::stop;
            error(diag::expected_root, {unit_text(c)});
            return mode::stop;
        }
        emit(tok::root);
        return mode::segment;
    }

    // Between segments. spec: RFC 9535 §2.5 segments = *(S segment)
    mode lex_segment() {
        if (ignore_whitespace() && peek() == k_end) {
            error(diag::trailing_whitespace);  // the reference records it and scans on to EOF
        }
        if (fatal_) return mode::stop;
        const int c = next();
        switch (c) {
            case k_end:
                emit(tok::eof);
                return mode::stop;
            case '.':
                if (peek() == '.') {
                    next();
                    emit(tok::ddot);
                    return mode::descendant_selection;
                }
                return mode::dot_selector;
            case '[':
                brackets_.emplace_back('[', start_);
                emit(tok::lbracket);
                return mode::bracketed_selection;
            default:
                backup();
                if (filter_level_ != 0) return mode::filter;
                error(diag::expected_segment, {unit_text(c)});
                return mode::stop;
        }
    }

    // After "..". spec: RFC 9535 §2.5.2.1 descendant-segment = ".." (bracketed / "*" / member-name)
    mode lex_descendant_selection() {
        if (accept_name()) {
            emit(tok::name);
            return mode::segment;
        }
        const int c = next();
        switch (c) {
            case k_end:
                error(diag::bald_descendant);
                return mode::stop;
            case '*':
                emit(tok::wild);
                return mode::segment;
            case '[':
                brackets_.emplace_back('[', start_);
                emit(tok::lbracket);
                return mode::bracketed_selection;
            default:
                backup();
                error(diag::bad_descendant_selection, {unit_text(c)});
                return mode::stop;
        }
    }

    // After ".". spec: RFC 9535 §2.5.1.1 "." (wildcard-selector / member-name-shorthand)
    mode lex_dot_selector() {
        ignore();
        if (ignore_whitespace()) {
            error(diag::whitespace_after_dot);
            return mode::stop;
        }
        if (fatal_) return mode::stop;
        if (accept_name()) {
            emit(tok::name);
            return mode::segment;
        }
        const int c = next();
        if (c == '*') {
            emit(tok::wild);
            return mode::segment;
        }
        backup();  // at the end of input this is the reference's "can't backup beyond start"
        if (fatal_) return mode::stop;
        error(diag::bad_shorthand_selector, {unit_text(c)});
        return mode::stop;
    }

    // After "[" (or after a filter ends at "," or "]").
    // spec: RFC 9535 §2.5.1.1 bracketed-selection = "[" S selector *(S "," S selector) S "]"
    mode lex_bracketed_selection() {
        for (;;) {
            ignore_whitespace();
            if (fatal_) return mode::stop;
            if (accept_int()) {
                emit(tok::index);
                continue;
            }
            const int c = next();
            switch (c) {
                case ']':
                    if (brackets_.empty() || brackets_.back().first != '[') {
                        backup();
                        error(diag::unbalanced_brackets);
                        return mode::stop;
                    }
                    brackets_.pop_back();
                    emit(tok::rbracket);
                    return mode::segment;
                case k_end:
                    error(diag::unclosed_bracketed_selection);
                    return mode::stop;
                case '*':
                    emit(tok::wild);
                    continue;
                case '?':
                    emit(tok::filter);
                    ++filter_level_;
                    return mode::filter;
                case ',':
                    emit(tok::comma);
                    continue;
                case ':':
                    emit(tok::colon);
                    continue;
                case '\'':
                case '"':
                    string_quote_ = static_cast<char16_t>(c);
                    string_return_ = mode::bracketed_selection;
                    return mode::string;
                default:
                    backup();
                    error(diag::bad_bracketed_character, {unit_text(c)});
                    return mode::stop;
            }
        }
    }

    // Inside a filter. spec: RFC 9535 §2.3.5.1 logical-expr and its operands
    mode lex_filter() {
        for (;;) {
            ignore_whitespace();
            if (fatal_) return mode::stop;
            const int c = next();
            switch (c) {
                case k_end:
                    error(diag::unclosed_bracketed_selection);
                    return mode::stop;
                case ']':
                    --filter_level_;
                    backup();
                    return mode::bracketed_selection;
                case ',':
                    emit(tok::comma);
                    // Inside a function call a comma separates arguments, else selectors.
                    if (!call_parens_.empty()) continue;
                    --filter_level_;
                    return mode::bracketed_selection;
                case '\'':
                case '"':
                    string_quote_ = static_cast<char16_t>(c);
                    string_return_ = mode::filter;
                    return mode::string;
                case '(':
                    brackets_.emplace_back('(', start_);
                    emit(tok::lparen);
                    if (!call_parens_.empty()) ++call_parens_.back();
                    continue;
                case ')':
                    if (brackets_.empty() || brackets_.back().first != '(') {
                        backup();
                        error(diag::unbalanced_brackets);
                        return mode::stop;
                    }
                    brackets_.pop_back();
                    emit(tok::rparen);
                    if (!call_parens_.empty()) {
                        if (call_parens_.back() == 1) {
                            call_parens_.pop_back();
                        } else {
                            --call_parens_.back();
                        }
                    }
                    continue;
                case '$':
                    emit(tok::root);
                    return mode::segment;
                case '@':
                    emit(tok::current);
                    return mode::segment;
                case '.':
                    backup();
                    return mode::segment;
                case '!':
                    if (peek() == '=') {
                        next();
                        emit(tok::ne);
                    } else {
                        emit(tok::not_);
                    }
                    continue;
                case '=':
                    if (peek() == '=') {
                        next();
                        emit(tok::eq);
                        continue;
                    }
                    backup();
                    error(diag::bad_filter_character, {unit_text(c)});
                    return mode::stop;
                case '<':
                    if (peek() == '=') {
                        next();
                        emit(tok::le);
                    } else {
                        emit(tok::lt);
                    }
                    continue;
                case '>':
                    if (peek() == '=') {
                        next();
                        emit(tok::ge);
                    } else {
                        emit(tok::gt);
                    }
                    continue;
                default:
                    break;
            }
            // '#' (the non-standard current key) is refused in strict mode like any other char.
            backup();
            if (fatal_) return mode::stop;
            // spec: RFC 9535 §2.3.5.1 number = (int / "-0") [ frac ] [ exp ]
            if (accept_int()) {
                if (peek() == '.') {
                    next();
                    if (!accept_int()) {
                        error(diag::fraction_digit_required);
                        return mode::stop;
                    }
                }
                accept_exponent();
                emit(tok::number);
                continue;
            }
            if (accept_literal(u"&&")) { emit(tok::and_); continue; }
            if (accept_literal(u"||")) { emit(tok::or_); continue; }
            if (accept_literal(u"true")) { emit(tok::true_); continue; }
            if (accept_literal(u"false")) { emit(tok::false_); continue; }
            if (accept_literal(u"null")) { emit(tok::null); continue; }
            // spec: RFC 9535 §2.4 function-expr = function-name "(" ...
            if (accept_function_name() && peek() == '(') {
                call_parens_.push_back(1);
                emit(tok::function);
                brackets_.emplace_back('(', start_);
                next();
                ignore();
                continue;
            }
            // The position is after a partly matched function name, as in the reference.
            error(diag::bad_filter_character, {unit_text(c)});
            return mode::stop;
        }
    }

    // After an opening quote. spec: RFC 9535 §2.3.1.1 string-literal
    mode lex_string() {
        const char16_t quote = string_quote_;
        const tok kind = quote == '\'' ? tok::single_quote_string : tok::double_quote_string;
        ignore();
        if (peek() == quote) {  // the empty string
            emit(kind);
            next();
            ignore();
            return string_return_;
        }
        for (;;) {
            const std::u16string_view la = src_.substr(pos_, 2);
            const int c = next();
            if (la.size() == 2 && la[0] == '\\' && (la[1] == '\\' || la[1] == quote)) {
                next();
                continue;
            }
            if (c == '\\') {
                const bool known = la.size() == 2 && std::u16string_view(u"bfnrtu/").find(la[1]) !=
                                                         std::u16string_view::npos;
                if (!known) {
                    error(diag::invalid_escape);
                    return mode::stop;
                }
            }
            if (c == k_end) {
                error(diag::unclosed_string, {std::to_string(start_)});
                return mode::stop;
            }
            if (c == quote) {
                backup();
                emit(kind);
                next();
                ignore();
                return string_return_;
            }
        }
    }

    std::u16string_view src_;
    std::size_t start_ = 0;
    std::size_t pos_ = 0;
    int filter_level_ = 0;
    std::vector<int> call_parens_;                          // open parens per function call
    std::vector<std::pair<char, std::size_t>> brackets_;   // open "[" / "(" and where
    char16_t string_quote_ = '"';
    mode string_return_ = mode::bracketed_selection;
    std::vector<token> tokens_;
    diag error_diag_ = diag::count_;  // the error token's diagnostic
    std::string error_text_;          // and its text, which is also that token's value
    std::optional<failure> fatal_;  // errors the reference throws from inside the scan
};

// ---------------------------------------------------------------------------------------------
// Function extensions. spec: RFC 9535 §2.4.1 (types), §2.4.4–§2.4.8 (the five functions)

enum class fn_type : std::uint8_t { value, logical, nodes };

struct function_signature {
    std::string_view name;
    std::uint8_t arity;
    fn_type params[2];
    fn_type result;
};

constexpr function_signature k_functions[] = {
    {"count", 1, {fn_type::nodes, fn_type::nodes}, fn_type::value},    // §2.4.5
    {"length", 1, {fn_type::value, fn_type::value}, fn_type::value},   // §2.4.4
    {"search", 2, {fn_type::value, fn_type::value}, fn_type::logical},  // §2.4.7
    {"match", 2, {fn_type::value, fn_type::value}, fn_type::logical},   // §2.4.6
    {"value", 1, {fn_type::nodes, fn_type::nodes}, fn_type::value},     // §2.4.8
};

const function_signature* find_function(std::string_view name) {
    for (const auto& f : k_functions) {
        if (f.name == name) return &f;
    }
    return nullptr;
}

// ---------------------------------------------------------------------------------------------
// Parser

enum class node : std::uint8_t {
    none, null_literal, boolean_literal, string_literal, number_literal, prefix, infix,
    root_query, relative_query, function,
};

// As much of a filter expression as the type rules look at.
struct expr {
    node kind = node::none;
    std::size_t token = 0;  // the reference's token for this expression (messages point there)
    bool singular = false;  // queries: RFC 9535 §2.3.5.1 singular-query
    const function_signature* fn = nullptr;

    bool is_literal() const {
        return kind == node::null_literal || kind == node::boolean_literal ||
               kind == node::string_literal || kind == node::number_literal;
    }
    bool is_query() const { return kind == node::root_query || kind == node::relative_query; }
};

// Binding powers of the reference's Pratt parser.
constexpr int k_prec_lowest = 1;
constexpr int k_prec_or = 4;
constexpr int k_prec_and = 5;
constexpr int k_prec_comparison = 6;
constexpr int k_prec_prefix = 7;

int precedence(tok k) {
    switch (k) {
        case tok::and_: return k_prec_and;
        case tok::or_: return k_prec_or;
        case tok::eq: case tok::ge: case tok::gt: case tok::le: case tok::lt: case tok::ne:
            return k_prec_comparison;
        case tok::not_: return k_prec_prefix;
        default: return k_prec_lowest;
    }
}

bool is_binary(tok k) {
    switch (k) {
        case tok::and_: case tok::or_: case tok::eq: case tok::ge: case tok::gt: case tok::le:
        case tok::lt: case tok::ne:
            return true;
        default:
            return false;
    }
}

bool is_comparison(tok k) { return is_binary(k) && k != tok::and_ && k != tok::or_; }

// Tokens that can start a filter operand (the reference's prefix table).
bool starts_operand(tok k) {
    switch (k) {
        case tok::false_: case tok::true_: case tok::number: case tok::lparen: case tok::not_:
        case tok::null: case tok::root: case tok::current: case tok::single_quote_string:
        case tok::double_quote_string: case tok::function:
            return true;
        default:
            return false;
    }
}

// What a segment's selectors add up to, for the singular-query test.
struct selection {
    std::size_t count = 0;
    bool name_or_index = false;  // the first selector is a name or an index
};

class parser {
public:
    parser(std::u16string_view src, const std::vector<token>& tokens, std::string_view error_text)
        : src_(src), tokens_(tokens), error_text_(error_text) {}

    // spec: RFC 9535 §2.1.1 jsonpath-query = root-identifier segments
    std::optional<failure> jsonpath_query() {
        if (current_kind() == tok::root) next();
        segments(false);
        if (!failed_ && current_kind() != tok::eof) {
            fail(diag::unexpected_token_kind, {token_name(current_kind())}, pos_);
        }
        return failed_;
    }

private:
    // --- the token stream

    tok current_kind() {
        if (pos_ >= tokens_.size()) {
            if (!failed_) failed_ = failure(diag::read_past_end, format(diag::read_past_end), 0);
            return tok::eof;
        }
        return tokens_[pos_].kind;
    }
    std::size_t peek_pos() const { return pos_ + 1 >= tokens_.size() ? tokens_.size() - 1 : pos_ + 1; }
    tok peek_kind() const { return tokens_[peek_pos()].kind; }
    std::size_t next() { return pos_++; }
    void backup() {
        if (pos_ > 0) --pos_;
    }
    std::string value_of(std::size_t t) const {
        if (t >= tokens_.size()) return {};
        const token& k = tokens_[t];
        if (k.kind == tok::error) return std::string(error_text_);
        return units_to_utf8(src_.substr(k.begin, k.end - k.begin));
    }
    std::u16string_view units_of(std::size_t t) const {
        return src_.substr(tokens_[t].begin, tokens_[t].end - tokens_[t].begin);
    }

    // Records diagnostic `d` at token `t`, unless a failure is already recorded.
    void fail(diag d, std::initializer_list<std::string_view> args, std::size_t t) {
        if (failed_) return;
        const std::ptrdiff_t index = t < tokens_.size() ? static_cast<std::ptrdiff_t>(tokens_[t].index) : 0;
        failed_ = failure(d, format(d, args), index);
    }
    bool expect(tok k) {
        const tok c = current_kind();
        if (failed_) return false;
        if (c != k) {
            fail(diag::expected_token, {token_name(k), token_name(c)}, pos_);
            return false;
        }
        return true;
    }
    bool expect_peek(tok k) {
        if (peek_kind() != k) {
            fail(diag::expected_token, {token_name(k), token_name(peek_kind())}, peek_pos());
            return false;
        }
        return true;
    }

    // Counts one level of recursion; false (and a failure) once the budget is spent.
    struct nesting {
        explicit nesting(parser& p) : p_(p), ok(++p.depth_ <= k_max_nesting) {
            if (!ok && !p_.failed_) p_.failed_ = failure(diag::too_deep, format(diag::too_deep), 0);
        }
        ~nesting() { --p_.depth_; }
        nesting(const nesting&) = delete;
        nesting& operator=(const nesting&) = delete;
        parser& p_;
        bool ok;
    };

    // --- segments and selectors

    // spec: RFC 9535 §2.5 segments = *(S segment); returns whether they form a singular query
    // (§2.3.5.1 singular-query-segments: name and index selectors only, one per segment).
    bool segments(bool in_filter) {
        bool singular = true;
        for (;;) {
            if (failed_) return false;
            switch (current_kind()) {
                case tok::ddot: {  // spec: RFC 9535 §2.5.2 descendant-segment
                    next();
                    selectors();
                    singular = false;
                    break;
                }
                case tok::lbracket:
                case tok::name:
                case tok::wild: {  // spec: RFC 9535 §2.5.1 child-segment
                    const selection s = selectors();
                    if (!(s.count == 1 && s.name_or_index)) singular = false;
                    break;
                }
                default:
                    if (in_filter) backup();
                    return singular;
            }
            if (failed_) return false;
            next();
        }
    }

    selection selectors() {
        switch (current_kind()) {
            case tok::name: return {1, true};  // spec: RFC 9535 §2.5.1.1 member-name-shorthand
            case tok::wild: return {1, false};
            case tok::lbracket: return bracketed_selection();
            default: return {};
        }
    }

    // spec: RFC 9535 §2.5.1.1 bracketed-selection = "[" S selector *(S "," S selector) S "]"
    selection bracketed_selection() {
        nesting guard(*this);
        if (!guard.ok) return {};
        const std::size_t open = next();
        selection s;
        while (!failed_ && current_kind() != tok::rbracket) {
            bool name_or_index = false;
            switch (current_kind()) {
                case tok::single_quote_string:
                case tok::double_quote_string:  // spec: RFC 9535 §2.3.1 name-selector
                    decode_string(pos_);
                    name_or_index = true;
                    break;
                case tok::filter:
                    filter_selector();
                    break;
                case tok::index:
                    if (peek_kind() == tok::colon) {
                        slice_selector();
                    } else {
                        index_selector();
                        name_or_index = true;
                    }
                    break;
                case tok::colon:
                    slice_selector();
                    break;
                case tok::wild:  // spec: RFC 9535 §2.3.2 wildcard-selector
                    break;
                case tok::eof:
                    fail(diag::unexpected_end_of_query, {}, pos_);
                    break;
                default:
                    fail(diag::bad_bracketed_token, {token_name(current_kind())}, pos_);
                    break;
            }
            if (failed_) break;
            if (s.count++ == 0) s.name_or_index = name_or_index;
            if (peek_kind() != tok::rbracket) {
                if (!expect_peek(tok::comma)) break;
                next();
                if (peek_kind() == tok::rbracket) {
                    fail(diag::trailing_comma, {}, peek_pos());
                    break;
                }
            }
            next();
        }
        if (!failed_ && s.count == 0) fail(diag::empty_bracketed_segment, {}, open);
        return s;
    }

    // The reference's leading-zero rule for index tokens ("0" alone is fine, "-0" is not).
    bool check_leading_zero(std::size_t t) {
        const std::u16string_view v = units_of(t);
        if ((v.size() > 1 && v[0] == '0') || (v.size() > 1 && v[0] == '-' && v[1] == '0')) {
            fail(diag::leading_zero, {}, t);
            return false;
        }
        return true;
    }

    // spec: RFC 9535 §2.1: an int outside ±(2^53 − 1)
    bool out_of_range(std::size_t t) const {
        std::u16string_view v = units_of(t);
        if (!v.empty() && v[0] == '-') v.remove_prefix(1);
        while (v.size() > 1 && v[0] == '0') v.remove_prefix(1);
        if (v.size() != k_max_index_digits.size()) return v.size() > k_max_index_digits.size();
        return v > k_max_index_digits;
    }

    // spec: RFC 9535 §2.3.3.1 index-selector = int
    void index_selector() {
        if (!check_leading_zero(pos_)) return;
        if (out_of_range(pos_)) fail(diag::index_out_of_range, {}, pos_);
    }

    // spec: RFC 9535 §2.3.4.1 slice-selector = [start S] ":" S [end S] [":" [S step ]]
    // Follows the reference token by token, including its leniency (`1:2 3` reads as 1:2:3).
    void slice_selector() {
        const std::size_t first = pos_;
        std::vector<std::size_t> ints;
        auto maybe_index = [&]() -> bool {
            if (current_kind() != tok::index) return false;
            if (!check_leading_zero(pos_)) return false;
            ints.push_back(pos_);
            return true;
        };
        // start ":" or ":"
        if (maybe_index()) {
            next();
            if (!expect(tok::colon)) return;
            next();
        } else {
            if (failed_ || !expect(tok::colon)) return;
            next();
        }
        // end, end ":", ":" or nothing
        if (maybe_index()) {
            next();
            if (current_kind() == tok::colon) next();
        } else if (failed_) {
            return;
        } else if (current_kind() == tok::colon) {
            next();
        }
        // step or nothing
        if (maybe_index()) next();
        if (failed_) return;
        backup();
        for (const std::size_t t : ints) {
            if (out_of_range(t)) {
                fail(diag::index_out_of_range, {}, first);
                return;
            }
        }
    }

    // spec: RFC 9535 §2.3.5.1 filter-selector = "?" S logical-expr
    void filter_selector() {
        next();
        const expr e = logical_expr(k_prec_lowest);
        if (failed_) return;
        if (e.kind == node::function && e.fn->result == fn_type::value) {
            fail(diag::function_result_uncompared, {e.fn->name}, e.token);
            return;
        }
        require_not_literal(e);
    }

    // --- filter expressions

    // spec: RFC 9535 §2.3.5.1 logical-expr / logical-or-expr / logical-and-expr / basic-expr,
    // parsed by binding power: operators bind tighter than `precedence`, left operand first.
    expr logical_expr(int min_precedence) {
        nesting guard(*this);
        if (!guard.ok) return {};
        const tok k = current_kind();
        if (failed_) return {};
        if (!starts_operand(k)) {
            if (k == tok::eof || k == tok::rbracket) {
                fail(diag::unexpected_end_of_expression, {}, pos_);
            } else {
                fail(diag::unexpected_value, {value_of(pos_)}, pos_);
            }
            return {};
        }
        expr left = operand();
        for (;;) {
            if (failed_) return {};
            const tok p = peek_kind();
            if (p == tok::eof || p == tok::rbracket || precedence(p) < min_precedence) break;
            if (!is_binary(p)) return left;
            next();
            left = infix_expr(left);
        }
        return left;
    }

    // One operand, chosen by its first token.
    expr operand() {
        nesting guard(*this);
        if (!guard.ok) return {};
        switch (current_kind()) {
            case tok::true_:
            case tok::false_: return {node::boolean_literal, pos_};
            case tok::null: return {node::null_literal, pos_};
            case tok::number: return number_literal();
            case tok::single_quote_string:
            case tok::double_quote_string: decode_string(pos_); return {node::string_literal, pos_};
            case tok::lparen: return paren_expr();
            case tok::not_: return logical_not_expr();
            case tok::root: return filter_query(node::root_query);
            case tok::current: return filter_query(node::relative_query);
            case tok::function: return function_expr();
            default: return {};
        }
    }

    // spec: RFC 9535 §2.3.5.1 number = (int / "-0") [ frac ] [ exp ]; the reference refuses any
    // leading "0" followed by more (so "0.5" too) and a fraction with a sign.
    expr number_literal() {
        const std::u16string_view v = units_of(pos_);
        if ((v.size() > 1 && v[0] == '0') || v.find(u".-") != std::u16string_view::npos) {
            fail(diag::invalid_number, {value_of(pos_)}, pos_);
            return {};
        }
        return {node::number_literal, pos_};
    }

    // spec: RFC 9535 §2.3.5.1 logical-not-op = "!" (paren-expr / test-expr)
    expr logical_not_expr() {
        next();
        const std::size_t t = pos_;  // the reference points at the token after "!"
        logical_expr(k_prec_prefix);
        return {node::prefix, t};
    }

    // An operator and its right operand. spec: RFC 9535 §2.3.5.1 comparison-expr, logical-and-expr,
    // logical-or-expr. Comparisons take singular queries and value-typed functions only;
    // && and || refuse bare literals.
    expr infix_expr(const expr& left) {
        const std::size_t op = next();
        const tok k = tokens_[op].kind;
        const expr right = logical_expr(precedence(k));
        if (failed_) return {};
        if (is_comparison(k)) {
            require_comparable(left);
            require_comparable(right);
        } else {
            require_not_literal(left);
            require_not_literal(right);
        }
        return {node::infix, op};
    }

    // spec: RFC 9535 §2.3.5.1 paren-expr = "(" S logical-expr S ")"
    expr paren_expr() {
        if (peek_kind() == tok::rparen) {
            fail(diag::empty_paren, {}, pos_);
            return {};
        }
        next();
        expr e = logical_expr(k_prec_lowest);
        if (failed_) return {};
        next();
        for (;;) {
            const tok k = current_kind();
            if (failed_) return {};
            if (k == tok::rparen) break;
            if (k == tok::eof) {
                fail(diag::unbalanced_parens, {}, pos_);
                return {};
            }
            if (!is_binary(k)) {
                fail(diag::expected_expression, {value_of(pos_)}, pos_);
                return {};
            }
            e = infix_expr(e);
        }
        return e;
    }

    // spec: RFC 9535 §2.3.5.1 filter-query = rel-query / jsonpath-query
    expr filter_query(node kind) {
        const std::size_t t = next();
        const bool singular = segments(true);
        return {kind, t, singular};
    }

    // spec: RFC 9535 §2.4 function-expr = function-name "(" S [function-argument
    //                                      *(S "," S function-argument)] S ")"
    expr function_expr() {
        const std::size_t t = next();
        std::vector<expr> args;
        while (!failed_ && current_kind() != tok::rparen) {
            if (!starts_operand(current_kind())) {
                fail(diag::unexpected_value, {value_of(pos_)}, pos_);
                break;
            }
            expr e = operand();
            while (!failed_ && is_binary(peek_kind())) {
                next();
                e = infix_expr(e);
            }
            if (failed_) break;
            args.push_back(e);
            if (peek_kind() != tok::rparen) {
                if (peek_kind() == tok::rbracket) break;
                if (!expect_peek(tok::comma)) break;
                next();
            }
            next();
        }
        if (failed_ || !expect(tok::rparen)) return {};
        return well_typed_call(t, args);
    }

    // spec: RFC 9535 §2.4.3 well-typedness of function expressions
    expr well_typed_call(std::size_t t, const std::vector<expr>& args) {
        const std::string name = value_of(t);
        const function_signature* fn = find_function(name);
        if (fn == nullptr) {
            fail(diag::no_such_function, {name}, t);
            return {};
        }
        if (args.size() != fn->arity) {
            fail(diag::wrong_arity,
                 {name, std::to_string(fn->arity), fn->arity == 1 ? "" : "s", std::to_string(args.size())}, t);
            return {};
        }
        for (std::size_t i = 0; i < args.size(); ++i) {
            const expr& a = args[i];
            switch (fn->params[i]) {
                case fn_type::value:
                    if (!(a.is_literal() || (a.is_query() && a.singular) ||
                          (a.kind == node::function && a.fn->result == fn_type::value))) {
                        fail(diag::argument_not_value, {name, std::to_string(i)}, a.token);
                        return {};
                    }
                    break;
                case fn_type::logical:
                    if (!(a.is_query() || a.kind == node::infix)) {
                        fail(diag::argument_not_logical, {name, std::to_string(i)}, a.token);
                        return {};
                    }
                    break;
                case fn_type::nodes:
                    if (!(a.is_query() || (a.kind == node::function && a.fn->result == fn_type::nodes))) {
                        fail(diag::argument_not_nodes, {name, std::to_string(i)}, a.token);
                        return {};
                    }
                    break;
            }
        }
        expr e{node::function, t};
        e.fn = fn;
        return e;
    }

    void require_comparable(const expr& e) {
        if (e.is_query() && !e.singular) {
            fail(diag::non_singular_comparison, {}, e.token);
        } else if (e.kind == node::function && e.fn->result != fn_type::value) {
            fail(diag::function_result_incomparable, {e.fn->name}, e.token);
        }
    }

    void require_not_literal(const expr& e) {
        if (!e.is_literal()) return;
        fail(diag::literal_uncompared, {literal_text(e)}, e.token);
    }

    // The literal as the reference prints it (JavaScript String(number), a canonical 'string').
    std::string literal_text(const expr& e) {
        const tok k = tokens_[e.token].kind;
        switch (e.kind) {
            case node::null_literal: return "null";
            case node::boolean_literal: return k == tok::true_ ? "true" : "false";
            case node::number_literal: return number_text(units_of(e.token));
            case node::string_literal: {
                const std::optional<std::u16string> s = decode_string(e.token);
                return s ? canonical_string(*s) : std::string();
            }
            default: return {};
        }
    }

    // JavaScript's String(Number(text)) for the reference's number tokens.
    static std::string number_text(std::u16string_view text) {
        std::string ascii;
        for (const char16_t c : text) ascii += static_cast<char>(c);
        double v = 0;
        const std::from_chars_result res = std::from_chars(ascii.data(), ascii.data() + ascii.size(), v);
        if (res.ec == std::errc::result_out_of_range) {
            v = overflows(ascii) ? HUGE_VAL : 0.0;
            if (!ascii.empty() && ascii[0] == '-') v = -v;
        }
        if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
        std::string out;
        append_js_number(out, v);
        return out;
    }

    // For a decimal text out of double range: true when too large (rather than too small),
    // judged by the decimal exponent of its first significant digit.
    static bool overflows(std::string_view t) {
        if (!t.empty() && t[0] == '-') t.remove_prefix(1);
        const std::size_t e_at = t.find_first_of("eE");
        long long exp = 0;
        if (e_at != std::string_view::npos) {
            std::string_view e = t.substr(e_at + 1);
            const bool neg = !e.empty() && e[0] == '-';
            if (!e.empty() && (e[0] == '-' || e[0] == '+')) e.remove_prefix(1);
            for (const char c : e) {
                exp = exp * 10 + (c - '0');
                if (exp > 1'000'000'000) break;  // far beyond any double either way
            }
            if (neg) exp = -exp;
            t = t.substr(0, e_at);
        }
        const std::size_t dot = t.find('.');
        const std::string_view whole = t.substr(0, dot);
        const std::size_t nz = whole.find_first_not_of('0');
        if (nz != std::string_view::npos) return exp + static_cast<long long>(whole.size() - nz) - 1 >= 0;
        const std::string_view frac = dot == std::string_view::npos ? std::string_view() : t.substr(dot + 1);
        const std::size_t fnz = frac.find_first_not_of('0');
        return fnz != std::string_view::npos && exp - static_cast<long long>(fnz) - 1 >= 0;
    }

    // JSON.stringify(s) with the quotes handled as the reference's toCanonical() does.
    static std::string canonical_string(std::u16string_view s) {
        static constexpr char k_hex[] = "0123456789abcdef";
        std::u16string json;
        const auto escape_u = [&json](char16_t u) {
            json += u"\\u";
            for (int shift = 12; shift >= 0; shift -= 4) json += static_cast<char16_t>(k_hex[(u >> shift) & 0xF]);
        };
        for (std::size_t i = 0; i < s.size(); ++i) {
            const char16_t c = s[i];
            switch (c) {
                case '"': json += u"\\\""; break;
                case '\\': json += u"\\\\"; break;
                case '\b': json += u"\\b"; break;
                case '\f': json += u"\\f"; break;
                case '\n': json += u"\\n"; break;
                case '\r': json += u"\\r"; break;
                case '\t': json += u"\\t"; break;
                default:
                    if (c < 0x20) {
                        escape_u(c);
                    } else if (is_high_surrogate(c) && i + 1 < s.size() && is_low_surrogate(s[i + 1])) {
                        json += c;
                        json += s[++i];
                    } else if (is_high_surrogate(c) || is_low_surrogate(c)) {
                        escape_u(c);
                    } else {
                        json += c;
                    }
            }
        }
        // replaceAll('\\"', '"'), then replaceAll("'", "\\'"), inside single quotes
        std::u16string quoted = u"'";
        for (std::size_t i = 0; i < json.size(); ++i) {
            if (json[i] == '\\' && i + 1 < json.size() && json[i + 1] == '"') {
                quoted += u'"';
                ++i;
            } else if (json[i] == '\'') {
                quoted += u"\\'";
            } else {
                quoted += json[i];
            }
        }
        quoted += u'\'';
        return units_to_utf8(quoted);
    }

    // --- string literals. spec: RFC 9535 §2.3.1.1 string-literal, escapable, hexchar

    // Decodes string token `t` as the reference does: a single-quoted body first has `"` escaped
    // and `\'` unescaped, then JSON-style escapes are applied and each unit below U+0020 refused.
    std::optional<std::u16string> decode_string(std::size_t t) {
        std::u16string v(units_of(t));
        if (tokens_[t].kind == tok::single_quote_string) {
            std::u16string a;
            for (const char16_t c : v) {
                if (c == '"') a += u"\\\""; else a += c;
            }
            v.clear();
            for (std::size_t i = 0; i < a.size(); ++i) {
                if (a[i] == '\\' && i + 1 < a.size() && a[i + 1] == '\'') {
                    v += u'\'';
                    ++i;
                } else {
                    v += a[i];
                }
            }
        }
        const std::ptrdiff_t base = static_cast<std::ptrdiff_t>(tokens_[t].index);
        auto at = [&](std::ptrdiff_t i) { return std::to_string(base + i); };
        std::u16string out;
        const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(v.size());
        std::ptrdiff_t i = 0;
        while (i < n) {
            const char16_t c = v[static_cast<std::size_t>(i)];
            if (c != '\\') {
                if (c <= 0x1F) {
                    fail(diag::invalid_character, {}, t);
                    return std::nullopt;
                }
                out += c;
                ++i;
                continue;
            }
            ++i;
            const int e = i < n ? v[static_cast<std::size_t>(i)] : k_end;
            switch (e) {
                case '"': out += u'"'; break;
                case '\\': out += u'\\'; break;
                case '/': out += u'/'; break;
                case 'b': out += u'\b'; break;
                case 'f': out += u'\f'; break;
                case 'n': out += u'\n'; break;
                case 'r': out += u'\r'; break;
                case 't': out += u'\t'; break;
                case 'u': {
                    // spec: RFC 9535 §2.3.1.1 hexchar = non-surrogate / (high-surrogate "\" %x75 low-surrogate)
                    if (i + 4 >= n) {
                        fail(diag::incomplete_escape, {at(i - 1)}, t);
                        return std::nullopt;
                    }
                    ++i;
                    std::uint32_t cp = 0;
                    if (!hex4(v, static_cast<std::size_t>(i), cp, t)) return std::nullopt;
                    if (is_low_surrogate(cp)) {
                        fail(diag::low_surrogate_first, {at(i - 2)}, t);
                        return std::nullopt;
                    }
                    if (is_high_surrogate(cp)) {
                        if (!(i + 9 < n && v[static_cast<std::size_t>(i + 4)] == '\\' &&
                              v[static_cast<std::size_t>(i + 5)] == 'u')) {
                            fail(diag::incomplete_escape, {at(i - 2)}, t);
                            return std::nullopt;
                        }
                        std::uint32_t low = 0;
                        if (!hex4(v, static_cast<std::size_t>(i + 6), low, t)) return std::nullopt;
                        if (!is_low_surrogate(low)) {
                            fail(diag::expected_low_surrogate, {at(i + 4)}, t);
                            return std::nullopt;
                        }
                        out += static_cast<char16_t>(cp);
                        out += static_cast<char16_t>(low);
                        i += 9;
                    } else {
                        if (cp <= 0x1F) {
                            fail(diag::invalid_character, {}, t);
                            return std::nullopt;
                        }
                        out += static_cast<char16_t>(cp);
                        i += 3;
                    }
                    break;
                }
                default:
                    fail(diag::unknown_escape, {at(i - 1)}, t);
                    return std::nullopt;
            }
            ++i;
        }
        return out;
    }

    // Four hex digits at v[i..i+4) (the caller made sure they exist).
    bool hex4(std::u16string_view v, std::size_t i, std::uint32_t& cp, std::size_t t) {
        cp = 0;
        for (std::size_t k = i; k < i + 4 && k < v.size(); ++k) {
            const int d = ascii::hex_value(v[k]);
            if (d < 0) {
                fail(diag::invalid_hex_escape, {}, t);
                return false;
            }
            cp = (cp << 4) | static_cast<std::uint32_t>(d);
        }
        return true;
    }

    std::u16string_view src_;
    const std::vector<token>& tokens_;
    std::string_view error_text_;
    std::size_t pos_ = 0;
    int depth_ = 0;
    std::optional<failure> failed_;
};

// The reference's message context: up to nine code units of the query around `index`.
std::string with_context(const failure& f, std::u16string_view src) {
    if (!f.context) return f.message;
    const auto n = static_cast<std::ptrdiff_t>(src.size());
    const std::ptrdiff_t i = f.index;
    std::u16string_view slice;
    if (n <= 9) {
        slice = src;
    } else if (i > n - 5) {
        slice = src.substr(static_cast<std::size_t>(n - 9));
    } else if (i - 4 < 0) {
        slice = src.substr(0, 9);
    } else {
        slice = src.substr(static_cast<std::size_t>(i - 4), 9);
    }
    std::string out = f.message;
    out += " ('";
    append_utf16_as_utf8(out, slice);
    out += "':";
    out += std::to_string(i);
    out += ')';
    return out;
}

}  // namespace

verdict validate_jsonpath(std::string_view expr) {
    const utf16_text text = to_utf16(expr);
    lexer lx(text.units);
    std::optional<failure> f = lx.run();
    if (!f) {
        parser p(text.units, lx.tokens(), lx.error_text());
        f = p.jsonpath_query();
    }
    if (!f) return {};
    verdict v;
    v.ok = false;
    const std::ptrdiff_t i = f->index;
    v.offset = i <= 0 ? 0
                      : text.byte_offset[std::min(static_cast<std::size_t>(i), text.byte_offset.size() - 1)];
    v.message = with_context(*f, text.units);
    return v;
}

std::optional<std::string> check_jsonpath_matcher(std::string_view matcher) {
    verdict v = validate_jsonpath(matcher);
    if (v.ok) return std::nullopt;
    return std::string(k_matcher_prefix) + v.message;
}

}  // namespace plurnk
