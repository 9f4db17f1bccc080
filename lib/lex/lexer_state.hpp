// SPDX-License-Identifier: MIT
// The lexer's state and primitives (private header), and its stepping loop (impl::advance):
// read by modes.cpp (the steps: DEFAULT mode between statements, and the modes inside a
// statement: SLOTS, the scope and one-colon close, the three signal modes, TARGET and BODY),
// lexer.cpp (the public API) and statement_reader.cpp. See lexer.cpp for how the lexer works.
#pragma once

#include "lex/lexer.hpp"
#include "lex/lexer_parts.hpp"
#include "lex/scan.hpp"
#include "lex/statement_reader.hpp"

#include "base/ascii.hpp"
#include "base/fast_paths.hpp"
#include "base/utf8.hpp"
#include "base/work_counter.hpp"
#include "grammar/hash_regex.hpp"
#include "grammar/op_table.hpp"
#include "grammar/scope_literal.hpp"
#include "grammar/statement_shape.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <string>
#include <utility>

namespace plurnk::detail {


// Four bytes as one number: a keyword is one look-up of its word (k_keyword_slots, below).
constexpr std::uint32_t word4(unsigned char a, unsigned char b, unsigned char c, unsigned char d) noexcept {
    return std::uint32_t{a} | std::uint32_t{b} << 8 | std::uint32_t{c} << 16 | std::uint32_t{d} << 24;
}
// word4() of the four bytes at p: on a little-endian machine one load.
inline std::uint32_t word4_at(const char* p) noexcept {
    if constexpr (std::endian::native == std::endian::little) return byte_scan::word_at(p);
    const auto b = [p](int n) { return static_cast<unsigned char>(p[n]); };
    return word4(b(0), b(1), b(2), b(3));
}
inline constexpr std::array<std::uint32_t, k_op_count> k_keyword_words = [] {
    std::array<std::uint32_t, k_op_count> w{};
    for (std::size_t n = 0; n < k_op_count; ++n) {
        const std::string_view k = k_ops[n].keyword;
        w[n] = word4(static_cast<unsigned char>(k[0]), static_cast<unsigned char>(k[1]),
                     static_cast<unsigned char>(k[2]), static_cast<unsigned char>(k[3]));
    }
    return w;
}();

// Which keyword four bytes are, in one look-up (keyword_at()): the words of k_keyword_words in a
// table of 64 by a multiplicative hash, its multiplier searched here at compile time so that no
// two words share a slot. A slot no keyword hashes to holds a keyword that hashes elsewhere (no word finds it).
struct keyword_slots {
    std::array<std::uint32_t, 64> word{};
    std::array<plurnk::op, 64> op{};
    std::uint32_t mul = 0;
    static constexpr std::size_t slot(std::uint32_t w, std::uint32_t mul) noexcept { return (w * mul) >> 26; }
    // The op whose keyword's four bytes are w, or null.
    constexpr const plurnk::op* find(std::uint32_t w) const noexcept {
        const std::size_t i = slot(w, mul);
        return word[i] == w ? &op[i] : nullptr;
    }
};

constexpr keyword_slots make_keyword_slots() noexcept {
    for (std::uint32_t mul = 0x9e3779b1U;; mul += 2) {
        keyword_slots t;
        t.mul = mul;
        t.word.fill(k_keyword_words[0]);
        std::array<bool, 64> used{};
        bool clash = false;
        for (std::size_t n = 0; n < k_keyword_words.size() && !clash; ++n) {
            const std::size_t i = keyword_slots::slot(k_keyword_words[n], mul);
            clash = used[i];
            used[i] = true;
            t.word[i] = k_keyword_words[n];
            t.op[i] = static_cast<plurnk::op>(n);
        }
        if (!clash) return t;
    }
}

inline constexpr keyword_slots k_keyword_slots = make_keyword_slots();

// (By slot, not through find(): a sanitized build does not fold a comparison of the address of
// a variable with external linkage.)
constexpr bool finds_every_keyword() noexcept {
    const keyword_slots& t = k_keyword_slots;
    for (std::size_t n = 0; n < k_keyword_words.size(); ++n) {
        const std::size_t i = keyword_slots::slot(k_keyword_words[n], t.mul);
        if (t.word[i] != k_keyword_words[n] || t.op[i] != static_cast<plurnk::op>(n)) return false;
    }
    return t.word[keyword_slots::slot(0, t.mul)] != 0;
}
static_assert(finds_every_keyword(), "each keyword's word finds its op");

// The mode `[` enters: how the statement's row lexes its signal (grammar/statement_shape.hpp).
constexpr mode signal_mode(const statement_shape& row) noexcept {
    switch (row.lexed) {
        case signal_tokens::integer: return mode::signal_int;
        case signal_tokens::ident: return mode::signal_ident;
        case signal_tokens::tags: return mode::signal_tags;
    }
    return mode::signal_tags;
}

// (the character classes are ascii.hpp's)
using ascii::is_digit;
using ascii::is_whitespace;
using ascii::is_word_char;  // an identifier character: op suffixes, executors

// The wake sets of the runs a stalled step can sleep in (stream_lexer::advance(); sleep()
// below says when each applies): the bytes that could end the run or change how it ends.
constexpr stream_lexer::byte_set byte_set_of(bool (*in)(unsigned char)) noexcept {
    stream_lexer::byte_set s{};
    for (int c = 0; c < 256; ++c) s[static_cast<std::size_t>(c)] = in(static_cast<unsigned char>(c));
    return s;
}
// lex_body(): only a ':' can start the close tag.
inline constexpr stream_lexer::byte_set k_wake_body = byte_set_of([](unsigned char c) { return c == ':'; });
// lex_target(): escapes, parentheses, line ends and '<' (which may start a stop pair).
inline constexpr stream_lexer::byte_set k_wake_target = scan::k_target_special;
// scan_text(): whitespace ends the run, '<' may start an opener.
inline constexpr stream_lexer::byte_set k_wake_text =
    byte_set_of([](unsigned char c) { return is_whitespace(c) || c == '<'; });
// lex_signal_tags(): the stops of a tag, and '<' (the byte after it decides).
inline constexpr stream_lexer::byte_set k_wake_tag =
    byte_set_of([](unsigned char c) { return scan::is_tag_stop(c) || c == '<'; });
// The characters of an op name's suffix (`<<READ_x1`): word characters.
inline constexpr stream_lexer::byte_set k_word_chars = byte_set_of([](unsigned char c) { return is_word_char(c); });
// Integers and the digits of a scope: anything but a digit.
inline constexpr stream_lexer::byte_set k_wake_digits = byte_set_of([](unsigned char c) { return !is_digit(c); });
// lex_signal_ident(): anything an executor name cannot hold.
inline constexpr stream_lexer::byte_set k_wake_ident =
    byte_set_of([](unsigned char c) { return !scan::is_executor_char(c); });
// An opener's suffix: anything but a word character.
inline constexpr stream_lexer::byte_set k_wake_suffix = byte_set_of([](unsigned char c) { return !is_word_char(c); });
// The blanks after a one-colon close: anything but a blank.
inline constexpr stream_lexer::byte_set k_wake_blanks = byte_set_of([](unsigned char c) { return c != ' ' && c != '\t'; });

// The lexer's resumable scalars: where it is, in which mode, in which statement. Copied whole:
// saved before a step and put back when the step is undone (impl::save), shifted by release()
// (released()). (The whole-statement reader changes only `depth` before it may decline, and
// puts back only that: statement_reader::read.)
struct lex_cursor {
    std::size_t i = 0;  // the next byte to lex
    mode lex_mode = mode::normal;
    plurnk::op op = plurnk::op::PLAN;  // the current statement's op
    std::uint32_t tag_b = 0, tag_e = 0;  // its open tag (keyword + suffix)
    int depth = 0;  // TARGET's parenthesis depth
    bool depth_reported = false;  // the max_turn_depth diagnostic is given once per input

