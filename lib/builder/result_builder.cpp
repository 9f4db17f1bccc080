// SPDX-License-Identifier: MIT
// The result builder's bookkeeping (see result_builder.hpp): items are emitted in token order as
// they settle (reported to the push parser's sink when final), a unit showing the first error the
// error ledger lets it claim, the errors no statement claimed follow at finish(), and release()
// lets the push parser forget settled input.
#include "builder/result_builder.hpp"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace plurnk::detail {

// The common case in a loop of its own: a run of clean units with no error to claim and no tail
// cut (clean_first()), from `un` on, each its statement, its first token to one past its last
// settled one. Stops at the first token that is not such a unit's first, for advance()'s loop
// (emit_token()). The cut, the ledger, the input and the arena stay as they are through the run
// (a statement claims no error and binds nothing): what clean_first() asked of them is not asked
// again, and the string sink is made once.
void result_builder::clean_run(const unit* un, const syntax_tree& tree, std::size_t end, const sink& out) {
    string_sink text_sink = live_sink();
    const std::int32_t* token_unit = tree.token_unit.data();
    for (;;) {
        build_statement(*un, out, text_sink);
        // A clean unit holds every token of [first, last] (the parser consumed each into it).
        const std::size_t next = std::min<std::size_t>(un->last, end - 1) + 1;
        assert(std::all_of(token_unit + next_token_, token_unit + next,
                           [&](std::int32_t m) { return m == token_unit[next_token_]; }));
        next_token_ = next;
        if (next >= end || token_unit[next] < 0) return;
        un = &tree.units[static_cast<std::size_t>(token_unit[next])];
        if (!un->clean || un->first != next) return;
        assert(un == clean_first(tree, end));
    }
}

// The token at next_token_ (settled, before the tail's cut): a unit's first becomes its statement
// or its first error, a text token its text item; next_token_ is left at the last token taken.
void result_builder::emit_token(const syntax_tree& tree, std::size_t end, const sink& out) {
    const auto& toks = lexed_->tokens;
    const std::int32_t u = tree.token_unit[next_token_];
    if (u < 0) {
        if (toks[next_token_].kind == tok::text) add_text(toks[next_token_], out);
        return;
    }
    const unit& un = tree.units[static_cast<std::size_t>(u)];
    if (un.first == next_token_) {
        // With no error to claim, a clean unit is its statement.
        if (un.clean && ledger_.nothing_to_claim()) {
            build_statement_apart(un, out);
        } else {
            emit_unit(un, out);
        }
    }
    // The unit's other tokens are nothing more to emit: past them at once, under the loop's own
    // bounds. A clean unit holds every token of [first, last], so with no tail cut it jumps to
    // its last settled token.
    if (un.clean && cut_ == UINT32_MAX) {
        const std::size_t last = std::min<std::size_t>(un.last, end - 1);
        assert(std::all_of(tree.token_unit.begin() + static_cast<std::ptrdiff_t>(next_token_),
                           tree.token_unit.begin() + static_cast<std::ptrdiff_t>(last) + 1,
                           [u](std::int32_t m) { return m == u; }));
        next_token_ = last;
        return;
    }
    while (next_token_ + 1 < end && toks[next_token_ + 1].begin < cut_ && tree.token_unit[next_token_ + 1] == u) {
        ++next_token_;
    }
}

void result_builder::emit_tokens(const syntax_tree& tree, std::size_t end, const sink& out) {
    const auto& toks = lexed_->tokens;
    for (;;) {
        emit_token(tree, end, out);
        ++next_token_;
        if (const unit* un = clean_first(tree, end)) clean_run(un, tree, end, out);
        if (next_token_ >= end || toks[next_token_].begin >= cut_) return;
    }
}

parse_result result_builder::finish(std::string_view in, const lex_output& lexed, const syntax_tree& tree, const sink& out) {
    // Nothing from the unparsed tail's opener on survives apply_tail(): such items are not
    // even made (on an unclosed hostile input that is nearly all of them).
    if (lexed.tail.open != open_slot::none) cut_ = lexed.tail.last_open_begin;
    // Nothing more is reported (no sink) before the tail and the passes have had their say.
    advance(in, lexed, tree, lexed.tokens.size(), {});
    log_.take_all();
    append_unclaimed();
    run_passes(lexed);

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
    res.tail = passes_.take_tail();
    return res;
}

void result_builder::share() { log_.share(); }

void result_builder::release_tokens(std::size_t tokens) {
    ledger_.for_each_unclaimed(cut_, ledger_view(),
                               [this](const new_diagnostic& d) { log_.carry(diag_records(d, interned_message(d))); });
    ledger_.tokens_released(tokens);
    next_token_ = 0;
}

