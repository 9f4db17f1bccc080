// SPDX-License-Identifier: MIT
// The statement parser: recursive descent over the token stream for the four document tiers
// (BEHAVIOUR §2), reproducing the reference parser's error handling exactly where it shows in
// results. The reference is an ANTLR parser with the default error strategy, so this file keeps
// that strategy's rules, written out for this grammar instead of an interpreted ATN:
//   - sync() before each optional block and loop: a token that fits nowhere is deleted when the
//     one after it fits, else the rule fails (at a block or loop entry) or the loop skips ahead
//     to what can follow (at a loop back); the rule end being reachable means "no error here".
//   - match(): single-token deletion, then single-token insertion, else the rule fails.
//   - a failed rule reports once (not while already recovering), then skips to a token in the
//     union of the follow sets of the rules being parsed; a second failure at the same token
//     and state first consumes one token, so recovery always makes progress.
//   - a decision that needs lookahead (mid vs. terminal SEND) fails with "no viable
//     alternative" at the first token where neither alternative continues.
// Grammar (tokens from the lexer):
//   document   : turn_content EOF
//   turn_content: TEXT* plan (mid_statement | TEXT)* terminal_send TEXT*
//   statements : statement* EOF          client: (statement | look | buff)* EOF
//   log        : turn+ EOF               turn  : TURN_OPEN slots? COLON turn_content CLOSE_TURN
//   op statement: OPEN slots? COLON? BODY* CLOSE   (WORK/FORK: a body is required)
//   slots      : the op's signal, target and scope slots, any order, each at most once
#include "statement_parser.hpp"

#include <algorithm>
#include <array>

#include "token.hpp"
#include "work_counter.hpp"

namespace plurnk::detail {

namespace {

enum class fail_kind : std::uint8_t { mismatch, no_viable };

// Parse states: ids for the lastErrorStates bookkeeping of recover().
enum state_id : int {
    S_NONE, S_DOC_EOF, S_TC_LEAD, S_TC_LEAD_BACK, S_TC_LOOP, S_TC_LOOP_BACK, S_TC_TRAIL,
    S_TC_TRAIL_BACK, S_SEQ_LOOP, S_SEQ_LOOP_BACK, S_SEQ_EOF, S_STMT_DECIDE, S_LOG_START,
    S_LOG_BACK, S_LOG_EOF, S_TURN_OPEN, S_TURN_SLOTS, S_TURN_COLON, S_TURN_CLOSE, S_OP_OPEN,
    S_OP_SLOTS, S_OP_COLON, S_OP_BODY, S_OP_BODY_BACK, S_OP_CLOSE, S_SIG_OPEN, S_SIG_ITEM,
    S_SIG_ITEM_BACK, S_SIG_CLOSE, S_TGT_OPEN, S_TGT_TEXT, S_TGT_TEXT_BACK, S_TGT_CLOSE,
    S_SCOPE, S_MID_DECIDE, S_COUNT
};
// ANTLR's lastErrorStates is a set of states; ours is a bit set (a list would grow with every
// error of a long error run and make each step's snapshot cost as much).
static_assert(S_COUNT <= 64, "state ids must fit the lastErrorStates bit set");
constexpr std::uint64_t state_bit(int state) { return std::uint64_t{1} << state; }

enum class sync_kind : std::uint8_t { block_start, loop_entry, loop_back };

enum class signal_shape : std::uint8_t { tags, integer, kill_integer, disposition, ident, branch };

// Slot admission per op (BEHAVIOUR §2.2).
struct slot_rules {
    bool signal = true;
    bool target = true;
    bool scope = true;
    signal_shape shape = signal_shape::tags;
    bool body_required = false;  // WORK/FORK: an empty body is an error
};

slot_rules rules_for(plurnk::op o, bool terminal_send) {
    slot_rules r;
    switch (o) {
        case plurnk::op::OPEN:
        case plurnk::op::FOLD: r.scope = false; break;
        case plurnk::op::EXEC: r.shape = signal_shape::ident; break;
        case plurnk::op::WORK:
        case plurnk::op::FORK:
            r.scope = false;
            r.shape = signal_shape::branch;
            r.body_required = true;
            break;
        case plurnk::op::KILL:
            r.scope = false;
            r.shape = signal_shape::kill_integer;
            break;
        case plurnk::op::SEND:
            if (terminal_send) {
                r.shape = signal_shape::disposition;
            } else {
                r.scope = false;
                r.shape = signal_shape::integer;
            }
            break;
        default: break;
    }
    return r;
}

tset slot_first(const slot_rules& r) {
    tset s = 0;
    if (r.signal) s |= bit(T_LBRACK);
    if (r.target) s |= bit(T_LPAREN);
    if (r.scope) s |= bit(T_SCOPE);
    return s;
}

class syntax_parser {
public:
    explicit syntax_parser(tier t) : tier_(t) {
        switch (t) {
            case tier::parse: push_frame(rule::document, 0, 0); break;
            case tier::statements:
            case tier::client: push_frame(rule::sequence, 0, 0); break;
            case tier::log: push_frame(rule::log, 0, 0); break;
        }
    }

