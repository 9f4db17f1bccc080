// SPDX-License-Identifier: MIT
// XPath 1.0 validator: decides whether the npm `xpath` package's parse() would accept an
// expression, and with which message it would refuse it. It never builds a tree and never
// evaluates. A lexer turns the input into the reference's token kinds (including its quirks:
// `*`, `and`, `or`, `mod` and `div` are operators unless the previous token is one of a fixed
// set, a name glued to `(` is a function name or node type, a name glued to `::` is an axis
// name whatever it spells, a NUL where a token would start ends the input), and a descent
// over the XPath 1.0 EBNF productions checks the token stream (a loop over states with an
// explicit stack of the open parentheses, arguments and predicates: no recursion). The
// reference tokenizes the whole expression before parsing, so a lexical error anywhere wins
// over a syntax error found earlier: after a syntax error the lexer is drained to look for
// one. Characters are classified as UTF-16 code units, as JavaScript sees them: a
// supplementary character arrives as its high surrogate, an invalid UTF-8 byte as U+FFFD.
// Nesting (parentheses, predicates, arguments) is capped at k_max_depth; every state either
// consumes a token or moves on to a later state of the same construct, so time is linear in the
// input, and nothing reads past input.size().
#include <cstddef>
#include <iterator>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/ascii.hpp"
#include "plurnk/validate.hpp"
#include "base/utf8.hpp"
#include "xml_chars.hpp"

namespace plurnk {

namespace {

// How many levels an Expr may nest inside the top-level Expr (via `(`, `[` or a function
// argument). The reference's table-driven parser has no limit; real selectors nest a handful
// of levels. (The nesting is kept on the heap, a byte per level; the limit is this library's
// answer, unchanged since the parser recursed.)
constexpr std::size_t k_max_depth = 256;

// The diagnostics; each is one message template, completed by an optional detail.
enum class xpath_error : unsigned char {
    unspecified,           // empty input
    unexpected_character,  // detail: the offending UTF-16 code unit
    unterminated_literal,  // detail: the quote, the rest of the input and a NUL
    parse_error,           // the token stream is not an Expr
    too_deep,              // nesting beyond k_max_depth (this library's limit, not the reference's)
    count_
};

constexpr std::string_view k_messages[] = {
    "XPath expression unspecified.",
    "Unexpected character ",
    "Unterminated string literal: ",
    "XPath parse error",
    "XPath expression nested too deeply",
};
static_assert(std::size(k_messages) == static_cast<std::size_t>(xpath_error::count_),
              "one message per xpath_error");

constexpr std::string_view k_matcher_prefix =
    "pattern leads with `//` but is not a valid xpath selector - ";

// The reference's token kinds. Names follow XPath 1.0 §3.7 (Lexical Structure).
enum class lexeme : unsigned char {
    end,                 // end of input, or a NUL where a token would start
    error,               // a lexical error was recorded; the lexer yields this forever
    double_dot,          // ..
    double_colon,        // ::
    double_slash,        // //
    not_equal,           // !=
    less_equal,          // <=
    greater_equal,       // >=
    op_and,              // `and` in operator position
    op_or,               // `or` in operator position
    op_mod,              // `mod` in operator position
    op_div,              // `div` in operator position
    multiply,            // `*` in operator position
    function_name,       // QName glued to `(` that is not a node type
    axis_name,           // NCName glued to `::` (any spelling)
    literal,             // '...' or "..."
    number,              // Digits ('.' Digits)? | '.' Digits
    star_name_test,      // `*` in operand position
    qname,               // NCName (':' NCName)?
    ncname_star,         // NCName ':' '*'
    node_type,           // comment( text( node( processing-instruction()
    pi_with_literal,     // processing-instruction( not directly followed by `)`
    equal,               // =
    less,                // <
    greater,             // >
    plus,                // +
    minus,               // -
    bar,                 // |
    slash,               // /
    lparen,              // (
    rparen,              // )
    comma,               // ,
    at,                  // @
    lbracket,            // [
    rbracket,            // ]
    dot,                 // .
    dollar,              // $
};

struct token {
    lexeme kind = lexeme::end;
    std::size_t offset = 0;  // byte offset of the token's first character
};

// One UTF-16 code unit as JavaScript would see it at a byte offset, and the bytes it spans.
struct code_unit {
    std::uint32_t unit = 0;
    std::size_t length = 0;  // 0 only at end of input
};

// Decodes the UTF-8 sequence at s[i]. A supplementary character yields its high surrogate
// (spanning all four bytes, since the low surrogate can never continue a name); a byte that
// does not start a valid sequence yields U+FFFD and spans one byte.
code_unit decode_unit(std::string_view s, std::size_t i) noexcept {
    if (i >= s.size()) return {0, 0};
    const detail::utf8_char c = detail::utf8_decode(s, i);  // lib/utf8.hpp, the one codec
    std::uint32_t cp = c.code_point;
    if (cp > 0xFFFF) cp = 0xD800 + ((cp - 0x10000) >> 10);
    return {cp, c.length};
}

using ascii::is_digit;

// spec: XPath 1.0 §3.7 — the reference's tokenizer. next() returns one token per call.
class lexer {
public:
    explicit lexer(std::string_view input) noexcept : in_(input) {}

