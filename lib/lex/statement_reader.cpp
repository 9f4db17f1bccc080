// SPDX-License-Identifier: MIT
// The lexer's fast path for a whole statement (BEHAVIOUR §1). Most statements are well formed,
// and for them the modes inside a statement (modes_statement.cpp) take one step per token, each
// step with the step loop's bookkeeping around it: about 2,000 instructions for a statement of
// 60 bytes. Right after an opener, lex_statement_fast() reads the rest of such a statement in one
// pass (blanks, signal, target, scope, the one-colon close, or the fence, the body and its close
// tag) and emits the tokens the steps would, leaving the lexer in the state they would. Each
// rule is the steps' own scanner (scan.hpp, grammar/scope_literal.hpp), called bare.
//
// It takes only what it decides without an error, a TURN, or a look at or past the end of the
// input (so a streamed step never needs undoing for it); anything else it declines before the
// lexer's state has changed, and the steps lex the statement from its opener's end as they
// always did. Up to where it declines it reads exactly
// the tokens the steps then emit, so no statement is scanned more than twice.
//
// A growing input (a stream) seldom holds the whole statement when its opener is lexed. The path
// is tried only once a ':' and the open tag, and a byte after them, have arrived after the
// opener (close_arrived(), which looks at each byte once); before that, a stream that allows it
// (stream_lexer::set_deferral) defers the rest of the statement: the lexer sleeps as a body does,
// waking on a ':' that may start the tag, and reads the statement whole when its close may be
// there. Nothing inside a statement settles before its close tag, so no event comes later for
// it. A deferred statement that grows past k_defer_max bytes goes to the steps, which lex it as
// it arrives: a copy of the stream (a checkpoint) fed a draft that closes it re-reads at most
// that much. fast_paths::lexer (base/fast_paths.hpp) turns the path off (the differential tests
// and the fuzz target compare the two).
#include <algorithm>

#include "lex/lexer_state.hpp"
#include "lex/scan.hpp"

