// SPDX-License-Identifier: MIT
// Inputs for the benchmark programs: the two vendored files under bench/data/ and generated
// documents (body-heavy, statement-dense, hostile shapes). Generators are deterministic.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "plurnk/plurnk.hpp"

namespace plurnk::bench {

// Contents of bench/data/<name> (the folder is compiled in as PLURNK_BENCH_DATA and may be
// overridden with the environment variable of the same name). Exits with a message when the
// file cannot be read.
[[nodiscard]] const std::string& data_file(std::string_view name);

// About `size` bytes of statements-tier input: a few EDIT statements whose bodies are long runs
// of code-like text (one ':' about every 60 bytes, as TypeScript has).
[[nodiscard]] std::string body_heavy(std::size_t size);

// `count` short statements: READ and FIND with scopes, tags and glob/regex/JSONPath/XPath
// matchers, one per line (statements tier).
[[nodiscard]] std::string statement_dense(std::size_t count);

// Wraps a parse-tier turn in `<<TURN:` ... `:TURN` for the log tier.
[[nodiscard]] std::string as_log(std::string_view turn);

// Hostile shapes from the fuzzing issue, each about `size` bytes.
enum class hostile {
    lt,               // <<<<<<…
    open_read,        // <<READ<<READ…
    open_read_paren,  // <<READ(<<READ(… never closed
    near_miss_body,   // <<READ: then :READX:REA:READ_ … in a body never closed
    nested_turns,     // <<TURN:<<TURN:… (log tier)
    target_parens,    // <<READ( then (((( …
    regex_groups,     // FIND bodies /((((a))))/ deep
    jsonpath_filters, // FIND bodies $[?(((@.a)))] deep
    crlf_soup,        // statements and text with CR, LF and CRLF line ends mixed
    invalid_utf8,     // statements and text full of ill-formed UTF-8
    slot_junk,        // <<READ followed by characters no slot rule accepts
};
inline constexpr hostile k_hostile_all[] = {
    hostile::lt,           hostile::open_read,      hostile::open_read_paren, hostile::near_miss_body,
    hostile::nested_turns, hostile::target_parens,  hostile::regex_groups,    hostile::jsonpath_filters,
    hostile::crlf_soup,    hostile::invalid_utf8,   hostile::slot_junk};
[[nodiscard]] const char* hostile_name(hostile h);
[[nodiscard]] plurnk::tier hostile_tier(hostile h);
[[nodiscard]] std::string hostile_input(hostile h, std::size_t size);

// Number of statement and error items (a statement that failed counts as one statement).
[[nodiscard]] std::size_t statement_count(const plurnk::parse_result& r);

}  // namespace plurnk::bench
