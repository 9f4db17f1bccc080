// SPDX-License-Identifier: MIT
// The passes over the result's items (private header), in the reference's order: the parse
// tier's advisories as items are made, then at finish() the unparsed tail (with the
// invented-closer advisory) and the turn shape of the parse tier (BEHAVIOUR §4.3). They read the
// lexer's tail facts, the checked statement and the records (record_log), never a lexer mode or
// the builder's scratch.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "base/function_ref.hpp"
#include "base/position.hpp"
#include "builder/new_diagnostic.hpp"
#include "builder/statement_builder.hpp"
#include "grammar/op_table.hpp"
#include "lex/lexer.hpp"
#include "plurnk/parse.hpp"
#include "store/record_log.hpp"

namespace plurnk::detail {

// Where a pass hands the diagnostics it makes (the builder adds each as an item).
using diagnostic_sink = function_ref<void(const new_diagnostic&)>;

// What the lexer left open at the end of the input, and where (offsets of the current input).
struct pass_input {
    const tail_facts& tail;
    std::string_view in;
    std::size_t byte_base;  // input bytes released before `in` (spans are absolute)
    position_map& pos;
};

class result_passes {
public:
    explicit result_passes(tier t) noexcept : tier_(t) {}

    // Whether the parse tier's passes run: the advisories as items are made, the turn shape.
    [[nodiscard]] bool advises() const noexcept { return tier_ == tier::parse; }
    // Whether a parser error added now may still be reworded or dropped at finish() (the turn
    // shape's), so that it is not final yet.
    [[nodiscard]] bool may_revise(const new_diagnostic& d) const noexcept {
        return advises() && d.source == source::parser;
    }

    // Near-miss op names in a text item just made (parse tier).
    static void text_advisories(const text_item& t, message_interner intern, diagnostic_sink add);
    // Op-shaped text in a PLAN body, a path in EDIT/COPY/MOVE's tag slot: about the statement
    // just checked and written (parse tier). Inline, the check that neither can apply (most
    // statements: not a PLAN, and no tags without a target).
    static void statement_advisories(const statement_builder& st, position at, byte_span span, diagnostic_sink add) {
        if (st.op() == op::PLAN || tags_may_be_paths(st)) advise_statement(st, at, span, add);
    }
    // Whether the misplaced-target advisory looks at the statement's tags: an op that draws it,
    // no target, and tags in its signal slot.
    static bool tags_may_be_paths(const statement_builder& st) noexcept {
        return traits(st.op()).path_tag_advisory && !st.has_target() && st.signal().kind == signal::kind_t::tags;
    }

    // At finish(), over every record (all live by then): the unparsed tail (items from its opener
    // on are dropped), then the turn shape of the parse tier when there is no tail.
    void finish(const pass_input& at_end, record_log& log);
    // Back to as constructed (for the same tier).
    void reset() noexcept { tail_.reset(); }
    friend bool operator==(const result_passes&, const result_passes&) = default;
    // The unparsed tail finish() found.
    [[nodiscard]] std::optional<unparsed_tail> take_tail() noexcept { return std::move(tail_); }

private:
    static void advise_statement(const statement_builder& st, position at, byte_span span, diagnostic_sink add);
    void apply_tail(const pass_input& at_end, record_log& log);
    static void turn_shape(record_log& log);

    tier tier_;
    std::optional<unparsed_tail> tail_;
};

}  // namespace plurnk::detail
