// SPDX-License-Identifier: MIT
// The work counter (private header): how much the lexer, the statement parser and the position
// map did, so tests and fuzz targets can assert that work stays within a constant times the
// input length
// (test/complexity_test.cpp, fuzz/fuzz_amplify.cpp). Compiled in when PLURNK_WORK_COUNTER is
// defined (Meson option `work_counter`, on by default in every build type but release, plain
// and minsize); otherwise every count_*() is an empty inline function and nothing is counted.
// Counts are per thread and only ever grow: callers read work() before and after a run. The
// lexer and parser count into a member while they run and add it to work() once per call, so the
// hot loops pay one increment of a local, not a thread-local access, per byte.
#pragma once

#include <cstdint>

namespace plurnk::detail {

struct work_counts {
    std::uint64_t bytes_examined = 0;  // lexer: input bytes looked at; a rescan counts them again
    std::uint64_t tokens = 0;          // lexer: tokens emitted, those of undone steps included
    std::uint64_t token_looks = 0;     // statement parser: token fetches (lookahead included)
    std::uint64_t position_bytes = 0;  // position_map: bytes counted to find columns
    // Items (and other per-statement records) copied by the result builder or a checkpoint. A hook:
    // count_items_copied() is there to be called, nothing in the lexer or parser calls it.
    std::uint64_t items_copied = 0;
    // Statement parser: error cycles copied instead of run (statement_parser.cpp's cycle replay).
    // Not work, and not in total(): tests read it to see that the replay takes the cycles.
    std::uint64_t cycles_replayed = 0;
    // Lexer: statements its whole-statement fast path took (statement_reader.cpp). Not work either.
    std::uint64_t fast_statements = 0;
    // The scorer (lib/score/score.cpp): turn bytes looked at to find and cut examples' excerpts.
    std::uint64_t score_bytes = 0;
    // JSON (canonical_json, json_document): bytes read, written, copied or moved, and members
    // visited to put objects in order. Not in total(): the surfaces' own tests read it.
    std::uint64_t json_bytes = 0;
    // The wire schema engine: values compared for const, enum and uniqueItems. Not in total().
    std::uint64_t values_compared = 0;
    // The rail recognizer (lib/score/rail_recognizer.cpp): stack cells made (one per new node,
    // one per node carried over when its arena starts over). Not in total().
    std::uint64_t rail_cells = 0;

    [[nodiscard]] std::uint64_t total() const noexcept {
        return bytes_examined + tokens + token_looks + position_bytes + items_copied + score_bytes;
    }
};

#ifdef PLURNK_WORK_COUNTER
inline constexpr bool k_work_counter = true;
#else
inline constexpr bool k_work_counter = false;
#endif

// This thread's counts (always defined, all zero when the counter is compiled out).
work_counts& work() noexcept;

inline void count_bytes(std::uint64_t n) noexcept {
    if constexpr (k_work_counter) work().bytes_examined += n;
}
inline void count_tokens(std::uint64_t n) noexcept {
    if constexpr (k_work_counter) work().tokens += n;
}
inline void count_token_looks(std::uint64_t n) noexcept {
    if constexpr (k_work_counter) work().token_looks += n;
}
inline void count_position_bytes(std::uint64_t n) noexcept {
    if constexpr (k_work_counter) work().position_bytes += n;
}
inline void count_items_copied(std::uint64_t n) noexcept {
    if constexpr (k_work_counter) work().items_copied += n;
}
inline void count_json_bytes(std::uint64_t n) noexcept {
    if constexpr (k_work_counter) work().json_bytes += n;
}
inline void count_values_compared(std::uint64_t n) noexcept {
    if constexpr (k_work_counter) work().values_compared += n;
}
inline void count_cycles_replayed(std::uint64_t n) noexcept {
    if constexpr (k_work_counter) work().cycles_replayed += n;
}
inline void count_fast_statements(std::uint64_t n) noexcept {
    if constexpr (k_work_counter) work().fast_statements += n;
}
inline void count_score_bytes(std::uint64_t n) noexcept {
    if constexpr (k_work_counter) work().score_bytes += n;
}
inline void count_rail_cells(std::uint64_t n) noexcept {
    if constexpr (k_work_counter) work().rail_cells += n;
}

}  // namespace plurnk::detail
