// SPDX-License-Identifier: MIT
// The result builder's bookkeeping (see ast_builder.hpp): hard errors are collected in the order
// the reference records them, the first one inside a statement unit claims it, items are emitted
// in token order as they settle (reported to the push parser's sink when final), the errors no
// statement claimed follow at finish(), and release() lets the push parser forget settled input.
#include "ast_builder.hpp"

#include <algorithm>
#include <cstring>
#include <functional>

namespace plurnk::detail {

// The last item of a result whose input went past max_input_bytes: where parsing stopped and how
// much was left out.
void append_input_limit_error(parse_result& r, position end, std::uint64_t parsed, std::uint64_t total) {
    const std::string t = std::to_string(total), p = std::to_string(parsed);
    const std::string m = format_message(message_id::input_limit, {{"total", t}, {"parsed", p}});
    r.items.push_back(diagnostic{end, source::lexer, severity::error, m, message_id::input_limit,
                                 byte_span{static_cast<std::size_t>(parsed), static_cast<std::size_t>(total)}});
}

void result_builder::advance(std::string_view in, const lex_output& lexed, const syntax_tree& tree, std::size_t settled,
             const sink& out) {
    bind(in, lexed, tree);
    collect_errors();
    const auto& toks = lexed.tokens;
    for (; next_token_ < settled && next_token_ < toks.size() && toks[next_token_].begin < cut_; ++next_token_) {
        const std::int32_t u = tree.token_unit[next_token_];
        if (u >= 0) {
            const unit& un = tree.units[static_cast<std::size_t>(u)];
            if (un.first == next_token_) emit_unit(un, out);
            // The unit's other tokens are nothing more to emit: past them at once, under the
            // loop's own bounds.
            while (next_token_ + 1 < settled && next_token_ + 1 < toks.size() &&
                   toks[next_token_ + 1].begin < cut_ && tree.token_unit[next_token_ + 1] == u) {
                ++next_token_;
            }
            continue;
        }
        if (toks[next_token_].kind == tok::text) add_text(toks[next_token_], out);
    }
}

parse_result result_builder::finish(std::string_view in, const lex_output& lexed, const syntax_tree& tree, const sink& out) {
    // Nothing from the unparsed tail's opener on survives apply_tail(): such items are not
    // even made (on an unclosed hostile input that is nearly all of them).
    if (lexed.final_mode != mode::normal) cut_ = lexed.last_open_begin;
    // Nothing more is reported before the tail and the passes have had their say.
    finishing_ = true;
    advance(in, lexed, tree, lexed.tokens.size(), {});
    items_ = frozen_items_.take(std::move(items_));
    kinds_ = frozen_kinds_.take(std::move(kinds_));
    fired_ = frozen_fired_.take(std::move(fired_));
    stmts_ = frozen_stmts_.take(std::move(stmts_));
    diags_ = frozen_diags_.take(std::move(diags_));
    append_unclaimed();
    apply_tail();
    if (tier_ == tier::parse && !tail_) turn_shape();

    auto store = std::make_shared<result_store>();
    store->items = std::move(items_);
    store->kinds = std::move(kinds_);
    store->stmts = std::move(stmts_);
    store->diags = std::move(diags_);
    store->input = input_;
    store->strings = strings_;
    if (out) {
        const text_resolver t = live_resolver();
        for (std::size_t i = 0; i < store->items.size(); ++i) {
            if (fired_[i]) continue;
            const item_rec& r = store->items[i];
            switch (store->kinds[i]) {
                case item_kind::statement: out(decode_statement(r, store->stmts[r.aux], t), i); break;
                case item_kind::diagnostic: out(decode_diagnostic(r, store->diags[r.aux], t), i); break;
                default: out(decode_text(r, t), i); break;
            }
        }
    }
    parse_result res;
    res.items = item_list(std::move(store));
    res.tail = std::move(tail_);
    return res;
}

void result_builder::share() {
    if (!items_.empty()) {
        frozen_items_.freeze(std::move(items_));
        frozen_kinds_.freeze(std::move(kinds_));
        frozen_fired_.freeze(std::move(fired_));
        items_.clear();
        kinds_.clear();
        fired_.clear();
    }
    if (!stmts_.empty()) {
        frozen_stmts_.freeze(std::move(stmts_));
        stmts_.clear();
    }
    if (!diags_.empty()) {
        frozen_diags_.freeze(std::move(diags_));
        diags_.clear();
    }
    if (!carried_.empty()) {
        frozen_carried_.freeze(std::move(carried_));
        carried_.clear();
    }
}

void result_builder::release_tokens(std::size_t tokens) {
    for (const pending_error* e : unclaimed_in_order()) carried_.push_back(diag_records(make_diagnostic(*e)));
    lex_errs_.clear();
    syn_errs_.clear();
    lex_cursor_ = syn_cursor_ = 0;
    lex_seen_ = syn_seen_ = 0;
    next_token_ = 0;
    tok_base_ += tokens;
}

void result_builder::release(std::string_view dropped, std::size_t tokens) {
    release_tokens(tokens);
    input_.append_copy(byte_base_, dropped);
    byte_base_ += dropped.size();
    pos_.release(dropped.size());
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
        lex_errs_.push_back(pending_error{(tok_base_ + e.token_index) * 2, e.begin, 0, e, source::lexer});
    }
    const auto& syn_errors = tree_->errors;
    reserve_for(syn_errs_, syn_errors.size());
    for (; syn_seen_ < syn_errors.size(); ++syn_seen_) {
        const syntax_error& e = syn_errors[syn_seen_];
        pending_error pe{(tok_base_ + e.fetched) * 2 + 1, e.offset, static_cast<std::uint32_t>(syn_seen_), {},
                         source::parser};
        // keep offset order (errors arrive almost sorted)
        auto it = syn_errs_.end();
        while (it != syn_errs_.begin() && std::prev(it)->offset > pe.offset) --it;
        syn_errs_.insert(it, std::move(pe));
    }
}