    // Consumes and returns the next token; after an error or the end, returns that forever.
    token next() {
        if (done_) return {done_kind_, pos_};
        while (pos_ < in_.size() && ascii::is_whitespace(in_[pos_])) ++pos_;
        start_ = pos_;
        if (pos_ >= in_.size() || in_[pos_] == '\0') return finish(lexeme::end);
        const char c = in_[pos_];
        switch (c) {
            case '(': return single(lexeme::lparen);
            case ')': return single(lexeme::rparen);
            case '[': return single(lexeme::lbracket);
            case ']': return single(lexeme::rbracket);
            case '@': return single(lexeme::at);
            case ',': return single(lexeme::comma);
            case '|': return single(lexeme::bar);
            case '+': return single(lexeme::plus);
            case '-': return single(lexeme::minus);
            case '=': return single(lexeme::equal);
            case '$': return single(lexeme::dollar);
            case '.': return lex_dot();
            case '\'':
            case '"': return lex_literal(c);
            case '*':
                ++pos_;
                return emit(operand_expected() ? lexeme::star_name_test : lexeme::multiply);
            case ':':
                if (byte(pos_ + 1) == ':') return pair(lexeme::double_colon);
                return fail_unexpected();
            case '/': return byte(pos_ + 1) == '/' ? pair(lexeme::double_slash) : single(lexeme::slash);
            case '!':
                if (byte(pos_ + 1) == '=') return pair(lexeme::not_equal);
                return fail_unexpected();
            case '<': return byte(pos_ + 1) == '=' ? pair(lexeme::less_equal) : single(lexeme::less);
            case '>':
                return byte(pos_ + 1) == '=' ? pair(lexeme::greater_equal) : single(lexeme::greater);
            default: break;
        }
        if (is_digit(c)) return lex_number();
        if (xpath_chars::is_name_start(decode_unit(in_, pos_).unit)) return lex_name();
        return fail_unexpected();
    }

    [[nodiscard]] bool failed() const noexcept { return done_ && done_kind_ == lexeme::error; }
    [[nodiscard]] xpath_error error() const noexcept { return error_; }
    [[nodiscard]] std::size_t error_offset() const noexcept { return start_; }
    [[nodiscard]] const std::string& error_detail() const noexcept { return detail_; }

private:
    // The byte at i, or NUL past the end: the reference appends a NUL sentinel to its input.
    [[nodiscard]] char byte(std::size_t i) const noexcept { return i < in_.size() ? in_[i] : '\0'; }

    // Whether `*` or a name here is an operand (name test) rather than an operator: at the
    // start, or after one of the tokens the reference lists. Note `,` and `$` are not listed.
    [[nodiscard]] bool operand_expected() const noexcept {
        if (!has_prev_) return true;
        switch (prev_) {
            case lexeme::at: case lexeme::double_colon: case lexeme::lparen: case lexeme::lbracket:
            case lexeme::op_and: case lexeme::op_or: case lexeme::op_mod: case lexeme::op_div:
            case lexeme::multiply: case lexeme::slash: case lexeme::double_slash: case lexeme::bar:
            case lexeme::plus: case lexeme::minus: case lexeme::equal: case lexeme::not_equal:
            case lexeme::less: case lexeme::less_equal: case lexeme::greater:
            case lexeme::greater_equal:
                return true;
            default:
                return false;
        }
    }

