// SPDX-License-Identifier: MIT
// The core's message table and its rendering (see messages.hpp). A template names its parts as
// `{placeholders}`; append_message() fills them from named arguments, so a caller says what each
// part is and the wording lives only here. The table is indexed by message_id and checked at
// compile time against the enum, so the two never drift.
#include "grammar/messages.hpp"

#include <algorithm>
#include <array>
#include <unordered_map>

#include "grammar/token.hpp"

namespace plurnk {

namespace {

struct message_entry {
    message_id id;
    std::string_view name;
    std::string_view text;
};

constexpr message_entry k_messages[] = {
    {message_id::external, "external", "{message}"},
    {message_id::unrecognized_character, "unrecognized_character", "unrecognized character '{text}' {context}"},
    {message_id::unrecognized_end_of_input, "unrecognized_end_of_input",
     "unrecognized character end of input {context}"},
    {message_id::turn_depth, "turn_depth",
     "`<<TURN` nested deeper than {limit} levels (the max_turn_depth limit); its close tag will not be recognized"},
    {message_id::unexpected_token, "unexpected_token", "unexpected {found}; expected {expected}"},
    {message_id::mismatched_token, "mismatched_token", "unexpected {found}; expected {expected}"},
    {message_id::nothing_expected, "nothing_expected", "unexpected {found}"},
    {message_id::missing_token, "missing_token", "expected {expected}; got {found}"},
    {message_id::missing_more_input, "missing_more_input", "expected more input; got {found}"},
    {message_id::missing_body, "missing_body", "expected body content; got {found}"},
    {message_id::invalid_target, "invalid_target", "{reason}"},
    {message_id::invalid_xpath_matcher, "invalid_xpath_matcher", "{reason}"},
    {message_id::invalid_regex_matcher, "invalid_regex_matcher", "{reason}"},
    {message_id::invalid_jsonpath_matcher, "invalid_jsonpath_matcher", "{reason}"},
    {message_id::invalid_selection, "invalid_selection", "{reason}"},
    {message_id::near_miss_op, "near_miss_op",
     "`<<{word}` is not a Plurnk operation, so it was read as text; did you mean {suggestion}?"},
    {message_id::plan_body_op_text, "plan_body_op_text",
     "PLAN body contains op-shaped text (`<<{op}`) - ops belong after the plan closes; did you omit `:PLAN`?"},
    {message_id::misplaced_target, "misplaced_target",
     "`<<{name}` has no `(target)` - that path sits in the `[…]` tag slot; a target goes in `(…)`. Try "
     "`{name}({tag}):…`"},
    {message_id::turn_missing_plan, "turn_missing_plan",
     "a turn must begin with `<<PLAN:…:PLAN` (the required first operation)"},
    {message_id::turn_missing_terminal_send, "turn_missing_terminal_send",
     "a turn must end with a terminal `<<SEND[code]:…:SEND` carrying the loop status"},
    {message_id::turn_ended_by_send, "turn_ended_by_send", "a disposition SEND ends the turn - nothing may follow it"},
    {message_id::input_limit, "input_limit",
     "input is {total} bytes; only the first {parsed} were parsed (the max_input_bytes limit)"},
    {message_id::tail_body_unclosed, "tail_body_unclosed",
     "body of `<<{tag}` opened at line {line} but never closed - add `:{tag}` to terminate"},
    {message_id::tail_invented_closer, "tail_invented_closer",
     "; found `:{name}`, which is body text - the closer echoes the op's name"},
    {message_id::tail_signal_unclosed, "tail_signal_unclosed",
     "signal slot of `<<{tag}` opened at line {line} but never closed - add `]` to terminate the signal"},
    {message_id::tail_target_unclosed, "tail_target_unclosed",
     "target slot of `<<{tag}` opened at line {line} but never closed - add `)` to terminate the target"},
    {message_id::tail_statement_unclosed, "tail_statement_unclosed",
     "statement `<<{tag}` opened at line {line} but never reached its close tag - add `:{tag}` to terminate"},
};

constexpr bool table_matches_enum() {
    if (std::size(k_messages) != k_message_count) return false;
    for (std::size_t i = 0; i < std::size(k_messages); ++i) {
        if (static_cast<std::size_t>(k_messages[i].id) != i) return false;
        if (k_messages[i].name.empty() || k_messages[i].text.empty()) return false;
        for (std::size_t j = 0; j < i; ++j) {
            if (k_messages[j].name == k_messages[i].name) return false;
        }
    }
    return true;
}
static_assert(table_matches_enum(), "k_messages must list every message_id once, in enum order, each with a unique name");

}  // namespace

std::string_view message_name(message_id id) noexcept {
    const auto i = static_cast<std::size_t>(id);
    return i < std::size(k_messages) ? k_messages[i].name : std::string_view{};
}

std::string_view message_template(message_id id) noexcept {
    const auto i = static_cast<std::size_t>(id);
    return i < std::size(k_messages) ? k_messages[i].text : std::string_view{};
}

namespace detail {

namespace {

constexpr std::string_view k_lex_contexts[] = {
    "between statements",
    "in slot region - expected `[signal]`, `(target)`, `<L>`, or `:body:` (any order)",
    "in tag signal - expected tag, `,`, or `]`",
    "in signal - expected integer for SEND/KILL, then `]`",
    "in signal - expected executor for EXEC, then `]`",
    "in target slot - expected URI characters or `)`",
    "in signal - timeout/poll ride the `<scope>` slot; try `EXEC<-1,300>`",
    "in slot region - a matcher rides the `:body:` slot; put it between the body fences",
    "turn depth",
};
static_assert(std::size(k_lex_contexts) == k_lex_context_count, "one text per lex_context");

}  // namespace

namespace {

// Calls piece() on each part of message `id` in order: template text and argument values.
template <class Piece>
void each_piece(message_id id, std::initializer_list<message_arg> args, Piece&& piece) {
    const std::string_view t = message_template(id);
    std::size_t i = 0;
    while (i < t.size()) {
        const std::size_t open = t.find('{', i);
        if (open == std::string_view::npos) break;
        const std::size_t close = t.find('}', open + 1);
        if (close == std::string_view::npos) break;
        piece(t.substr(i, open - i));
        const std::string_view name = t.substr(open + 1, close - open - 1);
        const auto* a = std::find_if(args.begin(), args.end(), [&](const message_arg& x) { return x.name == name; });
        piece(a != args.end() ? a->value : t.substr(open, close - open + 1));
        i = close + 1;
    }
    piece(t.substr(i));
}

}  // namespace

std::size_t message_size(message_id id, std::initializer_list<message_arg> args) {
    std::size_t size = 0;
    each_piece(id, args, [&](std::string_view p) { size += p.size(); });
    return size;
}

void append_message(std::string& out, message_id id, std::initializer_list<message_arg> args) {
    // Sized first, so that a long argument (a megabyte-long tag, twice) is copied once.
    const std::size_t size = out.size() + message_size(id, args);
    if (size > out.capacity()) out.reserve(std::max(size, 2 * out.capacity()));
    each_piece(id, args, [&](std::string_view p) { out.append(p); });
}

std::string format_message(message_id id, std::initializer_list<message_arg> args) {
    std::string m;
    append_message(m, id, args);
    return m;
}

std::string_view lex_context_text(lex_context c) noexcept {
    const auto i = static_cast<std::size_t>(c);
    return i < std::size(k_lex_contexts) ? k_lex_contexts[i] : std::string_view{};
}

const char* token_type_name(int t) noexcept {
    if (is_opener(t)) return t == sym(plurnk::op::TURN) ? "open tag `<<TURNsuffix`" : "open tag `<<OPsuffix`";
    switch (t) {
        case sym(tok::text): return "text between statements";
        case sym(tok::close_turn): return "close tag `:TURNsuffix`";
        case sym(tok::lbrack): return "`[` (signal slot opener)";
        case sym(tok::lparen): return "`(` (target slot opener)";
        case sym(tok::scope): return "`<L>` line marker";
        case sym(tok::colon): return "`:` (body fence)";
        case sym(tok::close_tag): return "close tag `:OPsuffix`";
        case sym(tok::tag): return "tag";
        case sym(tok::comma): return "`,`";
        case sym(tok::rbrack): return "`]` (signal slot closer)";
        case sym(tok::disposition): return "disposition";
        case sym(tok::integer): return "integer (SEND/KILL signal)";
        case sym(tok::ident): return "executor (EXEC signal)";
        case sym(tok::target_text): return "target content";
        case sym(tok::rparen): return "`)` (target slot closer)";
        case sym(tok::body_text): return "body content";
        case sym(tok::eof): return "end of input";
        default: return "input";
    }
}

namespace {

// ANTLR's IntervalSet text in vocabulary order, equal names once.
std::string make_expected_list(tset set, bool oxford) {
    static constexpr symbol k_order[] = {
        sym(tok::text), 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,  // the openers, in op order
        sym(tok::close_turn), sym(tok::lbrack), sym(tok::lparen), sym(tok::scope), sym(tok::colon),
        sym(tok::tag), sym(tok::comma), sym(tok::rbrack), sym(tok::disposition), sym(tok::integer),
        sym(tok::ident), sym(tok::target_text), sym(tok::rparen), sym(tok::body_text), sym(tok::close_tag)};
    // token_type_name() returns one literal per distinct name, so equal names are equal pointers.
    std::array<const char*, std::size(k_order)> names;
    std::size_t count = 0;
    for (symbol t : k_order) {
        if (!(set & bit(t))) continue;
        const char* n = token_type_name(t);
        if (std::find(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(count), n) ==
            names.begin() + static_cast<std::ptrdiff_t>(count)) {
            names[count++] = n;
        }
    }
    std::string out;
    for (std::size_t i = 0; i < count; ++i) {
        if (i > 0) {
            if (oxford && count > 2) {
                out += (i + 1 == count) ? ", or " : ", ";
            } else {
                out += " or ";
            }
        }
        out += names[i];
    }
    return out;
}

}  // namespace

const std::string& expected_list(std::uint64_t set, bool oxford) {
    thread_local std::unordered_map<tset, std::string> cache;
    const tset key = (set & ~bit(k_eps)) | (oxford ? bit(k_eps) : 0);  // EPS never shows in a list
    auto it = cache.find(key);
    if (it == cache.end()) {
        if (cache.size() >= 4096) cache.clear();  // bounded, whatever the sets
        it = cache.emplace(key, make_expected_list(set, oxford)).first;
    }
    return it->second;
}

}  // namespace detail

}  // namespace plurnk