// An error no statement claims spans what it names: the lexer's offending text, or the parser's
// offending token (one a statement claims is given the statement's span, in emit_unit).
new_diagnostic result_builder::make_diagnostic(const pending_error& e) {
    const position p = at(e.offset);
    if (e.from == source::lexer) {
        const lex_error& le = e.lex;
        return new_diagnostic{p, e.from, severity::error, le.message(in_), le.id(),
                              span_of(le.begin, std::max(le.begin, le.end))};
    }
    const syntax_error& se = tree_->errors[e.index];
    const byte_span span = span_of(se.at.begin, se.at.end);
    const std::optional<syntax_error::message_key> key = se.key();
    if (!key) return new_diagnostic{p, e.from, severity::error, se.message(in_), se.id(), span};
    const std::size_t h = (key->expected * 0x9e3779b97f4a7c15ULL) ^ (static_cast<std::uint64_t>(key->symbol) << 2) ^
                          static_cast<std::uint64_t>(key->kind);
    syntax_message& m = syntax_messages_[(h >> 7) % syntax_messages_.size()];
    if (m.s == nullptr || !(m.key == *key)) m = syntax_message{*key, intern(se.message(in_)), se.id()};
    return new_diagnostic{p, e.from, severity::error, {}, m.id, span, m.s};
}

// The first recorded, unclaimed error within [lo, hi] claims the unit; all of them are used up.
pending_error* result_builder::claim(pod_vector<pending_error>& list, std::size_t& cursor, std::uint32_t lo, std::uint32_t hi,
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
        new_diagnostic d = make_diagnostic(*first);
        d.span = unit_span(un);
        add_diagnostic(d, final_now, out);
        return;
    }
    if (!un.clean) return;
    build_statement(un, out);
}

// ---- records ------------------------------------------------------------------------------------

