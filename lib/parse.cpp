// SPDX-License-Identifier: MIT
// parse(): the lexer, the statement parser and the result builder over the whole input.
#include "ast_builder.hpp"

namespace plurnk {

parse_result parse(std::string_view input, tier t, const parse_options& options) {
    const std::string_view in = input.substr(0, detail::input_limit(options));
    const detail::lex_output lexed = detail::lex(in, options.max_turn_depth);
    const detail::syntax_tree tree = detail::parse_syntax(lexed, t);
    detail::result_builder b(t);
    if (options.borrow_input) {
        b.input().set_borrowed(in);
    } else {
        b.input().set_owned(std::string(in));
    }
    parse_result r = b.finish(in, lexed, tree, {});
    if (in.size() < input.size()) {
        detail::position_map pos(in);
        detail::append_input_limit_error(r, pos.at(in.size()), in.size(), input.size());
    }
    return r;
}

}  // namespace plurnk
