// SPDX-License-Identifier: MIT
// The one pipeline both drivers run (private header): parse() (parse.cpp) and the push parser
// (stream.cpp) run the lexer, the statement parser and the result builder over an input.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "base/fast_paths.hpp"
#include "base/position.hpp"
#include "builder/result_builder.hpp"
#include "grammar/token.hpp"
#include "lex/lexer.hpp"
#include "plurnk/parse.hpp"
#include "syntax/statement_parser.hpp"

namespace plurnk::detail {

// parse_options::max_input_bytes, capped at what 32-bit offsets can address.
inline std::size_t input_limit(const parse_options& o) noexcept {
    return std::min(o.max_input_bytes, parse_options::k_max_input_bytes);
}

// The three stages over one input, and what the drivers do with them together: parse() runs
// them in windows of tokens (parse.cpp), the push parser over a growing buffer, adding events
// and laziness (stream.cpp). The data goes one way: the lexer's tokens and errors (lex_output)
// to the statement parser, which settles them into units and syntax errors (syntax_tree); the
// builder takes what settled and writes the records. Release goes the same way, in one order:
// the builder takes what is left of the tokens and errors, then the parser forgets them, then
// the lexer.
class pipeline {
public:
    pipeline(tier t, const parse_options& o)
        : lexer(o.max_turn_depth, o.dialect), syntax(t, o.dialect), builder(t, o.dialect),
          made_for_{t, o.dialect, o.max_turn_depth, thread_fast_paths()} {}

    // Back to the state the constructor gives it, for the same tier and options, so that a
    // thread's scratch (parse.cpp) or a spare stream state can be used again.
    void reset() {
        lexer.reset();
        syntax.reset();
        builder.reset();
    }
    // The room of the vectors that grow with the input: the lexer's and the parser's, and the
    // builder's error ledger (what a kept pipeline holds besides its fixed size: the bound on
    // parse()'s scratch and a stream's spare state).
    [[nodiscard]] std::size_t room_bytes() const noexcept {
        const lex_output& l = lexer.output();
        const syntax_tree& s = syntax.tree();
        return l.tokens.capacity() * sizeof(token) + l.errors.capacity() * sizeof(lex_error) +
               s.units.capacity() * sizeof(unit) + s.token_unit.capacity() * sizeof(std::int32_t) +
               s.errors.capacity() * sizeof(syntax_error) + builder.ledger_bytes();
    }
    // Whether it was made for tier t and options o (what the constructor takes of them) with
    // this thread's fast-path switches as they are now (its stages read them when constructed,
    // and a reset keeps what they read).
    [[nodiscard]] bool made_for(tier t, const parse_options& o) const noexcept {
        return made_for_.t == t && made_for_.dialect == o.dialect && made_for_.max_turn_depth == o.max_turn_depth &&
               made_for_.switches == thread_fast_paths();
    }

    // Room for n tokens in the lexer's output and the parser's records of them.
    void reserve_tokens(std::size_t n) {
        lexer.reserve_tokens(n);
        syntax.reserve_tokens(n);
    }
    [[nodiscard]] const token_vector& tokens() const noexcept { return lexer.output().tokens; }
    // The statement parser on the tokens lexed so far (`finished`: they end with eof).
    void parse(bool finished) { syntax.advance(tokens(), finished); }
    // The builder on what settled (`in`: the input the offsets count in), with events to `out`.
    void build(std::string_view in, const result_builder::sink& out) {
        builder.advance(in, lexer.output(), syntax.tree(), syntax.settled(), out);
    }
    // Whether every token lexed so far is settled with no statement open and taken by the
    // builder, with every error: then release may forget them.
    [[nodiscard]] bool can_release() const noexcept {
        const std::size_t n = tokens().size();
        return syntax.can_release(n) && builder.can_release(n);
    }
    // parse()'s release: the tokens go, the input stays (every offset with it).
    void release_tokens() {
        const std::size_t n = tokens().size();
        builder.release_tokens(n);
        syntax.release(n);
        lexer.release_tokens();
    }
    // The push parser's release: the tokens and the settled input before the lexer's position
    // go; `before_lexer()` runs while the lexer still holds the tokens. Returns how many bytes
    // to drop from the front of `in` (offsets count from there on).
    template <class F>
    std::size_t release(std::string_view in, F&& before_lexer) {
        const std::size_t n = tokens().size();
        builder.release(in.substr(0, lexer.position()), n);
        syntax.release(n);
        before_lexer();
        return lexer.release(in);
    }
    // The lexer and the parser to the end of `in`, all of it there.
    void run_to_end(std::string_view in) {
        lexer.advance(in, true);
        parse(true);
    }
    // The result, once the lexer and the parser are at the end (run_to_end()), with events to
    // `out`.
    parse_result finish(std::string_view in, const result_builder::sink& out) {
        return builder.finish(in, lexer.output(), syntax.tree(), out);
    }

    stream_lexer lexer;
    stream_syntax syntax;
    result_builder builder;

private:
    struct construction {
        tier t;
        parse_dialect dialect;
        std::size_t max_turn_depth;
        fast_paths switches;
    };
    construction made_for_;
};

// parse() with windows of `window` tokens (parse.cpp; SIZE_MAX: the whole input in one). Every
// window size gives the same result; the tests check that.
parse_result parse_in_windows(std::string_view input, tier t, const parse_options& options, std::size_t window);
// What parse_in_windows() runs on its pipeline before `p.parse(true)` and `p.finish()`: the
// whole input `in` (copied into the builder, or borrowed) lexed in windows of `window` tokens,
// the parser and the builder taking what each settles, the tokens released whenever nothing
// is open. The stages' reset tests drive a pipeline with it.
void lex_in_windows(pipeline& p, std::string_view in, bool borrow_input, std::size_t window);

// The last item of a result whose input went past max_input_bytes: where parsing stopped and how
// much was left out.
void append_input_limit_error(parse_result& r, position end, std::uint64_t parsed, std::uint64_t total);

}  // namespace plurnk::detail
