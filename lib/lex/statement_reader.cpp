// SPDX-License-Identifier: MIT
// The lexer's fast path for a whole statement (BEHAVIOUR §1). Most statements are well formed,
// and for them the modes inside a statement (modes.cpp) take one step per token, each
// step with the step loop's bookkeeping around it: about 2,000 instructions for a statement of
// 60 bytes. Right after an opener, statement_reader::read() reads the rest of such a statement in one
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
// that much. The reader keeps the deferral's state; the cursor, the output and the input are the
// lexer's (lexer_state.hpp), handed to each call. fast_paths::lexer (base/fast_paths.hpp) turns
// the path off (the differential tests and the fuzz target compare the two).
#include <algorithm>

#include "lex/statement_reader.hpp"

#include "lex/lexer_state.hpp"
#include "lex/scan.hpp"

namespace plurnk::detail {

template <class Lexer>
void statement_reader::start(Lexer& lx) {
    if (lx.cur_.op == plurnk::op::TURN) return;
    if (lx.finished_) {
        read(lx);
        return;
    }
    // A stream: the path reads the statement only when its close may be here (else it would
    // decline at the end of the input, and the steps would read the same bytes again). With much
    // input after the opener (a large chunk) it most often is, and is not looked for first: where
    // it is not, the path declines at the input's end as it would at an error, and the steps take
    // the statement, as they take one that long whose close has not arrived (not deferred).
    const std::size_t i = lx.cur_.i;
    if (lx.s_.size() - i >= k_defer_max) {
        read(lx);
        return;
    }
    scan_ = i;
    if (close_arrived(lx)) {
        read<true>(lx, scan_);
    } else if (defer_ok_) {
        deferring_ = true;
        start_ = i;
    }
}

// The close the sleep found whole at scan_ (what close_arrived() would find there, first: the
// sleep's search went from scan_ over the same bytes).
template <class Lexer>
bool statement_reader::told_close(Lexer& lx) noexcept {
    if constexpr (k_work_counter) lx.examined_ += 1 + lx.open_tag().size();
    return true;
}

template <class Lexer>
bool statement_reader::close_arrived(Lexer& lx) noexcept {
    const std::string_view s = lx.s_;
    const std::size_t n = s.size();
    const std::string_view tag = lx.open_tag();
    std::size_t m = 0;
    const std::size_t c = next_tag_colon(s, scan_, tag, m);
    const bool arrived = c < n && m == tag.size() && c + 1 + m < n;  // and the byte after the tag
    if constexpr (k_work_counter) lx.examined_ += (arrived ? c + 1 + m : n) - std::min(scan_, n);
    scan_ = c;
    return arrived;
}

template <class Lexer>
bool statement_reader::resume(Lexer& lx, bool closed) {
    const bool arrived = !lx.finished_ && (closed ? told_close(lx) : close_arrived(lx));
    if (arrived || lx.finished_) {
        deferring_ = false;
        tokens_before_ = lx.out_.tokens.size();
        if (lx.cur_.lex_mode == mode::slots) {
            if (arrived) {
                read<true>(lx, scan_);
            } else {
                read(lx);
            }
        }
        return true;
    }
    if (lx.s_.size() - start_ < k_defer_max) return false;
    deferring_ = false;  // long: the steps take it from here, as it arrives
    return true;
}

namespace {

// How a part of the statement read from an offset ended, and where: the next part begins there;
// or the statement ends there (the close); or the reader declined there.
enum class part_end : std::uint8_t { next, statement, declined };
struct read_to {
    std::size_t at;
    part_end how;
};

// '(' at p: a target, closed at depth 0: in the service dialect a regex unit (scan::regex_unit)
// when a `#` follows and the text is one, as lex_target() reads it; else target text
// (scan::target).
template <class Lexer>
[[gnu::always_inline]] inline read_to read_target(Lexer& lx, std::size_t p) {
    const std::string_view s = lx.s_;
    scan::run r;  // (`bad`: no unit)
    if (lx.service_ && p + 1 < s.size() && s[p + 1] == '#') r = scan::regex_unit(s, p + 2);
    if (r.v == scan::verdict::bad) r = scan::target(s, p + 1, 0, false);
    if (r.v != scan::verdict::done || s[r.end] != ')') return {r.end, part_end::declined};  // (a line end or a '<' pair: an error)
    token* const w = lx.token_room(3);
    std::size_t k = 0;
    w[k++] = lx.token_of(tok::lparen, p, p + 1);
    lx.cur_.depth = 0;
    if (r.end > p + 1) w[k++] = lx.token_of(tok::target_text, p + 1, r.end);
    w[k++] = lx.token_of(tok::rparen, r.end, r.end + 1);
    lx.emitted(k);
    return {r.end + 1, part_end::next};
}

// '<' at p: a scope literal (grammar/scope_literal.hpp), whole.
template <class Lexer>
[[gnu::always_inline]] inline read_to read_scope(Lexer& lx, std::size_t p) {
    const scope_scan r = scan_scope(lx.s_, p + 1, scope_phase::number);
    if (r.v != scope_scan::verdict::closed) return {r.at, part_end::declined};
    lx.emit(tok::scope, p, r.at);
    return {r.at, part_end::next};
}

// '[' at p: a signal in the op's signal mode, up to its `]`.
template <class Lexer>
[[gnu::always_inline]] inline read_to read_signal(Lexer& lx, std::size_t p) {
    const std::string_view s = lx.s_;
    lx.emit(tok::lbrack, p, p + 1);
    ++p;
    const mode m = signal_mode(lx.shapes_->of(lx.cur_.op));
    for (;;) {
        p = scan::blanks(s, p);
        if (p >= s.size()) return {p, part_end::declined};
        const char d = s[p];
        if (d == ']') {
            lx.emit(tok::rbrack, p, p + 1);
            return {p + 1, part_end::next};
        }
        if (m == mode::signal_tags && d == ',') {
            lx.emit(tok::comma, p, p + 1);
            ++p;
            continue;
        }
        // A tag, an integer or disposition, or an executor, as the op's mode reads it.
        const scan::run r = m == mode::signal_tags  ? scan::tag(s, p)
                            : m == mode::signal_int ? scan::integer(s, p)
                                                    : scan::executor(s, p);
        if (r.v != scan::verdict::done || r.end == p) return {r.end, part_end::declined};  // (an empty tag: an error follows)
        tok kind = m == mode::signal_tags ? tok::tag : tok::ident;
        if (m == mode::signal_int) kind = is_disposition_digits(s.substr(p, r.end - p)) ? tok::disposition : tok::integer;
        lx.emit(kind, p, r.end);
        p = r.end;
    }
}

// ':' at p: the one-colon close (`:` and the open tag, blanks, then a line end or `<<`), or the
// fence, then the body up to the first ':' + open tag not followed by a word character, and that
// close tag. Ends the statement. `Told`, `close`: as read() has them.
template <bool Told, class Lexer>
[[gnu::always_inline]] inline read_to read_close(Lexer& lx, std::size_t p, std::size_t close) {
    const std::string_view s = lx.s_;
    const std::size_t n = s.size();
    const std::string_view tag = lx.open_tag();
    // Most often the byte after the ':' is not the tag's first (a fence): no literal to match.
    if (p + 1 >= n || s[p + 1] == tag[0]) {
        const std::size_t m = scan::literal(s, p + 1, tag);
        if (m == tag.size()) {
            const std::size_t e = p + 1 + tag.size();
            const std::size_t k = scan::blanks(s, e);
            const scan::verdict v = scan::one_colon_close(s, k, false);
            if (v == scan::verdict::more) return {k, part_end::declined};  // the end, or a '<' whose next byte has not arrived
            if (v == scan::verdict::done) {
                lx.emit(tok::close_tag, p, e);
                return {k, part_end::statement};
            }
        } else if (p + 1 + m >= n) {
            return {n, part_end::declined};
        }
    }
    // The fence, the body and the close tag, emitted once the close is found.
    token* const w = lx.token_room(3);
    w[0] = lx.token_of(tok::colon, p, p + 1);
    const std::size_t b = p + 1;
    // The first ':' + open tag from b on: the one close_arrived() found, when it lies here (its
    // search began at the opener's end, before b, and found no earlier one), else searched.
    // (Not told: an empty body, the close right after the fence, as that search would find it, first.)
    std::size_t bm = tag.size();
    const bool empty = !Told && b < n && s[b] == ':' && byte_scan::prefix(s, b + 1, tag) == bm;
    const std::size_t k0 = Told && close >= b ? close : empty ? b : next_tag_colon<colon_search::near>(s, b, tag, bm);
    for (std::size_t k = k0;; k = next_tag_colon<colon_search::near>(s, k + 1, tag, bm)) {
        const std::size_t e = k + 1 + bm;
        const scan::verdict v = k < n ? scan::body_close(s, e, false) : scan::verdict::more;
        if (v == scan::verdict::more) return {n, part_end::declined};  // no close, or the tag or the byte after it has not arrived
        if (v == scan::verdict::done) {
            std::size_t t = 1;
            if (k > b) w[t++] = lx.token_of(tok::body_text, b, k);
            w[t++] = lx.token_of(tok::close_tag, k, e);
            lx.emitted(t);
            lx.out_.tail.body_begin = static_cast<std::uint32_t>(b);
            lx.body_scan_ = b;
            return {e, part_end::statement};
        }
    }
}

}  // namespace

// The parts of the statement in any order, with blanks between them, up to its close; each part
// is read by one of the readers above, over the steps' scanners.
template <bool Told, class Lexer>
bool statement_reader::read(Lexer& lx, std::size_t close) {
    if (lx.cur_.op == plurnk::op::TURN) return false;
    const std::string_view s = lx.s_;
    const std::size_t n = s.size();
    const std::size_t start = lx.cur_.i;
    const std::size_t mark = lx.out_.tokens.size();
    // What a target changes (its depth), put back when the path declines: nothing emitted stays,
    // and nothing else is changed (the body's facts are written only once its close is read).
    const int depth = lx.cur_.depth;
    read_to r{start, part_end::next};
    while (r.how == part_end::next) {
        const std::size_t p = r.at < n && is_whitespace(static_cast<unsigned char>(s[r.at])) ? scan::whitespace(s, r.at) : r.at;
        r = {p, part_end::declined};
        if (p < n) {
            switch (s[p]) {
                case '(': r = read_target(lx, p); break;
                case '<': r = read_scope(lx, p); break;
                case '[': r = read_signal(lx, p); break;
                case ':': r = read_close<Told>(lx, p, close); break;
                default: break;  // anything else is for the steps (an error, or a rule this path does not take)
            }
        }
    }
    if constexpr (k_work_counter) lx.examined_ += std::min(r.at + 1, n) - start;
    if (r.how == part_end::declined) {
        lx.out_.tokens.resize(mark);
        lx.cur_.depth = depth;
        return false;
    }
    // The statement ends at r.at: the lexer goes on there, between statements.
    count_fast_statements(1);
    lx.cur_.i = r.at;
    lx.cur_.lex_mode = mode::normal;
    return true;
}

// advance() would take the next step at once while the token window has room (and nothing here
// records an error for its error budget), and that step would skip the blanks, find the opener
// and take it (lex_default()): so do the same here, and stop where advance() would stop between
// steps (the window's end) or where the reader declined (the steps take the statement).
template <class Lexer>
void statement_reader::read_run(Lexer& lx) {
    const std::string_view s = lx.s_;
    while (read(lx) && lx.out_.tokens.size() < lx.token_budget_) {
        const std::size_t k = scan::whitespace(s, lx.cur_.i);
        const plurnk::op* const op = k < s.size() && s[k] == '<' ? lx.opener_at(k) : nullptr;
        if (op == nullptr) return;
        lx.note_examined(lx.cur_.i, k);
        lx.cur_.i = k;
        lx.lex_opener(*op);
    }
}

// The reader works on the lexer's state, and on nothing else.
template void statement_reader::start(stream_lexer::impl&);
template void statement_reader::read_run(stream_lexer::impl&);
template bool statement_reader::resume(stream_lexer::impl&, bool);

}  // namespace plurnk::detail
