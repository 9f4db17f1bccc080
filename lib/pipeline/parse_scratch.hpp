// SPDX-License-Identifier: MIT
// parse()'s thread scratch (private header; parse.cpp): each thread keeps the pipeline of its last
// parse (lexer, statement parser and builder, with the capacity of their vectors) and resets it
// for the next parse instead of allocating a new one, so a repeated small parse allocates only
// what its result keeps. The reset is each stage's own, in place (pipeline::reset(): back to the
// state its constructor gives for the tier, dialect and TURN depth of the last parse, with the
// capacity of its vectors kept); the scratch keeps nothing of a result between parses. Bounds:
// an input too large for the scratch to stay under k_parse_scratch_cap after it (over 32 KiB)
// parses on a pipeline of its own, and a scratch that holds more than the cap after a parse is
// released, so memory does not stay high after one big input; a parse that starts while its
// thread's scratch is in use (one calling parse() from inside another) makes a pipeline of its
// own too, as every parse did before.
#pragma once

#include <cstddef>

#include "base/function_ref.hpp"

namespace plurnk::detail {

// The most a thread's scratch may hold once a parse is over; past it, it is released.
inline constexpr std::size_t k_parse_scratch_cap = std::size_t{256} << 10;

// What this thread's scratch did so far (tests).
struct parse_scratch_stats {
    bool held = false;        // a pipeline is kept for the next parse
    bool in_use = false;      // a parse runs on it now
    std::size_t reused = 0;   // parses that ran on a kept pipeline
    std::size_t fresh = 0;    // parses that made one for it (the first, after a release or a change of tier)
    std::size_t nested = 0;   // parses that made their own while it was in use
    std::size_t released = 0; // releases past the cap
};
parse_scratch_stats parse_scratch_state() noexcept;

// Releases this thread's scratch (its next parse makes a pipeline; tests, and a thread that
// wants its memory back now).
void release_parse_scratch() noexcept;

// Runs `f` with this thread's scratch marked in use, as a parse running on it would (tests: a
// parse inside falls back to a pipeline of its own).
void with_parse_scratch_in_use(function_ref<void()> f);

}  // namespace plurnk::detail
