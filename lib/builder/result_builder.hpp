// SPDX-License-Identifier: MIT
// The result builder (private header): turns the lexer's and the statement parser's output into
// the result as it settles (BEHAVIOUR §3-§4). Each statement unit becomes its statement or its
// first error ("one hard error per statement"), with the typed AST built and validated; text
// tokens become text items; finish() appends the errors no statement claimed, cuts everything from
// the unparsed tail on, and runs the turn-shape passes of the `parse` tier. parse() and the push
// parser share it. Items go straight into compact records (result_store.hpp): a text item is
// its span and position, a statement refers to the input by offset and keeps only decoded text
// in the arena, equal messages are stored once. Its jobs are classes of their own, each with its
// state and its one file:
//   result_builder.cpp     the records: items emitted in order, stream release, finish()
//   error_ledger.cpp       the hard errors from collection to claim, in recording order, and
//                          their diagnostics (class error_ledger)
//   statement_builder.cpp  a clean unit's parts, checked, then written (class statement_builder)
//   passes.cpp             the advisories, the unparsed tail and the turn shape, in the
//                          reference's order (class result_passes)
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "base/function_ref.hpp"
#include "base/pod_vector.hpp"
#include "base/position.hpp"
#include "builder/error_ledger.hpp"
#include "builder/new_diagnostic.hpp"
#include "builder/passes.hpp"
#include "builder/statement_builder.hpp"
#include "grammar/messages.hpp"
#include "lex/lexer.hpp"
#include "plurnk/parse.hpp"
#include "store/record_log.hpp"
#include "store/record_writer.hpp"
#include "store/result_store.hpp"
#include "syntax/spans.hpp"

namespace plurnk::detail {

// Builds the result from the lexer's and the statement parser's output as they settle: units
// become statements or their first error, text tokens become text items (each followed by its
// advisories in the parse tier), in token order. finish() appends the unclaimed errors, cuts the
// unparsed tail and runs the turn-shape passes. The push parser calls advance() after every
// chunk; parse() calls it once with everything.
class result_builder {
public:
    // Where items go as they settle, or nowhere (`{}`): a reference to the caller's callable, no
    // copy and no allocation. Made from a named callable only, which outlives the call it is
    // passed to.
    class sink {
    public:
        sink() = default;
        template <class F, class = std::enable_if_t<!std::is_same_v<std::remove_const_t<F>, sink>>>
        sink(F& f) noexcept : ref_(f) {}  // NOLINT(google-explicit-constructor): passed as a callback
        explicit operator bool() const noexcept { return ref_.has_value(); }
        void operator()(const item& it, std::size_t index) const { (*ref_)(it, index); }

    private:
        std::optional<function_ref<void(const item&, std::size_t)>> ref_;
    };

    explicit result_builder(tier t, parse_dialect d = parse_dialect::contracts) : passes_(t), statement_(d) {}

    // Back to the state the constructor gives it (for the same tier and dialect), keeping the room
    // its vectors and tables have, so that the next input does not allocate them again: parse()'s
    // thread scratch (see result_builder.cpp).
    void reset() noexcept;
    // Every field the same (the lexer's and the parser's output it was last given by address):
    // reset()'s check, for the tests. A copy is not equal to its original (its arena has no room
    // of its own yet).
    friend bool operator==(const result_builder&, const result_builder&) = default;

    // The input text the result will view: parse() sets it before finish(); the push parser
    // appends what it releases, and the rest before finish().
    [[nodiscard]] input_text& input() noexcept { return input_; }

// Emits what the first `settled` tokens decide. `in` is the whole input so far. Inline: a
// stream with a callback calls it once per statement, and the call was a tenth of what the
// builder adds to a statement there.
    void advance(std::string_view in, const lex_output& lexed, const syntax_tree& tree, std::size_t settled,
                 const sink& out) {
        bind(in, lexed, tree);
        // (A stream calls this once per statement, nearly always with no new error.)
        if (!ledger_.took_all(lexed, tree)) ledger_.collect(lexed, ledger_view());
        const auto& toks = lexed.tokens;
        const std::size_t end = std::min(settled, toks.size());
        if (const unit* un = clean_first(tree, end)) clean_run(un, tree, end, out);
        if (next_token_ >= end || toks[next_token_].begin >= cut_) return;
        emit_tokens(tree, end, out);
    }

// Everything is lexed and parsed: the final result. Items not reported yet go to `out`.
    parse_result finish(std::string_view in, const lex_output& lexed, const syntax_tree& tree, const sink& out);

// What finish() would add to the items now, without finishing (the push parser's peek_end(), on
// a copy): everything lexed and parsed as at the end, the items built up to the unparsed tail's
// opener and reported to `out` as advance() reports them. Statements and text items are those
// finish() would report; diagnostics are not all there (the turn-shape passes and the unclaimed
// errors belong to finish(), which looks at the whole turn). Costs what is pending, not the turn.
    void settle_end(std::string_view in, const lex_output& lexed, const syntax_tree& tree, const sink& out) {
        if (lexed.tail.open != open_slot::none) cut_ = lexed.tail.last_open_begin;
        advance(in, lexed, tree, lexed.tokens.size(), out);
    }

// Before the builder is copied (a stream checkpoint): its records so far move to the frozen
// logs, which the copy then shares instead of duplicating them. Items are complete between
// advance() calls (only finish() revisits them), and so are the carried errors.
// Not observable: indices, events and the final result are unchanged.
    void share();

