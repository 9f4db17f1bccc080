// SPDX-License-Identifier: MIT
// A parser error's message class, key and text (syntax_error, spans.hpp), rendered from the
// message table (grammar/messages.hpp) only when the error is reported.
#include <optional>
#include <string>
#include <string_view>

#include "grammar/messages.hpp"
#include "grammar/token.hpp"
#include "syntax/spans.hpp"

namespace plurnk::detail {

namespace {

// How a token shows in a parser message: a disposition quoted, anything else by its type's name.
void append_token_display(std::string& out, const token& t, std::string_view in) {
    const symbol ty = symbol_of(t);
    if (ty == sym(tok::disposition)) {
        out += '\'';
        out.append(in.substr(t.begin, t.end - t.begin));
        out += '\'';
        return;
    }
    out += token_type_name(ty);
}

}  // namespace

message_id syntax_error::id() const {
    switch (kind) {
        case shape::unexpected:
            return expected_list(expected, false).empty() ? message_id::nothing_expected : message_id::unexpected_token;
        case shape::unexpected_oxford:
            return expected_list(expected, true).empty() ? message_id::nothing_expected : message_id::mismatched_token;
        case shape::missing:
            return expected_list(expected, false).empty() ? message_id::missing_more_input : message_id::missing_token;
        case shape::body_content: return message_id::missing_body;
    }
    return message_id::unexpected_token;
}

std::optional<syntax_error::message_key> syntax_error::key() const noexcept {
    const symbol ty = symbol_of(at);
    if (ty == sym(tok::disposition)) return std::nullopt;  // append_token_display shows its text
    return message_key{expected, ty, kind};
}

std::string syntax_error::message(std::string_view in) const {
    std::string found;
    append_token_display(found, at, in);
    const message_id i = id();
    std::string_view list;
    if (i == message_id::unexpected_token || i == message_id::mismatched_token || i == message_id::missing_token) {
        list = expected_list(expected, kind == shape::unexpected_oxford);
    }
    std::string m;
    m.reserve(96);
    append_message(m, i, {{"found", found}, {"expected", list}});
    return m;
}

}  // namespace plurnk::detail
