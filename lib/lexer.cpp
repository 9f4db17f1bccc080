// SPDX-License-Identifier: MIT
// The PLURNK lexer (BEHAVIOUR §1). One pass over the input with a small mode enum: DEFAULT
// (between statements), SLOTS (after an opener), the three signal modes, TARGET and BODY; plus an
// explicit stack of open TURN suffixes. It imitates the reference ANTLR lexer exactly where that
// shows: longest match between competing rules, and on a character no rule accepts one error whose
// text runs from the failed token's start through the failing character, after which lexing
// resumes after that character in the same mode. Body text, the hot path, is scanned with memchr
// for ':' followed by a compare against the open tag.
//
// The same code lexes a growing input for the push parser: every look past the end of the input
// marks the step, and a marked step is undone (its token is not yet stable) until more input or the
// end arrives. Every token kind that can be long (text, target and body runs, tags, executors,
// integers, scopes, opener suffixes, the close-tag and TURN-suffix compares, the blanks after a
// one-colon close) remembers how far an undone attempt got, so a long token arriving a few bytes
// at a time is still scanned once; and the search for a reasoning enclosure's closer remembers
// where the next closer is (or that there is none so far), so a run of unclosed openers costs
// one search, not one per opener. work_counter.hpp counts the bytes examined.
#include "lexer.hpp"

#include "utf8.hpp"
#include "work_counter.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <utility>

namespace plurnk::detail {

namespace {

constexpr std::array<std::string_view, k_op_count> k_keywords = {
    "FIND", "READ", "EDIT", "COPY", "MOVE", "OPEN", "FOLD", "SEND",
    "EXEC", "WORK", "FORK", "KILL", "PLAN", "TURN", "LOOK", "BUFF"};

// Four bytes as one number, so a keyword test is sixteen integer compares.
constexpr std::uint32_t word4(unsigned char a, unsigned char b, unsigned char c, unsigned char d) noexcept {
    return std::uint32_t{a} | std::uint32_t{b} << 8 | std::uint32_t{c} << 16 | std::uint32_t{d} << 24;
}
constexpr std::array<std::uint32_t, k_op_count> k_keyword_words = [] {
    std::array<std::uint32_t, k_op_count> w{};
    for (std::size_t n = 0; n < k_op_count; ++n) {
        const std::string_view k = k_keywords[n];
        w[n] = word4(static_cast<unsigned char>(k[0]), static_cast<unsigned char>(k[1]),
                     static_cast<unsigned char>(k[2]), static_cast<unsigned char>(k[3]));
    }
    return w;
}();

bool is_ident_char(unsigned char c) noexcept {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}
bool is_digit(unsigned char c) noexcept { return c >= '0' && c <= '9'; }
bool is_ws(unsigned char c) noexcept { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

}  // namespace

struct stream_lexer::impl {
    explicit impl(std::size_t max_turn_depth) : max_turn_depth_(max_turn_depth) {}

    void advance(std::string_view in, bool finished) {
        advance_steps(in, finished);
        if constexpr (k_work_counter) {
            count_bytes(examined_);
            count_tokens(emitted_);
            examined_ = emitted_ = 0;
        }
    }

    void advance_steps(std::string_view in, bool finished) {
        s_ = in;
        finished_ = finished;
        if (eof_emitted_) return;
        while (i_ < s_.size()) {
            const saved_state saved = save();
            hit_end_ = false;
            step();
            if (hit_end_ && !finished_) {
                restore(saved);
                return;
            }
        }
        if (finished_) {
            emit(tok::eof, s_.size(), s_.size());
            eof_emitted_ = true;
            out_.final_mode = mode_;
        }
    }

