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

// Resumes the top frame until the stack is empty (see jsonpath_internal.hpp).
void parser::run(const frame& root) {
    frames_.reserve(8);  // one allocation for the usual query
    frames_.push_back(root);
    while (!frames_.empty()) {
        frame& f = frames_.back();
        switch (f.at) {
            case resume::segments:
            case resume::segments_descendant:
            case resume::segments_child: segments(f); break;
            case resume::bracketed_selection:
            case resume::bracketed_loop:
            case resume::bracketed_selected: bracketed_selection(f); break;
            case resume::filter_selector:
            case resume::filter_selector_done: filter_selector(f); break;
            case resume::logical_expr:
            case resume::logical_expr_operand: logical_expr(f); break;
            case resume::operand: operand(f); break;
            case resume::logical_not:
            case resume::logical_not_done: logical_not(f); break;
            case resume::infix:
            case resume::infix_done: infix(f); break;
            case resume::paren:
            case resume::paren_expr:
            case resume::paren_infix: paren(f); break;
            case resume::filter_query:
            case resume::filter_query_done: filter_query(f); break;
            case resume::function:
            case resume::function_operand: function(f); break;
        }
    }
}

// spec: RFC 9535 §2.5 segments = *(S segment); returns whether they form a singular query
// (§2.3.5.1 singular-query-segments: name and index selectors only, one per segment).
// f.flag: inside a filter query.
void parser::segments(frame& f) {
    switch (f.at) {
        case resume::segments:
            if (failed_) return give(false);
            switch (current_kind()) {
                case tok::ddot:  // spec: RFC 9535 §2.5.2 descendant-segment
                    next();
                    return selectors(f, resume::segments_descendant);
                case tok::lbracket:
                case tok::name:
                case tok::wild:  // spec: RFC 9535 §2.5.1 child-segment
                    return selectors(f, resume::segments_child);
                default:
                    if (f.flag) backup();
                    return give(f.singular);
            }
        case resume::segments_descendant:
            f.singular = false;
            break;
        default:  // segments_child
            if (!(ret_sel_.count == 1 && ret_sel_.name_or_index)) f.singular = false;
            break;
    }
    if (failed_) return give(false);
    next();
    f.at = resume::segments;
}

// One segment's selectors; `f` goes on at `then` with them in ret_sel_.
void parser::selectors(frame& f, resume then) {
    f.at = then;
    switch (current_kind()) {
        case tok::name: ret_sel_ = {1, true}; return;  // spec: RFC 9535 §2.5.1.1 member-name-shorthand
        case tok::wild: ret_sel_ = {1, false}; return;
        case tok::lbracket: return call(f, then, start(resume::bracketed_selection));
        default: ret_sel_ = {}; return;
    }
}

// spec: RFC 9535 §2.5.1.1 bracketed-selection = "[" S selector *(S "," S selector) S "]"
// f.token: the "["; f.sel: the selectors so far; f.flag: the current one is a name or an index.
void parser::bracketed_selection(frame& f) {
    if (f.at == resume::bracketed_selection) {
        f.token = next();
        f.at = resume::bracketed_loop;
    }
    if (f.at == resume::bracketed_loop) {
        if (failed_ || current_kind() == tok::rbracket) return bracketed_end(f);
        f.flag = false;
        switch (current_kind()) {
            case tok::single_quote_string:
            case tok::double_quote_string:  // spec: RFC 9535 §2.3.1 name-selector
                decode_string(pos_);
                f.flag = true;
                break;
            case tok::filter:
                return call(f, resume::bracketed_selected, start(resume::filter_selector));
            case tok::index:
                if (peek_kind() == tok::colon) {
                    slice_selector();
                } else {
                    index_selector();
                    f.flag = true;
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
    }
    // A selector is done (bracketed_selected resumes here).
    if (failed_) return bracketed_end(f);
    if (f.sel.count++ == 0) f.sel.name_or_index = f.flag;
    if (peek_kind() != tok::rbracket) {
        if (!expect_peek(tok::comma)) return bracketed_end(f);
        next();
        if (peek_kind() == tok::rbracket) {
            fail(diag::trailing_comma, {}, peek_pos());
            return bracketed_end(f);
        }
    }
    next();
    f.at = resume::bracketed_loop;
}

void parser::bracketed_end(frame& f) {
    if (!failed_ && f.sel.count == 0) fail(diag::empty_bracketed_segment, {}, f.token);
    give(f.sel);
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
void parser::filter_selector(frame& f) {
    if (f.at == resume::filter_selector) {
        next();
        return call(f, resume::filter_selector_done, logical(k_prec_lowest));
    }
    const expr e = ret_expr_;
    if (!failed_) {
        if (e.kind == node::function && e.fn->result == fn_type::value) {
            fail(diag::function_result_uncompared, {e.fn->name}, e.token);
        } else {
            require_not_literal(e);
        }
    }
    pop();
}

}  // namespace plurnk::jsonpath_detail