    token emit(lexeme kind) noexcept {
        prev_ = kind;
        has_prev_ = true;
        return {kind, start_};
    }
    token single(lexeme kind) noexcept {
        pos_ += 1;
        return emit(kind);
    }
    token pair(lexeme kind) noexcept {
        pos_ += 2;
        return emit(kind);
    }
    token finish(lexeme kind) noexcept {
        done_ = true;
        done_kind_ = kind;
        return {kind, start_};
    }

    // The character at start_ begins no token.
    token fail_unexpected() {
        error_ = xpath_error::unexpected_character;
        detail_.clear();
        detail::append_utf16_unit(detail_, decode_unit(in_, start_).unit);
        return finish(lexeme::error);
    }

    // At '.': `..`, `.` Digits (a number) or `.`.
    token lex_dot() noexcept {
        if (byte(pos_ + 1) == '.') return pair(lexeme::double_dot);
        ++pos_;
        if (!is_digit(byte(pos_))) return emit(lexeme::dot);
        while (is_digit(byte(pos_))) ++pos_;
        return emit(lexeme::number);
    }

    // At a digit: Digits ('.' Digits)?; a '.' not followed by a digit is left for the next token.
    token lex_number() noexcept {
        while (is_digit(byte(pos_))) ++pos_;
        if (byte(pos_) == '.' && is_digit(byte(pos_ + 1))) {
            ++pos_;
            while (is_digit(byte(pos_))) ++pos_;
        }
        return emit(lexeme::number);
    }

    // At a quote: the literal runs to the next same quote. Unterminated, the reference's
    // message echoes the quote, the rest of the input and its NUL sentinel.
    token lex_literal(char quote) {
        const std::size_t close = in_.find(quote, pos_ + 1);
        if (close == std::string_view::npos) {
            error_ = xpath_error::unterminated_literal;
            detail_.assign(in_.substr(pos_));
            detail_ += '\0';
            pos_ = in_.size();
            return finish(lexeme::error);
        }
        pos_ = close + 1;
        return emit(lexeme::literal);
    }

    // Advances over NCName characters.
    void skip_name_chars() noexcept {
        for (;;) {
            const code_unit u = decode_unit(in_, pos_);
            if (u.length == 0 || !xpath_chars::is_name_char(u.unit)) return;
            pos_ += u.length;
        }
    }

    // At a name start: an operator name, `prefix:*`, a QName, a function name, an axis name
    // or a node type, decided by the previous token and the characters glued to the name.
    token lex_name() {
        pos_ += decode_unit(in_, pos_).length;
        skip_name_chars();
        const std::string_view name = in_.substr(start_, pos_ - start_);
        if (!operand_expected()) {
            if (name == "and") return emit(lexeme::op_and);
            if (name == "or") return emit(lexeme::op_or);
            if (name == "mod") return emit(lexeme::op_mod);
            if (name == "div") return emit(lexeme::op_div);
        }
        if (byte(pos_) == ':') {
            const char after = byte(pos_ + 1);
            if (after == '*') {
                pos_ += 2;
                return emit(lexeme::ncname_star);
            }
            if (after == '_' || xpath_chars::is_letter(decode_unit(in_, pos_ + 1).unit)) {
                pos_ += 1;
                skip_name_chars();
                return emit(byte(pos_) == '(' ? lexeme::function_name : lexeme::qname);
            }
            if (after == ':') return emit(lexeme::axis_name);
        }
        if (byte(pos_) == '(') {
            if (name == "comment" || name == "text" || name == "node") return emit(lexeme::node_type);
            if (name == "processing-instruction")
                return emit(byte(pos_ + 1) == ')' ? lexeme::node_type : lexeme::pi_with_literal);
            return emit(lexeme::function_name);
        }
        return emit(lexeme::qname);
    }

