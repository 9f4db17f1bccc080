// SPDX-License-Identifier: MIT
// The lexer's whole-statement reader (private header; see statement_reader.cpp): after an
// opener's step, it reads a well-formed statement in one pass, or (a stream) defers the rest of
// the statement until its close may have arrived. Its own state is the deferral's; it works on
// the lexer's cursor and output (stream_lexer::impl, lexer_state.hpp) by reference, handed to
// each call. The functions are templates over that type, defined and instantiated for it alone
// in statement_reader.cpp, so that this header, which the lexer's state holds, includes nothing
// of the lexer's.
#pragma once

#include <cstddef>

namespace plurnk::detail {

class statement_reader {
public:
    // After an opener's step: the statement read whole when its close may be here, else (a
    // stream that allows it) the rest of the statement deferred until it may be.
    template <class Lexer>
    void start(Lexer& lx);
    // A whole input, after an opener's step: the rest of the statement read whole, and while it
    // was, the statements after it that start with an opener after blanks, each as the next
    // steps would lex it, while the token window has room.
    template <class Lexer>
    void read_run(Lexer& lx);
    // A deferred statement: false while its close has not arrived; else the deferral ends, the
    // statement is read whole if it can be, and the steps go on. `closed`: the lexer's sleep
    // found the close whole at scan() (resume_scan() moved it there), as close_arrived() would.
    template <class Lexer>
    bool resume(Lexer& lx, bool closed = false);
    // The rest of a statement after its opener, in one pass, when it is well formed: its tokens
    // emitted and the lexer between statements; false: nothing changed. `Told`: close_arrived()
    // found the statement's close at `close` (the first ':' and open tag after the opener, with a
    // byte after them), where the body's search then starts; else `close` is not read. (Two
    // copies, so that a one-shot parse's keeps no `close`.)
    template <bool Told = false, class Lexer>
    bool read(Lexer& lx, std::size_t close = 0);

    // The deferral, as the lexer's stepping loop, sleep() and release() see it.
    [[nodiscard]] bool deferring() const noexcept { return deferring_; }
    void stop_deferring() noexcept { deferring_ = false; }
    void allow_deferral(bool on) noexcept { defer_ok_ = on; }
    [[nodiscard]] std::size_t scan() const noexcept { return scan_; }  // where the close search goes on
    void resume_scan(std::size_t to) noexcept { scan_ = to; }
    // An input this long ends the wait (the statement is long: the steps take it).
    [[nodiscard]] std::size_t wake_at() const noexcept { return start_ + k_defer_max; }
    // The tokens held before the last resume's read (a pause waits for a close after them),
    // asked once per advance().
    [[nodiscard]] std::size_t take_tokens_before() noexcept {
        const std::size_t t = tokens_before_;
        tokens_before_ = static_cast<std::size_t>(-1);
        return t;
    }
    // The input before `cut` is dropped.
    void released(std::size_t cut) noexcept { scan_ = scan_ >= cut ? scan_ - cut : 0; }

    // A deferred statement longer than this is lexed by the steps from then on, as it arrives:
    // a stream copied for drafts then re-reads at most this much of it for a draft that closes it.
    static constexpr std::size_t k_defer_max = 4096;

    friend bool operator==(const statement_reader&, const statement_reader&) = default;

private:
    // Whether a ':' and the open tag, and a byte after them, lie from scan_ on (which then moves
    // to the first ':' that may still start them, or the end).
    template <class Lexer>
    [[gnu::always_inline]] inline bool close_arrived(Lexer& lx) noexcept;
    template <class Lexer>
    [[gnu::always_inline]] inline bool told_close(Lexer& lx) noexcept;

    bool defer_ok_ = false;    // stream_lexer::set_deferral
    bool deferring_ = false;   // the statement after the last opener waits (sleep() says how)
    std::size_t scan_ = 0;     // where close_arrived() looks from
    std::size_t start_ = 0;    // where the deferred statement's slots start
    std::size_t tokens_before_ = static_cast<std::size_t>(-1);  // tokens before a resume's read
};

}  // namespace plurnk::detail
