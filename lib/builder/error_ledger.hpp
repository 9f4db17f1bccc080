// SPDX-License-Identifier: MIT
// The error ledger (private header): the hard errors of the lexer and the statement parser,
// held from when they are collected until a statement unit claims them or the result takes them
// as unclaimed, in the order the reference records them. It makes their diagnostics (with the
// message memos that render a repeated message once); the result builder stores them.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "base/memo_slots.hpp"
#include "base/pod_vector.hpp"
#include "base/position.hpp"
#include "builder/new_diagnostic.hpp"
#include "grammar/messages.hpp"
#include "lex/lexer.hpp"
#include "syntax/spans.hpp"

namespace plurnk::detail {

// A hard error waiting for a statement to claim it. Its diagnostic (the message text above all)
// is made only when it is reported: most errors of an error-dense input are claimed by a
// statement that shows another one, or fall into the unparsed tail.
//
// A lexer error is kept in 8 bytes (parse() lets the lexer forget its errors once they are taken,
// and an error-dense statement that stays open holds one per bad character): its text is
// [begin, begin + len), or ends where long_ends_ says when the flag k_long is set; the token at
// which it is recorded is in the ledger's runs (consecutive errors share it).
struct pending_lex {
    static constexpr std::uint8_t k_consumed = 1, k_turn_depth = 2, k_long = 4;
    std::uint32_t begin;
    std::uint16_t len;
    lex_context context;
    std::uint8_t flags;
    friend bool operator==(const pending_lex&, const pending_lex&) = default;
};
static_assert(sizeof(pending_lex) == 8);
// The lexer errors from `first` on (up to the next run) are recorded when token `token_index`
// (counted from tok_base_) is fetched.
struct lex_run {
    std::uint32_t first;
    std::uint32_t token_index;
    friend bool operator==(const lex_run&, const lex_run&) = default;
};
// The end of a lexer error flagged k_long (by its index in the ledger's list).
struct long_end {
    std::uint32_t index;
    std::uint32_t end;
    friend bool operator==(const long_end&, const long_end&) = default;
};
// A parser error, by its index in syntax_tree::errors.
struct pending_syn {
    std::uint64_t recorded;  // when the reference records it: 2 * fetched token + 1 (a lexer error: 2 * fetched)
    std::uint32_t offset;
    std::uint32_t index;
    bool consumed = false;
    friend bool operator==(const pending_syn&, const pending_syn&) = default;
};

// What the ledger reads of the result builder's current input for one call: the input itself,
// the bytes released before it (spans are absolute), its positions, the parser's errors (the
// tree the builder was last given) and how a message is interned. The builder owns all of them,
// so the ledger keeps none (a copy of the builder must not refer to the original's).
struct ledger_input {
    std::string_view in;
    std::size_t byte_base;
    position_map& pos;
    const syntax_tree* tree;
    message_interner intern;
};

// The first error recorded inside a statement unit (see error_ledger::claim).
struct claimed_error {
    std::size_t lex = SIZE_MAX;         // a lexer error, by its index in the ledger
    const pending_syn* syn = nullptr;  // or a parser error
    explicit operator bool() const noexcept { return lex != SIZE_MAX || syn != nullptr; }
};

// Hard errors carry the order the reference records them in: a lexer error when the parser
// first fetches the token after it, a parser error when reported (after every token the
// parser had looked at by then). That order decides which error a statement shows and the
// order of the errors no statement claims. Lexer errors are kept in offset order, which is their
// recording order; parser errors in offset order, which nearly always is too.
class error_ledger {
public:
    // Takes the errors the lexer and the parser added since the last call, dropping a lexer
    // error that only continues the one before it (the cascade collapse).
    void collect(const lex_output& lexed, const ledger_input& v);

    // Whether every error of `lexed` and `tree` has been collected (neither may be null).
    [[nodiscard]] bool took_all(const lex_output& lexed, const syntax_tree& tree) const noexcept {
        return lex_seen_ == lexed.errors.size() && syn_seen_ == tree.errors.size();
    }