    std::string_view in_;
    std::size_t pos_ = 0;
    std::size_t start_ = 0;
    lexeme prev_ = lexeme::end;
    bool has_prev_ = false;
    bool done_ = false;
    lexeme done_kind_ = lexeme::end;
    xpath_error error_ = xpath_error::parse_error;
    std::string detail_;
};

// Tokens that can begin a Step (XPath 1.0 [4]): an axis, a node test or an abbreviated step.
constexpr bool starts_step(lexeme k) noexcept {
    switch (k) {
        case lexeme::axis_name: case lexeme::at: case lexeme::star_name_test:
        case lexeme::ncname_star: case lexeme::qname: case lexeme::node_type:
        case lexeme::pi_with_literal: case lexeme::dot: case lexeme::double_dot:
            return true;
        default:
            return false;
    }
}

// Tokens that can begin a PrimaryExpr (XPath 1.0 [15]), hence a FilterExpr.
constexpr bool starts_primary(lexeme k) noexcept {
    switch (k) {
        case lexeme::dollar: case lexeme::lparen: case lexeme::literal: case lexeme::number:
        case lexeme::function_name:
            return true;
        default:
            return false;
    }
}

// The descent over the XPath 1.0 grammar as the reference's parse tables encode it, run as a
// loop over states with an explicit stack of the constructs that wait for a nested Expr (a
// parenthesis, a function's arguments, a predicate): a level of nesting costs a byte of heap,
// not a chain of call frames (doc/limits.md, "Stack"). The eight binary levels (OrExpr down to
// MultiplicativeExpr) are each `Lower (operator Lower)*`, so an Expr is a UnaryExpr followed by
// any number of (binary operator, UnaryExpr) pairs, whichever the operators: one state reads
// them, consuming each operator token where the levels' loops would. The tokens are consumed,
// and the first failure found, exactly as a descent with one function per production would.
class parser {
public:
    explicit parser(std::string_view input) noexcept : lex_(input) {}

    result<void> run() {
        advance();
        bool ok = parse_expr() && (tok_.kind == lexeme::end || fail());
        if (!ok) {
            // The reference tokenizes everything first: a later lexical error takes precedence.
            while (tok_.kind != lexeme::end && tok_.kind != lexeme::error) advance();
        }
        if (lex_.failed()) {
            problem p{lex_.error_offset(), std::string(k_messages[static_cast<std::size_t>(lex_.error())])};
            p.message += lex_.error_detail();
            return p;
        }
        if (!ok) return problem{error_offset_, std::string(k_messages[static_cast<std::size_t>(error_)])};
        return {};
    }

private:
    void advance() { tok_ = lex_.next(); }

    [[nodiscard]] bool at(lexeme k) const noexcept { return tok_.kind == k; }

    bool accept(lexeme k) {
        if (!at(k)) return false;
        advance();
        return true;
    }

    bool expect(lexeme k) { return accept(k) || fail(); }

    bool fail(xpath_error e = xpath_error::parse_error) noexcept {
        error_ = e;
        error_offset_ = tok_.offset;
        return false;
    }

    // Where the loop in parse_expr() is.
    enum class state : unsigned char {
        expr,               // an Expr starts
        unary,              // a UnaryExpr starts
        path,               // a PathExpr starts
        filter_predicates,  // after a PrimaryExpr or one of its predicates
        step,               // a Step starts
        step_predicates,    // after a Step's node test or one of its predicates
        step_end,           // after a Step
        path_end,           // after a PathExpr
        operand_end,        // after a UnaryExpr
    };

    // What waits for the nested Expr being read.
    enum class waiting : unsigned char { parenthesis, argument, filter_predicate, step_predicate };

