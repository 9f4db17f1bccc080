// SPDX-License-Identifier: MIT
// The statement parser's first layer (private header): the token stream as the parser reads it,
// and the syntax tree it records into. Every look at a token counts as fetching it from the
// lexer (the reference records a lexer error when the parser first fetches the token after it,
// which orders the diagnostics); consuming a token records it in the unit being parsed.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "base/work_counter.hpp"
#include "grammar/token.hpp"
#include "syntax/spans.hpp"

namespace plurnk::detail {

class token_cursor {
public:
    // Reads `toks` from here on; with `finished` they end with the eof token. The new tokens'
    // marks are written as units claim them, and the rest -1 by settle_marks().
    void attach(const token_vector& toks, bool finished) {
        toks_ = &toks;
        finished_ = finished;
        tree_.token_unit.resize_unwritten(toks.size(), 4);
        marked_ = std::min(marked_, toks.size());
    }

    [[nodiscard]] symbol la(std::size_t k = 1) const { return symbol_of(lt(k)); }
    [[nodiscard]] const token& lt(std::size_t k = 1) const { return tok_at(p_ + k - 1); }
    // Past the tokens lexed so far an unfinished stream has no answer yet: the cursor answers
    // with an eof token and notes that it is starved, so the parser's step, which then runs out
    // quickly (every loop and recovery stops at eof), is undone and retried when more tokens
    // arrive. A finished stream answers with its own eof token.
    [[nodiscard]] const token& tok_at(std::size_t i) const {
        if constexpr (k_work_counter) ++looks_;
        const auto& toks = *toks_;
        if (i >= toks.size()) {
            if (!finished_) {
                starved_ = true;
                return k_past_end;
            }
            i = toks.size() - 1;
        }
        fetched_ = std::max(fetched_, i);
        return toks[i];
    }
    // Whether a look went past the tokens lexed so far since the last take_starved().
    [[nodiscard]] bool take_starved() noexcept { return std::exchange(starved_, false); }

    // Moves past the current token, recording it in the open unit. At the eof token of a
    // finished stream, or past the tokens lexed so far (a starved step), it stays put.
    void consume() {
        if (p_ >= toks_->size()) return;
        if (p_ == marked_) {  // (the marks stay written up to the cursor, never behind it)
            tree_.token_unit[p_] = -1;
            ++marked_;
        }
        if (unit_ >= 0) {
            unit& u = tree_.units[static_cast<std::size_t>(unit_)];
            if (u.first > u.last) u.first = static_cast<std::uint32_t>(p_);
            u.last = static_cast<std::uint32_t>(p_);
            tree_.token_unit[p_] = unit_;
        }
        if (p_ + 1 < toks_->size() || (!finished_ && p_ < toks_->size())) ++p_;
    }

    [[nodiscard]] std::size_t index() const noexcept { return p_; }
    [[nodiscard]] std::size_t fetched() const noexcept { return fetched_; }
    [[nodiscard]] bool finished() const noexcept { return finished_; }
    [[nodiscard]] const token_vector& tokens() const noexcept { return *toks_; }
    [[nodiscard]] const syntax_tree& tree() const noexcept { return tree_; }
    syntax_tree take_tree() { return std::move(tree_); }

    // Every field, for the tests that compare a reset parser with a fresh one (tier_machine.hpp);
    // the tokens attached compare by address (a reset or fresh cursor has none).
    friend bool operator==(const token_cursor&, const token_cursor&) = default;

protected:
    // The cursor's part of a step snapshot.
    struct position {
        std::size_t p, fetched, units, errors;
    };
    [[nodiscard]] position save_position() const {
        return position{p_, fetched_, tree_.units.size(), tree_.errors.size()};
    }
    void restore_position(const position& s) {
        // The step's marks are from s.p to p_, and no token past the cursor has one: from s.p
        // on every mark is -1 again, written later.
        assert(std::all_of(tree_.token_unit.begin() + std::min(p_ + 1, marked_),
                           tree_.token_unit.begin() + marked_, [](std::int32_t m) { return m == -1; }));
        marked_ = s.p;
        p_ = s.p;
        fetched_ = s.fetched;
        tree_.units.resize(s.units);
        tree_.errors.resize(s.errors);
        unit_ = -1;
    }

    // Forgets the first `tokens` tokens (see stream_syntax::release()).
    void release_tokens(std::size_t tokens) {
        p_ = 0;
        fetched_ = fetched_ >= tokens ? fetched_ - tokens : 0;
        tree_.token_unit.clear();
        marked_ = 0;
        tree_.units.clear();
        tree_.errors.clear();
        toks_ = nullptr;
    }

