// SPDX-License-Identifier: MIT
// parse(): the pipeline (pipeline.hpp) over the whole input, in windows of tokens. The lexer
// knows the input is complete (nothing it emits is ever undone) but stops every k_window tokens;
// the statement parser and the builder take what those tokens settle, as they do for the push
// parser; and whenever nothing is open (no statement, every token and error taken) the tokens so
// far are forgotten. So the memory a parse needs besides its result is one window of tokens,
// however long the input, except inside a statement or a TURN that stays open (their tokens wait
// for it; the lexer's errors do not: it also stops every k_window errors, anywhere, and the
// builder takes them). The result is the push parser's, so it is the same as streaming the input
// in any chunks, which the stream tests check on every vector.
#include "pipeline/pipeline.hpp"

namespace plurnk {

namespace {
// Tokens per window: enough that the per-window work (a parser attempt, a release) is noise,
// few enough that the tokens stay in cache (16 bytes each).
constexpr std::size_t k_window = 4096;
}  // namespace

parse_result detail::parse_in_windows(std::string_view input, tier t, const parse_options& options,
                                      std::size_t window) {
    const std::string_view in = input.substr(0, detail::input_limit(options));
    detail::pipeline p(t, options);
    detail::stream_lexer& lexer = p.lexer;
    detail::result_builder& b = p.builder;
    b.never_fires();
    if (options.borrow_input) {
        b.input().set_borrowed(in);
    } else {
        b.input().set_copied(in);
    }
    const std::size_t reserved = std::min<std::size_t>(in.size() / 3 + 4, window < k_window ? 2 * window : 2 * k_window);
    p.reserve_tokens(reserved);
    lexer.set_error_budget(window);
    // A stop for errors (the lexer's error budget) leaves the token budget as it is: a window ends
    // where the token budget says, however many error stops fall inside it (were each to set a new
    // budget, error stops landing inside statements could keep every window from ending).
    bool new_window = true;
    bool projected = false;
    for (;;) {
        if (new_window) {
            const std::size_t held = p.tokens().size();
            lexer.set_token_budget(window > SIZE_MAX - held ? SIZE_MAX : held + window);
        }
        lexer.advance(in, true);
        if (lexer.at_end()) break;
        new_window = lexer.output().errors.size() < window;  // not an error stop
        p.parse(false);
        p.build(in, {});
        if (!projected) {  // room for the rest of the records at the density of the first window
            projected = true;
            const std::size_t done = lexer.position();
            if (done < in.size()) b.expect_rest(done, in.size() - done, 0, 0);
        }
        // The builder keeps what it needs of each lexer error: the lexer need not (an error-dense
        // statement that stays open would otherwise hold them all).
        lexer.forget_errors();
        b.forget_lexer_errors();
        if (p.can_release()) {
            p.release_tokens();
            new_window = true;
        }
    }
    p.parse(true);
    parse_result r = p.finish(in, {});
    r.dialect = options.dialect;
    if (in.size() < input.size()) {
        detail::position_map pos(in);
        detail::append_input_limit_error(r, pos.at(in.size()), in.size(), input.size());
    }
    return r;
}

parse_result parse(std::string_view input, tier t, const parse_options& options) {
    return detail::parse_in_windows(input, t, options, k_window);
}

}  // namespace plurnk
