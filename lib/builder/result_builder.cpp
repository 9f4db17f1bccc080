// SPDX-License-Identifier: MIT
// The result builder's bookkeeping (see result_builder.hpp): hard errors are collected in the order
// the reference records them, the first one inside a statement unit claims it, items are emitted
// in token order as they settle (reported to the push parser's sink when final), the errors no
// statement claimed follow at finish(), and release() lets the push parser forget settled input.
#include "builder/result_builder.hpp"

#include <algorithm>
#include <cstring>
#include <functional>

namespace plurnk::detail {

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
    if (lexed.tail.final_mode != mode::normal) cut_ = lexed.tail.last_open_begin;
    // Nothing more is reported before the tail and the passes have had their say.
    finishing_ = true;
    advance(in, lexed, tree, lexed.tokens.size(), {});
    log_.take_all();
    append_unclaimed();
    apply_tail();
    if (tier_ == tier::parse && !tail_) turn_shape();

    auto store = std::make_shared<result_store>();
    log_.move_to(*store);
    store->input = input_;
    if (out) {
        const text_resolver t = live_resolver();
        for (std::size_t i = 0; i < store->items.size(); ++i) {
            if (log_.fired(i)) continue;
            const item_rec& r = store->items[i];
            switch (store->kinds[i]) {
                case item_kind::statement: out(decode_statement(r, store->stmts[r.aux], t), i); break;
                case item_kind::diagnostic:
                    out(decode_diagnostic(r, store->diags.data(), store->messages.data()), i);
                    break;
                default: out(decode_text(r, t), i); break;
            }
        }
    }
    parse_result res;
    res.items = item_list(std::move(store));
    res.tail = std::move(tail_);
    return res;
}

void result_builder::share() { log_.share(); }

void result_builder::release_tokens(std::size_t tokens) {
    for_each_unclaimed([this](const new_diagnostic& d) { log_.carry(diag_records(d, interned_message(d))); });
    lex_errs_.clear();
    lex_runs_.clear();
    long_ends_.clear();
    syn_errs_.clear();
    lex_cursor_ = syn_cursor_ = 0;
    lex_seen_ = syn_seen_ = 0;
    next_token_ = 0;
    tok_base_ += tokens;
}

void result_builder::release(std::string_view dropped, std::size_t tokens) {
    // The last lexer error's offset is about to lose its text: its position stands in for it.
    if (has_prev_ && prev_offset_ != k_no_offset) prev_pos_ = at(prev_offset_);
    prev_offset_ = k_no_offset;
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
        // Cascade collapse: an error right after an error of the same context (the next column
        // of the same line) is dropped.
        bool cascade = false;
        if (has_prev_ && prev_context_ == e.context) {
            const bool here = prev_offset_ != k_no_offset;  // the last one is in this input
            const auto b = here ? static_cast<unsigned char>(in_[prev_offset_]) : 0;
            if (here && (b < 0x80 || b >= 0xC0)) {
                // It is where a column's count can start (not inside a UTF-8 sequence): one code
                // point apart, and it is not a newline.
                cascade = e.begin > prev_offset_ && b != '\n' && pos_.count_code_points(prev_offset_, e.begin) == 1;
            } else {
                const position a = here ? at(prev_offset_) : prev_pos_, p = at(e.begin);
                cascade = a.line == p.line && a.column + 1 == p.column;
            }
        }
        has_prev_ = true;
        prev_offset_ = e.begin;
        prev_context_ = e.context;
        if (!cascade) collect_lex_error(e);
    }
    const auto& syn_errors = tree_->errors;
    reserve_for(syn_errs_, syn_errors.size());
    for (; syn_seen_ < syn_errors.size(); ++syn_seen_) {
        const syntax_error& e = syn_errors[syn_seen_];
        const pending_syn pe{(tok_base_ + e.fetched) * 2 + 1, e.offset, static_cast<std::uint32_t>(syn_seen_)};
        // keep offset order (errors arrive almost sorted)
        auto it = syn_errs_.end();
        while (it != syn_errs_.begin() && std::prev(it)->offset > pe.offset) --it;
        syn_errs_.insert(it, pe);
    }
}