    // [14] Expr ::= OrExpr (spec: XPath 1.0 §3.1), with every Expr nested in it.
    bool parse_expr() {
        std::vector<waiting> open;  // innermost last
        state s = state::expr;
        for (;;) {
            switch (s) {
                case state::expr:
                    // the nesting guard: every nested Expr passes by
                    if (depth_ > k_max_depth) return fail(xpath_error::too_deep);
                    ++depth_;
                    s = state::unary;
                    break;
                case state::unary:
                    // [27] UnaryExpr ::= UnionExpr | '-' UnaryExpr (spec: XPath 1.0 §3.5)
                    while (accept(lexeme::minus)) {
                    }
                    s = state::path;
                    break;
                case state::path:
                    // [19] PathExpr ::= LocationPath | FilterExpr | FilterExpr '/' RelativeLocationPath
                    //                 | FilterExpr '//' RelativeLocationPath (spec: XPath 1.0 §3.3)
                    if (starts_primary(tok_.kind)) {
                        // [15] PrimaryExpr ::= VariableReference | '(' Expr ')' | Literal | Number
                        //                    | FunctionCall  [36] VariableReference ::= '$' QName
                        // spec: XPath 1.0 §3.1, §3.7
                        if (accept(lexeme::dollar)) {
                            if (!expect(lexeme::qname)) return false;
                            s = state::filter_predicates;
                        } else if (accept(lexeme::lparen)) {
                            open.push_back(waiting::parenthesis);
                            s = state::expr;
                        } else if (accept(lexeme::literal) || accept(lexeme::number)) {
                            s = state::filter_predicates;
                        } else {
                            // [16] FunctionCall ::= FunctionName '(' ( Argument ( ',' Argument )* )? ')'
                            // [17] Argument ::= Expr (spec: XPath 1.0 §3.2; any function name parses)
                            if (!expect(lexeme::function_name) || !expect(lexeme::lparen)) return false;
                            if (accept(lexeme::rparen)) {
                                s = state::filter_predicates;
                            } else {
                                open.push_back(waiting::argument);
                                s = state::expr;
                            }
                        }
                        break;
                    }
                    // [1] LocationPath ::= RelativeLocationPath | AbsoluteLocationPath
                    // [2] AbsoluteLocationPath ::= '/' RelativeLocationPath? | AbbreviatedAbsoluteLocationPath
                    // [10] AbbreviatedAbsoluteLocationPath ::= '//' RelativeLocationPath
                    // spec: XPath 1.0 §2, §2.5; a lone '/' ends the path unless a Step can follow.
                    if (accept(lexeme::double_slash)) {
                        s = state::step;
                    } else if (accept(lexeme::slash)) {
                        s = starts_step(tok_.kind) ? state::step : state::path_end;
                    } else if (starts_step(tok_.kind)) {
                        s = state::step;
                    } else {
                        return fail();
                    }
                    break;
                case state::filter_predicates:
                    // [20] FilterExpr ::= PrimaryExpr | FilterExpr Predicate (spec: XPath 1.0 §3.3)
                    // [8] Predicate ::= '[' PredicateExpr ']'  [9] PredicateExpr ::= Expr (§2.4)
                    if (accept(lexeme::lbracket)) {
                        open.push_back(waiting::filter_predicate);
                        s = state::expr;
                    } else if (accept(lexeme::slash) || accept(lexeme::double_slash)) {
                        s = state::step;
                    } else {
                        s = state::path_end;
                    }
                    break;
                case state::step:
                    // [4] Step ::= AxisSpecifier NodeTest Predicate* | AbbreviatedStep
                    // [12] AbbreviatedStep ::= '.' | '..' (spec: XPath 1.0 §2.1, §2.5)
                    if (accept(lexeme::dot) || accept(lexeme::double_dot)) {
                        s = state::step_end;
                    } else {
                        if (!parse_axis_specifier() || !parse_node_test()) return false;
                        s = state::step_predicates;
                    }
                    break;
                case state::step_predicates:
                    if (accept(lexeme::lbracket)) {
                        open.push_back(waiting::step_predicate);
                        s = state::expr;
                    } else {
                        s = state::step_end;
                    }
                    break;
                case state::step_end:
                    // [3] RelativeLocationPath ::= Step | RelativeLocationPath '/' Step
                    //                            | AbbreviatedRelativeLocationPath
                    // [11] AbbreviatedRelativeLocationPath ::= RelativeLocationPath '//' Step
                    // spec: XPath 1.0 §2, §2.5
                    s = accept(lexeme::slash) || accept(lexeme::double_slash) ? state::step : state::path_end;
                    break;
                case state::path_end:
                    // [18] UnionExpr ::= PathExpr | UnionExpr '|' PathExpr (spec: XPath 1.0 §3.3)
                    s = accept(lexeme::bar) ? state::path : state::operand_end;
                    break;
                case state::operand_end:
                    if (accept_binary_operator()) {
                        s = state::unary;
                        break;
                    }
                    // the Expr ends: back to what waits for it
                    --depth_;
                    if (open.empty()) return true;
                    switch (const waiting w = open.back(); open.pop_back(), w) {
                        case waiting::parenthesis:
                            if (!expect(lexeme::rparen)) return false;
                            s = state::filter_predicates;
                            break;
                        case waiting::argument:
                            if (accept(lexeme::comma)) {
                                open.push_back(waiting::argument);
                                s = state::expr;
                            } else {
                                if (!expect(lexeme::rparen)) return false;
                                s = state::filter_predicates;
                            }
                            break;
                        case waiting::filter_predicate:
                            if (!expect(lexeme::rbracket)) return false;
                            s = state::filter_predicates;
                            break;
                        case waiting::step_predicate:
                            if (!expect(lexeme::rbracket)) return false;
                            s = state::step_predicates;
                            break;
                    }
                    break;
            }
        }
    }

