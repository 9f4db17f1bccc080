// SPDX-License-Identifier: MIT
// The PLURNK lexer (BEHAVIOUR §1): a single-pass, mode-switching scanner over a byte view.
// Private header.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "base/byte_scan.hpp"
#include "base/pod_vector.hpp"
#include "base/work_counter.hpp"
#include "grammar/messages.hpp"
#include "grammar/token.hpp"
#include "plurnk/ast.hpp"
#include "plurnk/parse.hpp"

namespace plurnk::detail {

// The first ':' at or after k in `input` that starts `tag` (an open tag), or may once more input
// arrives (the input ends inside the compare); input.size() when there is none. `matched` is how
// many of the tag's bytes follow that ':'. The body's sleep (stream_lexer::body_run_end), the
// fast path's body and the deferred statement's close search (statement_reader.cpp) share it.
// How it looks for a ':' and the tag's first byte (base/byte_scan.hpp): `sized` chooses by the
// search's length (pair()); `few`: the search covers a few bytes (a stream's new ones), and takes
// a memchr per ':' rather than choosing (the bulk search's setup costs more than the calls
// there); `near`: the close is most often within a few dozen bytes (a body read whole), looked at
// there first (pair_near()).
enum class colon_search : std::uint8_t { sized, few, near };
template <colon_search How = colon_search::sized>
inline std::size_t next_tag_colon(std::string_view input, std::size_t k, std::string_view tag,
                                  std::size_t& matched) noexcept {
    const std::size_t n = input.size();
    // A ':' whose next byte is not the tag's first starts no close, and the bulk search passes
    // it without stopping.
    const char first = tag.empty() ? '\0' : tag[0];
    for (;;) {
        const std::size_t c = k >= n                      ? n
                              : tag.empty()               ? std::min(input.find(':', k), n)
                              : How == colon_search::few  ? byte_scan::pair_calls(input, k, ':', first)
                              : How == colon_search::near ? byte_scan::pair_near(input, k, ':', first)
                                                          : byte_scan::pair(input, k, ':', first);
        if (c == n) return n;
        const std::size_t m = byte_scan::prefix(input, c + 1, tag);
        if (m == tag.size() || c + 1 + m == n) {
            matched = m;
            return c;
        }
        k = c + 1;
    }
}

// The reasoning enclosures (BEHAVIOUR §1.1 rule 3): an opener at the start of a token and the
// first closer after it make one text token. Also read by the serving layer (lib/serve/), which
// streams their bodies as reasoning.
struct enclosure_pair {
    std::string_view open, close;
};
inline constexpr enclosure_pair k_enclosures[2] = {{"<think>", "</think>"}, {"<|channel>", "<channel|>"}};

enum class mode : std::uint8_t { normal, slots, signal_tags, signal_int, signal_ident, target, body };

// The part of a statement the input ended inside, as what reads the lexer's tail facts names it
// (the unparsed tail's reason): between statements (none), between the slots of a statement, or
// inside its signal, target or body.
enum class open_slot : std::uint8_t { none, statement, signal, target, body };
constexpr open_slot open_slot_of(mode m) noexcept {
    switch (m) {
        case mode::normal: return open_slot::none;
        case mode::slots: return open_slot::statement;
        case mode::signal_tags:
        case mode::signal_int:
        case mode::signal_ident: return open_slot::signal;
        case mode::target: return open_slot::target;
        case mode::body: return open_slot::body;
    }
    return open_slot::none;
}

// A lexer error. The message is built only for the errors that are reported (most of a cascade
// is collapsed away), so a hostile run of bad characters costs no string per character.
struct lex_error {
    std::uint32_t begin = 0;        // offset of the failed token's first char
    std::uint32_t end = 0;          // end of the offending text (the failing character included)
    std::uint32_t token_index = 0;  // the token lexed next: the error is recorded when it is fetched
    std::uint32_t limit = 0;        // the exceeded limit, for a turn-depth error
    lex_context context = lex_context::between_statements;  // the mode it happened in
    bool turn_depth = false;        // `<<TURN` past parse_options::max_turn_depth

