// SPDX-License-Identifier: MIT
// The JSONPath validator's lexer: one function per mode of the reference's state machine, over
// UTF-16 code units. Each mode consumes what it recognises, emits tokens and returns the next
// mode; an error becomes an error token (or, for what the reference throws, a fatal failure)
// and the scan stops. A mode emits at most one token per call (one that stays in its mode
// returns itself), so that lexer::token_at() makes no more tokens than the parser asks for.
// See jsonpath_internal.hpp.
#include <string>
#include <string_view>

#include "jsonpath_internal.hpp"

namespace plurnk::jsonpath_detail {

// spec: RFC 9535 §2.2 root-identifier = "$"
mode lexer::lex_root() {
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
mode lexer::lex_segment() {
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
mode lexer::lex_descendant_selection() {
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
mode lexer::lex_dot_selector() {
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
mode lexer::lex_bracketed_selection() {
    ignore_whitespace();
    if (fatal_) return mode::stop;
    if (accept_int()) {
        emit(tok::index);
        return mode::bracketed_selection;
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
            return mode::bracketed_selection;
        case '?':
            emit(tok::filter);
            ++filter_level_;
            return mode::filter;
        case ',':
            emit(tok::comma);
            return mode::bracketed_selection;
        case ':':
            emit(tok::colon);
            return mode::bracketed_selection;
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

// Inside a filter. spec: RFC 9535 §2.3.5.1 logical-expr and its operands
mode lexer::lex_filter() {
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
            if (!call_parens_.empty()) return mode::filter;
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
            return mode::filter;
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
            return mode::filter;
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
            return mode::filter;
        case '=':
            if (peek() == '=') {
                next();
                emit(tok::eq);
                return mode::filter;
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
            return mode::filter;
        case '>':
            if (peek() == '=') {
                next();
                emit(tok::ge);
            } else {
                emit(tok::gt);
            }
            return mode::filter;
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
        return mode::filter;
    }
    if (accept_literal(u"&&")) { emit(tok::and_); return mode::filter; }
    if (accept_literal(u"||")) { emit(tok::or_); return mode::filter; }
    if (accept_literal(u"true")) { emit(tok::true_); return mode::filter; }
    if (accept_literal(u"false")) { emit(tok::false_); return mode::filter; }
    if (accept_literal(u"null")) { emit(tok::null); return mode::filter; }
    // spec: RFC 9535 §2.4 function-expr = function-name "(" ...
    if (accept_function_name() && peek() == '(') {
        call_parens_.push_back(1);
        emit(tok::function);
        brackets_.emplace_back('(', start_);
        next();
        ignore();
        return mode::filter;
    }
    // The position is after a partly matched function name, as in the reference.
    error(diag::bad_filter_character, {unit_text(c)});
    return mode::stop;
}

// After an opening quote. spec: RFC 9535 §2.3.1.1 string-literal
mode lexer::lex_string() {
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

}  // namespace plurnk::jsonpath_detail