    // The errors at offsets within [lo, hi] (a unit's first and last token) are used up; the
    // first recorded of them is returned, for the unit to show (a lexer and a parser error are
    // never recorded at the same moment: even and odd counts). Inline: every unit asks, and a
    // clean input has nothing to claim.
    claimed_error claim(std::uint32_t lo, std::uint32_t hi) {
        claimed_error c{claim_lex(lo, hi), claim_syn(lo, hi)};
        if (c.syn != nullptr && c.lex != SIZE_MAX && lex_recorded(c.lex) < c.syn->recorded) c.syn = nullptr;
        return c;
    }
    // Whether claim() would find nothing whatever the unit: every collected error is behind the
    // claim cursors (a clean input's every unit, which then skips the claim).
    [[nodiscard]] bool nothing_to_claim() const noexcept {
        return lex_cursor_ == lex_errs_.size() && syn_cursor_ == syn_errs_.size();
    }
    // A claimed error's diagnostic (source::parser for a parser error, source::lexer for a lexer
    // error); its span is what the error names, which the caller may widen to the unit's.
    new_diagnostic diagnostic(const claimed_error& c, const ledger_input& v) {
        return c.syn != nullptr ? syn_diagnostic(*c.syn, v) : lex_diagnostic(c.lex, v);
    }

    // Calls f(diagnostic) for each error no statement claimed, in recording order, leaving out
    // those at offsets from `cut` on (the unparsed tail's).
    template <class F>
    void for_each_unclaimed(std::uint32_t cut, const ledger_input& v, F f);

    // The input the current offsets count in is about to be dropped (the push parser's release):
    // the last lexer error's offset loses its text, and its position stands in for it.
    void input_released(position_map& pos) {
        if (has_prev_ && prev_offset_ != k_no_offset) prev_pos_ = pos.at(prev_offset_);
        prev_offset_ = k_no_offset;
    }
    // The first `tokens` tokens and every error so far are forgotten (the caller has taken the
    // unclaimed ones): the lexer's and the parser's errors count from zero again, and token
    // indices from the cut.
    void tokens_released(std::size_t tokens) noexcept {
        lex_errs_.clear();
        lex_runs_.clear();
        long_ends_.clear();
        syn_errs_.clear();
        lex_cursor_ = syn_cursor_ = 0;
        lex_seen_ = syn_seen_ = 0;
        tok_base_ += tokens;
    }
    // parse()'s windows: the lexer's errors so far are collected and the lexer forgets them; the
    // ledger counts from its next error on.
    void forget_lexer_errors() noexcept { lex_seen_ = 0; }
    // Back to as constructed, the vectors' room kept.
    void reset() noexcept {
        lex_seen_ = syn_seen_ = 0;
        has_prev_ = false;
        prev_offset_ = k_no_offset;
        prev_pos_ = position{};
        prev_context_ = lex_context::between_statements;
        lex_errs_.clear();
        lex_runs_.clear();
        long_ends_.clear();
        turn_limit_ = 0;
        syn_errs_.clear();
        lex_cursor_ = syn_cursor_ = 0;
        tok_base_ = 0;
        syntax_messages_.reset();
        lex_messages_.reset();
    }
    // Every field the same (the tests' check of reset()).
    friend bool operator==(const error_ledger&, const error_ledger&) = default;
    // The bytes its vectors hold (the bound on parse()'s thread scratch).
    [[nodiscard]] std::size_t held_bytes() const noexcept {
        return lex_errs_.capacity() * sizeof(pending_lex) + lex_runs_.capacity() * sizeof(lex_run) +
               long_ends_.capacity() * sizeof(long_end) + syn_errs_.capacity() * sizeof(pending_syn);
    }

private:
    static constexpr std::uint32_t k_no_offset = UINT32_MAX;

    void collect_lex_error(const lex_error& e);
    new_diagnostic lex_diagnostic(std::size_t k, const ledger_input& v);
    new_diagnostic syn_diagnostic(const pending_syn& e, const ledger_input& v);
    // When lexer error k is recorded (see pending_syn::recorded).
    [[nodiscard]] std::uint64_t lex_recorded(std::size_t k) const noexcept {
        const lex_run* r = std::upper_bound(lex_runs_.begin(), lex_runs_.end(), k,
                                            [](std::size_t i, const lex_run& run) { return i < run.first; });
        return (tok_base_ + std::prev(r)->token_index) * 2;
    }
    // The lexer errors within [lo, hi] are used up; the first of them (the first recorded: the list is
    // in recording order) is returned, SIZE_MAX when there is none.
    std::size_t claim_lex(std::uint32_t lo, std::uint32_t hi) {
        while (lex_cursor_ < lex_errs_.size() && lex_errs_[lex_cursor_].begin < lo) ++lex_cursor_;
        std::size_t first = SIZE_MAX;
        for (std::size_t k = lex_cursor_; k < lex_errs_.size() && lex_errs_[k].begin <= hi; ++k) {
            pending_lex& e = lex_errs_[k];
            if ((e.flags & pending_lex::k_consumed) != 0) continue;
            if (first == SIZE_MAX) first = k;
            e.flags |= pending_lex::k_consumed;
        }
        return first;
    }
    // The same for the parser errors (in offset order): the first recorded of them.
    pending_syn* claim_syn(std::uint32_t lo, std::uint32_t hi) {
        while (syn_cursor_ < syn_errs_.size() && syn_errs_[syn_cursor_].offset < lo) ++syn_cursor_;
        pending_syn* first = nullptr;
        for (std::size_t k = syn_cursor_; k < syn_errs_.size() && syn_errs_[k].offset <= hi; ++k) {
            pending_syn& e = syn_errs_[k];
            if (e.consumed) continue;
            if (first == nullptr || e.recorded < first->recorded) first = &e;
            e.consumed = true;
        }
        return first;
    }