    // The message class and text (lex_error.cpp); `input` is the lexed input.
    [[nodiscard]] message_id id() const noexcept;
    [[nodiscard]] std::string message(std::string_view input) const;

    friend bool operator==(const lex_error&, const lex_error&) = default;
};

// What the lexer knows of the input's tail, for the builder's end-of-input passes (the unparsed
// tail, the invented closer): one struct, saved and restored whole with a step.
struct tail_facts {
    mode final_mode = mode::normal;      // the mode the input ended in
    open_slot open = open_slot::none;    // the part of a statement it ended in (of final_mode)
    std::uint32_t last_open_begin = 0;  // offset of the last opener (for unparsedTail)
    std::uint32_t open_tag_begin = 0;   // open tag text (keyword+suffix) of the last opener
    std::uint32_t open_tag_end = 0;
    std::uint32_t body_begin = 0;       // first byte of the last body (invented-closer scan)

    // The input before `cut` is dropped: offsets move back by it.
    void released(std::size_t cut) noexcept {
        for (std::uint32_t* o : {&last_open_begin, &open_tag_begin, &open_tag_end, &body_begin}) {
            *o = *o >= cut ? static_cast<std::uint32_t>(*o - cut) : 0;
        }
    }

    friend bool operator==(const tail_facts&, const tail_facts&) = default;
};

struct lex_output {
    token_vector tokens;  // ends with one eof token
    std::vector<lex_error> errors;
    tail_facts tail;

    friend bool operator==(const lex_output&, const lex_output&) = default;
};

// Lexes the whole input.
lex_output lex(std::string_view input, std::size_t max_turn_depth, parse_dialect dialect = parse_dialect::contracts);

// The same lexer over a growing input. advance() emits only tokens that more input cannot change
// (a step whose decision looked at the end of the input is undone and retried when more arrives;
// long runs resume where the last attempt stopped, so the total work stays linear). With
// `finished` it lexes to the end and appends the eof token, exactly as lex() does.
class stream_lexer {
public:
    explicit stream_lexer(std::size_t max_turn_depth, parse_dialect dialect = parse_dialect::contracts);
    ~stream_lexer();
    stream_lexer(const stream_lexer&);
    stream_lexer& operator=(const stream_lexer&);
    // Back to the state the constructor gave it (the same max_turn_depth and dialect, and the
    // fast-path switch it read then), for the next input: what a parse changed is put back, and
    // the output's vectors keep their capacity. Allocates nothing.
    void reset() noexcept;
    // The whole state, field by field (what is behind impl_ too), for the tests: a reset lexer
    // equals a fresh one. Not for hot paths.
    friend bool operator==(const stream_lexer&, const stream_lexer&) = default;

    // Lexes what `input` (the whole input so far) adds. Inline, for the streamed case where most
    // feeds do nothing else: the step undone last may be asleep (see sleep_kind), and while the
    // new bytes cannot wake it no step is tried and undone. Returns whether it ran steps (only
    // then can there be new tokens). An unfinished input may pause at `pause_at`: lexing stops
    // after the first close tag that ends there or later (everything before it may then be
    // released), paused() says so, and the next advance() goes on from there.
    static constexpr std::size_t k_no_pause = static_cast<std::size_t>(-1);
    bool advance(std::string_view input, bool finished, std::size_t pause_at = k_no_pause) {
        if (!finished && stays_asleep(input)) return false;
        advance_steps(input, finished, pause_at);
        return true;
    }
    // advance() past its inline check, for a caller that made it (stays_asleep() said no).
    [[gnu::noinline]] void advance_steps(std::string_view input, bool finished, std::size_t pause_at);
    [[nodiscard]] bool paused() const noexcept { return paused_; }
    // Whether advance(input, false) would run no step. The short form is for inputs that grew
    // since the last look, mostly by at most k_short bytes, and calls nothing.
    // (Awake, wake_at_ is 0: the test of the input's length says no for both.)
    [[gnu::always_inline]] bool stays_asleep(std::string_view input) noexcept { return still_asleep(input); }
    static constexpr std::size_t k_short = 8;
    [[gnu::always_inline]] bool stays_asleep_short(std::string_view input) noexcept { return still_asleep_short(input); }
    [[nodiscard]] const lex_output& output() const noexcept;
    // Moves the output out (the lexer is spent afterwards).
    [[nodiscard]] lex_output take_output() noexcept;
    void reserve_tokens(std::size_t n);
    // Offset where the next token will start (everything before it is lexed).
    [[nodiscard]] std::size_t position() const noexcept;
    // Whether everything before position() can be dropped: the lexer is between statements (a
    // TURN may be open). release(input) then drops it: the tokens and errors so far are forgotten
    // (the caller has taken them), the open TURNs' suffixes are kept aside, and offsets count from
    // the old position(), which it returns; the caller erases that many bytes from the front of
    // the input it passes to advance().
    [[nodiscard]] bool can_release(std::string_view input) const noexcept;
    // Whether a TURN body may be open, or may have been opened since the last release: when not,
    // the tokens a release drops open and close no turn.
    [[nodiscard]] bool turns_touched() const noexcept;
    std::size_t release(std::string_view input);