    // Parses as far as `toks` allows. Without `finished`, a step that would look past the last
    // token is undone and retried on the next call; with it, `toks` ends with the eof token and
    // parsing runs to the end.
    void advance(const std::vector<token>& toks, bool finished) {
        toks_ = &toks;
        finished_ = finished;
        tree_.token_unit.resize(toks.size(), -1);
        for (; scanned_ < toks.size(); ++scanned_) {
            const tok k = toks[scanned_].kind;
            if (k == tok::close_tag || k == tok::close_turn || k == tok::eof) last_close_ = scanned_;
        }
        if (toks.empty()) return;
        run_machine();
        if constexpr (k_work_counter) {
            count_token_looks(looks_);
            looks_ = 0;
        }
    }

    [[nodiscard]] const syntax_tree& tree() const noexcept { return tree_; }
    void reserve_errors(std::size_t n) { tree_.errors.reserve(n); }

    // See stream_syntax::release().
    [[nodiscard]] bool can_release(std::size_t tokens) const noexcept {
        return !finished_ && unit_ < 0 && p_ == tokens && tokens > 0;
    }
    void release(std::size_t tokens) {
        p_ = 0;
        scanned_ = 0;
        last_close_ = npos_;
        fetched_ = fetched_ >= tokens ? fetched_ - tokens : 0;
        pending_token_ = 0;
        last_error_index_ = last_error_index_ >= static_cast<long>(tokens) ? last_error_index_ - static_cast<long>(tokens) : -1;
        tree_.token_unit.clear();
        tree_.units.clear();
        tree_.errors.clear();
        toks_ = nullptr;
    }
    syntax_tree take_tree() { return std::move(tree_); }
    // Tokens before this index are settled: their units and errors can no longer change.
    [[nodiscard]] std::size_t settled() const noexcept { return p_; }

private:
    // --- token stream -------------------------------------------------------------------
    // Every look at a token counts as fetching it from the lexer: the reference records a lexer
    // error when the parser first fetches the token after it, which orders the diagnostics.
    // Past the tokens lexed so far, an unfinished stream has no answer yet: the step is undone.
    struct need_more {};
    mutable std::uint64_t looks_ = 0;  // token fetches, for the work counter (work_counter.hpp)

    int la(std::size_t k = 1) const { return ttype_of(lt(k)); }
    const token& lt(std::size_t k = 1) const { return tok_at(p_ + k - 1); }
    const token& tok_at(std::size_t i) const {
        if constexpr (k_work_counter) ++looks_;
        const auto& toks = *toks_;
        if (i >= toks.size()) {
            if (!finished_) throw need_more{};
            i = toks.size() - 1;
        }
        fetched_ = std::max(fetched_, i);
        return toks[i];
    }

    void consume() {
        if (unit_ >= 0) {
            unit& u = tree_.units[static_cast<std::size_t>(unit_)];
            if (u.first > u.last) u.first = static_cast<std::uint32_t>(p_);
            u.last = static_cast<std::uint32_t>(p_);
            tree_.token_unit[p_] = unit_;
        }
        if (p_ + 1 < toks_->size() || (!finished_ && p_ < toks_->size())) ++p_;
    }

    // --- rule context: follow sets -----------------------------------------------------
    struct rule_scope {
        syntax_parser& p;
        rule_scope(syntax_parser& parser, tset follow) : p(parser) { p.follow_.push_back(follow); }
        ~rule_scope() { p.follow_.pop_back(); }
        rule_scope(const rule_scope&) = delete;
        rule_scope& operator=(const rule_scope&) = delete;
    };

    tset recovery_set() const {
        tset s = 0;
        for (tset f : follow_) s |= f;
        return s & ~bit(T_EPS);
    }

    // ANTLR getExpectedTokens(): `next` plus, where the rule may end, what follows it.
    tset expected(tset next) const {
        if (!(next & bit(T_EPS))) return next;
        tset e = next & ~bit(T_EPS);
        bool eps = true;
        for (auto it = follow_.rbegin(); it != follow_.rend() && eps; ++it) {
            e |= *it & ~bit(T_EPS);
            eps = (*it & bit(T_EPS)) != 0;
        }
        if (eps) e |= bit(T_EOF);
        return e;
    }

    void add_error(const token& at, syntax_error::shape kind, tset expect) {
        tree_.errors.push_back(syntax_error{at.begin, static_cast<std::uint32_t>(fetched_), expect, at, kind});
        ++error_events_;
    }