    std::size_t max_turn_depth_;
    std::string_view s_;
    bool finished_ = false;
    bool eof_emitted_ = false;
    bool hit_end_ = false;
    std::size_t i_ = 0;
    mode mode_ = mode::normal;
    plurnk::op op_ = plurnk::op::PLAN;
    std::uint32_t tag_b_ = 0, tag_e_ = 0;  // open tag (keyword + suffix) of the current statement
    int depth_ = 0;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> turn_stack_;  // open TURN suffixes
    bool depth_reported_ = false;  // the max_turn_depth diagnostic is given once per input
    lex_output out_;

    mutable std::uint64_t examined_ = 0;  // work counter (work_counter.hpp), flushed per advance()
    std::uint64_t emitted_ = 0;

    // Resume hints for tokens an undone attempt already scanned: valid for the same token start
    // (the input only grows, so what was scanned stays scanned). An undone step is retried at the
    // same offset and in the same mode, so one hint per scanner suffices.
    static constexpr std::size_t k_none = static_cast<std::size_t>(-1);
    std::size_t body_scan_ = 0;
    struct run_hint {
        std::size_t start = k_none;
        std::size_t k = 0;
        int depth = 0;  // scanner state at k (target depth, scope phase)
    };
    enum hint_slot : std::uint8_t {
        h_text, h_target, h_opener, h_tag, h_int, h_ident, h_scope, h_colon_tag, h_colon_blanks,
        h_turn_suffix, h_body_tag, h_count
    };
    std::array<run_hint, h_count> hints_{};

    // Where the next reasoning-enclosure closer is: no closer starts in [from, at), and one starts
    // at `at`; or, with at == k_none, none starts before `searched`. One per closer.
    struct closer_memo {
        std::size_t from = k_none;
        std::size_t at = k_none;
        std::size_t searched = 0;
    };
    std::array<closer_memo, 2> closers_{};

    struct saved_state {
        std::size_t i;
        mode m;
        plurnk::op o;
        std::uint32_t tb, te;
        int depth;
        std::size_t turns;
        std::pair<std::uint32_t, std::uint32_t> turn_top;
        std::size_t tokens, errors;
        std::uint32_t last_open_begin, open_tag_begin, open_tag_end, body_begin;
        bool depth_reported;
    };

    saved_state save() const {
        return saved_state{i_, mode_, op_, tag_b_, tag_e_, depth_, turn_stack_.size(),
                           turn_stack_.empty() ? std::pair<std::uint32_t, std::uint32_t>{} : turn_stack_.back(),
                           out_.tokens.size(), out_.errors.size(), out_.last_open_begin, out_.open_tag_begin,
                           out_.open_tag_end, out_.body_begin, depth_reported_};
    }

    void restore(const saved_state& st) {
        i_ = st.i;
        mode_ = st.m;
        op_ = st.o;
        tag_b_ = st.tb;
        tag_e_ = st.te;
        depth_ = st.depth;
        if (turn_stack_.size() > st.turns) turn_stack_.pop_back();
        if (turn_stack_.size() < st.turns) turn_stack_.push_back(st.turn_top);
        out_.tokens.resize(st.tokens);
        out_.errors.resize(st.errors);
        out_.last_open_begin = st.last_open_begin;
        out_.open_tag_begin = st.open_tag_begin;
        out_.open_tag_end = st.open_tag_end;
        out_.body_begin = st.body_begin;
        depth_reported_ = st.depth_reported;
    }

    void step() {
        switch (mode_) {
            case mode::normal: lex_default(); break;
            case mode::slots: lex_slots(); break;
            case mode::signal_tags: lex_signal_tags(); break;
            case mode::signal_int: lex_signal_int(); break;
            case mode::signal_ident: lex_signal_ident(); break;
            case mode::target: lex_target(); break;
            case mode::body: lex_body(); break;
        }
    }