    // The input before the cursor is dropped (stream_lexer::release): offsets move back by it.
    void released() noexcept {
        const auto shift = [cut = i](std::uint32_t& offset) {
            offset = offset >= cut ? static_cast<std::uint32_t>(offset - cut) : 0;
        };
        shift(tag_b);
        shift(tag_e);
        i = 0;
    }

    friend bool operator==(const lex_cursor&, const lex_cursor&) = default;
};

struct stream_lexer::impl {
    impl(std::size_t max_turn_depth, parse_dialect dialect)
        : max_turn_depth_(max_turn_depth), shapes_(&shapes_of(dialect)), service_(dialect == parse_dialect::service),
          fast_(thread_fast_paths().lexer) {}

    // Back to the state the constructor gave (stream_lexer::reset()): max_turn_depth_, shapes_,
    // service_ and fast_ stay (a parse does not change them), the rest as declared below, the
    // vectors and the TURN suffixes' store cleared with their capacity kept.
    void reset() noexcept {
        s_ = {};
        finished_ = eof_emitted_ = hit_end_ = false;
        token_budget_ = stop_after_ = error_budget_ = static_cast<std::size_t>(-1);
        cur_ = {};
        turns_.reset();
        out_.tokens.clear();
        out_.errors.clear();
        out_.tail = {};
        examined_ = emitted_ = 0;
        hints_.reset();
        body_scan_ = 0;
        closers_ = {};
        asleep_ = k_no_slot;
        reader_ = {};
    }
    // Every field, for the tests (stream_lexer's operator==). s_ by its bytes: string_view's ==
    // compares the sizes first, so a comparison with a fresh lexer (s_ empty) reads no input that
    // may be gone.
    friend bool operator==(const impl&, const impl&) = default;