    // "unexpected X; expected A, B" (extraneous token, input mismatch, no viable alternative).
    void report_unexpected(const token& at, tset expect, bool oxford) {
        add_error(at, oxford ? syntax_error::shape::unexpected_oxford : syntax_error::shape::unexpected, expect);
    }

    void report_unwanted(tset next) {
        ++error_events_;
        if (recovering_) return;
        recovering_ = true;
        --error_events_;
        report_unexpected(lt(), expected(next), false);
    }

    void report_missing(tset next) {
        ++error_events_;
        if (recovering_) return;
        recovering_ = true;
        --error_events_;
        add_error(lt(), syntax_error::shape::missing, expected(next));
    }

    void end_error_condition() {
        recovering_ = false;
        last_error_index_ = -1;
        last_error_states_ = 0;
    }

    // --- failure ("exception") bookkeeping ---------------------------------------------------
    bool fail(fail_kind kind, tset next) {
        pending_kind_ = kind;
        pending_token_ = p_;
        pending_expected_ = expected(next);
        return false;
    }

    // The catch block of every rule: report once, then skip to the recovery set.
    void report_and_recover() {
        report_and_note();
        consume_until(recovery_set());
    }

    // Reports the pending failure once, and makes sure recovery moves: a second failure at the
    // same token and state consumes a token first.
    void report_and_note() {
        ++error_events_;
        if (!recovering_) {
            recovering_ = true;
            report_unexpected(tok_at(pending_token_), pending_expected_, pending_kind_ == fail_kind::mismatch);
        }
        if (last_error_index_ == static_cast<long>(p_) &&
            (last_error_states_ & state_bit(state_)) != 0) {
            consume();
        }
        last_error_index_ = static_cast<long>(p_);
        last_error_states_ |= state_bit(state_);
    }

    void consume_until(tset set) {
        while (la() != T_EOF && !(set & bit(la()))) consume();
    }

    // --- the error strategy primitives -----------------------------------------------------------
    // sync() before a block or loop whose possible next tokens are `next`.
    bool sync(int state, tset next, sync_kind kind) {
        state_ = state;
        if (recovering_) return true;
        const int t = la();
        if (next & bit(t)) return true;
        if (next & bit(T_EPS)) return true;
        if (kind == sync_kind::loop_back) {
            report_unwanted(next);
            consume_until(expected(next) | recovery_set());
            return true;
        }
        if (single_token_deletion(next)) return true;
        return fail(fail_kind::mismatch, next);
    }

    bool single_token_deletion(tset next) {
        if (!(expected(next) & bit(la(2)))) return false;
        report_unwanted(next);
        consume();  // the extraneous token
        end_error_condition();
        return true;
    }

    // match(t): `after` are the tokens that may follow t in the rule (EPS: the rule may end).
    bool match(int state, int t, tset after) {
        state_ = state;
        if (la() == t) {
            end_error_condition();
            consume();
            return true;
        }
        const tset next = bit(t);
        if (single_token_deletion(next)) {
            consume();  // the expected token, now current
            return true;
        }
        if (expected(after) & bit(la())) {  // single-token insertion
            report_missing(next);
            return true;
        }
        return fail(fail_kind::mismatch, next);
    }

    bool match_set(int state, tset set) {
        state_ = state;
        if (set & bit(la())) {
            end_error_condition();
            consume();
            return true;
        }
        return fail(fail_kind::mismatch, set);
    }

    // --- units ----------------------------------------------------------------------------------
    int begin_unit() {
        const int saved = unit_;
        tree_.units.push_back(unit{});
        unit_ = static_cast<int>(tree_.units.size()) - 1;
        unit_errors_ = error_events_;
        return saved;
    }
    void end_unit(int saved) {
        unit& u = tree_.units[static_cast<std::size_t>(unit_)];
        u.clean = u.clean && error_events_ == unit_errors_;
        unit_ = saved;
    }

    // --- SEND prediction (mid vs. terminal) --------------------------------------------------------
    enum class send_alt : std::uint8_t { mid, terminal, none };