void result_builder::release(std::string_view dropped, std::size_t tokens) {
    ledger_.input_released(pos_);
    release_tokens(tokens);
    input_.append_copy(byte_base_, dropped);
    byte_base_ += dropped.size();
    pos_.release(dropped.size());
    lexed_ = nullptr;
    tree_ = nullptr;
    in_ = {};
}

void result_builder::emit_unit(const unit& un, const sink& out) {
    const auto& toks = lexed_->tokens;
    const std::uint32_t lo = toks[un.first].begin;
    const std::uint32_t hi = toks[un.last].begin;
    if (const claimed_error c = ledger_.claim(lo, hi)) {
        new_diagnostic d = ledger_.diagnostic(c, ledger_view());
        d.span = unit_span(un);
        // In the parse tier the turn shape may still reword or drop a parser error.
        add_diagnostic(d, !passes_.may_revise(d), out);
        return;
    }
    if (!un.clean) return;
    build_statement_apart(un, out);
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
    if (passes_.advises()) {
        result_passes::text_advisories(std::get<text_item>(it), interner(),
                                       [&](const new_diagnostic& d) { add_diagnostic(d, true, out); });
    }
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

// The checked statement's records; an event reports it as the records' decoding would give it.
// (Inline in build_statement(), its one caller: a call per statement saved.)
inline void result_builder::add_statement(position p, byte_span span, const sink& out, string_sink& sink) {
    // (The item record first, stored as it is made, not kept aside across the writer's calls.)
    item_rec rec = item_record(p, span);
    rec.aux = log_.next_stmt();
    log_.items().push_back(rec);
    log_.kinds().push_back(item_kind::statement);
    record_writer w(sink, log_.stmts().emplace_back());
    w.begin(statement_.op(), statement_.suffix(), span.end);
    statement_.write(w, sink);
    w.finish();
    if (out) {
        statement_.view(std::get<statement>(event_), p, span);
        event_made_ = true;
    }
    settle_last(true, out, &event_);
}

// A clean unit's statement: its parts checked (a failure becomes a visitor error in its place),
// then written, then the parse tier's advisories about it.
inline void result_builder::build_statement(const unit& un, const sink& out, string_sink& text_sink) {
    const statement_parts& parts = statement_.parts_of(un, lexed_->tokens);
    const position p = at(parts.whole.begin);
    const byte_span span = span_of(parts.whole.begin, parts.whole.end);
    if (!statement_.check(in_, log_.strings())) {
        const visitor_failure& f = statement_.failure();
        add_diagnostic(new_diagnostic{p, source::visitor, severity::error, f.message, f.id, span}, true, out);
        return;
    }
    add_statement(p, span, out, text_sink);
    if (passes_.advises()) {
        result_passes::statement_advisories(statement_, p, span,
                                            [&](const new_diagnostic& d) { add_diagnostic(d, true, out); });
    }
}

void result_builder::build_statement_apart(const unit& un, const sink& out) {
    string_sink text_sink = live_sink();
    build_statement(un, out, text_sink);
}

// Every field as the constructor leaves it (operator== enumerates them for the tests), the tier
// and dialect aside (the same): the vectors and tables keep their room, and the event statement
// is made again only when an event used it (parse() makes none).
void result_builder::reset() noexcept {
    passes_.reset();
    in_ = {};
    lexed_ = nullptr;
    tree_ = nullptr;
    pos_.reset();
    next_token_ = 0;
    ledger_.reset();
    cut_ = UINT32_MAX;
    byte_base_ = 0;
    log_.reset();
    index_known_ = true;
    input_.reset();
    statement_.reset();
    if (event_made_) {
        event_.emplace<statement>();
        event_made_ = false;
    }
}

void result_builder::report_last(const sink& out, const item& built) {
    const std::size_t i = log_.items().size() - 1;
    out(built, index_known_ ? log_.frozen_items() + i : stream_event_npos);
}

// Errors no statement claimed, in recording order, after everything else (reported at finish).
// Those from the unparsed tail's opener on are dropped with the tail. Lexer errors are kept in
// recording order already; parser errors (kept in offset order) nearly always are too, so the
// two lists are merged, and sorted first only when needed.
void result_builder::append_unclaimed() {
    log_.append_carried();
    ledger_.for_each_unclaimed(cut_, ledger_view(), [this](const new_diagnostic& d) {
        log_.items().push_back(diag_records(d, interned_message(d)));
        log_.kinds().push_back(item_kind::diagnostic);
        log_.note_fired(false);
    });
}

void result_builder::run_passes(const lex_output& lexed) {
    passes_.finish(pass_input{lexed.tail, in_, byte_base_, pos_}, log_);
}

}  // namespace plurnk::detail