    unsigned char at(std::size_t k) const noexcept {
        if constexpr (k_work_counter) ++examined_;
        return static_cast<unsigned char>(s_[k]);
    }
    // Whether s_[k] exists. Asking past the end of an unfinished input marks the step unstable.
    bool has(std::size_t k) noexcept {
        if (k < s_.size()) return true;
        if (!finished_) hit_end_ = true;
        return false;
    }
    // Whether s_[k] exists, for scans whose result cannot change with more input.
    bool avail(std::size_t k) const noexcept { return k < s_.size(); }
    // s_.substr(k, lit.size()) == lit, looking at no more than it needs.
    bool starts_with(std::size_t k, std::string_view lit) noexcept {
        for (std::size_t n = 0; n < lit.size(); ++n) {
            if (!has(k + n)) return false;
            if (at(k + n) != static_cast<unsigned char>(lit[n])) return false;
        }
        return true;
    }
    // starts_with() for literals that may be long (an open tag, a TURN suffix): when the input
    // ends inside the compare, the matched length is kept in `h` and the next attempt at the same
    // k goes on from there.
    bool starts_with_resumable(hint_slot slot, std::size_t k, std::string_view lit) noexcept {
        run_hint& h = hints_[slot];
        std::size_t n = h.start == k ? h.k - k : 0;  // h.k: the first offset not yet compared
        for (; n < lit.size(); ++n) {
            if (!has(k + n)) {
                if (!finished_) h = run_hint{k, k + n, 0};
                return false;
            }
            if (at(k + n) != static_cast<unsigned char>(lit[n])) return false;
        }
        return true;
    }
    // End of the run of bytes satisfying `pred` from k, for the token starting at `start`; an
    // attempt that reached the end of an unfinished input is resumed where it stopped.
    template <class Pred>
    std::size_t run_end(hint_slot slot, std::size_t start, std::size_t k, Pred pred) noexcept {
        run_hint& h = hints_[slot];
        if (h.start == start && h.k > k) k = h.k;
        while (has(k) && pred(at(k))) ++k;
        if (!avail(k) && !finished_) h = run_hint{start, k, 0};
        return k;
    }
    std::string_view open_tag() const noexcept { return s_.substr(tag_b_, tag_e_ - tag_b_); }

    // Length in bytes of the code point at k (1 for a byte outside a well-formed sequence).
    std::size_t cp_len(std::size_t k) noexcept {
        const std::size_t want = utf8_expected_length(at(k));
        if (want <= 1) return 1;
        for (std::size_t n = 1; n < want; ++n) {
            if (!has(k + n)) return 1;
        }
        const std::size_t len = utf8_sequence_length(s_, k);
        return len == 0 ? 1 : len;
    }

    void emit(tok kind, std::size_t b, std::size_t e) {
        if constexpr (k_work_counter) ++emitted_;
        out_.tokens.push_back(token{kind, static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(e), op_});
    }

    // Records an error for a token that started at `start` and failed at `fail_at` (the failing
    // character is included when present), then resumes after the failing character, as the
    // ANTLR lexer's recover() does.
    void fail(std::size_t start, std::size_t fail_at, lex_context context) {
        const std::size_t end = has(fail_at) ? fail_at + cp_len(fail_at) : s_.size();
        lex_error e;
        e.begin = static_cast<std::uint32_t>(start);
        e.end = static_cast<std::uint32_t>(end);
        e.token_index = static_cast<std::uint32_t>(out_.tokens.size());
        e.context = context;
        out_.errors.push_back(std::move(e));
        i_ = end > start ? end : start + 1;
    }

    // Which keyword (if any) starts at s_[k].
    int keyword_at(std::size_t k) noexcept {
        if (!has(k + 3)) return -1;
        const std::uint32_t w = word4(at(k), at(k + 1), at(k + 2), at(k + 3));
        for (std::size_t n = 0; n < k_keyword_words.size(); ++n) {
            if (w == k_keyword_words[n]) return static_cast<int>(n);
        }
        return -1;
    }

