// SPDX-License-Identifier: MIT
// The fast-path switches (private header). Each shortcut in front of a general route can be
// turned off, so that the differential tests and fuzz targets compare it with the route alone;
// the results are the same either way. One rule for every switch: they are this thread's, and a
// lexer or statement parser reads them once, when it is constructed (a copy keeps what its
// original read). Everything is on unless a test turns it off.
#pragma once

namespace plurnk::detail {

struct fast_paths {
    // The lexer's whole-statement reader (lex/statement_reader.cpp): a well-formed statement read
    // in one pass after its opener.
    bool lexer = true;
    // The statement parser's clean step (syntax/clean_step.hpp): a clean statement, a loop's
    // one-token check and a run of TEXT taken without the productions; and its cycle replay.
    bool statement = true;
    friend bool operator==(const fast_paths&, const fast_paths&) = default;
};

// This thread's switches.
[[nodiscard]] fast_paths& thread_fast_paths() noexcept;

// Sets this thread's switches for as long as it lives, then puts back what they were.
class fast_paths_scope {
public:
    explicit fast_paths_scope(fast_paths set) noexcept : saved_(thread_fast_paths()) { thread_fast_paths() = set; }
    ~fast_paths_scope() { thread_fast_paths() = saved_; }
    fast_paths_scope(const fast_paths_scope&) = delete;
    fast_paths_scope& operator=(const fast_paths_scope&) = delete;

private:
    fast_paths saved_;
};

}  // namespace plurnk::detail
