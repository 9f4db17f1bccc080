// SPDX-License-Identifier: MIT
// The statement parser's second layer (private header): the reference parser's error handling.
// The reference is an ANTLR parser with the default error strategy; these are that strategy's
// rules, written out for this grammar instead of an interpreted ATN:
//   - sync() before each optional block and loop: a token that fits nowhere is deleted when the
//     one after it fits, else the rule fails (at a block or loop entry) or the loop skips ahead
//     to what can follow (at a loop back); the rule end being reachable means "no error here".
//   - match(): single-token deletion, then single-token insertion, else the rule fails.
//   - a failed rule reports once (not while already recovering), then skips to a token in the
//     union of the follow sets of the rules being parsed; a second failure at the same token
//     and recovery point first consumes one token, so recovery always makes progress.
//   - a decision that needs lookahead (mid vs. terminal SEND) fails with "no viable
//     alternative" at the first token where neither alternative continues.
// The productions (statement_parser.cpp) call these with a recovery point naming where they are.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "syntax/token_cursor.hpp"

namespace plurnk::detail {

// Where in the grammar a sync() or match() happens: ANTLR's ATN state, which its
// lastErrorStates remembers so that a second failure at the same token and place moves on.
enum class recovery_point : std::uint8_t {
    none,
    document_eof,        // document: the EOF after turn_content
    turn_lead,           // turn_content: the TEXT* before the plan (entry, each TEXT)
    turn_lead_back,      // turn_content: back at the top of TEXT* before the plan
    turn_loop,           // turn_content: the (mid_statement | TEXT)* loop (entry, each TEXT)
    turn_loop_back,      // turn_content: back at the top of that loop
    turn_trail,          // turn_content: the TEXT* after the terminal SEND (entry, each TEXT)
    turn_trail_back,     // turn_content: back at the top of the trailing TEXT*
    sequence_loop,       // statements/client: the statement* loop entry
    sequence_loop_back,  // statements/client: back at the top of statement*
    sequence_eof,        // statements/client: the EOF after the statements
    statement_choice,    // statement: which op statement starts here (SEND: mid or terminal)
    log_first_turn,      // log: the first turn
    log_loop_back,       // log: back at the top of turn+
    log_eof,             // log: the EOF after the turns
    turn_open,           // turn: the TURN opener
    turn_slots,          // turn: the optional slots
    turn_colon,          // turn: the `:` before its content
    turn_close,          // turn: the `:TURN` close
    op_open,             // op statement: its opener
    op_slots,            // op statement: the optional slots
    op_colon,            // op statement: the optional `:` body fence
    op_body,             // op statement: the BODY* loop (entry, each body token)
    op_body_back,        // op statement: back at the top of BODY*
    op_close,            // op statement: the close tag
    signal_open,         // signal: `[`
    signal_item,         // signal: the tags and commas (entry, each item) or the one value
    signal_item_back,    // signal: back at the top of the tag list
    signal_close,        // signal: `]`
    target_open,         // target: `(`
    target_text,         // target: the TARGET_TEXT* loop (entry, each run)
    target_text_back,    // target: back at the top of TARGET_TEXT*
    target_close,        // target: `)`
    scope,               // slots: the `<L>` scope token
    turn_choice,         // turn_content: another mid statement or TEXT, or the terminal SEND
    count_
};
// lastErrorStates is a set of points; ours is a bit set (a list would grow with every error of
// a long error run and make each step's snapshot cost as much).
static_assert(static_cast<int>(recovery_point::count_) <= 64, "recovery points must fit a 64-bit set");

// Which kind of sync(): before an optional block, at a loop's entry, or back at its top.
enum class sync_kind : std::uint8_t { block_start, loop_entry, loop_back };

class error_strategy : public token_cursor {
public:
    // The follow set of a rule being parsed, for as long as the rule runs.
    struct rule_scope {
        error_strategy& s;
        rule_scope(error_strategy& strategy, tset follow) : s(strategy) { s.follow_.push_back(follow); }
        ~rule_scope() { s.follow_.pop_back(); }
        rule_scope(const rule_scope&) = delete;
        rule_scope& operator=(const rule_scope&) = delete;
    };

