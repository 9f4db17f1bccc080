// SPDX-License-Identifier: MIT
// The JSONPath validator's internals (private header; the design is in jsonpath.cpp's opening
// paragraph): the diagnostics and token tables, the lexer and the parser classes with their
// inline primitives. The passes are defined along the parts of RFC 9535 they implement:
//   lexer.cpp   the lexer's mode functions (§2.1 query syntax as the reference tokenizes it);
//   parser.cpp  segments and selectors (§2.3 names, wildcards, indices, slices, filters, §2.5);
//   filter.cpp  filter expressions (§2.3.5), function extensions (§2.4) and string literals
//               (§2.3.1.1);
//   jsonpath.cpp  the message formatting and the entry points.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/ascii.hpp"
#include "base/utf8.hpp"

namespace plurnk::jsonpath_detail {

// Nesting budget shared by the productions the reference counts (filter expressions, their
// operands, bracketed selections), which nest on the parser's heap-allocated frame stack, not on
// the call stack. Node overflows its own stack at roughly 1100 nested filters or 3700 chained `&&`;
// this stays below every such shape so a deep query is refused here no later than there.
constexpr int k_max_nesting = 1024;

// RFC 9535 §2.1: integers must be within I-JSON's exact range, ±(2^53 − 1).
constexpr std::u16string_view k_max_index_digits = u"9007199254740991";

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

inline constexpr diag_text k_diag_texts[] = {
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

// The message for `d` with each `{}` replaced by the next argument (jsonpath.cpp).
std::string format(diag d, std::initializer_list<std::string_view> args = {});

// ---------------------------------------------------------------------------------------------
// Tokens

enum class tok : std::uint8_t {
    and_, colon, comma, current, ddot, double_quote_string, eof, eq, error, false_, filter,
    function, ge, gt, index, lbracket, le, lparen, lt, name, ne, not_, null, number, or_,
    rbracket, root, rparen, single_quote_string, true_, wild,
    count_  // not a token: the table size
};

// The reference's token-kind names, which appear verbatim in some of its messages.
inline constexpr std::string_view k_token_names[] = {
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
using detail::utf16_unit_byte_offset;

inline std::string units_to_utf8(std::u16string_view units) {
    std::string out;
    append_utf16_as_utf8(out, units);
    return out;
}

// ---------------------------------------------------------------------------------------------
// Character classes of the reference's lexer patterns (applied per code unit)

using ascii::is_digit;
// RFC 9535 §2.5.1.1 name-first: ALPHA / "_" / %x80-... (the reference: any unit >= U+0080)
inline bool is_name_first(int c) { return c >= 0x80 || ascii::is_alpha(static_cast<std::uint32_t>(c)) || c == '_'; }
// name-char = name-first / DIGIT (the reference also admits "-")
inline bool is_name_char(int c) { return is_name_first(c) || is_digit(static_cast<std::uint32_t>(c)) || c == '-'; }

// ---------------------------------------------------------------------------------------------
// Lexer: mode functions over code units, after the reference's state functions. Each returns the
// next mode; `stop` ends the scan (after an error token or the EOF token).
//
// run() tokenizes the whole query, as the reference does before it parses, but keeps at most
// k_kept_tokens of them: a query of a token per byte (`$[?!!!!…`) would otherwise hold 32 bytes
// per input byte, when the parser usually stops long before the end (k_max_nesting). When run()
// kept them all (complete()), the parser reads them from it; otherwise a second lexer over the
// same units makes them again as the parser asks for them (token_at()), the same tokens, since
// the scan is deterministic and the first one met no error.

// How many tokens run() keeps; a longer query is lexed a second time as it is parsed.
constexpr std::size_t k_kept_tokens = 4096;

enum class mode : std::uint8_t {
    stop, root, segment, descendant_selection, dot_selector, bracketed_selection, filter,
    string,  // string_quote_ and string_return_ say which quote and which mode to resume
};

class lexer {
public:
    explicit lexer(std::u16string_view src) : src_(src) {}

    // Tokenizes the whole query; returns the failure that tokenizing alone decides, if any.
    std::optional<failure> run() {
        keep_ = k_kept_tokens;
        while (mode_ != mode::stop && !fatal_) mode_ = step(mode_);
        if (fatal_) return fatal_;
        if (count_ != 0 && last_.kind == tok::error) {
            return failure(error_diag_, error_text_, static_cast<std::ptrdiff_t>(last_.index));
        }
        if (!brackets_.empty()) {  // unbalanced `[` or `(` left open at the end
            return failure(diag::unbalanced_brackets, format(diag::unbalanced_brackets),
                           static_cast<std::ptrdiff_t>(brackets_.back().second));
        }
        return std::nullopt;
    }

    // After run(): how many tokens the query has, and whether all of them were kept.
    std::size_t token_count() const { return count_; }
    bool complete() const { return count_ == tokens_.size(); }
    const std::string& error_text() const { return error_text_; }

    // Token t (< the query's token count): kept by run(), or (on a lexer that has not run) lexed
    // up to it now.
    const token& token_at(std::size_t t) {
        while (t >= tokens_.size() && mode_ != mode::stop && !fatal_) mode_ = step(mode_);
        return tokens_[t];
    }

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
        push(token{k, start_, pos_, start_});
        start_ = pos_;
    }
    void push(const token& t) {
        if (tokens_.size() < keep_) tokens_.push_back(t);
        last_ = t;
        ++count_;
    }
    // Records an error token at the current position; the scan normally stops after it.
    void error(diag d, std::initializer_list<std::string_view> args = {}) {
        error_diag_ = d;
        error_text_ = format(d, args);
        push(token{tok::error, 0, 0, pos_});
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

    // --- modes (lexer.cpp)

    mode lex_root();
    mode lex_segment();
    mode lex_descendant_selection();
    mode lex_dot_selector();
    mode lex_bracketed_selection();
    mode lex_filter();
    mode lex_string();

    std::u16string_view src_;
    std::size_t start_ = 0;
    std::size_t pos_ = 0;
    int filter_level_ = 0;
    std::vector<int> call_parens_;                          // open parens per function call
    std::vector<std::pair<char, std::size_t>> brackets_;   // open "[" / "(" and where
    char16_t string_quote_ = '"';
    mode string_return_ = mode::bracketed_selection;
    mode mode_ = mode::root;
    std::vector<token> tokens_;                 // the first keep_ tokens
    std::size_t keep_ = static_cast<std::size_t>(-1);
    std::size_t count_ = 0;                     // tokens made so far, kept or not
    token last_{tok::eof, 0, 0, 0};             // the last one
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

inline constexpr function_signature k_functions[] = {
    {"count", 1, {fn_type::nodes, fn_type::nodes}, fn_type::value},    // §2.4.5
    {"length", 1, {fn_type::value, fn_type::value}, fn_type::value},   // §2.4.4
    {"search", 2, {fn_type::value, fn_type::value}, fn_type::logical},  // §2.4.7
    {"match", 2, {fn_type::value, fn_type::value}, fn_type::logical},   // §2.4.6
    {"value", 1, {fn_type::nodes, fn_type::nodes}, fn_type::value},     // §2.4.8
};

const function_signature* find_function(std::string_view name);  // filter.cpp

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

inline int precedence(tok k) {
    switch (k) {
        case tok::and_: return k_prec_and;
        case tok::or_: return k_prec_or;
        case tok::eq: case tok::ge: case tok::gt: case tok::le: case tok::lt: case tok::ne:
            return k_prec_comparison;
        case tok::not_: return k_prec_prefix;
        default: return k_prec_lowest;
    }
}

inline bool is_binary(tok k) {
    switch (k) {
        case tok::and_: case tok::or_: case tok::eq: case tok::ge: case tok::gt: case tok::le:
        case tok::lt: case tok::ne:
            return true;
        default:
            return false;
    }
}

inline bool is_comparison(tok k) { return is_binary(k) && k != tok::and_ && k != tok::or_; }

// Tokens that can start a filter operand (the reference's prefix table).
inline bool starts_operand(tok k) {
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
    // `tokens` holds the query's `count` tokens or makes them when asked (lexer::token_at).
    parser(std::u16string_view src, lexer& tokens, std::size_t count, std::string_view error_text)
        : src_(src), tokens_(tokens), count_(count), error_text_(error_text) {}

    // spec: RFC 9535 §2.1.1 jsonpath-query = root-identifier segments
    std::optional<failure> jsonpath_query() {
        if (current_kind() == tok::root) next();
        run(start(resume::segments));
        if (!failed_ && current_kind() != tok::eof) {
            fail(diag::unexpected_token_kind, {token_name(current_kind())}, pos_);
        }
        return failed_;
    }

private:
    // --- the token stream

    tok current_kind() {
        if (pos_ >= count_) {
            if (!failed_) failed_ = failure(diag::read_past_end, format(diag::read_past_end), 0);
            return tok::eof;
        }
        return tok_at(pos_).kind;
    }
    std::size_t peek_pos() const { return pos_ + 1 >= count_ ? count_ - 1 : pos_ + 1; }
    tok peek_kind() const { return tok_at(peek_pos()).kind; }
    token tok_at(std::size_t t) const { return tokens_.token_at(t); }
    std::size_t next() { return pos_++; }
    void backup() {
        if (pos_ > 0) --pos_;
    }
    std::string value_of(std::size_t t) const {
        if (t >= count_) return {};
        const token k = tok_at(t);
        if (k.kind == tok::error) return std::string(error_text_);
        return units_to_utf8(src_.substr(k.begin, k.end - k.begin));
    }
    std::u16string_view units_of(std::size_t t) const {
        const token k = tok_at(t);
        return src_.substr(k.begin, k.end - k.begin);
    }

    // Records diagnostic `d` at token `t`, unless a failure is already recorded.
    void fail(diag d, std::initializer_list<std::string_view> args, std::size_t t) {
        if (failed_) return;
        const std::ptrdiff_t index = t < count_ ? static_cast<std::ptrdiff_t>(tok_at(t).index) : 0;
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

    // --- the explicit stack (parser.cpp)
    //
    // The productions that nest (segments, bracketed selections, filter selectors and
    // expressions, operands, `!`, operators, parentheses, filter queries and function calls) run
    // on a heap-allocated stack of frames, not on the call stack: a query nested to k_max_nesting
    // took about half a megabyte of C++ stack that way (doc/limits.md, "Stack"). A frame is one
    // activation of a production: `at`, the point where it resumes, and its locals. A production
    // calls another by pushing the callee's frame with its own `at` set to where it goes on
    // (call()), or hands its frame over to a callee whose value is its own (become()); it returns
    // by leaving its value in ret_expr_, ret_sel_ or ret_bool_ and popping itself (give()); it
    // jumps within itself by setting `at` and returning. run() resumes the
    // top frame until the stack is empty. Each step does what the recursive descent did between
    // two calls, in the same order, so the checks, and so the first failure, are the reference's.

    // The resumption points, named after their production; the first of each is its start.
    enum class resume : std::uint8_t {
        segments,                 // the top of the loop over segments
        segments_descendant,      // back from a descendant segment's selectors
        segments_child,           // back from a child segment's selectors
        bracketed_selection,
        bracketed_loop,           // the next selector, or the closing bracket
        bracketed_selected,       // back from a selector (a filter selector's return)
        filter_selector,
        filter_selector_done,
        logical_expr,
        logical_expr_operand,     // back from the left operand or an operator: the operator loop
        operand,
        logical_not,
        logical_not_done,
        infix,
        infix_done,
        paren,
        paren_expr,               // back from the parenthesized expression
        paren_infix,              // back from an operator after it
        filter_query,
        filter_query_done,
        function,
        function_operand,         // back from an argument's operand or one of its operators
    };

    struct frame {
        resume at = resume::segments;
        bool counted = false;     // counts against k_max_nesting (the reference's guard)
        bool flag = false;        // segments: in a filter; bracketed_selection: name or index
        bool singular = true;     // segments: singular so far
        node kind = node::none;   // filter_query: root or relative
        int min_precedence = 0;   // logical_expr
        std::size_t token = 0;    // the token the production keeps: its `[`, `!` operand,
                                  // operator, query start or function name
        std::size_t args = 0;     // function: where its arguments start in args_
        selection sel;            // bracketed_selection: the selectors so far
        expr left;                // the expression so far (logical_expr, infix, paren, function)
    };

    void run(const frame& root);
    // Pushes `callee`; `caller` goes on at `then` when it returns. A counted production past
    // the budget returns at once, empty, with V8's stack-overflow error, as the reference's guard
    // does.
    void call(frame& caller, resume then, const frame& callee) {
        caller.at = then;
        const bool counted = callee.at == resume::bracketed_selection || callee.at == resume::logical_expr ||
                             callee.at == resume::operand;
        if (counted && ++depth_ > k_max_nesting) {
            --depth_;
            if (!failed_) failed_ = failure(diag::too_deep, format(diag::too_deep), 0);
            ret_expr_ = {};
            ret_sel_ = {};
            return;
        }
        frames_.push_back(callee);  // may move `caller`
        frames_.back().counted = counted;
    }
    // A tail call: `callee` takes over `f` (and its count against the budget).
    static void become(frame& f, const frame& callee) {
        const bool counted = f.counted;
        f = callee;
        f.counted = counted;
    }
    void pop() {
        if (frames_.back().counted) --depth_;
        frames_.pop_back();
    }
    void give(const expr& e) {
        ret_expr_ = e;
        pop();
    }
    void give(const selection& s) {
        ret_sel_ = s;
        pop();
    }
    void give(bool b) {
        ret_bool_ = b;
        pop();
    }
    static frame start(resume at) {
        frame f;
        f.at = at;
        return f;
    }
    static frame logical(int min_precedence) {
        frame f = start(resume::logical_expr);
        f.min_precedence = min_precedence;
        return f;
    }

    // --- segments and selectors (parser.cpp)

    void segments(frame& f);
    void selectors(frame& f, resume then);
    void bracketed_selection(frame& f);
    void bracketed_end(frame& f);
    bool check_leading_zero(std::size_t t);
    bool out_of_range(std::size_t t) const;
    void index_selector();
    void slice_selector();
    void filter_selector(frame& f);

    // --- filter expressions and function extensions (filter.cpp)

    void logical_expr(frame& f);
    void operand(frame& f);
    expr number_literal();
    void logical_not(frame& f);
    void infix(frame& f);
    void paren(frame& f);
    void filter_query(frame& f);
    void function(frame& f);
    void function_end(frame& f);
    expr well_typed_call(std::size_t t, std::span<const expr> args);
    void require_comparable(const expr& e);
    void require_not_literal(const expr& e);
    std::string literal_text(const expr& e);
    static std::string number_text(std::u16string_view text);
    static bool overflows(std::string_view t);
    static std::string canonical_string(std::u16string_view s);

    // --- string literals (filter.cpp). spec: RFC 9535 §2.3.1.1 string-literal, escapable, hexchar

    std::optional<std::u16string> decode_string(std::size_t t);
    bool decode_unicode_escape(std::u16string_view v, std::ptrdiff_t& i, std::u16string& out, std::size_t t);
    bool hex4(std::u16string_view v, std::size_t i, std::uint32_t& cp, std::size_t t);

    std::u16string_view src_;
    lexer& tokens_;
    std::size_t count_;
    std::string_view error_text_;
    std::size_t pos_ = 0;
    int depth_ = 0;  // counted frames on frames_
    std::optional<failure> failed_;
    std::vector<frame> frames_;
    std::vector<expr> args_;  // the arguments of the function calls being parsed, innermost last
    expr ret_expr_;           // the value the last production returned
    selection ret_sel_;
    bool ret_bool_ = false;
};

}  // namespace plurnk::jsonpath_detail
