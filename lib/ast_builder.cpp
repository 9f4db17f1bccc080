// SPDX-License-Identifier: MIT
// The result builder's bookkeeping (see ast_builder.hpp): hard errors are collected in the order
// the reference records them, the first one inside a statement unit claims it, items are emitted
// in token order as they settle (reported to the push parser's sink when final), the errors no
// statement claimed follow at finish(), and release() lets the push parser forget settled input.
#include "ast_builder.hpp"

#include <algorithm>
#include <functional>

namespace plurnk::detail {

// The last item of a result whose input went past max_input_bytes: where parsing stopped and how
// much was left out.
void append_input_limit_error(parse_result& r, position end, std::uint64_t parsed, std::uint64_t total) {
    const std::string t = std::to_string(total), p = std::to_string(parsed);
    r.items.emplace_back(diagnostic{end, source::lexer, severity::error,
                                    format_message(message_id::input_limit, {{"total", t}, {"parsed", p}}),
                                    message_id::input_limit,
                                    byte_span{static_cast<std::size_t>(parsed), static_cast<std::size_t>(total)}});
}

void result_builder::advance(std::string_view in, const lex_output& lexed, const syntax_tree& tree, std::size_t settled,
             const sink& out) {
    bind(in, lexed, tree);
    collect_errors();
    // One item per unit at least: reserve up front (geometrically, as advance() repeats when
    // streaming) so the large items are not relocated while the vector grows.
    const auto& toks = lexed.tokens;
    if (finishing_ && frozen_items_.empty() && result_.items.empty()) {
        // A one-shot parse: one item per unit and per text token outside units, the errors no
        // unit claims (at most all of them) and the turn-shape error, reserved at once: a
        // regrowth of items this large holds and touches up to twice their final size. Room
        // that stays unused is address space only (its pages are never touched).
        std::size_t texts = 0;
        for (std::size_t i = next_token_; i < toks.size(); ++i) {
            texts += (toks[i].kind == tok::text && tree.token_unit[i] < 0) ? 1 : 0;
        }
        const std::size_t n = tree.units.size() + texts + lexed.errors.size() + tree.errors.size() + 2;
        result_.items.reserve(n);
        fired_.reserve(n);
    } else {
        // (after a share() the live items are only those since: no reservation)
        if (frozen_items_.empty()) reserve_for(result_.items, tree.units.size() + 1);
    }
    for (; next_token_ < settled && next_token_ < toks.size() && toks[next_token_].begin < cut_; ++next_token_) {
        const std::int32_t u = tree.token_unit[next_token_];
        if (u >= 0) {
            const unit& un = tree.units[static_cast<std::size_t>(u)];
            if (un.first == next_token_) emit_unit(un, out);
            continue;
        }
        if (toks[next_token_].kind == tok::text) {
            add_item(text_item{std::string(text(toks[next_token_])), at(toks[next_token_].begin),
                               span_of(toks[next_token_].begin, toks[next_token_].end)},
                     true, out);
            if (tier_ == tier::parse) {
                for (auto& d : near_miss_advisories(std::get<text_item>(result_.items.back()))) {
                    add_item(std::move(d), true, out);
                }
            }
        }
    }
}

parse_result result_builder::finish(std::string_view in, const lex_output& lexed, const syntax_tree& tree, const sink& out) {
    // Nothing from the unparsed tail's opener on survives apply_tail(): such items are not
    // even made (on an unclosed hostile input that is nearly all of them).
    if (lexed.final_mode != mode::normal) cut_ = lexed.last_open_begin;
    // Nothing more is reported before the tail and the passes have had their say.
    finishing_ = true;
    advance(in, lexed, tree, lexed.tokens.size(), {});
    // Room for the unclaimed errors and the turn-shape error too, so that appending them does
    // not regrow (and copy) the whole result.
    const std::size_t extra =
        frozen_carried_.size() + carried_.size() + lex_errs_.size() + syn_errs_.size() + 1;
    result_.items = frozen_items_.take(std::move(result_.items), extra);
    fired_ = frozen_fired_.take(std::move(fired_), extra);
    append_unclaimed();
    apply_tail();
    if (tier_ == tier::parse && !result_.tail) turn_shape();
    for (std::size_t i = 0; i < result_.items.size(); ++i) {
        if (!fired_[i] && out) out(result_.items[i], i);
    }
    return std::move(result_);
}

void result_builder::share() {
    if (!result_.items.empty()) {
        frozen_items_.freeze(std::move(result_.items));
        frozen_fired_.freeze(std::move(fired_));
        result_.items.clear();
        fired_.clear();
    }
    if (!carried_.empty()) {
        frozen_carried_.freeze(std::move(carried_));
        carried_.clear();
    }
}

void result_builder::release(std::size_t bytes, std::size_t tokens) {
    for (const pending_error* e : unclaimed_in_order()) carried_.push_back(make_diagnostic(*e));
    lex_errs_.clear();
    syn_errs_.clear();
    lex_cursor_ = syn_cursor_ = 0;
    lex_seen_ = syn_seen_ = 0;
    next_token_ = 0;
    tok_base_ += tokens;
    byte_base_ += bytes;
    pos_.release(bytes);
    lexed_ = nullptr;
    tree_ = nullptr;
    in_ = {};
}

void result_builder::bind(std::string_view in, const lex_output& lexed, const syntax_tree& tree) {
    in_ = in;
    lexed_ = &lexed;
    tree_ = &tree;
    pos_.rebind(in);
}

// Hard errors carry the order the reference records them in: a lexer error when the parser
// first fetches the token after it, a parser error when reported (after every token the
// parser had looked at by then). That order decides which error a statement shows and the
// order of the errors no statement claims.
void result_builder::collect_errors() {
    const auto& lex_errors = lexed_->errors;
    // Exact in a one-shot parse (one call); geometric when streaming (many calls).
    reserve_for(lex_errs_, lex_errors.size());
    for (; lex_seen_ < lex_errors.size(); ++lex_seen_) {
        const lex_error& e = lex_errors[lex_seen_];
        const position p = at(e.begin);
        // Cascade collapse: an error right after an error of the same context is dropped.
        const bool cascade = has_prev_ && prev_pos_.line == p.line && prev_pos_.column + 1 == p.column &&
                             prev_context_ == e.context;
        has_prev_ = true;
        prev_pos_ = p;
        prev_context_ = e.context;
        if (cascade) continue;
        lex_errs_.push_back(pending_error{e.begin, static_cast<std::uint32_t>(lex_seen_),
                                          (tok_base_ + e.token_index) * 2, p, source::lexer});
    }
    const auto& syn_errors = tree_->errors;
    reserve_for(syn_errs_, syn_errors.size());
    for (; syn_seen_ < syn_errors.size(); ++syn_seen_) {
        const syntax_error& e = syn_errors[syn_seen_];
        pending_error pe{e.offset, static_cast<std::uint32_t>(syn_seen_), (tok_base_ + e.fetched) * 2 + 1,
                         at(e.offset), source::parser};
        // keep offset order (errors arrive almost sorted)
        auto it = syn_errs_.end();
        while (it != syn_errs_.begin() && std::prev(it)->offset > pe.offset) --it;
        syn_errs_.insert(it, std::move(pe));
    }
}

// An error no statement claims spans what it names: the lexer's offending text, or the parser's
// offending token (one a statement claims is given the statement's span, in emit_unit).
diagnostic result_builder::make_diagnostic(const pending_error& e) const {
    if (e.from == source::lexer) {
        const lex_error& le = lexed_->errors[e.index];
        return diagnostic{e.at, e.from, severity::error, le.message(in_), le.id(),
                          span_of(le.begin, std::max(le.begin, le.end))};
    }
    const syntax_error& se = tree_->errors[e.index];
    return diagnostic{e.at, e.from, severity::error, se.message(in_), se.id(), span_of(se.at.begin, se.at.end)};
}

// The first recorded, unclaimed error within [lo, hi] claims the unit; all of them are used up.
pending_error* result_builder::claim(std::vector<pending_error>& list, std::size_t& cursor, std::uint32_t lo, std::uint32_t hi,
                     pending_error* first) {
    while (cursor < list.size() && list[cursor].offset < lo) ++cursor;
    for (std::size_t k = cursor; k < list.size() && list[k].offset <= hi; ++k) {
        pending_error& e = list[k];
        if (e.consumed) continue;
        if (first == nullptr || e.recorded < first->recorded) first = &e;
        e.consumed = true;
    }
    return first;
}

void result_builder::emit_unit(const unit& un, const sink& out) {
    const auto& toks = lexed_->tokens;
    const std::uint32_t lo = toks[un.first].begin;
    const std::uint32_t hi = toks[un.last].begin;
    pending_error* first = claim(lex_errs_, lex_cursor_, lo, hi, nullptr);
    first = claim(syn_errs_, syn_cursor_, lo, hi, first);
    if (first != nullptr) {
        // In the parse tier the turn-shape passes may still rewrite or drop parser errors.
        const bool final_now = !(tier_ == tier::parse && first->from == source::parser);
        diagnostic d = make_diagnostic(*first);
        d.span = unit_span(un);
        add_item(std::move(d), final_now, out);
        return;
    }
    if (!un.clean) return;
    build_statement(un, out);
}

void result_builder::visitor_error(position p, std::string message, message_id id, byte_span sp, const sink& out) {
    add_item(diagnostic{p, source::visitor, severity::error, std::move(message), id, sp}, true, out);
}

// Errors no statement claimed, in recording order, after everything else (reported at finish).
// Those from the unparsed tail's opener on are dropped with the tail. Lexer errors are kept in
// recording order already; parser errors (kept in offset order) nearly always are too, so the
// two lists are merged, and sorted first only when needed.
void result_builder::append_unclaimed() {
    const std::vector<const pending_error*> rest = unclaimed_in_order();
    carried_ = frozen_carried_.take(std::move(carried_));
    // (+1: the turn-shape pass may add one error)
    result_.items.reserve(result_.items.size() + carried_.size() + rest.size() + 1);
    for (diagnostic& d : carried_) {
        result_.items.emplace_back(std::move(d));
        fired_.push_back(0);
    }
    carried_.clear();
    for (const pending_error* e : rest) {
        result_.items.emplace_back(make_diagnostic(*e));
        fired_.push_back(0);
    }
}

std::vector<const pending_error*> result_builder::unclaimed_in_order() const {
    const auto by_recording = [](const pending_error* a, const pending_error* b) {
        // Errors recorded at the same moment keep their list order (a list is contiguous, so
        // addresses order it); a lexer and a parser error are never recorded at the same
        // moment (even and odd counts). Not std::stable_sort: its temporary buffer is
        // deprecated and warns under clang.
        return a->recorded != b->recorded ? a->recorded < b->recorded : std::less<>()(a, b);
    };
    const auto unclaimed = [this](const std::vector<pending_error>& list) {
        // (before finish(), cut_ is past everything)
        std::vector<const pending_error*> rest;
        rest.reserve(list.size());
        for (const auto& e : list) {
            if (!e.consumed && e.offset < cut_) rest.push_back(&e);
        }
        return rest;
    };
    const std::vector<const pending_error*> lex = unclaimed(lex_errs_);
    std::vector<const pending_error*> syn = unclaimed(syn_errs_);
    if (!std::is_sorted(syn.begin(), syn.end(), by_recording)) std::sort(syn.begin(), syn.end(), by_recording);
    std::vector<const pending_error*> rest(lex.size() + syn.size());
    std::merge(lex.begin(), lex.end(), syn.begin(), syn.end(), rest.begin(), by_recording);
    return rest;
}

}  // namespace plurnk::detail