    // parse(): no item is ever reported before finish() (no sink), so none is marked as reported.
    void never_fires() noexcept { log_.never_fires(); }

    // Items and statements built so far (the live ones: those since the last share()).
    [[nodiscard]] std::size_t live_items() const noexcept { return log_.items().size(); }
    [[nodiscard]] std::size_t live_statements() const noexcept { return log_.stmts().size(); }
    // Room for the records of `rest` more bytes of input (record_log::expect_rest).
    void expect_rest(std::size_t done, std::size_t rest, std::size_t items_before, std::size_t statements_before) {
        log_.expect_rest(done, rest, items_before, statements_before);
    }

    // Before the push parser is copied: positions are made countable from near any offset of its
    // input so far (`in`), so that the copy does not count them from far back.
    void mark_positions(std::string_view in) {
        pos_.rebind(in);
        pos_.mark_through(in.size());
    }

    // The position of an offset of the input last passed in (after finish() too).
    position position_of(std::size_t offset) { return at(offset); }

    // Whether every one of `tokens` tokens and every error has been taken (see release()).
    [[nodiscard]] bool can_release(std::size_t tokens) const noexcept {
        return next_token_ == tokens && lexed_ != nullptr && tree_ != nullptr && ledger_.took_all(*lexed_, *tree_);
    }
// The push parser drops `dropped`, the first bytes of its input, and the first `tokens` tokens,
// whose lexer and parser errors are forgotten too: the errors no statement claimed become
// diagnostics now (they are reported at finish(), before any later one: they were recorded
// first), the bytes are kept for the items that view them, and later offsets and token indices
// count from the cut.
    void release(std::string_view dropped, std::size_t tokens);
// parse()'s windows: the lexer's errors so far are taken (advance() took them all) and the
// lexer forgets them; the builder counts from its next error on.
    void forget_lexer_errors() noexcept { ledger_.forget_lexer_errors(); }
// The bytes its error ledger holds (the bound on parse()'s thread scratch).
    [[nodiscard]] std::size_t ledger_bytes() const noexcept { return ledger_.held_bytes(); }
// parse()'s windows: the same for the first `tokens` tokens only (the input stays, and every
// offset with it).
    void release_tokens(std::size_t tokens);

private:
    static constexpr std::size_t stream_event_npos = static_cast<std::size_t>(-1);