void result_builder::collect_lex_error(const lex_error& e) {
    const auto k = static_cast<std::uint32_t>(lex_errs_.size());
    if (lex_runs_.empty() || lex_runs_.back().token_index != e.token_index) lex_runs_.push_back(lex_run{k, e.token_index});
    std::uint8_t flags = e.turn_depth ? pending_lex::k_turn_depth : 0;
    if (e.turn_depth) turn_limit_ = e.limit;
    std::uint16_t len = 0;
    if (e.end >= e.begin && e.end - e.begin < UINT16_MAX) {
        len = static_cast<std::uint16_t>(e.end - e.begin);
    } else {
        flags |= pending_lex::k_long;
        long_ends_.push_back(long_end{k, e.end});
    }
    lex_errs_.push_back(pending_lex{e.begin, len, e.context, flags});
}

// When lexer error k is recorded (see pending_syn::recorded).
std::uint64_t result_builder::lex_recorded(std::size_t k) const noexcept {
    const lex_run* r = std::upper_bound(lex_runs_.begin(), lex_runs_.end(), k,
                                        [](std::size_t i, const lex_run& run) { return i < run.first; });
    return (tok_base_ + std::prev(r)->token_index) * 2;
}

namespace {
// The place of a key in a message memo: each key has two places (from the top bits of its hash);
// `hit` when either holds it (an entry whose `s` is set and `same`). On a miss it is the first
// place, or the second when the first holds another key, so that two keys sharing a first place
// (two kinds of error taking turns) do not evict each other on every error.
template <class Entry, std::size_t N, class Same>
Entry& memo_place(std::array<Entry, N>& memo, std::uint64_t h, bool& hit, Same same) {
    const std::uint64_t m = h * 0x9e3779b97f4a7c15ULL;
    Entry& a = memo[(m >> 60) % N];
    Entry& b = memo[(m >> 56) % N];
    hit = true;
    if (a.s != nullptr && same(a)) return a;
    if (b.s != nullptr && same(b)) return b;
    hit = false;
    return a.s == nullptr ? a : b;
}
}  // namespace

// An error no statement claims spans what it names: the lexer's offending text, or the parser's
// offending token (one a statement claims is given the statement's span, in emit_unit).
new_diagnostic result_builder::lex_diagnostic(std::size_t k) {
    const pending_lex& p = lex_errs_[k];
    lex_error le;
    le.begin = p.begin;
    le.end = p.begin + p.len;
    if ((p.flags & pending_lex::k_long) != 0) {
        const long_end* l = std::lower_bound(long_ends_.begin(), long_ends_.end(), k,
                                             [](const long_end& x, std::size_t i) { return x.index < i; });
        le.end = l->end;
    }
    le.context = p.context;
    le.turn_depth = (p.flags & pending_lex::k_turn_depth) != 0;
    le.limit = turn_limit_;
    const byte_span span = span_of(le.begin, std::max(le.begin, le.end));
    lex_message probe;
    if (le.turn_depth || le.end < le.begin || le.end - le.begin > probe.text.size()) {
        return new_diagnostic{at(p.begin), source::lexer, severity::error, le.message(in_), le.id(), span};
    }
    probe.context = le.context;
    probe.len = static_cast<std::uint8_t>(le.end - le.begin);
    std::memcpy(probe.text.data(), in_.data() + le.begin, probe.len);
    std::size_t h = static_cast<std::size_t>(probe.context) * 0x9e3779b97f4a7c15ULL + probe.len;
    for (std::size_t i = 0; i < probe.len; ++i) h = (h ^ static_cast<unsigned char>(probe.text[i])) * 0x100000001b3ULL;
    bool hit = false;
    lex_message& m = memo_place(lex_messages_, h, hit, [&probe](const lex_message& x) {
        return x.context == probe.context && x.len == probe.len && x.text == probe.text;
    });
    if (!hit) {
        m = probe;
        m.s = intern(le.message(in_));
        m.id = le.id();
    }
    return new_diagnostic{at(p.begin), source::lexer, severity::error, {}, m.id, span, m.s};
}

new_diagnostic result_builder::syn_diagnostic(const pending_syn& e) {
    const position p = at(e.offset);
    const syntax_error& se = tree_->errors[e.index];
    const byte_span span = span_of(se.at.begin, se.at.end);
    const std::optional<syntax_error::message_key> key = se.key();
    if (!key) return new_diagnostic{p, source::parser, severity::error, se.message(in_), se.id(), span};
    const std::size_t h = (key->expected * 0x9e3779b97f4a7c15ULL) ^ (static_cast<std::uint64_t>(key->symbol) << 2) ^
                          static_cast<std::uint64_t>(key->kind);
    bool hit = false;
    syntax_message& m = memo_place(syntax_messages_, h, hit, [&key](const syntax_message& x) { return x.key == *key; });
    if (!hit) m = syntax_message{*key, intern(se.message(in_)), se.id()};
    return new_diagnostic{p, source::parser, severity::error, {}, m.id, span, m.s};
}

