// SPDX-License-Identifier: MIT
// The lexer's steps (BEHAVIOUR §1), one token or one run a step (or, in a whole input, a
// run of statements the whole-statement reader takes: statement_reader::read_run()): DEFAULT mode between
// statements (openers, whitespace, reasoning enclosures, TURN closers, text), then inside a
// statement SLOTS after an opener, the `<L>` scope and the one-colon close, the three signal
// modes, TARGET and BODY. State and primitives: lexer_state.hpp; how the lexer works: lexer.cpp.
#include "lex/lexer_state.hpp"
#include "lex/scan.hpp"

namespace plurnk::detail {

// DEFAULT: openers, whitespace, reasoning enclosures, TURN closers, text.
void stream_lexer::impl::lex_default() {
    std::size_t start = cur_.i;
    unsigned char c = at(cur_.i);
    if (is_whitespace(c)) {
        while (avail(cur_.i) && is_whitespace(at(cur_.i))) ++cur_.i;
        // A whole input: the token after the blanks in this step too. (A stream's step ends here,
        // so that a step undone at the input's end is undone to where its token begins.)
        if (!finished_ || !avail(cur_.i)) return;
        start = cur_.i;
        c = at(cur_.i);
    }
    if (c == '<') {
        if (const plurnk::op* const op = opener_at(cur_.i); op != nullptr) {
            lex_opener(*op);
            // The rest of a well-formed statement in this step too, or later (statement_reader.cpp).
            if (!fast_ || hit_end_) return;
            if (!finished_) return reader_.start(*this);
            return reader_.read_run(*this);
        }
    }
    const std::size_t text_end = scan_text(cur_.i);
    // Competing rules that may be longer: a complete reasoning enclosure, a TURN closer.
    std::size_t special_end = 0;
    if (c == '<') {
        special_end = enclosure_end(cur_.i);
    } else if (c == ':' && !turns_.empty()) {
        special_end = close_turn_end(cur_.i);
    }
    if (special_end > 0 && special_end >= text_end) {
        if (c == ':') {
            cur_.op = plurnk::op::TURN;
            emit(tok::close_turn, start, special_end);
            turns_.close();
        } else {
            emit(tok::text, start, special_end);
        }
        cur_.i = special_end;
        return;
    }
    if (text_end == start) {
        fail(start, start + 1, lex_context::between_statements);
        return;
    }
    emit(tok::text, start, text_end);
    cur_.i = text_end;
}


// End of the maximal TEXT run starting at `start` (BEHAVIOUR §1.1 rule 5).
std::size_t stream_lexer::impl::scan_text(std::size_t start) noexcept {
    run_hint& hint = hints_[h_text];
    std::size_t k = (hint.start == start) ? hint.k : start;
    for (;;) {
        // Bytes that are neither whitespace nor '<' only extend the run.
        while (k < s_.size() && !k_wake_text[at(k)]) ++k;
        const bool was_hit = hit_end_;
        hit_end_ = false;
        const std::size_t before = k;
        if (!has(k)) {
            if (hit_end_) hint = run_hint{start, k, 0};  // the run reached the end: resume here
            hit_end_ = hit_end_ || was_hit;
            break;
        }
        const unsigned char c = at(k);
        bool stop = false;
        if (is_whitespace(c)) {
            stop = true;
        } else if (c == '<') {
            if (!has(k + 1)) {
                stop = true;
            } else if (at(k + 1) == '<') {
                if (keyword_at(k + 2) != nullptr) {
                    stop = true;
                } else {
                    k += 2;
                }
            } else {
                k += 2;
            }
        } else {
            ++k;
        }
        if (hit_end_) {
            // This iteration needs input that has not arrived: remember where it began.
            hint = run_hint{start, before, 0};
            return before;
        }
        hit_end_ = was_hit;
        if (stop) break;
    }
    return k;
}


// End of a complete `<think>…</think>` or `<|channel>…<channel|>` at k, or 0.
std::size_t stream_lexer::impl::enclosure_end(std::size_t k) noexcept {
    for (std::size_t n = 0; n < 2; ++n) {
        const enclosure_pair& pair = k_enclosures[n];
        if (!starts_with(k, pair.open)) continue;
        const std::size_t close = closers_[n].next(s_, k + pair.open.size(), pair.close, examined_);
        if (close != k_no_offset) return close + pair.close.size();
        if (!finished_) hit_end_ = true;
        return 0;
    }
    return 0;
}


// End of `:TURN<suffix>` closing the innermost open TURN at k, or 0.
std::size_t stream_lexer::impl::close_turn_end(std::size_t k) noexcept {
    const std::string_view suffix = turns_.innermost_suffix(s_);
    if (!starts_with(k + 1, traits(plurnk::op::TURN).keyword)) return 0;
    if (!starts_with_resumable(h_turn_suffix, k + 5, suffix)) return 0;
    const std::size_t e = k + 5 + suffix.size();
    if (has(e) && is_word_char(at(e))) return 0;
    return e;
}



// SLOTS: header slots after an opener, any order.
void stream_lexer::impl::lex_slots() {
    const std::size_t start = cur_.i;
    const unsigned char c = at(cur_.i);
    switch (c) {
        case ' ': case '\t': case '\r': case '\n':
            while (avail(cur_.i) && is_whitespace(at(cur_.i))) ++cur_.i;
            return;
        case '[':
            emit(tok::lbrack, start, start + 1);
            ++cur_.i;
            cur_.lex_mode = signal_mode(shapes_->of(cur_.op));
            return;
        case '(':
            emit(tok::lparen, start, start + 1);
            ++cur_.i;
            cur_.depth = 0;
            cur_.lex_mode = mode::target;
            return;
        case '<':
            lex_scope();
            return;
        case ':':
            lex_slot_colon();
            return;
        default:
            fail(start, start, (c == '$' || c == '~' || c == '@') ? lex_context::matcher_redirect : lex_context::slots);
    }
}


// <scope>: the scope literal (grammar/scope_literal.hpp). An attempt that reaches the end of an
// unfinished input keeps where the scan stands (offset and phase), and the next goes on from there.
void stream_lexer::impl::lex_scope() {
    const std::size_t start = cur_.i;
    run_hint& hint = hints_[h_scope];
    std::size_t k = start + 1;
    scope_phase phase = scope_phase::number;
    if (hint.start == start) {
        k = hint.k;
        phase = static_cast<scope_phase>(hint.depth);
    }
    const scope_scan r = scan_scope(s_, k, phase);
    if constexpr (k_work_counter) examined_ += std::min(r.at + 1, s_.size()) - std::min(k, s_.size());
    switch (r.v) {
        case scope_scan::verdict::closed:
            emit(tok::scope, start, r.at);
            cur_.i = r.at;
            return;
        case scope_scan::verdict::more:
            if (!finished_) {
                hit_end_ = true;
                hint = run_hint{start, r.resume, static_cast<int>(r.phase)};
            }
            return fail(start, r.at, lex_context::slots);
        case scope_scan::verdict::bad: return fail(start, r.at, lex_context::slots);
    }
}


// ':' in SLOTS: the one-colon empty close, a TURN body opener, or the body fence.
void stream_lexer::impl::lex_slot_colon() {
    const std::size_t start = cur_.i;
    if (cur_.op != plurnk::op::TURN && starts_with_resumable(h_colon_tag, start + 1, open_tag())) {
        const std::size_t e = start + 1 + (cur_.tag_e - cur_.tag_b);
        const std::size_t k = run_end(h_colon_blanks, start, e, [](unsigned char b) { return b == ' ' || b == '\t'; });
        const scan::verdict v = scan::one_colon_close(s_, k, finished_);
        note_examined(k, k + 1);
        if (v == scan::verdict::more) {  // the end of the input, or a '<' at it, decides
            hit_end_ = true;
            return;
        }
        if (v == scan::verdict::done) {
            emit(tok::close_tag, start, e);
            // The blanks [e, k) are whitespace between statements: skip them here, so a long
            // run is not scanned a second time (by every draft fed to a checkpoint, too).
            cur_.i = k;
            cur_.lex_mode = mode::normal;
            return;
        }
    }
    emit(tok::colon, start, start + 1);
    ++cur_.i;
    if (cur_.op == plurnk::op::TURN) {
        const bool within = turns_.size() < max_turn_depth_;
        turns_.opened(cur_.tag_b + 4, cur_.tag_e, within);
        if (!within && !cur_.depth_reported) {
            // parse_options::max_turn_depth: the body is still lexed as statements, but no
            // `:TURN` will close it. Said once: a hostile run of openers past the limit would
            // otherwise double the diagnostics (each opener is a parser error already).
            cur_.depth_reported = true;
            lex_error e;
            e.begin = e.end = out_.tail.last_open_begin;
            e.token_index = static_cast<std::uint32_t>(out_.tokens.size());
            e.context = lex_context::turn_depth;
            e.turn_depth = true;
            e.limit = static_cast<std::uint32_t>(max_turn_depth_);
            out_.errors.push_back(e);
        }
        cur_.lex_mode = mode::normal;
    } else {
        out_.tail.body_begin = static_cast<std::uint32_t>(cur_.i);
        body_scan_ = cur_.i;
        cur_.lex_mode = mode::body;
    }
}


bool stream_lexer::impl::skip_blanks() {
    if (at(cur_.i) == ' ' || at(cur_.i) == '\t') {
        while (avail(cur_.i) && (at(cur_.i) == ' ' || at(cur_.i) == '\t')) ++cur_.i;
        return true;
    }
    return false;
}


void stream_lexer::impl::close_signal() {
    emit(tok::rbrack, cur_.i, cur_.i + 1);
    ++cur_.i;
    cur_.lex_mode = mode::slots;
}


// SIGNAL_TAGS: comma-separated tags.
void stream_lexer::impl::lex_signal_tags() {
    if (skip_blanks()) return;
    const std::size_t start = cur_.i;
    const unsigned char c = at(cur_.i);
    if (c == ']') return close_signal();
    if (c == ',') {
        emit(tok::comma, start, start + 1);
        ++cur_.i;
        return;
    }
    run_hint& hint = hints_[h_tag];
    const std::size_t from = hint.start == start ? hint.k : start;
    const scan::run r = scan::tag(s_, from);
    note_examined(from, r.end);
    const std::size_t k = r.end;
    if (r.v == scan::verdict::more && !finished_) {
        hit_end_ = true;
        hint = run_hint{start, k, 0};
    }
    if (k == start) {
        // Only '<' (followed by a stop char or the end), CR or LF get here.
        return fail(start, c == '<' ? start + 1 : start, lex_context::tags);
    }
    emit(tok::tag, start, k);
    cur_.i = k;
}


// SIGNAL_INT: SEND/KILL integer or disposition.
void stream_lexer::impl::lex_signal_int() {
    if (skip_blanks()) return;
    const std::size_t start = cur_.i;
    const unsigned char c = at(cur_.i);
    if (c == ']') return close_signal();
    run_hint& hint = hints_[h_int];
    const std::size_t from = hint.start == start ? hint.k : start;
    const scan::run r = scan::integer(s_, start, from);
    note_examined(from, r.end);
    if (r.v == scan::verdict::bad) return fail(start, r.end, lex_context::integer);
    const std::size_t k = r.end;
    if (r.v == scan::verdict::more && !finished_) {
        hit_end_ = true;
        hint = run_hint{start, k, 0};
    }
    const std::string_view digits = s_.substr(start, k - start);
    emit(is_disposition_digits(digits) ? tok::disposition : tok::integer, start, k);
    cur_.i = k;
}


// SIGNAL_IDENT: EXEC executor.
void stream_lexer::impl::lex_signal_ident() {
    if (skip_blanks()) return;
    const std::size_t start = cur_.i;
    const unsigned char c = at(cur_.i);
    if (c == ']') return close_signal();
    run_hint& hint = hints_[h_ident];
    const std::size_t from = hint.start == start ? hint.k : start;
    const scan::run r = scan::executor(s_, start, from);
    note_examined(from, r.end);
    if (r.v != scan::verdict::bad) {
        if (r.v == scan::verdict::more && !finished_) {
            hit_end_ = true;
            hint = run_hint{start, r.end, 0};
        }
        emit(tok::ident, start, r.end);
        cur_.i = r.end;
        return;
    }
    fail(start, start, (c == '-' || is_digit(c)) ? lex_context::exec_redirect : lex_context::ident);
}


// The service dialect's regex target unit (SERVICE.md S3, scan::regex_unit), tried by
// lex_target() right after a target's `(` when a `#` follows: a unit is one target-text token,
// and its `)` closes the target. Returns whether the step is done (the unit lexed, or the scan
// reached the end of an unfinished input: the step is undone and resumes there); false when it
// is no unit, and the target is lexed as in 1.4.0. The scan resumes where the last attempt
// stopped, and remembers a "no", so a stream costs O(new bytes).
bool stream_lexer::impl::lex_regex_unit(std::size_t start) {
    constexpr int k_no_unit = 2;  // hint depth: decided, no unit
    run_hint& hint = hints_[h_unit];
    std::size_t k = start + 1;
    int phase = 0;
    if (hint.start == start) {
        if (hint.depth == k_no_unit) return false;
        k = hint.k;
        phase = hint.depth;
    }
    const scan::run r = scan::regex_unit(s_, k, phase);
    note_examined(k, r.end);
    switch (r.v) {
        case scan::verdict::more:
            if (!finished_) {
                hit_end_ = true;
                hint = run_hint{start, r.end, r.depth};
                return true;
            }
            hint = run_hint{start, r.end, k_no_unit};  // the input ends: no `)` follows
            return false;
        case scan::verdict::bad:
            hint = run_hint{start, r.end, k_no_unit};
            return false;
        case scan::verdict::done:
            break;
    }
    emit(tok::target_text, start, r.end);
    emit(tok::rparen, r.end, r.end + 1);
    cur_.i = r.end + 1;
    cur_.lex_mode = mode::slots;
    return true;
}


// TARGET: in the service dialect, right after `(`, a `#` may start a regex unit. While the unit
// waits for more input, 1.4.0's scan runs too and keeps its own resume point (the step is undone
// all the same): a copy of the stream that learns it is no unit (a draft) goes on from there,
// not from the `(`.
void stream_lexer::impl::lex_target() {
    const std::size_t start = cur_.i;
    if (service_ && at(start) == '#' && cur_.depth == 0 && !out_.tokens.empty() &&
        out_.tokens.back().kind == tok::lparen && out_.tokens.back().end == start && lex_regex_unit(start)) {
        if (!hit_end_) return;
        hit_end_ = false;
        lex_target_plain();
        hit_end_ = true;
        return;
    }
    lex_target_plain();
}

// TARGET as 1.4.0 lexes it: target text (scan::target) after the `(` or a resumed attempt;
// ')' at depth 0 closes.
void stream_lexer::impl::lex_target_plain() {
    const std::size_t start = cur_.i;
    std::size_t from = cur_.i;
    int depth = cur_.depth;
    run_hint& hint = hints_[h_target];
    if (hint.start == start) {
        from = hint.k;
        depth = hint.depth;
    }
    const scan::run r = scan::target(s_, from, depth, finished_);
    note_examined(from, r.end);
    if (r.v == scan::verdict::more) {
        hit_end_ = true;
        hint = run_hint{start, r.end, r.depth};
        return;
    }
    const std::size_t k = r.end;
    cur_.depth = r.depth;
    if (k > start) {
        emit(tok::target_text, start, k);
        cur_.i = k;
        // The `)` that stopped the run closes the target: emitted in this step, as the next one
        // would (it has been looked at already, so nothing past it is).
        if (r.depth == 0 && k < s_.size() && s_[k] == ')') {
            emit(tok::rparen, k, k + 1);
            ++cur_.i;
            cur_.lex_mode = mode::slots;
        }
        return;
    }
    const unsigned char c = at(start);
    if (c == ')') {
        emit(tok::rparen, start, start + 1);
        ++cur_.i;
        cur_.lex_mode = mode::slots;
        return;
    }
    fail(start, c == '<' ? start + 1 : start, lex_context::target);
}


// BODY: opaque text up to the exact close tag (':' + open tag, not followed by an ident char).
void stream_lexer::impl::lex_body() {
    const std::size_t start = cur_.i;
    const std::string_view tag = open_tag();
    std::size_t k = body_scan_ > start ? body_scan_ : start;
    for (;;) {
        // The next ':' that starts the tag, or may once more input arrives: the others start no
        // close, as starts_with_resumable() below would find.
        std::size_t matched = 0;
        const std::size_t hit = next_tag_colon(s_, k, tag, matched);
        if constexpr (k_work_counter) examined_ += (hit < s_.size() ? hit + 1 : s_.size()) - std::min(k, s_.size());
        if (hit == s_.size()) {
            if (!finished_) {
                hit_end_ = true;
                body_scan_ = s_.size();
                return;
            }
            emit(tok::body_text, start, s_.size());
            cur_.i = s_.size();
            return;
        }
        k = hit;
        const bool was_hit = hit_end_;
        hit_end_ = false;
        if (starts_with_resumable(h_body_tag, k + 1, tag)) {
            const std::size_t e = k + 1 + tag.size();
            const scan::verdict v = scan::body_close(s_, e, finished_);
            note_examined(e, e);
            if (v == scan::verdict::more) hit_end_ = true;
            if (v == scan::verdict::done) {
                if (k > start) emit(tok::body_text, start, k);
                emit(tok::close_tag, k, e);
                cur_.i = e;
                cur_.lex_mode = mode::normal;
                return;
            }
        }
        if (hit_end_) {
            body_scan_ = k;  // this ':' is undecided until more input arrives
            return;
        }
        hit_end_ = was_hit;
        ++k;
    }
}

}  // namespace plurnk::detail
