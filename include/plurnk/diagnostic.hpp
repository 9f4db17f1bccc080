// SPDX-License-Identifier: MIT
// Diagnostics: where (position), who found it (source), how bad (severity), what (message), and
// which class of message it is (message_id). Every message the core makes comes from one template
// of the message table (message_template()), its `{placeholders}` filled in; doc/diagnostics.md
// lists them. The id is for programs (group, count, translate); to_json() does not write it.
#pragma once

#include "plurnk/requires_cxx20.hpp"  // one clear error unless compiled as C++20

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace plurnk {

// 1-based line, 0-based column in Unicode code points. {0,0} is the unknown sentinel.
struct position {
    std::uint32_t line = 0;
    std::uint32_t column = 0;
    friend bool operator==(const position&, const position&) = default;
    friend auto operator<=>(const position&, const position&) = default;
};

enum class source : std::uint8_t { lexer, parser, visitor };
enum class severity : std::uint8_t { error, warning };

// The classes of core messages, one per template. The values are stable within a major version;
// new classes are appended before k_message_count's end.
enum class message_id : std::uint16_t {
    // Not made by the core (built by hand, or read back from JSON): the message is all there is.
    external,

    // --- lexer (source: lexer) ---
    // A character no token of the current mode accepts; {context} names the mode.
    unrecognized_character,
    // The input ended inside a token; {context} names the mode.
    unrecognized_end_of_input,
    // A `<<TURN` past parse_options::max_turn_depth (once per input).
    turn_depth,

    // --- statement parser (source: parser) ---
    // A stray token skipped, or no alternative fits; {expected} joined with " or ".
    unexpected_token,
    // The token does not fit and the rule is abandoned; {expected} joined as "A, B, or C".
    mismatched_token,
    // A token where nothing the parser can name may come (e.g. after the terminal SEND).
    nothing_expected,
    // A missing token the parser assumed.
    missing_token,
    // A missing token where the parser can name nothing it expects.
    missing_more_input,
    // WORK/FORK without a prompt body.
    missing_body,

    // --- statement validation (source: visitor); {reason} is the validator's own text ---
    // The target slot is not a valid path or URL (lib/url).
    invalid_target,
    // A `//` matcher body that is not an XPath selector (lib/xpath).
    invalid_xpath_matcher,
    // A `/` matcher body that is not a `/pattern/flags` regex (lib/regex).
    invalid_regex_matcher,
    // A `$` matcher body that is not a JSONPath query (lib/jsonpath).
    invalid_jsonpath_matcher,
    // A COPY/MOVE body that is not a destination target and scope (lib/url).
    invalid_selection,

    // --- advisories of the parse tier (severity: warning) ---
    // `<<WORD` in text, a near miss of an op name, with its `:WORD` closer in the same text.
    near_miss_op,
    // An unsuffixed PLAN body holding an op opener.
    plan_body_op_text,
    // EDIT/COPY/MOVE without a target but with a path-shaped tag.
    misplaced_target,

    // --- turn shape of the parse tier (source: parser) ---
    // No PLAN: the turn's parser errors are replaced by this one.
    turn_missing_plan,
    // No terminal SEND: the turn's parser errors are replaced by this one.
    turn_missing_terminal_send,
    // A parser error after the first disposition SEND, reworded.
    turn_ended_by_send,

    // --- input limit (source: lexer) ---
    // The input went past parse_options::max_input_bytes.
    input_limit,

    // --- unparsedTail reasons (unparsed_tail::reason_id) ---
    // The input ended inside a body.
    tail_body_unclosed,
    // Appended to tail_body_unclosed when the body holds an invented `:NAME` closer (an
    // advisory; the tail's reason_id stays tail_body_unclosed).
    tail_invented_closer,
    // The input ended inside a signal slot.
    tail_signal_unclosed,
    // The input ended inside a target slot.
    tail_target_unclosed,
    // The input ended inside a statement's header, before its body.
    tail_statement_unclosed,
};
inline constexpr std::size_t k_message_count = static_cast<std::size_t>(message_id::tail_statement_unclosed) + 1;

// The class name ("mismatched_token"): stable snake_case, unique per id; "" for an unknown id.
[[nodiscard]] std::string_view message_name(message_id id) noexcept;
// The template with named `{placeholders}` ("unexpected {found}; expected {expected}"); "" for
// an unknown id.
[[nodiscard]] std::string_view message_template(message_id id) noexcept;

// A byte range [begin, end) of the input, counted from its first byte (a stream's whole input,
// not what the stream still holds). Every item carries one (doc/library.md says what each covers);
// to_json writes it only when asked (json_options::spans).
struct byte_span {
    std::size_t begin = 0;
    std::size_t end = 0;
    [[nodiscard]] std::size_t size() const noexcept { return end - begin; }
    friend bool operator==(const byte_span&, const byte_span&) = default;
};

struct diagnostic {
    plurnk::position position;
    plurnk::source source = plurnk::source::parser;
    plurnk::severity severity = plurnk::severity::error;
    std::string_view message;  // a view, like every string of the AST (ast.hpp, "Views")
    message_id id = message_id::external;
    byte_span span{};  // what it is about (doc/library.md, "Byte spans")
    friend bool operator==(const diagnostic&, const diagnostic&) = default;
};

}  // namespace plurnk