    // Walks both alternatives over the tokens after a SEND opener; returns the first alternative
    // left standing alone, or none with the token index where both died.
    send_alt predict_send(std::size_t& died_at) const {
        // mid: slots (int signal [INT?], target) in any order, then COLON? BODY* CLOSE
        // terminal: [DISP] required before scope; target anywhere; then COLON? BODY* CLOSE
        struct walker {
            bool alive = true;
            bool terminal = false;
            int phase = 0;  // 0 slots, 1 in signal, 2 in target, 3 body
            bool sig = false, tgt = false, scope = false;
            int sig_pos = 0;  // tokens seen inside [ ]
            bool accept(int t) {
                switch (phase) {
                    case 0:
                        if (t == T_LBRACK && !sig) {
                            phase = 1;
                            sig_pos = 0;
                            return true;
                        }
                        if (t == T_LPAREN && !tgt) {
                            phase = 2;
                            return true;
                        }
                        if (t == T_SCOPE && terminal && sig && !scope) {
                            scope = true;
                            return true;
                        }
                        if (terminal && !sig) return false;
                        if (t == T_COLON || t == T_BODY) {
                            phase = 3;
                            return true;
                        }
                        return t == T_CLOSE;
                    case 1:
                        if (terminal) {
                            if (sig_pos == 0) {
                                if (t != T_DISP) return false;
                                sig_pos = 1;
                                return true;
                            }
                            if (t != T_RBRACK) return false;
                        } else {
                            if (sig_pos == 0 && t == T_INT) {
                                sig_pos = 1;
                                return true;
                            }
                            if (t != T_RBRACK) return false;
                        }
                        sig = true;
                        phase = 0;
                        return true;
                    case 2:
                        if (t == T_TGT) return true;
                        if (t != T_RPAREN) return false;
                        tgt = true;
                        phase = 0;
                        return true;
                    default:
                        return t == T_BODY || t == T_CLOSE;
                }
            }
        };
        walker mid, term;
        term.terminal = true;
        for (std::size_t i = p_ + 1;; ++i) {
            const int t = ttype_of(tok_at(i));
            if (mid.alive) mid.alive = mid.accept(t);
            if (term.alive) term.alive = term.accept(t);
            if (mid.alive && !term.alive) return send_alt::mid;
            if (term.alive && !mid.alive) return send_alt::terminal;
            if (!mid.alive && !term.alive) {
                died_at = i;
                return send_alt::none;
            }
            if (t == T_CLOSE || t == T_EOF) break;
        }
        died_at = toks_->size() - 1;
        return send_alt::none;
    }

    bool fail_no_viable(std::size_t at, tset next) {
        pending_kind_ = fail_kind::no_viable;
        pending_token_ = at;
        pending_expected_ = expected(next);
        return false;
    }

    // --- the top-level rules as a resumable machine ------------------------------------------------
    // document, turn_content, statements/client, log and turn keep their position in frames, so
    // parsing can stop between any two steps and go on when more tokens arrive. Each step is atomic:
    // it runs to its end or, when it needs a token not lexed yet, is undone as a whole. Skipping
    // tokens during recovery is a step per token, so it never repeats work.
    enum class rule : std::uint8_t { document, turn_content, sequence, log, turn };
    enum phase : int {
        P_START, P_FAIL, P_CONSUME, P_EXIT,
        // document
        P_DOC_EOF,
        // turn_content
        P_LEAD, P_LEAD_BACK, P_PLAN, P_LOOP_ENTRY, P_DECIDE, P_LOOP_BACK, P_TERMINAL, P_TRAIL_ENTRY, P_TRAIL,
        P_TRAIL_BACK,
        // sequence
        P_SEQ_LOOP, P_SEQ_BACK, P_SEQ_EOF,
        // log
        P_LOG_TURN, P_LOG_BACK, P_LOG_NEXT, P_LOG_EOF,
        // turn
        P_TURN_SLOTS, P_TURN_COLON, P_TURN_CLOSE,
    };
    struct frame {
        rule r;
        int phase = P_START;
        int resume = P_EXIT;     // the parent's phase when this frame exits
        tset consume_set = 0;    // P_CONSUME: skip to a token in this set,
        int consume_then = P_EXIT;  // then go on here
    };

    void push_frame(rule r, tset follow, int parent_resume) {
        if (!frames_.empty()) frames_.back().phase = parent_resume;
        frames_.push_back(frame{r});
        follow_.push_back(follow);
    }
    void pop_frame() {
        frames_.pop_back();
        follow_.pop_back();
    }

    struct snapshot {
        std::size_t p, fetched;
        bool recovering;
        long last_error_index;
        std::uint64_t last_error_states;
        std::size_t units, errors, follow, events, unit_errors;
        int state;
        fail_kind kind;
        std::size_t pending_token;
        tset pending_expected;
    };

    snapshot take() const {
        return snapshot{p_, fetched_, recovering_, last_error_index_, last_error_states_, tree_.units.size(),
                        tree_.errors.size(), follow_.size(), error_events_, unit_errors_, state_, pending_kind_,
                        pending_token_, pending_expected_};
    }

    void restore(const snapshot& s) {
        for (std::size_t i = s.p; i <= p_ && i < tree_.token_unit.size(); ++i) tree_.token_unit[i] = -1;
        p_ = s.p;
        fetched_ = s.fetched;
        recovering_ = s.recovering;
        last_error_index_ = s.last_error_index;
        last_error_states_ = s.last_error_states;
        tree_.units.resize(s.units);
        tree_.errors.resize(s.errors);
        follow_.resize(s.follow);
        error_events_ = s.events;
        unit_errors_ = s.unit_errors;
        state_ = s.state;
        pending_kind_ = s.kind;
        pending_token_ = s.pending_token;
        pending_expected_ = s.pending_expected;
        unit_ = -1;
    }

