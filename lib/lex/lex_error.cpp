// SPDX-License-Identifier: MIT
// A lexer error's message class and text (lex_error, lexer.hpp), rendered from the message table
// (grammar/messages.hpp) only when the error is reported.
#include <charconv>
#include <string>
#include <string_view>

#include "grammar/messages.hpp"
#include "lex/lexer.hpp"

namespace plurnk::detail {

message_id lex_error::id() const noexcept {
    if (turn_depth) return message_id::turn_depth;
    return end > begin ? message_id::unrecognized_character : message_id::unrecognized_end_of_input;
}

std::string lex_error::message(std::string_view input) const {
    std::string m;
    const message_id i = id();
    if (i == message_id::turn_depth) {
        char digits[16];
        const auto n = std::to_chars(digits, digits + sizeof digits, limit).ptr;
        append_message(m, i, {{"limit", std::string_view(digits, static_cast<std::size_t>(n - digits))}});
        return m;
    }
    const std::string_view ctx = lex_context_text(context);
    m.reserve(48 + (end - begin) + ctx.size());
    append_message(m, i, {{"text", input.substr(begin, end - begin)}, {"context", ctx}});
    return m;
}

}  // namespace plurnk::detail