    // Back to the state of a cursor as constructed, the tree's vectors keeping their room
    // (tier_machine::reset()).
    void reset_cursor() noexcept {
        tree_.units.clear();
        tree_.token_unit.clear();
        tree_.errors.clear();
        unit_ = -1;
        toks_ = nullptr;
        finished_ = false;
        p_ = 0;
        marked_ = 0;
        fetched_ = 0;
        looks_ = 0;
        starved_ = false;
    }

    // Token fetches since the last call, for the work counter (work_counter.hpp).
    std::uint64_t take_looks() { return std::exchange(looks_, 0); }

    // The fast path (clean_step.hpp): appends a clean unit whose tokens [u.first, u.last] are
    // all lexed, u.first being the current token, and leaves what fetching and consuming them one
    // by one into it would: each marked as the unit's, the cursor past the last one, which counts
    // as fetched. No unit may be open. `looked` tokens count as fetches for the work counter.
    void append_clean_unit(const unit& u, std::size_t looked) {
        if constexpr (k_work_counter) looks_ += looked;
        const auto index = static_cast<std::int32_t>(tree_.units.size());
        // Field by field, in place: the unit's fields go from registers to the vector, not
        // through a copy of the whole.
        tree_.units.push_back(unit{u.first, u.last, u.signal, u.signal_end, u.target, u.target_end, u.scope, u.body,
                                   u.body_end, u.clean, u.terminal_send});
        // The marks are written up to the cursor (u.first); past the unit they are -1, written
        // later (again, where an earlier advance wrote them).
        assert(u.first <= marked_);
        mark_tokens(tree_.token_unit.data() + u.first, u.last + 1 - u.first, index);
        marked_ = u.last + 1;
        fetched_ = std::max<std::size_t>(fetched_, u.last);
        // consume() moves past every token but a finished stream's eof, which a unit never holds.
        p_ = u.last + 1;
    }
    // The cursor moves from `p` past the tokens up to `end`, which no unit claims (a run of
    // TEXT, mostly one token), or (settle_marks()) those are the tokens past the cursor: their
    // marks -1, in one write of four where they are four or fewer (what it writes past `end`
    // is past the cursor, -1 anyway; attach() keeps room for four past the tokens).
    void unmark_run(std::size_t p, std::size_t end) noexcept {
        assert(p <= marked_);
        std::int32_t* m = tree_.token_unit.data() + p;
        if (end - p <= 4) {
            const std::int32_t four[4] = {-1, -1, -1, -1};
            std::memcpy(m, four, sizeof four);
        } else {
            mark_tokens(m, end - p, -1);
        }
        marked_ = end;
    }
    // A replay wrote the marks from the cursor to `i` (the cursor it jumps to).
    void marked_through(std::size_t i) noexcept { marked_ = std::max(marked_, i); }
    // Every token's mark written: what the tree's readers see after each advance (attach()).
    void settle_marks() noexcept {
        if (marked_ < tree_.token_unit.size()) unmark_run(marked_, tree_.token_unit.size());
    }
    // A replayed cycle (statement_parser.cpp): the cursor and the fetch mark where running it
    // would have left them.
    void jump(std::size_t p, std::size_t fetched) {
        p_ = p;
        fetched_ = fetched;
    }
    // la() where the current token is lexed (the fast path's loops have checked it): it counts
    // as fetched.
    void fetch_current() {
        if constexpr (k_work_counter) ++looks_;
        fetched_ = std::max(fetched_, p_);
    }
    // Fetches the fast path made and dropped (it declined): for the work counter only.
    void count_looks(std::size_t looked) {
        if constexpr (k_work_counter) looks_ += looked;
    }

    syntax_tree tree_;
    int unit_ = -1;  // the unit consumed tokens are recorded in, or -1

private:
    // m[0..n) = v, four at a time (the last four overlapping the ones before): a unit is two
    // tokens or more, mostly 5 to 12, where std::fill's vector loop spends more on its edges.
    static void mark_tokens(std::int32_t* m, std::size_t n, std::int32_t v) noexcept {
        if (n < 4) {
            for (std::size_t i = 0; i < n; ++i) m[i] = v;
            return;
        }
        const std::int32_t four[4] = {v, v, v, v};
        for (std::size_t i = 0; i + 4 < n; i += 4) std::memcpy(m + i, four, sizeof four);
        std::memcpy(m + n - 4, four, sizeof four);
    }

    const token_vector* toks_ = nullptr;
    bool finished_ = false;
    std::size_t p_ = 0;
    // The token marks before this one are written; those from here on are -1, not written yet.
    // Never behind the cursor: where the cursor moves past tokens, their marks are written. (A
    // fill of -1 as the tokens arrive, which a unit then wrote over, cost 33 instructions a
    // statement on statements-1m, most of them memset's `rep stos`.)
    std::size_t marked_ = 0;
    mutable std::size_t fetched_ = 0;
    mutable std::uint64_t looks_ = 0;
    mutable bool starved_ = false;
    static constexpr token k_past_end{};
};

}  // namespace plurnk::detail