    void run_machine() {
        while (!frames_.empty()) {
            frame& f = frames_.back();
            if (f.phase == P_EXIT) {
                pop_frame();
                continue;
            }
            if (f.phase == P_CONSUME) {
                // One token at a time: what is skipped stays skipped.
                try {
                    const int t = la();
                    if (t == T_EOF || (f.consume_set & bit(t))) {
                        f.phase = f.consume_then;
                    } else {
                        consume();
                    }
                } catch (const need_more&) {
                    return;
                }
                continue;
            }
            if (finished_) {
                // Every token is there: a step cannot run out of them, so nothing to undo.
                step(frames_.size() - 1);
                continue;
            }
            if (!can_step()) return;
            const snapshot snap = take();
            try {
                step(frames_.size() - 1);
            } catch (const need_more&) {
                restore(snap);
                return;
            }
        }
    }

    // Cheap checks that a step cannot finish with the tokens lexed so far (it would only be
    // undone): the next token is not there yet, or a statement starts with no close tag after it.
    bool can_step() const {
        const auto& toks = *toks_;
        if (p_ >= toks.size()) return false;
        if (toks[p_].kind == tok::opener && (last_close_ == npos_ || last_close_ < p_)) return false;
        return true;
    }
    static constexpr std::size_t npos_ = static_cast<std::size_t>(-1);

    // The catch block of an outer rule: report and arrange to skip to the recovery set.
    void fail_frame(std::size_t fi) {
        report_and_note();
        frame& f = frames_[fi];
        f.consume_set = recovery_set();
        f.consume_then = P_EXIT;
        f.phase = P_CONSUME;
    }

    // sync() at a loop back: report the stray token and skip to what may follow; returns the set to
    // skip to, or 0 when nothing is to be skipped.
    tset sync_back(int state, tset next) {
        state_ = state;
        if (recovering_) return 0;
        const int t = la();
        if ((next & bit(t)) || (next & bit(T_EPS))) return 0;
        report_unwanted(next);
        return expected(next) | recovery_set();
    }

    void go(std::size_t fi, int phase) { frames_[fi].phase = phase; }
    void skip_then(std::size_t fi, tset set, int then) {
        if (set == 0) return go(fi, then);
        frames_[fi].consume_set = set;
        frames_[fi].consume_then = then;
        frames_[fi].phase = P_CONSUME;
    }

    void step(std::size_t fi) {
        switch (frames_[fi].r) {
            case rule::document: return step_document(fi);
            case rule::turn_content: return step_turn_content(fi);
            case rule::sequence: return step_sequence(fi);
            case rule::log: return step_log(fi);
            case rule::turn: return step_turn(fi);
        }
    }

    // document : turn_content EOF
    void step_document(std::size_t fi) {
        switch (frames_[fi].phase) {
            case P_START: return push_frame(rule::turn_content, bit(T_EOF), P_DOC_EOF);
            case P_DOC_EOF:
                if (!match(S_DOC_EOF, T_EOF, bit(T_EPS))) return go(fi, P_FAIL);
                return go(fi, P_EXIT);
            case P_FAIL: return fail_frame(fi);
            default: return go(fi, P_EXIT);
        }
    }

