// SPDX-License-Identifier: MIT
// The statement parser's output (private header): statement units over the token stream, the
// TEXT tokens outside them, and the parser's syntax errors. Plain data, read by the builder and
// by the parser's own layers (token_cursor.hpp, clean_step.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/pod_vector.hpp"
#include "grammar/token.hpp"
#include "plurnk/diagnostic.hpp"

namespace plurnk::detail {

// A syntax error. Like a lexer error, its message is built only when it is reported: on
// error-dense input most errors are claimed by a statement that shows another one, or fall into
// the unparsed tail, and building their text would cost more than finding them.
struct syntax_error {
    enum class shape : std::uint8_t {
        unexpected,         // "unexpected X; expected A or B"
        unexpected_oxford,  // "unexpected X; expected A, B, or C"
        missing,            // "expected A or B; got X"
        body_content,       // "expected body content; got X"
    };
    std::uint32_t offset = 0;   // byte offset of the offending token
    std::uint32_t fetched = 0;  // tokens fetched from the lexer when it was reported (see the builder's pending_syn)
    std::uint64_t expected = 0; // the expected token types (token.hpp's tset)
    token at;                   // the offending token
    shape kind = shape::unexpected;

    // The message class and text (parser_error.cpp); `input` is the parsed input.
    [[nodiscard]] message_id id() const;
    [[nodiscard]] std::string message(std::string_view input) const;

    // What id() and message() depend on when the token's text does not show in the message
    // (every token but a disposition): errors with equal keys have equal messages.
    struct message_key {
        std::uint64_t expected = 0;
        int symbol = -1;
        shape kind = shape::unexpected;
        friend bool operator==(const message_key&, const message_key&) = default;
    };
    [[nodiscard]] std::optional<message_key> key() const noexcept;
    friend bool operator==(const syntax_error&, const syntax_error&) = default;
};

// One statement-level parse context: the tokens it holds (first..last inclusive; empty when
// first > last), whether its op rule completed without a syntax error, and the slots the parser
// matched, as token indices, so the builder need not find them again. A slot index of 0 means
// the slot is absent (a slot never starts a unit: the opener comes first). In a clean unit the
// ranges hold exactly what the grammar admits there.
struct unit {
    std::uint32_t first = 1;
    std::uint32_t last = 0;
    std::uint32_t signal = 0, signal_end = 0;  // `[` .. one past `]`: tags, commas or one value
    std::uint32_t target = 0, target_end = 0;  // `(` .. one past `)`: target_text tokens
    std::uint32_t scope = 0;                   // the `<L>` token
    std::uint32_t body = 0, body_end = 0;      // the body_text tokens [body, body_end); body 0: none
    bool clean = false;
    bool terminal_send = false;
    friend bool operator==(const unit&, const unit&) = default;
};

struct syntax_tree {
    std::vector<unit> units;
    pod_vector<std::int32_t> token_unit;  // per token: unit index or -1
    std::vector<syntax_error> errors;      // in report order
    friend bool operator==(const syntax_tree&, const syntax_tree&) = default;
};

}  // namespace plurnk::detail