namespace plurnk::detail {

void stream_lexer::impl::start_statement() {
    if (cur_.op == plurnk::op::TURN) return;
    if (finished_) {
        lex_statement_fast();
        return;
    }
    // A stream: the path reads the statement only when its close may be here (else it would
    // decline at the end of the input, and the steps would read the same bytes again).
    defer_scan_ = cur_.i;
    if (close_arrived()) {
        lex_statement_fast();
    } else if (defer_ok_ && s_.size() - cur_.i < k_defer_max) {
        deferring_ = true;
        defer_start_ = cur_.i;
    }
}

bool stream_lexer::impl::close_arrived() noexcept {
    const std::size_t n = s_.size();
    const std::string_view tag = open_tag();
    std::size_t m = 0;
    const std::size_t c = next_tag_colon(s_, defer_scan_, tag, m);
    const bool arrived = c < n && m == tag.size() && c + 1 + m < n;  // and the byte after the tag
    if constexpr (k_work_counter) examined_ += (arrived ? c + 1 + m : n) - std::min(defer_scan_, n);
    defer_scan_ = c;
    return arrived;
}

bool stream_lexer::impl::resume_deferred() {
    if (finished_ || close_arrived()) {
        deferring_ = false;
        deferred_tokens_ = out_.tokens.size();
        if (cur_.lex_mode == mode::slots) lex_statement_fast();
        return true;
    }
    if (s_.size() - defer_start_ < k_defer_max) return false;
    deferring_ = false;  // long: the steps take it from here, as it arrives
    return true;
}

// '(' at p: a target, closed at depth 0: in the service dialect a regex unit (scan::regex_unit)
// when a `#` follows and the text is one, as lex_target() reads it; else target text
// (scan::target).
[[gnu::always_inline]] inline stream_lexer::impl::read_to stream_lexer::impl::read_target(std::size_t p) {
    const std::string_view s = s_;
    scan::run r;  // (`bad`: no unit)
    if (service_ && p + 1 < s.size() && s[p + 1] == '#') r = scan::regex_unit(s, p + 2);
    if (r.v == scan::verdict::bad) r = scan::target(s, p + 1, 0, false);
    if (r.v != scan::verdict::done || s[r.end] != ')') return {r.end, false};  // (a line end or a '<' pair: an error)
    emit(tok::lparen, p, p + 1);
    cur_.depth = 0;
    if (r.end > p + 1) emit(tok::target_text, p + 1, r.end);
    emit(tok::rparen, r.end, r.end + 1);
    return {r.end + 1, true};
}

// '<' at p: a scope literal (grammar/scope_literal.hpp), whole.
[[gnu::always_inline]] inline stream_lexer::impl::read_to stream_lexer::impl::read_scope(std::size_t p) {
    const scope_scan r = scan_scope(s_, p + 1, scope_phase::number);
    if (r.v != scope_scan::verdict::closed) return {r.at, false};
    emit(tok::scope, p, r.at);
    return {r.at, true};
}

// '[' at p: a signal in the op's signal mode, up to its `]`.
[[gnu::always_inline]] inline stream_lexer::impl::read_to stream_lexer::impl::read_signal(std::size_t p) {
    const std::string_view s = s_;
    emit(tok::lbrack, p, p + 1);
    ++p;
    const mode m = signal_mode(shapes_->of(cur_.op));
    for (;;) {
        p = scan::blanks(s, p);
        if (p >= s.size()) return {p, false};
        const char d = s[p];
        if (d == ']') {
            emit(tok::rbrack, p, p + 1);
            return {p + 1, true};
        }
        if (m == mode::signal_tags && d == ',') {
            emit(tok::comma, p, p + 1);
            ++p;
            continue;
        }
        // A tag, an integer or disposition, or an executor, as the op's mode reads it.
        const scan::run r = m == mode::signal_tags  ? scan::tag(s, p)
                            : m == mode::signal_int ? scan::integer(s, p)
                                                    : scan::executor(s, p);
        if (r.v != scan::verdict::done || r.end == p) return {r.end, false};  // (an empty tag: an error follows)
        tok kind = m == mode::signal_tags ? tok::tag : tok::ident;
        if (m == mode::signal_int) kind = is_disposition_digits(s.substr(p, r.end - p)) ? tok::disposition : tok::integer;
        emit(kind, p, r.end);
        p = r.end;
    }
}

// ':' at p: the one-colon close (`:` and the open tag, blanks, then a line end or `<<`), or the
// fence, then the body up to the first ':' + open tag not followed by a word character, and that
// close tag. Ends the statement.
[[gnu::always_inline]] inline stream_lexer::impl::read_to stream_lexer::impl::read_close(std::size_t p) {
    const std::string_view s = s_;
    const std::size_t n = s.size();
    const std::string_view tag = open_tag();
    const std::size_t m = scan::literal(s, p + 1, tag);
    if (m == tag.size()) {
        const std::size_t e = p + 1 + tag.size();
        const std::size_t k = scan::blanks(s, e);
        const scan::verdict v = scan::one_colon_close(s, k, false);
        if (v == scan::verdict::more) return {k, false};  // the end, or a '<' whose next byte has not arrived
        if (v == scan::verdict::done) {
            emit(tok::close_tag, p, e);
            return {k, true};
        }
    } else if (p + 1 + m >= n) {
        return {n, false};
    }
    emit(tok::colon, p, p + 1);
    const std::size_t b = p + 1;
    for (std::size_t k = b;; ++k) {
        std::size_t bm = 0;
        k = next_tag_colon(s, k, tag, bm);
        const std::size_t e = k + 1 + bm;
        const scan::verdict v = k < n ? scan::body_close(s, e, false) : scan::verdict::more;
        if (v == scan::verdict::more) return {n, false};  // no close, or the tag or the byte after it has not arrived
        if (v == scan::verdict::done) {
            if (k > b) emit(tok::body_text, b, k);
            emit(tok::close_tag, k, e);
            out_.tail.body_begin = static_cast<std::uint32_t>(b);
            body_scan_ = b;
            return {e, true};
        }
    }
}

// The parts of the statement in any order, with blanks between them, up to its close; each part
// is read by one of the readers above, over the steps' scanners.
bool stream_lexer::impl::lex_statement_fast() {
    if (cur_.op == plurnk::op::TURN) return false;
    const std::size_t n = s_.size();
    const std::size_t start = cur_.i;
    const std::size_t mark = out_.tokens.size();
    // What a target changes (its depth), put back when the path declines: nothing emitted stays,
    // and nothing else is changed (the body's facts are written only once its close is read).
    const lex_cursor cursor = cur_;
    std::size_t p = start;
    for (;;) {
        p = p < n && is_whitespace(static_cast<unsigned char>(s_[p])) ? scan::whitespace(s_, p) : p;
        read_to r{p, false};
        if (p < n) {
            switch (s_[p]) {
                case '(': r = read_target(p); break;
                case '<': r = read_scope(p); break;
                case '[': r = read_signal(p); break;
                case ':': r = read_close(p); break;
                default: break;  // anything else is for the steps (an error, or a rule this path does not take)
            }
        }
        if (!r.ok) {
            if constexpr (k_work_counter) examined_ += std::min(r.at + 1, n) - start;
            out_.tokens.resize(mark);
            cur_ = cursor;
            return false;
        }
        if (s_[p] == ':') {  // the statement ends at r.at: the lexer goes on there, between statements
            if constexpr (k_work_counter) examined_ += std::min(r.at + 1, n) - start;
            count_fast_statements(1);
            cur_.i = r.at;
            cur_.lex_mode = mode::normal;
            return true;
        }
        p = r.at;
    }
}

}  // namespace plurnk::detail