    // turn_content : TEXT* plan (mid_statement | TEXT)* terminal_send TEXT*
    void step_turn_content(std::size_t fi) {
        const tset lead = bit(T_TEXT) | opener_bit(plurnk::op::PLAN);
        const tset loop_next = bit(T_TEXT) | k_mid_openers;
        const tset trail = bit(T_TEXT) | bit(T_EPS);
        switch (frames_[fi].phase) {
            case P_START:
                if (!sync(S_TC_LEAD, lead, sync_kind::loop_entry)) return go(fi, P_FAIL);
                return go(fi, P_LEAD);
            case P_LEAD:
                if (la() != T_TEXT) return go(fi, P_PLAN);
                if (!match(S_TC_LEAD, T_TEXT, lead)) return go(fi, P_FAIL);
                return go(fi, P_LEAD_BACK);
            case P_LEAD_BACK: return skip_then(fi, sync_back(S_TC_LEAD_BACK, lead), P_LEAD);
            case P_PLAN:
                statement_unit(plurnk::op::PLAN, false, loop_next);
                return go(fi, P_LOOP_ENTRY);
            case P_LOOP_ENTRY:
                if (!sync(S_TC_LOOP, loop_next, sync_kind::loop_entry)) return go(fi, P_FAIL);
                return go(fi, P_DECIDE);
            case P_DECIDE: {
                state_ = S_MID_DECIDE;
                const int t = la();
                bool more = false;
                if (t == T_TEXT) {
                    more = true;
                } else if (t < 16 && (k_mid_openers & bit(t)) && t != static_cast<int>(plurnk::op::SEND)) {
                    more = true;
                } else if (t == static_cast<int>(plurnk::op::SEND)) {
                    std::size_t died = 0;
                    const send_alt alt = predict_send(died);
                    if (alt == send_alt::none) {
                        fail_no_viable(died, loop_next);
                        return go(fi, P_FAIL);
                    }
                    more = alt == send_alt::mid;
                } else {
                    fail_no_viable(p_, loop_next);
                    return go(fi, P_FAIL);
                }
                if (!more) return go(fi, P_TERMINAL);
                if (t == T_TEXT) {
                    if (!match(S_TC_LOOP, T_TEXT, loop_next)) return go(fi, P_FAIL);
                } else {
                    statement_unit(static_cast<plurnk::op>(t), false, loop_next);
                }
                return go(fi, P_LOOP_BACK);
            }
            case P_LOOP_BACK: return skip_then(fi, sync_back(S_TC_LOOP_BACK, loop_next), P_DECIDE);
            case P_TERMINAL:
                statement_unit(plurnk::op::SEND, true, bit(T_TEXT) | bit(T_EPS));
                return go(fi, P_TRAIL_ENTRY);
            case P_TRAIL_ENTRY:
                if (!sync(S_TC_TRAIL, trail, sync_kind::loop_entry)) return go(fi, P_FAIL);
                return go(fi, P_TRAIL);
            case P_TRAIL:
                if (la() != T_TEXT) return go(fi, P_EXIT);
                if (!match(S_TC_TRAIL, T_TEXT, trail)) return go(fi, P_FAIL);
                return go(fi, P_TRAIL_BACK);
            case P_TRAIL_BACK: return skip_then(fi, sync_back(S_TC_TRAIL_BACK, trail), P_TRAIL);
            case P_FAIL: return fail_frame(fi);
            default: return go(fi, P_EXIT);
        }
    }

    // statements : statement* EOF ; client : (statement | look | buff)* EOF
    void step_sequence(std::size_t fi) {
        const tset first = tier_ == tier::client ? k_client_openers : k_protocol_openers;
        const tset next = first | bit(T_EOF);
        switch (frames_[fi].phase) {
            case P_START:
                if (!sync(S_SEQ_LOOP, next, sync_kind::loop_entry)) return go(fi, P_FAIL);
                return go(fi, P_SEQ_LOOP);
            case P_SEQ_LOOP:
                if (!(la() < 16 && (first & bit(la())))) return go(fi, P_SEQ_EOF);
                statement_rule(first, next);
                return go(fi, P_SEQ_BACK);
            case P_SEQ_BACK: return skip_then(fi, sync_back(S_SEQ_LOOP_BACK, next), P_SEQ_LOOP);
            case P_SEQ_EOF:
                if (!match(S_SEQ_EOF, T_EOF, bit(T_EPS))) return go(fi, P_FAIL);
                return go(fi, P_EXIT);
            case P_FAIL: return fail_frame(fi);
            default: return go(fi, P_EXIT);
        }
    }

    // log : turn+ EOF
    void step_log(std::size_t fi) {
        const tset turn_open = opener_bit(plurnk::op::TURN);
        switch (frames_[fi].phase) {
            case P_START:
                if (!sync(S_LOG_START, turn_open, sync_kind::block_start)) return go(fi, P_FAIL);
                return go(fi, P_LOG_TURN);
            case P_LOG_TURN: return push_frame(rule::turn, turn_open | bit(T_EOF), P_LOG_BACK);
            case P_LOG_BACK: return skip_then(fi, sync_back(S_LOG_BACK, turn_open | bit(T_EOF)), P_LOG_NEXT);
            case P_LOG_NEXT: return go(fi, la() == static_cast<int>(plurnk::op::TURN) ? P_LOG_TURN : P_LOG_EOF);
            case P_LOG_EOF:
                if (!match(S_LOG_EOF, T_EOF, bit(T_EPS))) return go(fi, P_FAIL);
                return go(fi, P_EXIT);
            case P_FAIL: return fail_frame(fi);
            default: return go(fi, P_EXIT);
        }
    }

    // turn : TURN_OPEN slots? COLON turn_content CLOSE_TURN
    void step_turn(std::size_t fi) {
        const slot_rules r = rules_for(plurnk::op::TURN, false);
        const tset slots = slot_first(r);
        switch (frames_[fi].phase) {
            case P_START:
                if (!match(S_TURN_OPEN, static_cast<int>(plurnk::op::TURN), slots | bit(T_COLON))) return go(fi, P_FAIL);
                return go(fi, P_TURN_SLOTS);
            case P_TURN_SLOTS:
                if (!sync(S_TURN_SLOTS, slots | bit(T_COLON), sync_kind::block_start)) return go(fi, P_FAIL);
                if (slots & bit(la())) slot_rule(r, bit(T_COLON));
                return go(fi, P_TURN_COLON);
            case P_TURN_COLON:
                if (!match(S_TURN_COLON, T_COLON, bit(T_TEXT) | opener_bit(plurnk::op::PLAN))) return go(fi, P_FAIL);
                return push_frame(rule::turn_content, bit(T_CLOSE_TURN), P_TURN_CLOSE);
            case P_TURN_CLOSE:
                if (!match(S_TURN_CLOSE, T_CLOSE_TURN, bit(T_EPS))) return go(fi, P_FAIL);
                return go(fi, P_EXIT);
            case P_FAIL: return fail_frame(fi);
            default: return go(fi, P_EXIT);
        }
    }