    std::size_t lex_seen_ = 0, syn_seen_ = 0;
    bool has_prev_ = false;                 // the last lexer error (for the cascade collapse):
    std::uint32_t prev_offset_ = k_no_offset;  // its offset in the current input, or
    position prev_pos_{};                   // its position, when its text was released
    lex_context prev_context_ = lex_context::between_statements;
    pod_vector<pending_lex> lex_errs_;  // offset order = recording order
    pod_vector<lex_run> lex_runs_;
    pod_vector<long_end> long_ends_;
    std::uint32_t turn_limit_ = 0;      // the limit a turn-depth lexer error names (always the same)
    pod_vector<pending_syn> syn_errs_;  // offset order
    std::size_t lex_cursor_ = 0, syn_cursor_ = 0;
    std::uint64_t tok_base_ = 0;  // tokens released before the current ones (tokens_released())

    // Parser errors' interned messages and classes by syntax_error::key(): an error-dense input
    // repeats a few, and each is rendered once instead of once per error.
    struct syntax_message {
        syntax_error::message_key key{};
        const char* s = nullptr;
        message_id id = message_id::external;
        friend bool operator==(const syntax_message&, const syntax_message&) = default;
    };
    memo_slots<syntax_message, 16> syntax_messages_;
    // The same for lexer errors, by context and offending text (when it is short): a run of
    // errors repeats a few characters in a few contexts.
    struct lex_message {
        lex_context context{};
        std::uint8_t len = 0;
        std::array<char, 14> text{};
        const char* s = nullptr;
        message_id id = message_id::external;
        friend bool operator==(const lex_message&, const lex_message&) = default;
    };
    memo_slots<lex_message, 16> lex_messages_;
};

// Lexer errors are in recording order already; parser errors (kept in offset order) nearly always
// are too, and are sorted (by index) only when not. Errors recorded at the same moment keep their
// list order; a lexer and a parser error are never recorded at the same moment (even and odd
// counts).
template <class F>
void error_ledger::for_each_unclaimed(std::uint32_t cut, const ledger_input& v, F f) {
    std::vector<std::uint32_t> syn;
    for (std::uint32_t k = 0; k < syn_errs_.size(); ++k) {
        if (!syn_errs_[k].consumed && syn_errs_[k].offset < cut) syn.push_back(k);
    }
    const auto by_recording = [this](std::uint32_t a, std::uint32_t b) {
        return syn_errs_[a].recorded != syn_errs_[b].recorded ? syn_errs_[a].recorded < syn_errs_[b].recorded : a < b;
    };
    if (!std::is_sorted(syn.begin(), syn.end(), by_recording)) std::sort(syn.begin(), syn.end(), by_recording);
    std::size_t s = 0, run = 0;
    for (std::size_t k = 0; k < lex_errs_.size(); ++k) {
        const pending_lex& e = lex_errs_[k];
        if ((e.flags & pending_lex::k_consumed) != 0 || e.begin >= cut) continue;
        while (run + 1 < lex_runs_.size() && lex_runs_[run + 1].first <= k) ++run;
        const std::uint64_t recorded = (tok_base_ + lex_runs_[run].token_index) * 2;
        for (; s < syn.size() && syn_errs_[syn[s]].recorded < recorded; ++s) f(syn_diagnostic(syn_errs_[syn[s]], v));
        f(lex_diagnostic(k, v));
    }
    for (; s < syn.size(); ++s) f(syn_diagnostic(syn_errs_[syn[s]], v));
}

}  // namespace plurnk::detail