    // Returns whether it paused (see stream_lexer::advance()). `closed`: the sleep woke at the
    // close of the statement deferred, found whole where it moved the reader's search to.
    bool advance(std::string_view in, bool finished, std::size_t pause_at = stream_lexer::k_no_pause,
                 bool closed = false) {
        s_ = in;
        finished_ = finished;
        bool paused = false;
        bool budget_spent = false;
        if (!eof_emitted_) {
            hit_end_ = false;
            // A statement deferred (statement_reader.cpp) is lexed once its close may be here (or it
            // is long); read whole, it may end where the lexer pauses.
            bool wait = reader_.deferring() && !reader_.resume(*this, closed);
            const std::size_t deferred_tokens = reader_.take_tokens_before();
            if (!wait && !finished_ && cur_.i >= pause_at && cur_.lex_mode == mode::normal && !out_.tokens.empty() &&
                out_.tokens.back().kind == tok::close_tag && out_.tokens.size() > deferred_tokens) {
                paused = true;
                wait = true;
            }
            while (!wait && cur_.i < s_.size()) {
                // parse()'s windows end between statements, so their tokens can be forgotten.
                // Not right after a close tag, though, but one token later: a statement's
                // recovery may read the token after its close, and stopping before it would have
                // the parser's step undone and the statement parsed again.
                if (out_.tokens.size() >= token_budget_ && cur_.lex_mode == mode::normal) {
                    const bool after_close = !out_.tokens.empty() && out_.tokens.back().kind == tok::close_tag;
                    if (!after_close || out_.tokens.size() >= stop_after_) {
                        budget_spent = true;
                        break;
                    }
                    if (stop_after_ == static_cast<std::size_t>(-1)) stop_after_ = out_.tokens.size() + 1;
                }
                // Inside a statement too once its errors are many: the caller takes them (an
                // error-dense statement that stays open would otherwise hold them all here).
                if (out_.errors.size() >= error_budget_) {
                    budget_spent = true;
                    break;
                }
                if (finished_) {
                    // The whole input is here: no step looks past its end (has() marks none),
                    // so none is undone and none needs a snapshot; and nothing pauses.
                    step();
                    continue;
                }
                const saved_state saved = save();
                hit_end_ = false;
                step();
                if (hit_end_ && !finished_) {
                    restore(saved);
                    break;
                }
                if (cur_.i >= pause_at && cur_.lex_mode == mode::normal && out_.tokens.size() > saved.tokens &&
                    out_.tokens.back().kind == tok::close_tag && !finished_) {
                    paused = true;
                    break;
                }
                if (reader_.deferring()) break;  // the opener's step deferred the rest of its statement
            }
            if (finished_ && !budget_spent) {
                emit(tok::eof, s_.size(), s_.size());
                eof_emitted_ = true;
                out_.tail.final_mode = cur_.lex_mode;
                out_.tail.open = open_slot_of(cur_.lex_mode);
            }
        }
        if constexpr (k_work_counter) {
            count_bytes(examined_);
            count_tokens(emitted_);
            examined_ = emitted_ = 0;
        }
        return paused;
    }

