// SPDX-License-Identifier: MIT
// The JSONPath validator's filter expressions (RFC 9535 §2.3.5): a Pratt-style descent over
// logical, comparison and prefix operators that builds just enough of a tree to apply the
// well-typedness rules of the function extensions (§2.4.3, with the table of the five standard
// functions below), the singular-query rule (§2.3.5.1) and the literal checks, plus the
// string-literal decoding of §2.3.1.1. See jsonpath_internal.hpp.
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "jsonpath_internal.hpp"
#include "plurnk/json.hpp"

namespace plurnk::jsonpath_detail {

const function_signature* find_function(std::string_view name) {
    for (const auto& f : k_functions) {
        if (f.name == name) return &f;
    }
    return nullptr;
}

// spec: RFC 9535 §2.3.5.1 logical-expr / logical-or-expr / logical-and-expr / basic-expr,
// parsed by binding power: operators bind tighter than f.min_precedence, left operand first.
// f.left: the expression so far.
void parser::logical_expr(frame& f) {
    if (f.at == resume::logical_expr) {
        const tok k = current_kind();
        if (failed_) return give(expr{});
        if (!starts_operand(k)) {
            if (k == tok::eof || k == tok::rbracket) {
                fail(diag::unexpected_end_of_expression, {}, pos_);
            } else {
                fail(diag::unexpected_value, {value_of(pos_)}, pos_);
            }
            return give(expr{});
        }
        return call(f, resume::logical_expr_operand, start(resume::operand));
    }
    // logical_expr_operand: the left operand, or an operator's result, is back
    f.left = ret_expr_;
    if (failed_) return give(expr{});
    const tok p = peek_kind();
    if (p == tok::eof || p == tok::rbracket || precedence(p) < f.min_precedence) return give(f.left);
    if (!is_binary(p)) return give(f.left);
    next();
    frame op = start(resume::infix);
    op.left = f.left;
    call(f, resume::logical_expr_operand, op);
}

// One operand, chosen by its first token. A compound one takes over the operand's frame (a tail
// call: the operand's count against the budget stays until it returns, as the guard's did).
void parser::operand(frame& f) {
    switch (current_kind()) {
        case tok::true_:
        case tok::false_: return give(expr{node::boolean_literal, pos_});
        case tok::null: return give(expr{node::null_literal, pos_});
        case tok::number: return give(number_literal());
        case tok::single_quote_string:
        case tok::double_quote_string: decode_string(pos_); return give(expr{node::string_literal, pos_});
        case tok::lparen: return become(f, start(resume::paren));
        case tok::not_: return become(f, start(resume::logical_not));
        case tok::root:
        case tok::current: {
            frame q = start(resume::filter_query);
            q.kind = current_kind() == tok::root ? node::root_query : node::relative_query;
            return become(f, q);
        }
        case tok::function: return become(f, start(resume::function));
        default: return give(expr{});
    }
}

// spec: RFC 9535 §2.3.5.1 number = (int / "-0") [ frac ] [ exp ]; the reference refuses any
// leading "0" followed by more (so "0.5" too) and a fraction with a sign.
expr parser::number_literal() {
    const std::u16string_view v = units_of(pos_);
    if ((v.size() > 1 && v[0] == '0') || v.find(u".-") != std::u16string_view::npos) {
        fail(diag::invalid_number, {value_of(pos_)}, pos_);
        return {};
    }
    return {node::number_literal, pos_};
}

// spec: RFC 9535 §2.3.5.1 logical-not-op = "!" (paren-expr / test-expr)
void parser::logical_not(frame& f) {
    if (f.at == resume::logical_not) {
        next();
        f.token = pos_;  // the reference points at the token after "!"
        return call(f, resume::logical_not_done, logical(k_prec_prefix));
    }
    give(expr{node::prefix, f.token});
}

// An operator and its right operand (f.left is the left one). spec: RFC 9535 §2.3.5.1
// comparison-expr, logical-and-expr, logical-or-expr. Comparisons take singular queries and
// value-typed functions only; && and || refuse bare literals.
void parser::infix(frame& f) {
    if (f.at == resume::infix) {
        f.token = next();
        return call(f, resume::infix_done, logical(precedence(tok_at(f.token).kind)));
    }
    const expr right = ret_expr_;
    if (failed_) return give(expr{});
    if (is_comparison(tok_at(f.token).kind)) {
        require_comparable(f.left);
        require_comparable(right);
    } else {
        require_not_literal(f.left);
        require_not_literal(right);
    }
    give(expr{node::infix, f.token});
}

// spec: RFC 9535 §2.3.5.1 paren-expr = "(" S logical-expr S ")"
void parser::paren(frame& f) {
    switch (f.at) {
        case resume::paren:
            if (peek_kind() == tok::rparen) {
                fail(diag::empty_paren, {}, pos_);
                return give(expr{});
            }
            next();
            return call(f, resume::paren_expr, logical(k_prec_lowest));
        case resume::paren_expr:
            f.left = ret_expr_;
            if (failed_) return give(expr{});
            next();
            break;
        default:  // paren_infix
            f.left = ret_expr_;
            break;
    }
    const tok k = current_kind();
    if (failed_) return give(expr{});
    if (k == tok::rparen) return give(f.left);
    if (k == tok::eof) {
        fail(diag::unbalanced_parens, {}, pos_);
        return give(expr{});
    }
    if (!is_binary(k)) {
        fail(diag::expected_expression, {value_of(pos_)}, pos_);
        return give(expr{});
    }
    frame op = start(resume::infix);
    op.left = f.left;
    call(f, resume::paren_infix, op);
}

// spec: RFC 9535 §2.3.5.1 filter-query = rel-query / jsonpath-query
void parser::filter_query(frame& f) {
    if (f.at == resume::filter_query) {
        f.token = next();
        frame s = start(resume::segments);
        s.flag = true;  // in a filter
        return call(f, resume::filter_query_done, s);
    }
    give(expr{f.kind, f.token, ret_bool_});
}

// spec: RFC 9535 §2.4 function-expr = function-name "(" S [function-argument
//                                      *(S "," S function-argument)] S ")"
// f.token: the name; f.args: where its arguments start in args_; f.left: the argument so far.
void parser::function(frame& f) {
    if (f.at == resume::function) {
        f.token = next();
        f.args = args_.size();
    } else {  // function_operand: an argument's operand, or an operator's result, is back
        f.left = ret_expr_;
        if (!failed_ && is_binary(peek_kind())) {
            next();
            frame op = start(resume::infix);
            op.left = f.left;
            return call(f, resume::function_operand, op);
        }
        if (failed_) return function_end(f);
        args_.push_back(f.left);
        if (peek_kind() != tok::rparen) {
            if (peek_kind() == tok::rbracket) return function_end(f);
            if (!expect_peek(tok::comma)) return function_end(f);
            next();
        }
        next();
    }
    // the next argument, or the closing parenthesis
    if (failed_ || current_kind() == tok::rparen) return function_end(f);
    if (!starts_operand(current_kind())) {
        fail(diag::unexpected_value, {value_of(pos_)}, pos_);
        return function_end(f);
    }
    call(f, resume::function_operand, start(resume::operand));
}

void parser::function_end(frame& f) {
    expr e;
    if (!failed_ && expect(tok::rparen)) {
        e = well_typed_call(f.token, std::span<const expr>(args_).subspan(f.args));
    }
    args_.resize(f.args);
    give(e);
}

// spec: RFC 9535 §2.4.3 well-typedness of function expressions
expr parser::well_typed_call(std::size_t t, std::span<const expr> args) {
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

void parser::require_comparable(const expr& e) {
    if (e.is_query() && !e.singular) {
        fail(diag::non_singular_comparison, {}, e.token);
    } else if (e.kind == node::function && e.fn->result != fn_type::value) {
        fail(diag::function_result_incomparable, {e.fn->name}, e.token);
    }
}

void parser::require_not_literal(const expr& e) {
    if (!e.is_literal()) return;
    fail(diag::literal_uncompared, {literal_text(e)}, e.token);
}

// The literal as the reference prints it (JavaScript String(number), a canonical 'string').
std::string parser::literal_text(const expr& e) {
    const tok k = tok_at(e.token).kind;
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
std::string parser::number_text(std::u16string_view text) {
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
bool parser::overflows(std::string_view t) {
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
std::string parser::canonical_string(std::u16string_view s) {
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

namespace {

// A single-quoted body as the reference reads it before its escapes: `"` escaped, `\'`
// unescaped.
std::u16string single_quoted_as_double(std::u16string_view body) {
    std::u16string a;
    for (const char16_t c : body) {
        if (c == '"') a += u"\\\""; else a += c;
    }
    std::u16string v;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i] == '\\' && i + 1 < a.size() && a[i + 1] == '\'') {
            v += u'\'';
            ++i;
        } else {
            v += a[i];
        }
    }
    return v;
}

}  // namespace

// Decodes string token `t` as the reference does: a single-quoted body first has `"` escaped
// and `\'` unescaped, then JSON-style escapes are applied and each unit below U+0020 refused.
std::optional<std::u16string> parser::decode_string(std::size_t t) {
    const std::u16string v = tok_at(t).kind == tok::single_quote_string ? single_quoted_as_double(units_of(t))
                                                                         : std::u16string(units_of(t));
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
            case 'u':
                if (!decode_unicode_escape(v, i, out, t)) return std::nullopt;
                break;
            default:
                fail(diag::unknown_escape, {std::to_string(tok_at(t).index + static_cast<std::size_t>(i) - 1)}, t);
                return std::nullopt;
        }
        ++i;
    }
    return out;
}

// spec: RFC 9535 §2.3.1.1 hexchar = non-surrogate / (high-surrogate "\" %x75 low-surrogate)
// The escape whose `u` is at v[i] in string token `t`: appends its unit (two for a surrogate
// pair) to `out` and leaves `i` on its last digit; false after a failure.
bool parser::decode_unicode_escape(std::u16string_view v, std::ptrdiff_t& i, std::u16string& out,
                                   std::size_t t) {
    const std::ptrdiff_t base = static_cast<std::ptrdiff_t>(tok_at(t).index);
    auto at = [&](std::ptrdiff_t k) { return std::to_string(base + k); };
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(v.size());
    if (i + 4 >= n) {
        fail(diag::incomplete_escape, {at(i - 1)}, t);
        return false;
    }
    ++i;
    std::uint32_t cp = 0;
    if (!hex4(v, static_cast<std::size_t>(i), cp, t)) return false;
    if (is_low_surrogate(cp)) {
        fail(diag::low_surrogate_first, {at(i - 2)}, t);
        return false;
    }
    if (is_high_surrogate(cp)) {
        if (!(i + 9 < n && v[static_cast<std::size_t>(i + 4)] == '\\' && v[static_cast<std::size_t>(i + 5)] == 'u')) {
            fail(diag::incomplete_escape, {at(i - 2)}, t);
            return false;
        }
        std::uint32_t low = 0;
        if (!hex4(v, static_cast<std::size_t>(i + 6), low, t)) return false;
        if (!is_low_surrogate(low)) {
            fail(diag::expected_low_surrogate, {at(i + 4)}, t);
            return false;
        }
        out += static_cast<char16_t>(cp);
        out += static_cast<char16_t>(low);
        i += 9;
        return true;
    }
    if (cp <= 0x1F) {
        fail(diag::invalid_character, {}, t);
        return false;
    }
    out += static_cast<char16_t>(cp);
    i += 3;
    return true;
}

// Four hex digits at v[i..i+4) (the caller made sure they exist).
bool parser::hex4(std::u16string_view v, std::size_t i, std::uint32_t& cp, std::size_t t) {
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

}  // namespace plurnk::jsonpath_detail
