// SPDX-License-Identifier: MIT
// The generation rail (SPEC §1.2, BEHAVIOUR §7): a small rule model of the raw turn a constrained
// local model may emit, lowered to a context-free grammar and written in llama.cpp's GBNF syntax.
//
// The rail is a generation aid, not a language subset guarantee: it keeps useful turns likely to
// parse cleanly, while admission stays with parse_turn() and the runtime (SPEC §contract-layers).
#pragma once

#include "plurnk/requires_cxx20.hpp"  // one clear error unless compiled as C++20

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "plurnk/ast.hpp"
#include "plurnk/parse.hpp"
#include "plurnk/result.hpp"

namespace plurnk::rail {

// ---- The rule model -------------------------------------------------------------------------

// What the `[signal]` slot may hold on the rail (the lexer's own rules, canonical spelling).
enum class signal_shape : std::uint8_t {
    none,
    tags,       // [a,b]: tags without blanks, `]`, `,` or `<<`, comma separated; [] too
    branch,     // [name]: one such tag (WORK, FORK)
    executor,   // [sh]: [A-Za-z_][A-Za-z0-9_.+-]*, or [] (EXEC)
    kill_code,  // [9], [-15], [200]: an integer of up to six digits, or [] (KILL)
    mid_code,   // [404], [1], [-5]: an integer except the five dispositions, or [] (mid SEND)
};

// What the `(target)` slot needs on the rail (SPEC op-shapes).
enum class target_need : std::uint8_t {
    optional,
    required,
    required_or_matcher,       // FOLD: a target, or else a non-empty matcher
    required_or_tags_matcher,  // OPEN: a target, or else tags or a non-empty matcher
};

// What the `<scope>` slot may hold on the rail: integers of up to six digits, with a sign.
enum class scope_shape : std::uint8_t {
    none,
    text,    // one to five integers (EDIT, COPY, MOVE; the runtime judges arity and range)
    find,    // an optional 0.x threshold, then 0-2 integers (at least one part)
    read,    // an optional 0.x threshold, then 0-4 integers (at least one part)
    timing,  // <T> or <T,P>, T may be -1 (EXEC; the [202] park)
};

// What the body may hold on the rail. Every non-empty shape excludes the statement's own close
// `:OPsuffix` where the parser would see it (followed by a character that is not [A-Za-z0-9_],
// or at the opening colon followed by blanks and a line end or `<<`), so the body is the text
// written.
enum class body_shape : std::uint8_t {
    empty,          // `::OP` only (KILL)
    text,           // any text, newlines included, possibly empty
    text_nonempty,  // the same, not empty (WORK, FORK, terminal SEND)
    matcher,        // one line, not starting with `:`; `/`, `//` and `$` lead a regex, XPath or
                    // JSONPath the validators accept; anything else (glob, ~semantic, @graph) is text
    selection,      // a destination target plus an optional text scope (COPY, MOVE)
};

// One internal (mid-turn) operation of the rail.
struct op_shape {
    plurnk::op op;
    signal_shape signal;
    target_need target;
    scope_shape scope;
    body_shape body;
};

// The twelve internal operations, in the order the grammar lists them. PLAN (first, unsuffixed,
// non-empty body without `<<`) and the terminal SEND are fixed parts of the turn shape. The
// service dialect's rows differ where SERVICE.md's slot table does (S8-S10): OPEN and FOLD take a
// scope, WORK and FORK no signal, FORK's body is optional.
[[nodiscard]] std::span<const op_shape> internal_ops(parse_dialect d = parse_dialect::contracts) noexcept;

// The five disposition codes that make a SEND terminal (SPEC §9), in ascending order.
inline constexpr const auto& k_dispositions = plurnk::k_disposition_codes;
inline constexpr std::uint16_t k_idle_code = 102;  // not allowed as the zero-statement terminal
inline constexpr std::uint16_t k_park_code = 202;  // the only code that takes a timing scope
inline constexpr std::size_t k_max_separator = 7;  // whitespace characters between statements
inline constexpr std::string_view k_channel_open = "<|channel>thought\n";
inline constexpr std::string_view k_channel_close = "<channel|>";
inline constexpr std::string_view k_think_open = "<think>";
inline constexpr std::string_view k_think_close = "</think>";

// The reasoning channel the raw turn starts with (SPEC §gbnf-turn-shape fixes the first).
enum class channel_format : std::uint8_t {
    gemma,   // `<|channel>thought\n … <channel|>` at byte zero: the 1.4.0 shape, the default
    think,   // `<think> … </think>` at byte zero (Qwen, DeepSeek and other `<think>` models)
    none,    // no channel: the turn starts with `<<PLAN:` at byte zero (non-reasoning models)
    custom,  // options::channel_open … options::channel_close at byte zero
};

// "gemma", "think", "none", "custom"; and back (nullopt for an unknown name).
[[nodiscard]] const char* channel_name(channel_format f) noexcept;
[[nodiscard]] std::optional<channel_format> channel_from_name(std::string_view name) noexcept;

struct options {
    // Internal statements between PLAN and the terminal SEND (0 to k_max_statements_limit).
    std::size_t max_statements = 14;
    // Enclosure suffixes the rail enumerates; each [A-Za-z0-9_]{0,8}, no duplicates, at least one.
    std::vector<std::string> suffixes = {"", "1", "2"};
    // The reasoning channel. With channel_format::custom the turn starts with channel_open (any
    // UTF-8, may be empty: for a chat template that already wrote the opener into the prompt),
    // then a body that never contains channel_close, then channel_close (non-empty printable
    // ASCII, tab or newline, whose first character does not occur again in it). Both at most
    // k_max_channel_literal bytes; the literals are ignored for the other formats.
    channel_format channel = channel_format::gemma;
    std::string channel_open;
    std::string channel_close;
    // The dialect the rail's sentences parse in (doc/dialects.md): contracts writes PLURNK 1.4.0;
    // service writes what the "Plurnk Service" document teaches (SERVICE.md): `#pattern#flags`
    // regexes in matcher bodies and as targets, OPEN/FOLD scopes, WORK/FORK without a signal,
    // an optional FORK body. Every rule the dialects share is the same rule.
    parse_dialect dialect = parse_dialect::contracts;
};
inline constexpr std::size_t k_max_statements_limit = 1000;
inline constexpr std::size_t k_max_channel_literal = 64;

// The channel's opening and closing literals for `o` ("" and "" for channel_format::none): a
// server splits input[0, end of the first close) off as reasoning and parses the rest.
struct channel_literals {
    std::string_view open;
    std::string_view close;
};
[[nodiscard]] channel_literals literals(const options& o) noexcept;

// Whether `o` can be built: ok, or a problem saying why (offset 0).
result<void> check_options(const options& o);

// ---- The grammar ----------------------------------------------------------------------------

inline constexpr std::uint32_t k_unbounded = 0xFFFFFFFFu;

// A GBNF expression. Built in canonical form: no one-item sequence or alternation, no sequence
// directly inside a sequence, no alternation directly inside an alternation.
struct expr {
    enum class kind_t : std::uint8_t { literal, char_class, ref, sequence, alternation, repeat };
    kind_t kind = kind_t::sequence;
    std::string text;                                  // literal: UTF-8 text; ref: rule name
    bool negated = false;                              // char_class: [^...]
    std::vector<std::pair<char32_t, char32_t>> ranges;  // char_class: inclusive code point ranges
    std::vector<expr> items;                           // sequence, alternation; repeat: one item
    std::uint32_t min = 0;                             // repeat
    std::uint32_t max = 0;                             // repeat; k_unbounded for no maximum
    friend bool operator==(const expr&, const expr&) = default;
};

struct rule {
    std::string name;     // [a-z0-9-]+
    expr body;
    std::string comment;  // written as a `#` line above the rule; may be empty
};

struct grammar {
    std::vector<rule> rules;  // rules.front() is "root"
    [[nodiscard]] const rule* find(std::string_view name) const noexcept;
};

// Lowers the rule model to a grammar for the given options; the problem is check_options'.
result<grammar> build(const options& o = {});

// Writes `g` in llama.cpp's GBNF syntax: a header comment, then one rule per line (long
// alternations wrap after `|`). The output is deterministic for a given grammar.
[[nodiscard]] std::string to_gbnf(const grammar& g);

// What write_gbnf() wrote: the rules (root and those it reaches) and the bytes.
struct gbnf_written {
    std::size_t rules = 0;
    std::size_t bytes = 0;
};

// Writes what to_gbnf(build(o).value()) returns to `sink`, in pieces of about 64 KB, without
// holding the grammar: only the text of its rules is kept until the rules root reaches are known,
// so memory follows the text's size (the grammar's tree takes about 24 times it). The problem is
// check_options'.
result<gbnf_written> write_gbnf(const options& o, const std::function<void(std::string_view)>& sink);

// Expression constructors that keep the canonical form.
[[nodiscard]] expr lit(std::string_view text);
[[nodiscard]] expr chars(std::vector<std::pair<char32_t, char32_t>> ranges, bool negated = false);
[[nodiscard]] expr rule_ref(std::string_view name);
[[nodiscard]] expr seq(std::vector<expr> items);
[[nodiscard]] expr alt(std::vector<expr> items);
[[nodiscard]] expr repeat(expr item, std::uint32_t min, std::uint32_t max);

}  // namespace plurnk::rail