    std::size_t max_turn_depth_;
    const statement_shapes* shapes_ = &k_contracts_shapes;  // the dialect's rows (how `[` is lexed)
    bool service_ = false;  // the service dialect: a target may be a regex unit (lex_target)
    bool fast_;  // thread_fast_paths().lexer when constructed
    std::string_view s_;
    bool finished_ = false;
    bool eof_emitted_ = false;
    std::size_t token_budget_ = static_cast<std::size_t>(-1);  // see stream_lexer::set_token_budget
    std::size_t stop_after_ = static_cast<std::size_t>(-1);  // the budget is spent after a close tag: stop here
    std::size_t error_budget_ = static_cast<std::size_t>(-1);  // see stream_lexer::set_error_budget
    bool hit_end_ = false;
    lex_cursor cur_;
    open_turns turns_;  // the open TURN bodies' suffixes (lexer_parts.hpp)
    lex_output out_;

    mutable std::uint64_t examined_ = 0;  // work counter (work_counter.hpp), flushed per advance()
    std::uint64_t emitted_ = 0;

    // Where the runs an undone attempt scanned stopped (lexer_parts.hpp), and the body's scan:
    // the first ':' that may still start its close tag, or the end.
    run_hints hints_;
    std::size_t body_scan_ = 0;
    // Where the next closer of each reasoning enclosure (k_enclosures) is (lexer_parts.hpp).
    std::array<closer_memo, 2> closers_{};

    // ---- The step undone last, asleep (stream_lexer::advance()) ----
    // sleep() says how it waits, when it can tell: the step is a run that reached the end of the
    // input and nothing else in it looked there; or a literal compare that reached the end; or
    // a keyword test short of its four bytes. resume() then moves the run's or the compare's
    // resume point over the bytes that did not wake it.
    static constexpr std::uint8_t k_body_slot = 0xff;  // asleep_: the body scan, not a hint
    static constexpr std::uint8_t k_no_slot = 0xfe;    // asleep_: nothing to move
    static constexpr std::uint8_t k_defer_slot = 0xfd; // asleep_: a deferred statement's close search
    std::uint8_t asleep_ = k_no_slot;                   // what resume() moves

    // Whether the scan of hint `slot`, for the token at `start`, reached the end of the input.
    bool stalled_at_end(hint_slot slot, std::size_t start) const noexcept {
        return hints_.stalled_at_end(slot, start, s_.size());
    }

    void sleep(stream_lexer& l) noexcept {
        l.sleep_ = stream_lexer::sleep_kind::awake;
        l.seen_ = s_.size();
        l.wake_at_ = stream_lexer::k_no_pause;
        if (eof_emitted_ || cur_.i >= s_.size()) return;
        if (reader_.deferring()) return sleep_deferred(l);
        switch (cur_.lex_mode) {
            case mode::body:
                if (body_scan_ == s_.size()) {
                    sleep_run(l, k_body_slot, k_wake_body);
                    sleep_on_tag(l);
                } else if (stalled_at_end(h_body_tag, body_scan_ + 1)) {
                    sleep_literal(l, h_body_tag, body_scan_ + 1);  // the close tag after the ':' at body_scan_
                }
                break;
            case mode::target:
                // (Not while a service regex unit waits: its scan wakes on other bytes.)
                if (stalled_at_end(h_target, cur_.i) && !(hints_[h_unit].start == cur_.i && hints_[h_unit].depth != 2)) {
                    sleep_run(l, h_target, k_wake_target);
                }
                break;
            case mode::normal: return sleep_normal(l);
            case mode::signal_tags:
                if (stalled_at_end(h_tag, cur_.i)) sleep_run(l, h_tag, k_wake_tag);
                break;
            case mode::signal_int:
                if (stalled_at_end(h_int, cur_.i)) sleep_run(l, h_int, k_wake_digits);
                break;
            case mode::signal_ident:
                if (stalled_at_end(h_ident, cur_.i)) sleep_run(l, h_ident, k_wake_ident);
                break;
            case mode::slots: return sleep_slots(l);
        }
    }