    // The operator of one of the binary levels, lowest precedence first:
    // [21] OrExpr 'or', [22] AndExpr 'and' (spec: XPath 1.0 §3.4), [23] EqualityExpr '=' '!=',
    // [24] RelationalExpr '<' '>' '<=' '>=' (§3.4), [25] AdditiveExpr '+' '-',
    // [26] MultiplicativeExpr '*' 'div' 'mod' (§3.5).
    bool accept_binary_operator() {
        switch (tok_.kind) {
            case lexeme::op_or: case lexeme::op_and: case lexeme::equal: case lexeme::not_equal:
            case lexeme::less: case lexeme::greater: case lexeme::less_equal: case lexeme::greater_equal:
            case lexeme::plus: case lexeme::minus: case lexeme::multiply: case lexeme::op_div:
            case lexeme::op_mod:
                advance();
                return true;
            default:
                return false;
        }
    }

    // [5] AxisSpecifier ::= AxisName '::' | AbbreviatedAxisSpecifier
    // [13] AbbreviatedAxisSpecifier ::= '@'?
    // spec: XPath 1.0 §2.2; like the reference, any NCName before '::' is taken as an axis.
    bool parse_axis_specifier() {
        if (accept(lexeme::axis_name)) return expect(lexeme::double_colon);
        accept(lexeme::at);
        return true;
    }

    // [7] NodeTest ::= NameTest | NodeType '(' ')' | 'processing-instruction' '(' Literal ')'
    // [37] NameTest ::= '*' | NCName ':' '*' | QName
    // spec: XPath 1.0 §2.3, §3.7
    bool parse_node_test() {
        if (accept(lexeme::star_name_test) || accept(lexeme::ncname_star) || accept(lexeme::qname))
            return true;
        if (accept(lexeme::node_type)) return expect(lexeme::lparen) && expect(lexeme::rparen);
        if (accept(lexeme::pi_with_literal))
            return expect(lexeme::lparen) && expect(lexeme::literal) && expect(lexeme::rparen);
        return fail();
    }

    lexer lex_;
    token tok_;
    std::size_t depth_ = 0;
    xpath_error error_ = xpath_error::parse_error;
    std::size_t error_offset_ = 0;
};

}  // namespace

result<void> validate_xpath(std::string_view expr) {
    if (expr.empty()) return problem{0, std::string(k_messages[static_cast<std::size_t>(xpath_error::unspecified)])};
    return parser(expr).run();
}

result<void> check_xpath_matcher(std::string_view body) {
    result<void> v = validate_xpath(body);
    if (v.ok()) return v;
    return problem{v.problem().offset, std::string(k_matcher_prefix) + v.problem().message};
}

}  // namespace plurnk
