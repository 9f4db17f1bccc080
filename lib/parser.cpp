// parse(): the lexer, the statement parser and the result builder over the whole input.
#include "builder.hpp"

namespace plurnk {

parse_result parse(std::string_view input, tier t, const parse_options& options) {
    const detail::lex_output lexed = detail::lex(input, options.max_turn_depth);
    const detail::syntax_tree tree = detail::parse_syntax(lexed, input, t);
    detail::result_builder b(t, options);
    return b.finish(input, lexed, tree, {});
}

}  // namespace plurnk