    // sleep()'s ways to wait. A run of hint `slot` (or the body scan) over bytes not in `set`.
    void sleep_run(stream_lexer& l, std::uint8_t slot, const stream_lexer::byte_set& set) noexcept {
        asleep_ = slot;
        l.sleep_ = slot == k_body_slot ? stream_lexer::sleep_kind::body : stream_lexer::sleep_kind::run;
        l.wake_ = &set;
        l.close_after_ = 0;
    }
    // A body's run also checks the open tag after each ':'.
    void sleep_on_tag(stream_lexer& l) const noexcept {
        l.tag_at_ = cur_.tag_b;
        l.tag_len_ = cur_.tag_e - cur_.tag_b;
    }
    // The open tag compared from `at` (its first `matched` bytes are), unless it is complete.
    void sleep_literal(stream_lexer& l, hint_slot slot, std::size_t at) noexcept {
        const std::size_t len = cur_.tag_e - cur_.tag_b;
        if (s_.size() - at >= len) return;
        asleep_ = slot;
        l.sleep_ = stream_lexer::sleep_kind::literal;
        l.until_ = at + len;
        l.lit_shift_ = at - cur_.tag_b;
    }
    // A deferred statement waits as a body does: for a ':' and the open tag, from where the
    // reader's close search stopped.
    void sleep_deferred(stream_lexer& l) noexcept {
        sleep_run(l, k_defer_slot, k_wake_body);
        l.sleep_ = stream_lexer::sleep_kind::body;
        l.close_after_ = 1;  // close_arrived() wants a byte after the tag
        sleep_on_tag(l);
        l.seen_ = reader_.scan();
        l.wake_at_ = reader_.wake_at();  // or once it is long
    }
    // Between statements: an opener's suffix, a text run, or a keyword short of its four bytes.
    void sleep_normal(stream_lexer& l) noexcept {
        if (stalled_at_end(h_opener, cur_.i)) {
            sleep_run(l, h_opener, k_wake_suffix);
        } else if (s_[cur_.i] != '<' && s_[cur_.i] != ':') {
            // (A run starting with '<' or ':' competes with an enclosure or a TURN closer.)
            if (stalled_at_end(h_text, cur_.i)) sleep_run(l, h_text, k_wake_text);
        } else if (s_[cur_.i] == '<' && s_.size() - cur_.i >= 2 && s_.size() - cur_.i < 6 && s_[cur_.i + 1] == '<') {
            // keyword_at() looks at the four bytes after `<<` only once all are there.
            asleep_ = k_no_slot;
            l.sleep_ = stream_lexer::sleep_kind::length;
            l.until_ = cur_.i + 6;
        }
    }
    // Among the slots: lex_scope() in the digits of a number (scope_phase integer or fraction);
    // the blanks after a one-colon close; the one-colon close's tag.
    void sleep_slots(stream_lexer& l) noexcept {
        const int phase = hints_[h_scope].depth;
        if (stalled_at_end(h_scope, cur_.i) &&
            (phase == static_cast<int>(scope_phase::integer) || phase == static_cast<int>(scope_phase::fraction))) {
            sleep_run(l, h_scope, k_wake_digits);
        } else if (stalled_at_end(h_colon_blanks, cur_.i)) {
            sleep_run(l, h_colon_blanks, k_wake_blanks);
        } else if (s_[cur_.i] == ':' && cur_.op != plurnk::op::TURN && stalled_at_end(h_colon_tag, cur_.i + 1)) {
            sleep_literal(l, h_colon_tag, cur_.i + 1);
        }
    }

    // The step asleep is retried: its run or compare reaches `to` (the bytes before did not wake it).
    void resume(std::size_t to) noexcept {
        if (asleep_ == k_body_slot) {
            body_scan_ = to;
        } else if (asleep_ == k_defer_slot) {
            reader_.resume_scan(to);
        } else if (asleep_ != k_no_slot) {
            hints_[asleep_].k = to;
        }
    }

    // What an undone step puts back: the cursor and the tail facts whole, the token and error
    // counts, and the open TURNs' top (a step opens or closes at most one).
    struct saved_state {
        lex_cursor cur;
        tail_facts tail;
        std::size_t tokens, errors;
        open_turns::mark turns;
    };

    saved_state save() const {
        return saved_state{cur_, out_.tail, out_.tokens.size(), out_.errors.size(), turns_.marked()};
    }

    void restore(const saved_state& st) {
        cur_ = st.cur;
        out_.tail = st.tail;
        out_.tokens.resize(st.tokens);
        out_.errors.resize(st.errors);
        turns_.restore(st.turns);
    }

