// SPDX-License-Identifier: MIT
// The JSONPath validator's parser, segments and selectors (RFC 9535 §2.3, §2.5): child and
// descendant segments, bracketed selections, names, wildcards, indices (with the leading-zero and
// I-JSON range checks), slices and the filter selector that hands over to filter.cpp. See
// jsonpath_internal.hpp.
#include <cstddef>
#include <string_view>
#include <vector>

#include "jsonpath_internal.hpp"

namespace plurnk::jsonpath_detail {

// spec: RFC 9535 §2.5 segments = *(S segment); returns whether they form a singular query
// (§2.3.5.1 singular-query-segments: name and index selectors only, one per segment).
bool parser::segments(bool in_filter) {
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

selection parser::selectors() {
    switch (current_kind()) {
        case tok::name: return {1, true};  // spec: RFC 9535 §2.5.1.1 member-name-shorthand
        case tok::wild: return {1, false};
        case tok::lbracket: return bracketed_selection();
        default: return {};
    }
}

// spec: RFC 9535 §2.5.1.1 bracketed-selection = "[" S selector *(S "," S selector) S "]"
selection parser::bracketed_selection() {
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
bool parser::check_leading_zero(std::size_t t) {
    const std::u16string_view v = units_of(t);
    if ((v.size() > 1 && v[0] == '0') || (v.size() > 1 && v[0] == '-' && v[1] == '0')) {
        fail(diag::leading_zero, {}, t);
        return false;
    }
    return true;
}

// spec: RFC 9535 §2.1: an int outside ±(2^53 − 1)
bool parser::out_of_range(std::size_t t) const {
    std::u16string_view v = units_of(t);
    if (!v.empty() && v[0] == '-') v.remove_prefix(1);
    while (v.size() > 1 && v[0] == '0') v.remove_prefix(1);
    if (v.size() != k_max_index_digits.size()) return v.size() > k_max_index_digits.size();
    return v > k_max_index_digits;
}

// spec: RFC 9535 §2.3.3.1 index-selector = int
void parser::index_selector() {
    if (!check_leading_zero(pos_)) return;
    if (out_of_range(pos_)) fail(diag::index_out_of_range, {}, pos_);
}

// spec: RFC 9535 §2.3.4.1 slice-selector = [start S] ":" S [end S] [":" [S step ]]
// Follows the reference token by token, including its leniency (`1:2 3` reads as 1:2:3).
void parser::slice_selector() {
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
void parser::filter_selector() {
    next();
    const expr e = logical_expr(k_prec_lowest);
    if (failed_) return;
    if (e.kind == node::function && e.fn->result == fn_type::value) {
        fail(diag::function_result_uncompared, {e.fn->name}, e.token);
        return;
    }
    require_not_literal(e);
}

}  // namespace plurnk::jsonpath_detail
