// SPDX-License-Identifier: MIT
// A thread's spare stream state (private header; stream.cpp): when a stream_parser is destroyed
// (or assigned over) and its thread holds no spare, its state (the pipeline and the stream's own
// buffer and bookkeeping) is kept; the next stream_parser made on that thread for the same tier,
// dialect, TURN depth and input limit takes it and resets it (back to what the constructor
// leaves, keeping the capacity of the buffer and the vectors) instead of constructing one, so a
// thread that makes a stream per request allocates only what each keeps past the stream. A state
// holding more than k_stream_scratch_cap (its room) is freed instead; one whose stream's input
// and items would take it past the cap is reset when given back, so a spare holds at most the
// cap. A spare made for other options is freed by the stream that finds it (the thread has moved
// on to those). A stream may be destroyed on another thread than the one that made it: its state
// goes to that thread's spare. The spare is freed with its thread.
#pragma once

#include <cstddef>
#include <memory>

#include "pipeline/parse_scratch.hpp"
#include "plurnk/stream.hpp"

namespace plurnk::detail {

// The most a thread's spare may hold (parse()'s scratch cap, parse_scratch.hpp).
inline constexpr std::size_t k_stream_scratch_cap = k_parse_scratch_cap;

// What this thread's spare did so far (tests).
struct stream_scratch_stats {
    bool held = false;         // a state is kept for the next stream
    std::size_t reused = 0;    // streams that took the spare
    std::size_t fresh = 0;     // streams that constructed their state (none kept, or for other options)
    std::size_t kept = 0;      // states given back and kept
    std::size_t released = 0;  // states given back that held more than the cap (freed)
    std::size_t reset_given = 0;  // states kept that were reset when given back (their stream's content)
};
stream_scratch_stats stream_scratch_state() noexcept;

// Frees this thread's spare (tests, and a thread that wants its memory back now).
void release_stream_scratch() noexcept;

// Tests: a stream's state reset in place as a taken spare is (its callbacks dropped), and whether its
// state equals one constructed for the stream's options (the stream's own part, what it was made
// for, and the outcome of its pipeline's reset: the tokens, tree and items it holds).
struct stream_access {
    static void reset(stream_parser& p);
    [[nodiscard]] static bool is_fresh(const stream_parser& p);

    // The spare itself (stream.cpp).
    using state = stream_parser::state;
    struct spare_slot;
    // A state for a new stream: the spare (reset) when it was made for the same options, else a
    // new one.
    static std::unique_ptr<state> take(tier t, const parse_options& o);
    // A stream's state when the stream is done with it: kept as the spare when there is none and
    // it holds no more than the cap, else freed.
    static void give_back(std::unique_ptr<state> s) noexcept;
};

}  // namespace plurnk::detail