    void step() {
        switch (cur_.lex_mode) {
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
    // Work counter: a scanner (scan.hpp) looked at the bytes from `from` to `end`, and at the one
    // at `end` when there is one.
    void note_examined(std::size_t from, std::size_t end) const noexcept {
        if constexpr (k_work_counter) examined_ += std::min(end + 1, s_.size()) - std::min(from, end);
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
        const std::size_t from = h.start == k ? h.k - k : 0;  // h.k: the first offset not yet compared
        const std::size_t m = scan::literal(s_, k, lit, from);
        note_examined(k + from, k + m);
        if (m == lit.size()) return true;
        if (k + m >= s_.size() && !finished_) {
            hit_end_ = true;
            h = run_hint{k, k + m, 0};
        }
        return false;
    }
    // End of the run of bytes satisfying `pred` from k, for the token starting at `start`; an
    // attempt that reached the end of an unfinished input is resumed where it stopped.
    template <class Pred>
    std::size_t run_end(hint_slot slot, std::size_t start, std::size_t k, Pred pred) noexcept {
        run_hint& h = hints_[slot];
        if (h.start == start && h.k > k) k = h.k;
        // As `while (has(k) && pred(at(k))) ++k;`, with the input's bounds in registers.
        const char* const p = s_.data();
        const std::size_t n = s_.size();
        const std::size_t from = k;
        while (k < n && pred(static_cast<unsigned char>(p[k]))) ++k;
        if constexpr (k_work_counter) examined_ += k - from + (k < n ? 1 : 0);
        if (k >= n && !finished_) {
            hit_end_ = true;
            h = run_hint{start, k, 0};
        }
        return k;
    }
    // (It lies in the input, as the opener put it: no bounds check.)
    std::string_view open_tag() const noexcept { return {s_.data() + cur_.tag_b, std::size_t{cur_.tag_e} - cur_.tag_b}; }

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
        out_.tokens.push_back(token_of(kind, b, e));
    }
    token token_of(tok kind, std::size_t b, std::size_t e) const noexcept {
        return token{static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(e), kind, cur_.op};
    }
    // emit() of a few tokens at once (the whole-statement reader's parts): room for `n`, written
    // there (token_of()), then counted.
    token* token_room(std::size_t n) { return out_.tokens.room(n); }
    void emitted(std::size_t k) noexcept {
        if constexpr (k_work_counter) emitted_ += k;
        out_.tokens.added(k);
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
        cur_.i = end > start ? end : start + 1;
    }

    // Which keyword (if any) starts at s_[k]: its op, or null (also while its four bytes are not
    // all there).
    const plurnk::op* keyword_at(std::size_t k) noexcept {
        if (!has(k + 3)) return nullptr;
        if constexpr (k_work_counter) examined_ += 4;
        return k_keyword_slots.find(word4_at(s_.data() + k));
    }

    // The op whose opener (`<<` and its keyword) starts at s_[k], a '<', or null (also while
    // the keyword's bytes are not all there).
    const plurnk::op* opener_at(std::size_t k) noexcept {
        if (!has(k + 1) || at(k + 1) != '<') return nullptr;
        return keyword_at(k + 2);
    }

    // The opener of `op` at cur_.i (opener_at()): its token, the statement's facts, SLOTS (then
    // the reader may take the rest of the statement).
    void lex_opener(plurnk::op op) {
        const std::size_t start = cur_.i;
        const std::size_t e = run_end(h_opener, start, start + 6, [](unsigned char b) { return k_word_chars[b]; });
        cur_.op = op;
        emit(tok::opener, start, e);
        out_.tail.last_open_begin = static_cast<std::uint32_t>(start);
        out_.tail.open_tag_begin = cur_.tag_b = static_cast<std::uint32_t>(start + 2);
        out_.tail.open_tag_end = cur_.tag_e = static_cast<std::uint32_t>(e);
        cur_.i = e;
        cur_.lex_mode = mode::slots;
    }

    // DEFAULT mode (modes.cpp)
    void lex_default();
    std::size_t scan_text(std::size_t start) noexcept;
    std::size_t enclosure_end(std::size_t k) noexcept;
    std::size_t close_turn_end(std::size_t k) noexcept;

    // the modes inside a statement (modes.cpp)
    void lex_slots();
    void lex_scope();
    void lex_slot_colon();
    bool skip_blanks();
    void close_signal();
    void lex_signal_tags();
    void lex_signal_int();
    void lex_signal_ident();
    void lex_target();
    void lex_target_plain();
    bool lex_regex_unit(std::size_t start);
    void lex_body();
    // The whole-statement reader and the deferral (statement_reader.hpp), tried after an opener.
    statement_reader reader_;
};

}  // namespace plurnk::detail