    // parse() lexes in windows: advance() stops between two statements once `n` tokens are held (the
    // eof token comes only when the input is all lexed: at_end() says so), and release_tokens()
    // forgets the tokens and errors so far (the caller has taken them), keeping the input and
    // every offset as they are.
    // (Past a close tag it stops one token later, in normal mode.)
    void set_token_budget(std::size_t n) noexcept;
    // And advance() stops anywhere (inside a statement too) once `n` errors are held, so that the
    // caller can take them and forget_errors().
    void set_error_budget(std::size_t n) noexcept;
    [[nodiscard]] bool at_end() const noexcept;
    void release_tokens() noexcept;
    // Forgets the errors so far (the caller has taken them); the tokens stay.
    void forget_errors() noexcept;
    // A stream may let the lexer defer the rest of a statement after its opener until the
    // statement's close may have arrived (a ':' and the open tag, and a byte after them), and
    // then lex it whole (statement_reader.cpp): nothing in it settles before its close anyway. Off by
    // default; the tokens are the same either way, only emitted later. deferring() says whether
    // a statement waits now; stop_deferring() has the next advance() lex it at once.
    void set_deferral(bool on) noexcept;
    [[nodiscard]] bool deferring() const noexcept;
    void stop_deferring() noexcept;
    // A set of bytes, as a table indexed by the byte.
    using byte_set = std::array<bool, 256>;

private:
    struct impl;
    // The state behind the pointer (lexer_state.hpp), compared by what it points to.
    struct impl_ptr {
        impl* p;
        impl* operator->() const noexcept { return p; }
        impl& operator*() const noexcept { return *p; }
        bool operator==(const impl_ptr& o) const noexcept { return same(*p, *o.p); }
    };
    static bool same(const impl& a, const impl& b) noexcept;  // impl's operator== (lexer.cpp)
    // The sleep's fields as declared: awake (reset(), a copy).
    void wake_up() noexcept;

    // How the step undone last waits for more input: not at all (the next byte may decide it);
    // in a run that reached the end (a text or target run, a tag, an integer, an executor, an
    // opener's suffix, the digits of a scope, the blanks after a one-colon close), which only the
    // bytes of its wake set can end or change; in a body's run (or a deferred statement's),
    // waiting for a ':' and the open tag, with such a ':' pending at the end or not
    // (body_asleep()); in the middle of a literal (a close tag after its ':', a one-colon close),
    // which the byte that matches it only extends; or on a length (the four keyword bytes after a
    // `<<`, looked at together).
    // `closed`: a body's run (or a deferred statement's) woke at its close, found whole (the
    // ':' at seen_, the open tag and, for a deferral, a byte after them): advance_steps() hands
    // it to the reader, which then does not search for it again.
    enum class sleep_kind : std::uint8_t { awake, run, body, body_pending, literal, length, closed };