    // DEFAULT: openers, whitespace, reasoning enclosures, TURN closers, text.
    void lex_default() {
        const std::size_t start = i_;
        const unsigned char c = at(i_);
        if (is_ws(c)) {
            while (avail(i_) && is_ws(at(i_))) ++i_;
            return;
        }
        if (c == '<' && has(i_ + 1) && at(i_ + 1) == '<') {
            const int kw = keyword_at(i_ + 2);
            if (kw >= 0) {
                const std::size_t e = run_end(h_opener, start, i_ + 6, is_ident_char);
                op_ = static_cast<plurnk::op>(kw);
                emit(tok::opener, start, e);
                out_.last_open_begin = static_cast<std::uint32_t>(start);
                out_.open_tag_begin = tag_b_ = static_cast<std::uint32_t>(start + 2);
                out_.open_tag_end = tag_e_ = static_cast<std::uint32_t>(e);
                i_ = e;
                mode_ = mode::slots;
                return;
            }
        }
        const std::size_t text_end = scan_text(i_);
        // Competing rules that may be longer: a complete reasoning enclosure, a TURN closer.
        std::size_t special_end = 0;
        if (c == '<') {
            special_end = enclosure_end(i_);
        } else if (c == ':' && !turn_stack_.empty()) {
            special_end = close_turn_end(i_);
        }
        if (special_end > 0 && special_end >= text_end) {
            if (c == ':') {
                op_ = plurnk::op::TURN;
                emit(tok::close_turn, start, special_end);
                turn_stack_.pop_back();
            } else {
                emit(tok::text, start, special_end);
            }
            i_ = special_end;
            return;
        }
        if (text_end == start) {
            fail(start, start + 1, lex_context::between_statements);
            return;
        }
        emit(tok::text, start, text_end);
        i_ = text_end;
    }

