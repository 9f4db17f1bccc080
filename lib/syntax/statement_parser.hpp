// SPDX-License-Identifier: MIT
// The statement parser (private header): parse_syntax() over a whole token stream, and
// stream_syntax over a growing one. What it produces (units, syntax errors) is syntax/spans.hpp.
#pragma once

#include <cstddef>
#include <string>

#include "lex/lexer.hpp"
#include "plurnk/parse.hpp"
#include "syntax/spans.hpp"

namespace plurnk::detail {

syntax_tree parse_syntax(const lex_output& lexed, tier t);

// The statement parser over a growing token stream (see statement_parser.cpp). Copyable: a copy is a
// checkpoint of the whole parse state.
class stream_syntax {
public:
    explicit stream_syntax(tier t, parse_dialect dialect = parse_dialect::contracts);
    ~stream_syntax();
    stream_syntax(const stream_syntax& other);
    stream_syntax& operator=(const stream_syntax& other);

    // Parses as far as `tokens` allows; with `finished` they end with eof and parsing completes.
    void advance(const token_vector& tokens, bool finished);
    [[nodiscard]] const syntax_tree& tree() const noexcept;
    // Tokens before this index are settled: their units and errors can no longer change.
    [[nodiscard]] std::size_t settled() const noexcept;
    // Whether all `tokens` tokens are settled with no statement open, so release() may forget
    // them: token indices then count from `tokens`, and the tree's units and errors (which the
    // caller has taken) are cleared.
    [[nodiscard]] bool can_release(std::size_t tokens) const noexcept;
    void release(std::size_t tokens);
    // What a driver asks before it calls advance() with more tokens (the parser would answer the
    // same inside it): note_closes() looks at the tokens not looked at yet for the last close
    // tag, TURN closer or eof, and says whether one came and from which token it looked (one call,
    // where a stream asked two a wake); can_step() says whether the next step could run on
    // `tokens` (a statement waits for a close after its opener).
    struct closes {
        std::size_t from;  // the first token not looked at before the call
        bool came;
    };
    closes note_closes(const token_vector& tokens) noexcept;
    [[nodiscard]] bool can_step(const token_vector& tokens) const noexcept;
    // Every field of the parse state as text (the tree, the cursor, the recovery state, the rule
    // frames), for the tests that compare the fast path (clean_step.hpp) with the productions.
    [[nodiscard]] std::string dump_state() const;
    // Room for n tokens' records, so that a large feed does not regrow them step by step.
    void reserve_tokens(std::size_t n);
    // Back to the state the constructor gives (the same tier and dialect), the records keeping
    // their room (tier_machine::reset()): cheaper than assigning a fresh parser, whose every
    // field is copied, the cycle replay's anchors among them.
    void reset();
    // The whole parse state is the same (by every field of the parser, not the address it is
    // kept at): for the tests of reset().
    friend bool operator==(const stream_syntax& a, const stream_syntax& b) noexcept;

private:
    struct impl;
    impl* impl_;
};

}  // namespace plurnk::detail