    // statement : one of the op statements (SEND: mid or terminal, by prediction)
    void statement_rule(tset first, tset follow) {
        rule_scope scope(*this, follow);
        const int saved = begin_unit();
        state_ = S_STMT_DECIDE;
        const int t = la();
        bool ok = true;
        if (t == static_cast<int>(plurnk::op::SEND)) {
            std::size_t died = 0;
            const send_alt alt = predict_send(died);
            if (alt == send_alt::none) {
                ok = fail_no_viable(died, first);
            } else {
                op_statement(plurnk::op::SEND, alt == send_alt::terminal, bit(T_EPS));
            }
        } else {
            op_statement(static_cast<plurnk::op>(t), false, bit(T_EPS));
        }
        if (!ok) report_and_recover();
        end_unit(saved);
    }

    // A statement-level unit in the parse/log tiers: plan, mid statement or terminal SEND.
    void statement_unit(plurnk::op o, bool terminal, tset follow) {
        rule_scope scope(*this, follow);
        const int saved = begin_unit();
        op_statement(o, terminal, bit(T_EPS));
        end_unit(saved);
    }

    // op statement : OPEN slots? COLON? BODY* CLOSE
    void op_statement(plurnk::op o, bool terminal, tset follow) {
        rule_scope scope(*this, follow);
        tree_.units[static_cast<std::size_t>(unit_)].clean = true;
        tree_.units[static_cast<std::size_t>(unit_)].terminal_send = terminal;
        if (!op_statement_body(o, terminal)) report_and_recover();
    }

    bool op_statement_body(plurnk::op o, bool terminal) {
        const slot_rules r = rules_for(o, terminal);
        const tset slots = slot_first(r);
        const tset tail = bit(T_COLON) | bit(T_BODY) | bit(T_CLOSE);
        if (!match(S_OP_OPEN, static_cast<int>(o), slots | tail)) return false;
        if (!sync(S_OP_SLOTS, slots | tail, sync_kind::block_start)) return false;
        if (slots & bit(la())) slot_rule(r, tail);
        if (!sync(S_OP_COLON, tail, sync_kind::block_start)) return false;
        if (la() == T_COLON && !match(S_OP_COLON, T_COLON, bit(T_BODY) | bit(T_CLOSE))) return false;
        const tset body_next = bit(T_BODY) | bit(T_CLOSE);
        if (!sync(S_OP_BODY, body_next, sync_kind::loop_entry)) return false;
        bool has_body = false;
        while (la() == T_BODY) {
            has_body = true;
            if (!match(S_OP_BODY, T_BODY, body_next)) return false;
            if (!sync(S_OP_BODY_BACK, body_next, sync_kind::loop_back)) return false;
        }
        if (r.body_required && !has_body && la() == T_CLOSE && !recovering_) {
            // WORK/FORK need a prompt (BEHAVIOUR §2.2); the reference pins no wording.
            add_error(lt(), syntax_error::shape::body_content, 0);
        }
        return match(S_OP_CLOSE, T_CLOSE, bit(T_EPS));
    }

    // slots : the admitted slots in any order, each at most once; ends at anything else.
    void slot_rule(const slot_rules& r, tset follow) {
        rule_scope scope(*this, follow);
        bool sig = false, tgt = false, scp = false;
        const tset all = slot_first(r) | bit(T_EPS);
        for (;;) {
            const int t = la();
            if (t == T_LBRACK && r.signal && !sig) {
                sig = true;
                signal_rule(r.shape, all);
            } else if (t == T_LPAREN && r.target && !tgt) {
                tgt = true;
                target_rule(all);
            } else if (t == T_SCOPE && r.scope && !scp && (r.shape != signal_shape::disposition || sig)) {
                scp = true;
                if (!match(S_SCOPE, T_SCOPE, all)) {
                    report_and_recover();
                    return;
                }
            } else {
                return;
            }
        }
    }

    void signal_rule(signal_shape shape, tset follow) {
        rule_scope scope(*this, follow);
        if (!signal_body(shape)) report_and_recover();
    }

