// SPDX-License-Identifier: MIT
// The core's message table (private header): one template per message_id
// (include/plurnk/diagnostic.hpp), the lexer's mode contexts, the token vocabulary of parser
// messages, and the rendering every stage uses, so the wording of every core message is here
// (messages.cpp; the lexer's and the parser's errors fill it in lex/lex_error.cpp and
// syntax/parser_error.cpp). The texts are the reference implementation's, byte for byte;
// doc/diagnostics.md lists them and test/messages_test.cpp checks that it does.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "plurnk/diagnostic.hpp"

namespace plurnk::detail {

// One `{name}` of a template and the text it stands for.
struct message_arg {
    std::string_view name;
    std::string_view value;
};

// Appends the template of `id` to `out` with every `{name}` replaced by its argument's value
// (a placeholder without an argument is kept as written).
void append_message(std::string& out, message_id id, std::initializer_list<message_arg> args);
// The number of bytes append_message() adds for the same arguments.
[[nodiscard]] std::size_t message_size(message_id id, std::initializer_list<message_arg> args);
[[nodiscard]] std::string format_message(message_id id, std::initializer_list<message_arg> args);

// The mode a lexer error happened in: the {context} of unrecognized_character and
// unrecognized_end_of_input. Two errors collapse into one only within one context.
enum class lex_context : std::uint8_t {
    between_statements,  // DEFAULT
    slots,               // the header's slot region
    tags,                // a tag signal
    integer,             // the SEND/KILL signal
    ident,               // the EXEC signal
    target,              // the target slot
    exec_redirect,       // a `-` or digit in EXEC's signal: timeout/poll ride the scope slot
    matcher_redirect,    // a `$`, `~` or `@` in the slot region: a matcher rides the body
    turn_depth,          // (the turn-depth error, which has a message of its own)
};
inline constexpr std::size_t k_lex_context_count = static_cast<std::size_t>(lex_context::turn_depth) + 1;
[[nodiscard]] std::string_view lex_context_text(lex_context c) noexcept;

// The vocabulary name of a token type in parser messages (SPEC §14, BEHAVIOUR §4.3). Equal names
// are the same literal, so they compare equal as pointers.
[[nodiscard]] const char* token_type_name(int t) noexcept;  // t: a symbol (token.hpp)

// The names of `set` in vocabulary order, equal names once, joined with " or ", or as
// "A, B, or C" when `oxford` and three or more; "" when the set names nothing (EOF and EPS never
// show). The grammar has a few dozen distinct sets and an error-dense input repeats them, so each
// thread remembers the texts.
[[nodiscard]] const std::string& expected_list(std::uint64_t set, bool oxford);  // set: a tset

}  // namespace plurnk::detail