    // The input and the stages' output advance() reads (inline there: a few stores).
    void bind(std::string_view in, const lex_output& lexed, const syntax_tree& tree) {
        in_ = in;
        lexed_ = &lexed;
        tree_ = &tree;
        pos_.rebind(in);
    }
    // advance()'s steps: a run of clean units with nothing to claim, then one token of any other
    // kind (each up to `end`, the settled tokens). clean_first(): the unit next_token_ is the first
    // token of, when the run takes it (inline: a stream asks after every chunk, the run's frame
    // is not set up for nothing).
    [[nodiscard]] const unit* clean_first(const syntax_tree& tree, std::size_t end) const noexcept {
        if (cut_ != UINT32_MAX || next_token_ >= end) return nullptr;
        const std::int32_t u = tree.token_unit[next_token_];
        if (u < 0) return nullptr;
        const unit& un = tree.units[static_cast<std::size_t>(u)];
        return un.clean && un.first == next_token_ && ledger_.nothing_to_claim() ? &un : nullptr;
    }
    void clean_run(const unit* un, const syntax_tree& tree, std::size_t end, const sink& out);
    void emit_token(const syntax_tree& tree, std::size_t end, const sink& out);
    // advance()'s loop past its first run: the token at next_token_ (not a clean run's first),
    // then runs and tokens up to `end` or the tail cut. Out of line, with emit_token() inline in
    // it: a text- or error-dense input emits most of its tokens here.
    void emit_tokens(const syntax_tree& tree, std::size_t end, const sink& out);
    void emit_unit(const unit& un, const sink& out);
    void append_unclaimed();
    // finish()'s passes over every item (see result_passes::finish).
    void run_passes(const lex_output& lexed);
    // What the error ledger reads of the current input (see ledger_input).
    [[nodiscard]] ledger_input ledger_view() noexcept {
        return ledger_input{in_, byte_base_, pos_, tree_, interner()};
    }
    [[nodiscard]] message_interner interner() noexcept {
        return {this, [](void* b, std::string_view m) { return static_cast<result_builder*>(b)->intern(m); }};
    }
    // Equal messages share one copy in the arena.
    const char* intern(std::string_view message) { return log_.intern(message); }
    // A diagnostic's message, interned, and its records with it: the item record is returned (a
    // diag_rec goes to the log when the item record cannot hold it).
    const char* interned_message(const new_diagnostic& d);
    item_rec diag_records(const new_diagnostic& d, const char* message);
    // Appends an item's records; reports it now when it is final, else at finish().
    void add_text(const token& t, const sink& out);
    void add_diagnostic(const new_diagnostic& d, bool final_now, const sink& out);
    [[gnu::always_inline]] void add_statement(position p, byte_span span, const sink& out, string_sink& text_sink);
    // Bookkeeping for the item just placed at the back of the live records; a final one is
    // reported (when there is a sink) as `built`, the item its records were made from, equal to
    // their decoding (required then).
    // (Inline: it runs for every item, and reports one only when there is a sink.)
    void settle_last(bool final_now, const sink& out, const item* built = nullptr) {
        if (!final_now) index_known_ = false;
        const bool fire = final_now && out;
        log_.note_fired(fire);
        if (fire) report_last(out, *built);
    }
    void report_last(const sink& out, const item& built);
    [[nodiscard]] text_resolver live_resolver() const noexcept {
        return text_resolver{&input_, byte_base_, in_};
    }
    // Strings inside the current input are referred to by offset; the rest are copied.
    [[nodiscard]] string_sink live_sink() noexcept {
        string_sink s(log_.strings());
        s.set_live(in_, byte_base_);
        s.set_input(&input_);
        return s;
    }

    position at(std::size_t offset) { return pos_.at(offset); }
    std::string_view text(const token& t) const { return in_.substr(t.begin, t.end - t.begin); }
    // Byte spans (doc/library.md, "Byte spans"): offsets of the input last passed in, made
    // absolute (past what the push parser released), and the span of a unit's tokens.
    byte_span span_of(std::size_t begin, std::size_t end) const noexcept { return {byte_base_ + begin, byte_base_ + end}; }
    byte_span unit_span(const unit& un) const noexcept {
        return span_of(lexed_->tokens[un.first].begin, lexed_->tokens[un.last].end);
    }

    // A clean unit -> its parts -> checked -> records, or its visitor failure (statement_builder);
    // `text_sink` is live_sink(), made once per run. Inlined into clean_run(), whose loop then
    // keeps its frame and registers from statement to statement; the other callers (a unit that
    // claimed no error, one after an error) call it apart.
    [[gnu::always_inline]] void build_statement(const unit& un, const sink& out, string_sink& text_sink);
    [[gnu::noinline]] void build_statement_apart(const unit& un, const sink& out);

    // The advisories, the unparsed tail and the turn shape, with the tier they are of.
    result_passes passes_;
    std::string_view in_;
    const lex_output* lexed_ = nullptr;
    const syntax_tree* tree_ = nullptr;
    position_map pos_{std::string_view{}, true};
    std::size_t next_token_ = 0;
    // The hard errors, from their collection until a unit claims them or they are unclaimed.
    error_ledger ledger_;
    std::uint32_t cut_ = UINT32_MAX;  // the unparsed tail's opener, once finish() knows it
    std::size_t byte_base_ = 0;         // input bytes released before the current ones (release())

    // The records, their text and the interned messages (record_log).
    record_log log_;
    bool index_known_ = true;

    input_text input_;

    // The statement being built: its parts, checked, written; its scratch is its own.
    statement_builder statement_;
    // The statement an event reports (made only when there is a sink), reused from event to
    // event, inside an item so that it is reported as it is.
    item event_{std::in_place_type<statement>};
    bool event_made_ = false;  // event_ holds a statement view() wrote (reset() makes it again)
};

}  // namespace plurnk::detail