    bool signal_body(signal_shape shape) {
        switch (shape) {
            case signal_shape::tags: {
                const tset items = bit(T_TAG) | bit(T_COMMA) | bit(T_RBRACK);
                if (!match(S_SIG_OPEN, T_LBRACK, items)) return false;
                if (!sync(S_SIG_ITEM, items, sync_kind::loop_entry)) return false;
                while (la() == T_TAG || la() == T_COMMA) {
                    if (!match_set(S_SIG_ITEM, bit(T_TAG) | bit(T_COMMA))) return false;
                    if (!sync(S_SIG_ITEM_BACK, items, sync_kind::loop_back)) return false;
                }
                return match(S_SIG_CLOSE, T_RBRACK, bit(T_EPS));
            }
            case signal_shape::integer:
            case signal_shape::kill_integer:
            case signal_shape::ident: {
                const tset value = shape == signal_shape::ident     ? bit(T_IDENT)
                                   : shape == signal_shape::integer ? bit(T_INT)
                                                                    : (bit(T_INT) | bit(T_DISP));
                if (!match(S_SIG_OPEN, T_LBRACK, value | bit(T_RBRACK))) return false;
                if (!sync(S_SIG_ITEM, value | bit(T_RBRACK), sync_kind::block_start)) return false;
                if ((value & bit(la())) && !match_set(S_SIG_ITEM, value)) return false;
                return match(S_SIG_CLOSE, T_RBRACK, bit(T_EPS));
            }
            case signal_shape::disposition:
            case signal_shape::branch: {
                const int value = shape == signal_shape::branch ? T_TAG : T_DISP;
                if (!match(S_SIG_OPEN, T_LBRACK, bit(value))) return false;
                if (!match(S_SIG_ITEM, value, bit(T_RBRACK))) return false;
                return match(S_SIG_CLOSE, T_RBRACK, bit(T_EPS));
            }
        }
        return true;
    }

    // target : '(' TARGET_TEXT* ')'
    void target_rule(tset follow) {
        rule_scope scope(*this, follow);
        if (!target_body()) report_and_recover();
    }

    bool target_body() {
        const tset next = bit(T_TGT) | bit(T_RPAREN);
        if (!match(S_TGT_OPEN, T_LPAREN, next)) return false;
        if (!sync(S_TGT_TEXT, next, sync_kind::loop_entry)) return false;
        while (la() == T_TGT) {
            if (!match(S_TGT_TEXT, T_TGT, next)) return false;
            if (!sync(S_TGT_TEXT_BACK, next, sync_kind::loop_back)) return false;
        }
        return match(S_TGT_CLOSE, T_RPAREN, bit(T_EPS));
    }

    const std::vector<token>* toks_ = nullptr;
    bool finished_ = false;
    tier tier_;
    std::vector<frame> frames_;
    std::size_t scanned_ = 0;                                // tokens checked for close tags
    std::size_t last_close_ = static_cast<std::size_t>(-1);  // index of the last close tag or eof
    syntax_tree tree_;
    std::size_t p_ = 0;
    mutable std::size_t fetched_ = 0;
    bool recovering_ = false;
    long last_error_index_ = -1;
    std::uint64_t last_error_states_ = 0;
    std::vector<tset> follow_;
    int state_ = S_NONE;
    int unit_ = -1;
    std::size_t error_events_ = 0;
    std::size_t unit_errors_ = 0;
    fail_kind pending_kind_ = fail_kind::mismatch;
    std::size_t pending_token_ = 0;
    tset pending_expected_ = 0;
};

}  // namespace

struct stream_syntax::impl {
    explicit impl(tier t) : parser(t) {}
    syntax_parser parser;
};

stream_syntax::stream_syntax(tier t) : impl_(new impl(t)) {}
stream_syntax::~stream_syntax() { delete impl_; }
stream_syntax::stream_syntax(const stream_syntax& other) : impl_(new impl(*other.impl_)) {}
stream_syntax& stream_syntax::operator=(const stream_syntax& other) {
    if (this != &other) *impl_ = *other.impl_;
    return *this;
}
void stream_syntax::advance(const std::vector<token>& tokens, bool finished) {
    impl_->parser.advance(tokens, finished);
}
const syntax_tree& stream_syntax::tree() const noexcept { return impl_->parser.tree(); }
std::size_t stream_syntax::settled() const noexcept { return impl_->parser.settled(); }
bool stream_syntax::can_release(std::size_t tokens) const noexcept { return impl_->parser.can_release(tokens); }
void stream_syntax::release(std::size_t tokens) { impl_->parser.release(tokens); }

syntax_tree parse_syntax(const lex_output& lexed, tier t) {
    syntax_parser p(t);
    // At most about one error per two tokens: reserving that much is address space only (a
    // large vector's untouched pages cost nothing), and growing would copy and touch it twice.
    p.reserve_errors(lexed.tokens.size() / 2 + 1);
    p.advance(lexed.tokens, true);
    return p.take_tree();
}

}  // namespace plurnk::detail