const char* result_builder::intern(std::string_view message) {
    const std::size_t h = std::hash<std::string_view>{}(message);
    interned& slot = intern_[h % intern_.size()];
    if (slot.s != nullptr && slot.hash == h) {
        std::uint32_t n = 0;
        std::memcpy(&n, slot.s - 4, 4);
        if (std::string_view(slot.s, n) == message) return slot.s;
    }
    slot = interned{h, strings_.lstring(message)};
    return slot.s;
}

item_rec result_builder::diag_records(const new_diagnostic& d) {
    item_rec rec = item_record(d.at, d.span);
    rec.aux = static_cast<std::uint32_t>(frozen_diags_.size() + diags_.size());
    diags_.push_back(diag_rec::make(d.span.end, d.source, d.severity, d.id, d.interned != nullptr ? d.interned : intern(d.message)));
    return rec;
}

void result_builder::add_text(const token& t, const sink& out) {
    const byte_span sp = span_of(t.begin, t.end);
    items_.push_back(item_rec{static_cast<std::uint32_t>(sp.begin), static_cast<std::uint32_t>(sp.end),
                              0, 0});
    const position p = at(t.begin);
    items_.back().line = p.line;
    items_.back().column = p.column;
    kinds_.push_back(item_kind::text);
    settle_last(true, out);
    if (tier_ == tier::parse) near_miss_advisories(text_item{text(t), p, sp}, out);
}

void result_builder::add_diagnostic(const new_diagnostic& d, bool final_now, const sink& out) {
    items_.push_back(diag_records(d));
    kinds_.push_back(item_kind::diagnostic);
    settle_last(final_now, out);
}

void result_builder::add_statement(const statement& st, const sink& out) {
    string_sink sink = live_sink();
    item_rec rec = item_record(st.position, st.span);
    rec.aux = static_cast<std::uint32_t>(frozen_stmts_.size() + stmts_.size());
    stmts_.push_back(encode_statement(st, sink, has_fast_target_ ? &fast_target_ : nullptr));
    items_.push_back(rec);
    kinds_.push_back(item_kind::statement);
    settle_last(true, out);
}

item result_builder::live_item(std::size_t i) const {
    const item_rec& r = items_[i];
    const text_resolver t = live_resolver();
    switch (kinds_[i]) {
        case item_kind::statement: return decode_statement(r, stmts_[r.aux - frozen_stmts_.size()], t);
        case item_kind::diagnostic: return decode_diagnostic(r, diags_[r.aux - frozen_diags_.size()], t);
        default: return decode_text(r, t);
    }
}

// Bookkeeping for the item just placed at the back of the live records.
void result_builder::settle_last(bool final_now, const sink& out) {
    if (!final_now) index_known_ = false;
    const bool fire = final_now && out;
    fired_.push_back(fire ? 1 : 0);
    if (fire) {
        const std::size_t i = items_.size() - 1;
        out(live_item(i), index_known_ ? frozen_items_.size() + i : stream_event_npos);
    }
}

// Errors no statement claimed, in recording order, after everything else (reported at finish).
// Those from the unparsed tail's opener on are dropped with the tail. Lexer errors are kept in
// recording order already; parser errors (kept in offset order) nearly always are too, so the
// two lists are merged, and sorted first only when needed.
void result_builder::append_unclaimed() {
    const std::vector<const pending_error*> rest = unclaimed_in_order();
    carried_ = frozen_carried_.take(std::move(carried_));
    // The carried records go after the items. When they are the many (an error on every line of a
    // long turn), the items go in front of them instead, so the two are not both held twice.
    if (carried_.size() > items_.size()) {
        carried_.prepend(items_);
        std::swap(items_, carried_);
    } else {
        items_.append(carried_);
    }
    const std::size_t n = items_.size() - kinds_.size();
    carried_ = pod_vector<item_rec>();
    for (std::size_t k = 0; k < n; ++k) {
        kinds_.push_back(item_kind::diagnostic);
        fired_.push_back(0);
    }
    for (const pending_error* e : rest) {
        items_.push_back(diag_records(make_diagnostic(*e)));
        kinds_.push_back(item_kind::diagnostic);
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
    const auto unclaimed = [this](const pod_vector<pending_error>& list) {
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