    // End of the maximal TEXT run starting at `start` (BEHAVIOUR §1.1 rule 5).
    std::size_t scan_text(std::size_t start) noexcept {
        run_hint& hint = hints_[h_text];
        std::size_t k = (hint.start == start) ? hint.k : start;
        for (;;) {
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
            if (is_ws(c)) {
                stop = true;
            } else if (c == '<') {
                if (!has(k + 1)) {
                    stop = true;
                } else if (at(k + 1) == '<') {
                    if (keyword_at(k + 2) >= 0) {
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
    std::size_t enclosure_end(std::size_t k) noexcept {
        static constexpr std::string_view k_pairs[2][2] = {{"<think>", "</think>"}, {"<|channel>", "<channel|>"}};
        for (std::size_t n = 0; n < 2; ++n) {
            if (!starts_with(k, k_pairs[n][0])) continue;
            const std::size_t close = next_closer(closers_[n], k + k_pairs[n][0].size(), k_pairs[n][1]);
            if (close != k_none) return close + k_pairs[n][1].size();
            if (!finished_) hit_end_ = true;
            return 0;
        }
        return 0;
    }

    // The first `closer` starting at or after q, or k_none. Queries move forward (openers come in
    // input order; a retried step asks the same q again), so with the memo each byte is searched
    // about once however many openers share one closer, or none.
    std::size_t next_closer(closer_memo& m, std::size_t q, std::string_view closer) noexcept {
        if (m.from != k_none && q >= m.from) {
            if (m.at != k_none && m.at >= q) return m.at;
            if (m.at == k_none && m.searched > q) q = m.searched;  // none in [q, searched)
            else m.from = q;
        } else {
            m.from = q;
        }
        const std::size_t close = q < s_.size() ? s_.find(closer, q) : std::string_view::npos;
        if constexpr (k_work_counter) examined_ += (close == std::string_view::npos ? s_.size() : close + closer.size()) - std::min(q, s_.size());
        if (close != std::string_view::npos) {
            m.at = close;
            return close;
        }
        m.at = k_none;
        // A closer starting before size - |closer| + 1 would have fit: those starts are checked.
        const std::size_t fit = s_.size() >= closer.size() ? s_.size() - closer.size() + 1 : 0;
        m.searched = std::max(q, fit);
        if (m.from > m.searched) m.from = m.searched;
        return k_none;
    }

    // End of `:TURN<suffix>` closing the innermost open TURN at k, or 0.
    std::size_t close_turn_end(std::size_t k) noexcept {
        const auto [sb, se] = turn_stack_.back();
        if (!starts_with(k + 1, "TURN")) return 0;
        if (!starts_with_resumable(h_turn_suffix, k + 5, s_.substr(sb, se - sb))) return 0;
        const std::size_t e = k + 5 + (se - sb);
        if (has(e) && is_ident_char(at(e))) return 0;
        return e;
    }

    // SLOTS: header slots after an opener, any order.
    void lex_slots() {
        const std::size_t start = i_;
        const unsigned char c = at(i_);
        switch (c) {
            case ' ': case '\t': case '\r': case '\n':
                while (avail(i_) && is_ws(at(i_))) ++i_;
                return;
            case '[':
                emit(tok::lbrack, start, start + 1);
                ++i_;
                mode_ = (op_ == plurnk::op::SEND || op_ == plurnk::op::KILL) ? mode::signal_int
                        : op_ == plurnk::op::EXEC                              ? mode::signal_ident
                                                                               : mode::signal_tags;
                return;
            case '(':
                emit(tok::lparen, start, start + 1);
                ++i_;
                depth_ = 0;
                mode_ = mode::target;
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

    // <scope>: '<' NUM (('-' | ',' | ', ') NUM)* '>' with NUM = '-'? digits ('.' digits)?
    // An attempt that reaches the end of an unfinished input keeps its phase and offset.
    void lex_scope() {
        const std::size_t start = i_;
        run_hint& hint = hints_[h_scope];
        std::size_t k = start + 1;
        int phase = 0;  // 0: a NUM starts at k; 1: in its integer digits; 2: in its fraction; 3: separator
        if (hint.start == start) {
            k = hint.k;
            phase = hint.depth;
        }
        const auto park = [&](std::size_t at_k, int at_phase) {
            if (!finished_) hint = run_hint{start, at_k, at_phase};
        };
        for (;;) {
            if (phase == 0) {
                const std::size_t num = k;
                if (has(k) && at(k) == '-') ++k;
                if (!has(k) || !is_digit(at(k))) {
                    if (!avail(k)) park(num, 0);
                    return fail(start, k, lex_context::slots);
                }
                phase = 1;
            }
            if (phase == 1) {
                while (has(k) && is_digit(at(k))) ++k;
                if (!avail(k)) {
                    park(k, 1);
                    return fail(start, k, lex_context::slots);
                }
                if (at(k) == '.') {
                    ++k;
                    if (!has(k) || !is_digit(at(k))) {
                        if (!avail(k)) park(k - 1, 1);
                        return fail(start, k, lex_context::slots);
                    }
                    phase = 2;
                }
            }
            if (phase == 2) {
                while (has(k) && is_digit(at(k))) ++k;
                if (!avail(k)) {
                    park(k, 2);
                    return fail(start, k, lex_context::slots);
                }
            }
            const std::size_t sep = k;
            if (!has(k)) {
                park(sep, 3);
                return fail(start, k, lex_context::slots);
            }
            const unsigned char c = at(k);
            if (c == '>') {
                emit(tok::scope, start, k + 1);
                i_ = k + 1;
                return;
            }
            if (c == '-') {
                ++k;
            } else if (c == ',') {
                ++k;
                if (has(k) && at(k) == ' ') ++k;
                if (!avail(k)) {
                    park(sep, 3);
                    return fail(start, k, lex_context::slots);
                }
            } else {
                return fail(start, k, lex_context::slots);
            }
            phase = 0;
        }
    }

    // ':' in SLOTS: the one-colon empty close, a TURN body opener, or the body fence.
    void lex_slot_colon() {
        const std::size_t start = i_;
        if (op_ != plurnk::op::TURN && starts_with_resumable(h_colon_tag, start + 1, open_tag())) {
            const std::size_t e = start + 1 + (tag_e_ - tag_b_);
            const std::size_t k = run_end(h_colon_blanks, start, e, [](unsigned char b) { return b == ' ' || b == '\t'; });
            if (!has(k) || at(k) == '\n' || at(k) == '\r' || (at(k) == '<' && has(k + 1) && at(k + 1) == '<')) {
                emit(tok::close_tag, start, e);
                // The blanks [e, k) are whitespace between statements: skip them here, so a long
                // run is not scanned a second time (by every draft fed to a checkpoint, too).
                i_ = k;
                mode_ = mode::normal;
                return;
            }
        }
        emit(tok::colon, start, start + 1);
        ++i_;
        if (op_ == plurnk::op::TURN) {
            if (turn_stack_.size() < max_turn_depth_) {
                turn_stack_.emplace_back(tag_b_ + 4, tag_e_);
            } else if (!depth_reported_) {
                // parse_options::max_turn_depth: the body is still lexed as statements, but no
                // `:TURN` will close it. Said once: a hostile run of openers past the limit would
                // otherwise double the diagnostics (each opener is a parser error already).
                depth_reported_ = true;
                lex_error e;
                e.begin = e.end = out_.last_open_begin;
                e.token_index = static_cast<std::uint32_t>(out_.tokens.size());
                e.context = lex_context::turn_depth;
                e.turn_depth = true;
                e.limit = static_cast<std::uint32_t>(max_turn_depth_);
                out_.errors.push_back(e);
            }
            mode_ = mode::normal;
        } else {
            out_.body_begin = static_cast<std::uint32_t>(i_);
            body_scan_ = i_;
            mode_ = mode::body;
        }
    }

    bool skip_blanks() {
        if (at(i_) == ' ' || at(i_) == '\t') {
            while (avail(i_) && (at(i_) == ' ' || at(i_) == '\t')) ++i_;
            return true;
        }
        return false;
    }

    void close_signal() {
        emit(tok::rbrack, i_, i_ + 1);
        ++i_;
        mode_ = mode::slots;
    }

    // SIGNAL_TAGS: comma-separated tags.
    void lex_signal_tags() {
        if (skip_blanks()) return;
        const std::size_t start = i_;
        const unsigned char c = at(i_);
        if (c == ']') return close_signal();
        if (c == ',') {
            emit(tok::comma, start, start + 1);
            ++i_;
            return;
        }
        run_hint& hint = hints_[h_tag];
        std::size_t k = hint.start == start ? hint.k : start;
        for (;;) {
            if (!has(k)) {
                if (!finished_) hint = run_hint{start, k, 0};
                break;
            }
            const unsigned char d = at(k);
            if (d == ']' || d == ',' || d == '\r' || d == '\n' || d == ' ' || d == '\t') break;
            if (d == '<') {
                if (!has(k + 1)) {
                    if (!finished_) hint = run_hint{start, k, 0};
                    break;
                }
                const unsigned char f = at(k + 1);
                if (f == ']' || f == ',' || f == '<' || f == '\r' || f == '\n' || f == ' ' || f == '\t') break;
                k += 2;
                continue;
            }
            ++k;
        }
        if (k == start) {
            // Only '<' (followed by a stop char or the end), CR or LF get here.
            return fail(start, c == '<' ? start + 1 : start, lex_context::tags);
        }
        emit(tok::tag, start, k);
        i_ = k;
    }

    // SIGNAL_INT: SEND/KILL integer or disposition.
    void lex_signal_int() {
        if (skip_blanks()) return;
        const std::size_t start = i_;
        const unsigned char c = at(i_);
        if (c == ']') return close_signal();
        std::size_t k = i_;
        if (c == '-') ++k;
        if (!has(k) || !is_digit(at(k))) return fail(start, k, lex_context::integer);
        k = run_end(h_int, start, k, is_digit);
        const std::string_view digits = s_.substr(start, k - start);
        const bool disposition =
            digits == "102" || digits == "200" || digits == "202" || digits == "300" || digits == "499";
        emit(disposition ? tok::disposition : tok::integer, start, k);
        i_ = k;
    }

    // SIGNAL_IDENT: EXEC executor.
    void lex_signal_ident() {
        if (skip_blanks()) return;
        const std::size_t start = i_;
        const unsigned char c = at(i_);
        if (c == ']') return close_signal();
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_') {
            const std::size_t k = run_end(h_ident, start, i_ + 1, [](unsigned char b) {
                return is_ident_char(b) || b == '.' || b == '+' || b == '-';
            });
            emit(tok::ident, start, k);
            i_ = k;
            return;
        }
        fail(start, start, (c == '-' || is_digit(c)) ? lex_context::exec_redirect : lex_context::ident);
    }

    // TARGET: escapes, balanced parentheses, text runs; ')' at depth 0 closes.
    void lex_target() {
        const std::size_t start = i_;
        std::size_t k = i_;
        int depth = depth_;
        run_hint& hint = hints_[h_target];
        if (hint.start == start) {
            k = hint.k;
            depth = hint.depth;
        }
        for (;;) {
            const std::size_t before = k;
            const int depth_before = depth;
            if (!has(k)) {
                if (hit_end_) hint = run_hint{start, before, depth_before};
                break;
            }
            const unsigned char c = at(k);
            bool stop = false;
            if (c == '\\') {
                // `\\`, `\(` and `\)` are escapes; a lone backslash is plain text.
                k += (has(k + 1) && (at(k + 1) == '\\' || at(k + 1) == '(' || at(k + 1) == ')')) ? 2 : 1;
            } else if (c == '(') {
                ++depth;
                ++k;
            } else if (c == ')') {
                if (depth == 0) {
                    stop = true;
                } else {
                    --depth;
                    ++k;
                }
            } else if (c == '\r' || c == '\n') {
                stop = true;
            } else if (c == '<') {
                if (!has(k + 1)) {
                    stop = true;
                } else {
                    const unsigned char f = at(k + 1);
                    if (f == '\\' || f == '(' || f == ')' || f == '<' || f == '\r' || f == '\n') {
                        stop = true;
                    } else {
                        k += 2;
                    }
                }
            } else {
                ++k;
            }
            if (hit_end_) {
                hint = run_hint{start, before, depth_before};
                return;
            }
            if (stop) break;
        }
        if (hit_end_) return;
        depth_ = depth;
        if (k > start) {
            emit(tok::target_text, start, k);
            i_ = k;
            return;
        }
        const unsigned char c = at(start);
        if (c == ')') {
            emit(tok::rparen, start, start + 1);
            ++i_;
            mode_ = mode::slots;
            return;
        }
        fail(start, c == '<' ? start + 1 : start, lex_context::target);
    }

    // BODY: opaque text up to the exact close tag (':' + open tag, not followed by an ident char).
    void lex_body() {
        const std::size_t start = i_;
        const std::string_view tag = open_tag();
        std::size_t k = body_scan_ > start ? body_scan_ : start;
        for (;;) {
            const void* hit = k < s_.size() ? std::memchr(s_.data() + k, ':', s_.size() - k) : nullptr;
            if constexpr (k_work_counter) {
                examined_ += (hit ? static_cast<std::size_t>(static_cast<const char*>(hit) - s_.data()) + 1 : s_.size()) - std::min(k, s_.size());
            }
            if (hit == nullptr) {
                if (!finished_) {
                    hit_end_ = true;
                    body_scan_ = s_.size();
                    return;
                }
                emit(tok::body_text, start, s_.size());
                i_ = s_.size();
                return;
            }
            k = static_cast<std::size_t>(static_cast<const char*>(hit) - s_.data());
            const bool was_hit = hit_end_;
            hit_end_ = false;
            bool closes = false;
            if (starts_with_resumable(h_body_tag, k + 1, tag)) {
                const std::size_t e = k + 1 + tag.size();
                closes = !(has(e) && is_ident_char(at(e)));
                if (!hit_end_ && closes) {
                    if (k > start) emit(tok::body_text, start, k);
                    emit(tok::close_tag, k, e);
                    i_ = e;
                    mode_ = mode::normal;
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
};

stream_lexer::stream_lexer(std::size_t max_turn_depth) : impl_(new impl(max_turn_depth)) {}
stream_lexer::~stream_lexer() { delete impl_; }
stream_lexer::stream_lexer(const stream_lexer& other) : impl_(new impl(*other.impl_)) {}
stream_lexer& stream_lexer::operator=(const stream_lexer& other) {
    if (this != &other) *impl_ = *other.impl_;
    return *this;
}
void stream_lexer::advance(std::string_view input, bool finished) { impl_->advance(input, finished); }
const lex_output& stream_lexer::output() const noexcept { return impl_->out_; }
std::size_t stream_lexer::position() const noexcept { return impl_->i_; }

bool stream_lexer::can_release() const noexcept {
    const impl& m = *impl_;
    // Between statements, no TURN open (its closer is matched against the opener's text), and
    // not inside a UTF-8 sequence (positions restart counting at the cut).
    return !m.eof_emitted_ && m.mode_ == mode::normal && m.turn_stack_.empty() && m.depth_ == 0 && m.i_ > 0 &&
           m.i_ <= m.s_.size() && static_cast<unsigned char>(m.s_[m.i_ - 1]) < 0x80;
}

std::size_t stream_lexer::release() noexcept {
    impl& m = *impl_;
    const std::size_t cut = m.i_;
    const auto shift = [cut](std::uint32_t& offset) { offset = offset >= cut ? static_cast<std::uint32_t>(offset - cut) : 0; };
    m.i_ = 0;
    m.body_scan_ = m.body_scan_ >= cut ? m.body_scan_ - cut : 0;
    for (impl::run_hint& h : m.hints_) {
        if (h.start != impl::k_none && h.start >= cut) {
            h.start -= cut;
            h.k -= cut;
        } else {
            h = impl::run_hint{};
        }
    }
    for (impl::closer_memo& c : m.closers_) {
        if (c.from != impl::k_none && c.from >= cut) {
            c.from -= cut;
            if (c.at != impl::k_none) c.at -= cut;
            c.searched = c.searched >= cut ? c.searched - cut : 0;
        } else {
            c = impl::closer_memo{};
        }
    }
    shift(m.tag_b_);
    shift(m.tag_e_);
    shift(m.out_.last_open_begin);
    shift(m.out_.open_tag_begin);
    shift(m.out_.open_tag_end);
    shift(m.out_.body_begin);
    m.out_.tokens.clear();
    m.out_.errors.clear();
    m.s_ = {};
    return cut;
}

lex_output stream_lexer::take_output() noexcept { return std::move(impl_->out_); }
void stream_lexer::reserve_tokens(std::size_t n) { impl_->out_.tokens.reserve(n); }

work_counts& work() noexcept {
    thread_local work_counts counts;
    return counts;
}

lex_output lex(std::string_view input, std::size_t max_turn_depth) {
    stream_lexer l(max_turn_depth);
    // Room for the densest common shapes (a token per 3 bytes): untouched reserve is only address
    // space, while growing copies every token and touches twice the memory.
    l.reserve_tokens(input.size() / 3 + 4);
    l.advance(input, true);
    return l.take_output();
}

}  // namespace plurnk::detail