    // Whether the bytes of `input` past seen_ leave the step asleep. Those before the first that
    // wakes it are seen either way: the run or the literal reaches past them.
    [[gnu::always_inline]] bool still_asleep(std::string_view input) noexcept {
        const std::size_t n = input.size();
        if (n >= wake_at_) return false;
        if (sleep_ == sleep_kind::body) return body_asleep(input);
        if (sleep_ == sleep_kind::body_pending) return body_asleep(input);
        std::size_t k = seen_;
        switch (sleep_) {
            case sleep_kind::run:
                k = run_end(input, k);
                break;
            case sleep_kind::literal:
                // The literal is earlier in the input, lit_shift_ bytes before the compare.
                while (k < n && k < until_ && input[k] == input[k - lit_shift_]) ++k;
                break;
            case sleep_kind::length:
                if (n < until_) k = n;
                break;
            case sleep_kind::awake:
            case sleep_kind::body:
            case sleep_kind::body_pending:
            case sleep_kind::closed: break;
        }
        count_bytes(k - seen_);
        seen_ = k;
        return k == n;
    }
    // The same for an input that grew since the last look (seen_ < input.size()), mostly by 1 to
    // k_short bytes, calling nothing. A run and a body's run (whose wake set is the ':') are the
    // common sleeps of a stream fed a few bytes at a time, and are told apart from the rest by one
    // compare. A body's ':' that ends the input, and a byte that goes on matching the tag after a
    // pending ':', move the sleep here (woke_short(), pending_short()); any other ':' says no (the
    // long form decides).
    [[gnu::always_inline]] bool still_asleep_short(std::string_view input) noexcept {
        const std::size_t n = input.size();
        if (n >= wake_at_) return false;
        std::size_t k = seen_;
        if (sleep_ <= sleep_kind::body) {
            // (Each way out says what it found, so that the caller's branch needs no compare.)
            const byte_set& wake = *wake_;
            do {  // (k < n: the input grew)
                if (wake[static_cast<unsigned char>(input[k])]) return woke_short(k, n);
            } while (++k < n);
            count_bytes(n - seen_);
            seen_ = n;
            return true;
        }
        if (sleep_ == sleep_kind::body_pending) return pending_short(input);
        if (sleep_ == sleep_kind::literal) {
            while (k < n && k < until_ && input[k] == input[k - lit_shift_]) ++k;
        } else if (sleep_ == sleep_kind::length) {
            if (n < until_) k = n;
        }
        count_bytes(k - seen_);
        seen_ = k;
        return k == n;
    }
    // still_asleep_short() at a byte of the wake set (at k, before n). A body's ':' that ends the
    // input pends, as body_asleep() finds (no ':' before it, and none of the tag's bytes after it
    // yet); anything else says no. (Each wake went through the stream's feed_woken() and its
    // lexer steps only to move the sleep: at every ':' of a body, fed a byte at a time.)
    [[gnu::always_inline]] bool woke_short(std::size_t k, std::size_t n) noexcept {
        count_bytes(k - seen_);
        seen_ = k;
        if (sleep_ != sleep_kind::body || k != n - 1 || tag_len_ == 0) return false;
        pending_ = 0;
        sleep_ = sleep_kind::body_pending;
        return true;
    }
    // And at a pending ':' (seen_): one byte more that matches the tag's next byte extends the
    // match (asleep, as body_asleep() finds), short of a body's last byte (its close: it wakes);
    // a deferred statement's tag, whole, waits for the byte after it, which wakes it at its close
    // (closed, as body_settle() finds). Anything else says no.
    [[gnu::always_inline]] bool pending_short(std::string_view input) noexcept {
        const std::size_t n = input.size(), m = pending_;
        if (seen_ + 2 + m != n) return false;
        if (m + 1 < tag_len_ + close_after_) {
            if (input[n - 1] != input[tag_at_ + m]) return false;
            pending_ = m + 1;
            return true;
        }
        if (m == tag_len_) sleep_ = sleep_kind::closed;  // (a body pends short of its tag's last byte)
        return false;
    }
    // The first byte of the wake set at or after k, or the end.
    [[gnu::always_inline]] std::size_t run_end(std::string_view input, std::size_t k) const noexcept {
        const byte_set& wake = *wake_;
        while (k < input.size() && !wake[static_cast<unsigned char>(input[k])]) ++k;
        return k;
    }
    // A body waits for its close tag: a ':' and the open tag (at tag_at_, before seen_). A ':'
    // whose next bytes differ from the tag before the input ends starts no close tag (lex_body()
    // skips it too). Returns where the lexer must look: the first ':' that starts the tag or may,
    // or the end. The bytes since the last look are mostly a feed's few (k_few or less): a
    // memchr per ':' finds them, the bulk search a large feed's.
    static constexpr std::size_t k_few = 256;
    std::size_t body_run_end(std::string_view input, std::size_t k, std::size_t& matched) const noexcept {
        const std::string_view tag(input.data() + tag_at_, tag_len_);
        return input.size() - k <= k_few ? next_tag_colon<colon_search::few>(input, k, tag, matched)
                                         : next_tag_colon(input, k, tag, matched);
    }
    // The body's run (or a deferred statement's): whether it stays asleep. A ':' whose next bytes
    // match the open tag up to the end of the input (a close may be arriving) does not wake it:
    // seen_ stays at that ':' (body_pending), with pending_ of the tag's bytes matched, and the
    // bytes that arrive next decide (one that differs: the run goes on after the ':'; the whole
    // tag: it wakes there, a deferred statement one byte later, when close_arrived() can tell).
    // Each byte is compared once. (Woken at such a ':', the lexer went back to sleep on it, and
    // woke again at each feed until the tag was decided: six wakes for a statement's close when
    // fed a byte at a time.)
    [[gnu::always_inline]] bool body_asleep(std::string_view input) noexcept {
        const std::size_t n = input.size();
        std::size_t k = seen_;
        std::size_t m = 0;
        if (sleep_ == sleep_kind::body_pending) {
            const char* tag = input.data() + tag_at_;
            m = pending_;
            sleep_ = sleep_kind::body;
            while (m < tag_len_ && k + 1 + m < n && input[k + 1 + m] == tag[m]) ++m;
            if (m < tag_len_ && k + 1 + m < n) {  // no close starts at this ':'
                ++k;
                m = 0;
            }
        }
        if (m == 0) k = body_run_end(input, k, m);
        return body_settle(k, m, n);
    }
    // Where the run stopped (k, and m of the tag's bytes after the ':' there): asleep or not.
    [[gnu::always_inline]] bool body_settle(std::size_t k, std::size_t m, std::size_t n) noexcept {
        count_bytes(k - seen_);
        seen_ = k;
        if (k == n) return true;
        if (m == tag_len_ && k + 1 + m + close_after_ <= n) {  // the close may be here
            sleep_ = sleep_kind::closed;
            return false;
        }
        pending_ = m;
        sleep_ = sleep_kind::body_pending;
        return true;
    }
    bool paused_ = false;              // the last advance() paused (see advance())
    sleep_kind sleep_ = sleep_kind::awake;
    const byte_set* wake_ = nullptr;   // run: its wake set
    std::size_t tag_at_ = 0;           // body: where the open tag is in the input
    std::size_t tag_len_ = 0;          // body: its length
    std::size_t until_ = 0;            // literal: where it ends; length: the input size that wakes
    std::size_t lit_shift_ = 0;        // literal: how far before the compare it is
    std::size_t seen_ = 0;             // asleep: the input looked at (the run or literal reaches here)
    std::size_t pending_ = 0;          // body_pending: the tag's bytes matched after the ':' at seen_
    std::uint8_t close_after_ = 0;     // body: the bytes after the whole tag that wake it (a deferral: 1)
    std::size_t wake_at_ = 0;          // an input this long wakes it (a deferred statement's limit; awake: 0)
    impl_ptr impl_;
};

}  // namespace plurnk::detail