// The lexer errors within [lo, hi] are used up; the first of them (the first recorded: the list is
// in recording order) is returned, SIZE_MAX when there is none.
std::size_t result_builder::claim_lex(std::uint32_t lo, std::uint32_t hi) {
    while (lex_cursor_ < lex_errs_.size() && lex_errs_[lex_cursor_].begin < lo) ++lex_cursor_;
    std::size_t first = SIZE_MAX;
    for (std::size_t k = lex_cursor_; k < lex_errs_.size() && lex_errs_[k].begin <= hi; ++k) {
        pending_lex& e = lex_errs_[k];
        if ((e.flags & pending_lex::k_consumed) != 0) continue;
        if (first == SIZE_MAX) first = k;
        e.flags |= pending_lex::k_consumed;
    }
    return first;
}

// The same for the parser errors (in offset order): the first recorded of them.
pending_syn* result_builder::claim_syn(std::uint32_t lo, std::uint32_t hi) {
    while (syn_cursor_ < syn_errs_.size() && syn_errs_[syn_cursor_].offset < lo) ++syn_cursor_;
    pending_syn* first = nullptr;
    for (std::size_t k = syn_cursor_; k < syn_errs_.size() && syn_errs_[k].offset <= hi; ++k) {
        pending_syn& e = syn_errs_[k];
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
    const std::size_t lex = claim_lex(lo, hi);
    const pending_syn* syn = claim_syn(lo, hi);
    // (a lexer and a parser error are never recorded at the same moment: even and odd counts)
    if (syn != nullptr && lex != SIZE_MAX && lex_recorded(lex) < syn->recorded) syn = nullptr;
    if (lex != SIZE_MAX || syn != nullptr) {
        // In the parse tier the turn-shape passes may still rewrite or drop parser errors.
        const bool final_now = !(tier_ == tier::parse && syn != nullptr);
        new_diagnostic d = syn != nullptr ? syn_diagnostic(*syn) : lex_diagnostic(lex);
        d.span = unit_span(un);
        add_diagnostic(d, final_now, out);
        return;
    }
    if (!un.clean) return;
    build_statement(un, out);
}

// ---- records ------------------------------------------------------------------------------------

const char* result_builder::interned_message(const new_diagnostic& d) {
    return d.interned != nullptr ? d.interned : intern(d.message);
}

item_rec result_builder::diag_records(const new_diagnostic& d, const char* message) {
    return log_.diagnostic(d.at, d.span, log_.message(message, d.source, d.severity, d.id));
}

void result_builder::add_text(const token& t, const sink& out) {
    const byte_span sp = span_of(t.begin, t.end);
    pod_vector<item_rec>& items = log_.items();
    items.push_back(item_rec{static_cast<std::uint32_t>(sp.begin), static_cast<std::uint32_t>(sp.end),
                             0, 0});
    const position p = at(t.begin);
    items.back().line = p.line;
    items.back().column = p.column;
    log_.kinds().push_back(item_kind::text);
    const item it{text_item{text(t), p, sp}};
    settle_last(true, out, &it);
    if (tier_ == tier::parse) near_miss_advisories(std::get<text_item>(it), out);
}

void result_builder::add_diagnostic(const new_diagnostic& d, bool final_now, const sink& out) {
    const char* message = interned_message(d);
    const item_rec rec = diag_records(d, message);
    log_.items().push_back(rec);
    log_.kinds().push_back(item_kind::diagnostic);
    if (!final_now || !out) {
        settle_last(final_now, out);
        return;
    }
    // Reported as the records' decoding gives it.
    const item it{diagnostic{d.at, d.source, d.severity, diag_message::make(d.source, d.severity, d.id, message).text(),
                             d.id, byte_span{rec.begin, d.span.end}}};
    settle_last(true, out, &it);
}

// A clean unit's statement: its parts checked (a failure becomes a visitor error in its place),
// then written, then the parse tier's advisories about it.
void result_builder::build_statement(const unit& un, const sink& out) {
    const statement_parts& parts = statement_.parts_of(un, lexed_->tokens);
    const position p = at(parts.whole.begin);
    const byte_span span = span_of(parts.whole.begin, parts.whole.end);
    if (std::optional<visitor_failure> failure = statement_.check(in_, log_.strings())) {
        add_diagnostic(new_diagnostic{p, source::visitor, severity::error, std::move(failure->message), failure->id, span},
                       true, out);
        return;
    }
    add_statement(p, span, out);
    if (tier_ == tier::parse) {
        std::optional<new_diagnostic> plan = plan_body_advisory(p, span);
        std::optional<new_diagnostic> misplaced = misplaced_target_advisory(p, span);
        if (plan) add_diagnostic(*plan, true, out);
        if (misplaced) add_diagnostic(*misplaced, true, out);
    }
}

// The checked statement's records; an event reports it as the records' decoding would give it.
void result_builder::add_statement(position p, byte_span span, const sink& out) {
    string_sink sink = live_sink();
    item_rec rec = item_record(p, span);
    rec.aux = log_.next_stmt();
    record_writer w(sink);
    w.begin(statement_.op(), statement_.suffix(), span.end);
    statement_.write(w, sink);
    log_.stmts().push_back(w.finish());
    log_.items().push_back(rec);
    log_.kinds().push_back(item_kind::statement);
    if (out) statement_.view(std::get<statement>(event_), p, span);
    settle_last(true, out, &event_);
}

void result_builder::settle_last(bool final_now, const sink& out, const item* built) {
    if (!final_now) index_known_ = false;
    const bool fire = final_now && out;
    log_.note_fired(fire);
    if (fire) {
        const std::size_t i = log_.items().size() - 1;
        const std::size_t index = index_known_ ? log_.frozen_items() + i : stream_event_npos;
        out(*built, index);
    }
}

// Errors no statement claimed, in recording order, after everything else (reported at finish).
// Those from the unparsed tail's opener on are dropped with the tail. Lexer errors are kept in
// recording order already; parser errors (kept in offset order) nearly always are too, so the
// two lists are merged, and sorted first only when needed.
void result_builder::append_unclaimed() {
    log_.append_carried();
    for_each_unclaimed([this](const new_diagnostic& d) {
        log_.items().push_back(diag_records(d, interned_message(d)));
        log_.kinds().push_back(item_kind::diagnostic);
        log_.note_fired(false);
    });
}

// Lexer errors are in recording order already; parser errors (kept in offset order) nearly always
// are too, and are sorted (by index) only when not. Errors recorded at the same moment keep their
// list order; a lexer and a parser error are never recorded at the same moment (even and odd
// counts). Those from the unparsed tail's opener on are left out (before finish(), cut_ is past
// everything).
template <class F>
void result_builder::for_each_unclaimed(F f) {
    std::vector<std::uint32_t> syn;
    for (std::uint32_t k = 0; k < syn_errs_.size(); ++k) {
        if (!syn_errs_[k].consumed && syn_errs_[k].offset < cut_) syn.push_back(k);
    }
    const auto by_recording = [this](std::uint32_t a, std::uint32_t b) {
        return syn_errs_[a].recorded != syn_errs_[b].recorded ? syn_errs_[a].recorded < syn_errs_[b].recorded : a < b;
    };
    if (!std::is_sorted(syn.begin(), syn.end(), by_recording)) std::sort(syn.begin(), syn.end(), by_recording);
    std::size_t s = 0, run = 0;
    for (std::size_t k = 0; k < lex_errs_.size(); ++k) {
        const pending_lex& e = lex_errs_[k];
        if ((e.flags & pending_lex::k_consumed) != 0 || e.begin >= cut_) continue;
        while (run + 1 < lex_runs_.size() && lex_runs_[run + 1].first <= k) ++run;
        const std::uint64_t recorded = (tok_base_ + lex_runs_[run].token_index) * 2;
        for (; s < syn.size() && syn_errs_[syn[s]].recorded < recorded; ++s) f(syn_diagnostic(syn_errs_[syn[s]]));
        f(lex_diagnostic(k));
    }
    for (; s < syn.size(); ++s) f(syn_diagnostic(syn_errs_[syn[s]]));
}

}  // namespace plurnk::detail
