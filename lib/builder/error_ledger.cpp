// SPDX-License-Identifier: MIT
// The error ledger (see error_ledger.hpp): collecting the lexer's and the parser's errors in
// recording order (the cascade collapse drops a lexer error that only continues the last one),
// and their diagnostics, whose messages are rendered once per memo entry.
#include "builder/error_ledger.hpp"

#include <cstring>

namespace plurnk::detail {

namespace {
// Room for n, growing geometrically: exact in a one-shot parse (one call), amortized when
// streaming (many calls).
template <class V>
void reserve_for(V& v, std::size_t n) {
    if (n > v.capacity()) v.reserve(std::max(n, 2 * v.capacity()));
}

// The place of a key in a message memo: each key has two places (from the top bits of its hash);
// `hit` when either holds it (an entry whose `s` is set and `same`). On a miss it is the first
// place, or the second when the first holds another key, so that two keys sharing a first place
// (two kinds of error taking turns) do not evict each other on every error.
template <class Entry, std::size_t N, class Same>
Entry& memo_place(memo_slots<Entry, N>& memo, std::uint64_t h, bool& hit, Same same) {
    const std::uint64_t m = h * 0x9e3779b97f4a7c15ULL;
    const std::size_t ia = (m >> 60) % N, ib = (m >> 56) % N;
    const Entry& a = memo[ia];
    const Entry& b = memo[ib];
    hit = true;
    if (a.s != nullptr && same(a)) return memo.place(ia);
    if (b.s != nullptr && same(b)) return memo.place(ib);
    hit = false;
    return memo.place(a.s == nullptr ? ia : ib);
}

byte_span span_of(const ledger_input& v, std::size_t begin, std::size_t end) noexcept {
    return {v.byte_base + begin, v.byte_base + end};
}
}  // namespace

void error_ledger::collect(const lex_output& lexed, const ledger_input& v) {
    const auto& lex_errors = lexed.errors;
    reserve_for(lex_errs_, lex_errors.size());
    for (; lex_seen_ < lex_errors.size(); ++lex_seen_) {
        const lex_error& e = lex_errors[lex_seen_];
        // Cascade collapse: an error right after an error of the same context (the next column
        // of the same line) is dropped.
        bool cascade = false;
        if (has_prev_ && prev_context_ == e.context) {
            const bool here = prev_offset_ != k_no_offset;  // the last one is in this input
            const auto b = here ? static_cast<unsigned char>(v.in[prev_offset_]) : 0;
            if (here && (b < 0x80 || b >= 0xC0)) {
                // It is where a column's count can start (not inside a UTF-8 sequence): one code
                // point apart, and it is not a newline.
                cascade = e.begin > prev_offset_ && b != '\n' && v.pos.count_code_points(prev_offset_, e.begin) == 1;
            } else {
                const position a = here ? v.pos.at(prev_offset_) : prev_pos_, p = v.pos.at(e.begin);
                cascade = a.line == p.line && a.column + 1 == p.column;
            }
        }
        has_prev_ = true;
        prev_offset_ = e.begin;
        prev_context_ = e.context;
        if (!cascade) collect_lex_error(e);
    }
    const auto& syn_errors = v.tree->errors;
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

void error_ledger::collect_lex_error(const lex_error& e) {
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

// An error no statement claims spans what it names: the lexer's offending text, or the parser's
// offending token (one a statement claims is given the statement's span, in emit_unit).
new_diagnostic error_ledger::lex_diagnostic(std::size_t k, const ledger_input& v) {
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
    const byte_span span = span_of(v, le.begin, std::max(le.begin, le.end));
    lex_message probe;
    if (le.turn_depth || le.end < le.begin || le.end - le.begin > probe.text.size()) {
        return new_diagnostic{v.pos.at(p.begin), source::lexer, severity::error, le.message(v.in), le.id(), span};
    }
    probe.context = le.context;
    probe.len = static_cast<std::uint8_t>(le.end - le.begin);
    std::memcpy(probe.text.data(), v.in.data() + le.begin, probe.len);
    std::size_t h = static_cast<std::size_t>(probe.context) * 0x9e3779b97f4a7c15ULL + probe.len;
    for (std::size_t i = 0; i < probe.len; ++i) h = (h ^ static_cast<unsigned char>(probe.text[i])) * 0x100000001b3ULL;
    bool hit = false;
    lex_message& m = memo_place(lex_messages_, h, hit, [&probe](const lex_message& x) {
        return x.context == probe.context && x.len == probe.len && x.text == probe.text;
    });
    if (!hit) {
        m = probe;
        m.s = v.intern(le.message(v.in));
        m.id = le.id();
    }
    return new_diagnostic{v.pos.at(p.begin), source::lexer, severity::error, {}, m.id, span, m.s};
}

new_diagnostic error_ledger::syn_diagnostic(const pending_syn& e, const ledger_input& v) {
    const position p = v.pos.at(e.offset);
    const syntax_error& se = v.tree->errors[e.index];
    const byte_span span = span_of(v, se.at.begin, se.at.end);
    const std::optional<syntax_error::message_key> key = se.key();
    if (!key) return new_diagnostic{p, source::parser, severity::error, se.message(v.in), se.id(), span};
    const std::size_t h = (key->expected * 0x9e3779b97f4a7c15ULL) ^ (static_cast<std::uint64_t>(key->symbol) << 2) ^
                          static_cast<std::uint64_t>(key->kind);
    bool hit = false;
    syntax_message& m = memo_place(syntax_messages_, h, hit, [&key](const syntax_message& x) { return x.key == *key; });
    if (!hit) m = syntax_message{*key, v.intern(se.message(v.in)), se.id()};
    return new_diagnostic{p, source::parser, severity::error, {}, m.id, span, m.s};
}

}  // namespace plurnk::detail
