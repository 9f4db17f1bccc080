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
// parsed by binding power: operators bind tighter than `precedence`, left operand first.
expr parser::logical_expr(int min_precedence) {
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
expr parser::operand() {
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
expr parser::number_literal() {
    const std::u16string_view v = units_of(pos_);
    if ((v.size() > 1 && v[0] == '0') || v.find(u".-") != std::u16string_view::npos) {
        fail(diag::invalid_number, {value_of(pos_)}, pos_);
        return {};
    }
    return {node::number_literal, pos_};
}

// spec: RFC 9535 §2.3.5.1 logical-not-op = "!" (paren-expr / test-expr)
expr parser::logical_not_expr() {
    next();
    const std::size_t t = pos_;  // the reference points at the token after "!"
    logical_expr(k_prec_prefix);
    return {node::prefix, t};
}

// An operator and its right operand. spec: RFC 9535 §2.3.5.1 comparison-expr, logical-and-expr,
// logical-or-expr. Comparisons take singular queries and value-typed functions only;
// && and || refuse bare literals.
expr parser::infix_expr(const expr& left) {
    const std::size_t op = next();
    const tok k = tok_at(op).kind;
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
expr parser::paren_expr() {
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
expr parser::filter_query(node kind) {
    const std::size_t t = next();
    const bool singular = segments(true);
    return {kind, t, singular};
}

// spec: RFC 9535 §2.4 function-expr = function-name "(" S [function-argument
//                                      *(S "," S function-argument)] S ")"
expr parser::function_expr() {
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
expr parser::well_typed_call(std::size_t t, const std::vector<expr>& args) {
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

// Decodes string token `t` as the reference does: a single-quoted body first has `"` escaped
// and `\'` unescaped, then JSON-style escapes are applied and each unit below U+0020 refused.
std::optional<std::u16string> parser::decode_string(std::size_t t) {
    std::u16string v(units_of(t));
    if (tok_at(t).kind == tok::single_quote_string) {
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
    const std::ptrdiff_t base = static_cast<std::ptrdiff_t>(tok_at(t).index);
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