    // sync() before a block or loop whose possible next tokens are `next`; false: the rule
    // fails (report_and_recover() follows).
    bool sync(recovery_point at, tset next, sync_kind kind) {
        rs_.point = at;
        if (rs_.recovering || (next & (bit(la()) | bit(k_eps)))) return true;
        return sync_mismatch(next, kind);
    }
    // sync() at a loop back, for the resumable rules: reports a stray token and returns the set
    // to skip to (0: nothing to skip).
    tset sync_back(recovery_point at, tset next);
    // match(t): `after` are the tokens that may follow t in the rule (EPS: the rule may end).
    bool match(recovery_point at, symbol t, tset after) {
        rs_.point = at;
        if (la() != t) return match_mismatch(t, after);
        end_error_condition();
        consume();
        return true;
    }
    bool match_set(recovery_point at, tset set) {
        rs_.point = at;
        if (!(set & bit(la()))) return fail(set);
        end_error_condition();
        consume();
        return true;
    }

    // A decision with no viable alternative at token `at`; returns false.
    bool fail_no_viable(std::size_t at, tset next);
    // The catch block of every rule: report once, then skip to the recovery set.
    void report_and_recover();
    // Reports the pending failure once, and makes sure recovery moves: a second failure at the
    // same token and recovery point consumes a token first.
    void report_and_note();
    // Records an error of the grammar's own (a required body); not an ANTLR report.
    void add_error(const token& at, syntax_error::shape kind, tset expect);

    void set_point(recovery_point at) { rs_.point = at; }
    // What a successful match() at `at` leaves (the caller consumes the token): for the fast
    // path, which skips the match() calls of a clean statement and keeps only the last one's mark.
    void matched(recovery_point at) {
        rs_.point = at;
        end_error_condition();
    }
    // The union of the follow sets of the rules being parsed: where a failed rule skips to.
    [[nodiscard]] tset recovery_set() const;
    // ANTLR getExpectedTokens(): `next` plus, where the rule may end, what follows it.
    [[nodiscard]] tset expected(tset next) const;
    [[nodiscard]] bool recovering() const noexcept { return rs_.recovering; }
    // Errors reported or suppressed so far: a rule ran clean when the count did not move.
    [[nodiscard]] std::size_t error_events() const noexcept { return rs_.events; }

    // The strategy's part of a step snapshot: everything but the follow stack, whose depth is
    // kept apart (a step ends at the depth it began). Also what the cycle replay compares and
    // moves on (cycle_replay.hpp).
    struct recovery_state {
        bool recovering = false;
        long last_error_index = -1;
        std::uint64_t last_error_points = 0;
        std::size_t events = 0;
        recovery_point point = recovery_point::none;
        bool pending_mismatch = true;   // the pending failure: input mismatch, or no viable alternative
        std::size_t pending_token = 0;  // where it happened
        tset pending_expected = 0;      // and what was expected there
        friend bool operator==(const recovery_state&, const recovery_state&) = default;
    };
    friend bool operator==(const error_strategy&, const error_strategy&) = default;

protected:
    recovery_state rs_;
    std::vector<tset> follow_;

    // Rebases the token indices kept across a release of the first `tokens` tokens.
    void release_recovery(std::size_t tokens);
    // Back to the state as constructed, with no rule being parsed (tier_machine::reset()).
    void reset_strategy() noexcept {
        reset_cursor();
        rs_ = recovery_state{};
        follow_.clear();
    }

private:
    // The rest of sync() and match() when the current token is not one they pass (the success
    // paths above are inline: they are taken for nearly every token).
    bool sync_mismatch(tset next, sync_kind kind);
    bool match_mismatch(symbol t, tset after);
    bool fail(tset next);  // an input mismatch at the current token; returns false
    void consume_until(tset set);
    bool single_token_deletion(tset next);
    void end_error_condition() {
        rs_.recovering = false;
        rs_.last_error_index = -1;
        rs_.last_error_points = 0;
    }
    void report_unexpected(const token& at, tset expect, bool oxford);
    void report_unwanted(tset next);
    void report_missing(tset next);
};

}  // namespace plurnk::detail
