// SPDX-License-Identifier: MIT
// The push parser: parse()'s pipeline (pipeline.hpp: lexer, statement parser, result builder)
// run over a growing input. Each feed() appends to the buffer, lexes the tokens that became
// stable, lets the statement parser take the steps those tokens allow, and reports the items that
// settled.
// finish() runs the same code to the end, so its result is parse() of the concatenation for any
// chunking. A feed of a few bytes that cannot wake the lexer's sleeping step (lexer.hpp) appends
// them and returns, inline and calling nothing: servers feed a token of about 4 bytes at a time.
// A statement-parser step that ran out of tokens is retried only when a token that can end a step
// arrives (a close tag, a TURN closer, an opener after text) or when the pending tokens have
// doubled, so retries cost amortized O(1) per token. Settled input is dropped at the end of a
// statement (the lexer pauses there for the parser and builder to catch up), and a large chunk
// goes in by 64 KB pieces, so memory follows what is open however the input is cut.
//
// A stream that tells no one (no callback, no runaway check) reports nothing before finish(),
// so it does the same work in batches: it lexes once 1 KB has arrived since it last did, and
// parses and builds where input can be released. Whatever asks where the parse stands
// (safe_prefix(), open(), set_callback(), set_runaway_limit()) catches it up first.
//
// open() folds the settled tokens, once each, into what is open (the last opener not closed yet,
// which slot it is in, the stack of open TURN bodies) and scans the held input once for openers
// swallowed after the open statement's own; the runaway check reads that after each feed().
#include "plurnk/stream.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/work_counter.hpp"
#include "pipeline/input_buffer.hpp"
#include "pipeline/pipeline.hpp"
#include "pipeline/stream_scratch.hpp"

namespace plurnk {

namespace {

// What the stream adds to the pipeline (stream_parser::state), apart from what it was made for:
// all that reset() puts back as the constructor leaves it. Compared by contents, not capacity
// (a reset stream equals a fresh one: the tests compare them).
struct stream_fields {
    static constexpr std::size_t npos = static_cast<std::size_t>(-1);

    detail::input_buffer buffer;
    bool finished = false;
    std::uint64_t past_limit = 0;  // bytes fed past max_input_bytes (left out)
    std::size_t released = 0;  // settled bytes dropped from the front of `buffer`
    std::size_t release_threshold = stream_parser::k_default_release_threshold;
    std::size_t tried_tokens = 0;  // tokens available at the last statement-parser attempt
    std::size_t built_settled = 0;   // syntax.settled() at the last builder.advance()
    std::size_t built_errors = 0;    // lexer and parser errors at the last builder.advance()

    // What is open (open(), the runaway check).
    struct open_tracker {
        std::size_t scan = 0;            // tokens folded in so far
        bool has = false;                // a statement is open
        open_info::where_t where = open_info::where_t::none;
        plurnk::op op = plurnk::op::PLAN;
        std::string suffix;
        std::size_t begin = 0;           // absolute offset of its `<<`
        std::size_t opener_scan = 0;     // absolute offset where the swallowed-opener scan resumes
        std::size_t openers = 0;
        std::vector<std::pair<std::size_t, std::string>> turns;  // open TURN bodies: begin, suffix
        friend bool operator==(const open_tracker&, const open_tracker&) = default;
    };
    open_tracker open_state;
    std::size_t runaway_limit = 0;
    std::size_t fired_statement = npos;  // begin of the statement / TURN a runaway was reported for
    std::size_t fired_turn = npos;

    std::size_t lex_after = 0;   // state::k_lazy
    bool watched = true;         // state::note_modes()
    std::size_t pause_from = 0;  // state::pause_at()
    mutable std::size_t close_scan_opener = npos;  // open_to_the_end(): the opener searched after
    mutable std::size_t close_scan_from = 0;       // and how far (absolute offsets)

    friend bool operator==(const stream_fields&, const stream_fields&) = default;
};

}  // namespace

// The pipeline (pipeline.hpp) over the buffer, with what the stream adds (stream_fields): events,
// laziness, where to pause and what is open.
struct stream_parser::state : detail::pipeline, stream_fields {
    state(tier tr, const parse_options& o) : pipeline(tr, o), t(tr), options(o), limit(detail::input_limit(o)) {
        // Room for the tokens of the first release threshold's worth of input (a token per 8
        // bytes or so), rather than growing from one by doubling.
        pipeline::reserve_tokens(k_first_tokens);
        start();
    }
    static constexpr std::size_t k_first_tokens = 512;
    // What the constructor sets up after the pipeline (the room for tokens is kept by a reset).
    void start() {
        buffer.set_limit(limit);
        // The rest of a statement is lexed once its close may have arrived (lexer.hpp), except
        // where what is open is looked at after every feed (the runaway check).
        lexer.set_deferral(true);
    }
    // Back to what the constructor leaves, keeping the room of the buffer and of the vectors
    // (the thread's spare, stream_scratch.hpp).
    void reset() {
        pipeline::reset();
        pipeline::reserve_tokens(k_first_tokens);  // (kept: a check)
        detail::input_buffer kept = std::move(buffer);
        static_cast<stream_fields&>(*this) = stream_fields{};
        kept.clear();
        buffer = std::move(kept);
        start();
    }
    // Whether this state, reset, is what the constructor would make for (tr, o).
    [[nodiscard]] bool made_for(tier tr, const parse_options& o) const noexcept {
        return pipeline::made_for(tr, o) && limit == detail::input_limit(o);
    }
    // What a spare would hold: the room of the buffer and of the pipeline's vectors that grow
    // with the input (pipeline::room_bytes(), as parse()'s scratch counts it), with
    // k_held_per_buffer_byte a byte of the buffer's room for the rest (the builder's tables
    // follow what was held).
    [[nodiscard]] std::size_t held_bytes() const noexcept {
        return (1 + k_held_per_buffer_byte) * buffer.capacity() + room_bytes();
    }
    static constexpr std::size_t k_held_per_buffer_byte = 8;
    // And what it holds of its stream until a reset: the input its items view (which its
    // builder shares with the result) and the items of a stream not finished, k_held_per_buffer_byte
    // a byte of input.
    [[nodiscard]] std::size_t content_bytes() const noexcept {
        return k_held_per_buffer_byte * (released + buffer.size());
    }

    tier t;
    parse_options options;
    std::size_t limit;  // detail::input_limit(options)

    // Drops the settled input when everything before the lexer's position is taken: no statement
    // open, every token parsed and reported. What stays is the unsettled rest, so memory follows
    // what is still open. Done only when at least release_threshold bytes can go, so the
    // erase's cost (the bytes kept) is amortized by the bytes dropped.
    void maybe_release() {
        // (The lexer's position is within the buffer: below the threshold, the call that asks for
        // it is not made. A stream with a callback asks after every statement.)
        if (buffer.size() < release_threshold || !lexer_releasable() || !can_release()) return;
        const std::size_t cut = release(buffer.view(), [this] {
            // No statement is open (can_release says so). The dropped tokens are folded first
            // when they may open or close a TURN body (those open stay open: the lexer keeps
            // their suffixes); then folding starts over without them.
            if (lexer.turns_touched() || !open_state.turns.empty()) fold_tokens();
            open_state.scan = 0;
            open_state.has = false;
        });
        buffer.erase_front(cut);
        released += cut;
        tried_tokens = 0;
        built_settled = 0;
        built_errors = 0;
        pause_from = 0;
    }
    // Whether the lexer and the statement parser are where maybe_release() can drop the input:
    // past the threshold, nothing open, every token parsed, and the erase amortized.
    [[nodiscard]] bool release_due() const {
        return lexer_releasable() && syntax.can_release(tokens().size());
    }
    // The lexer's part of it.
    [[nodiscard]] bool lexer_releasable() const {
        if (release_threshold == 0 || lexer.position() < release_threshold) return false;
        if (2 * lexer.position() < buffer.size()) return false;  // keep the erase amortized
        return lexer.can_release(buffer.view());
    }
    // ---- What is open (open(), the runaway check): open_state, in stream_fields ----

    // Folds the tokens lexed since the last call (tokens are only appended, or all dropped by a
    // release, which happens only with no statement open).
    void fold_tokens() {
        using W = open_info::where_t;
        open_tracker& o = open_state;
        const auto& toks = lexer.output().tokens;
        for (; o.scan < toks.size(); ++o.scan) {
            const detail::token& t = toks[o.scan];
            switch (t.kind) {
                case detail::tok::opener:
                    o.has = true;
                    o.op = t.op;
                    o.where = W::slots;
                    o.begin = released + t.begin;
                    o.suffix = t.end > t.begin + 6 ? std::string(buffer.view().substr(t.begin + 6, t.end - t.begin - 6)) : std::string();
                    o.openers = 0;
                    o.opener_scan = o.begin + 2;
                    break;
                case detail::tok::lbrack: o.where = W::signal; break;
                case detail::tok::lparen: o.where = W::target; break;
                case detail::tok::rbrack:
                case detail::tok::rparen:
                case detail::tok::scope: o.where = W::slots; break;
                case detail::tok::colon:
                    if (o.has && o.op == plurnk::op::TURN) {
                        o.turns.emplace_back(o.begin, std::move(o.suffix));
                        o.has = false;
                    } else {
                        o.where = W::body;
                    }
                    break;
                case detail::tok::close_turn:
                    if (!o.turns.empty()) o.turns.pop_back();
                    break;
                case detail::tok::close_tag:
                case detail::tok::text:
                case detail::tok::eof: o.has = false; break;
                default: break;
            }
        }
        if (!o.has) return;
        // Openers at the start of a line after the open statement's own, each position looked at
        // once.
        const std::string_view in = buffer.view();
        std::size_t i = std::max(o.opener_scan, released) - released;
        for (;;) {
            i = in.find("<<", i);
            if (i == std::string_view::npos) {
                i = in.empty() ? 0 : in.size() - 1;  // a `<` at the end may start one
                break;
            }
            if (i + 6 > in.size()) break;  // its keyword has not arrived yet
            if (at_line_start(in, i) && op_from_name(in.substr(i + 2, 4))) ++o.openers;
            ++i;
        }
        o.opener_scan = std::max(o.opener_scan, released + i);
    }

    // Whether only spaces and tabs stand between buffer[i] and a line end before it. (The open
    // statement's `<<` is held, and it comes before i, so the look back stays in the buffer.)
    static bool at_line_start(std::string_view in, std::size_t i) noexcept {
        while (i > 0 && (in[i - 1] == ' ' || in[i - 1] == '\t')) --i;
        return i > 0 && (in[i - 1] == '\n' || in[i - 1] == '\r');
    }

    open_info info() {
        fold_tokens();
        open_info r;
        const open_tracker& o = open_state;
        r.turn_depth = o.turns.size();
        const std::size_t end = released + buffer.size();
        if (o.has) {
            r.where = o.where;
            r.op = o.op;
            r.suffix = o.suffix;
            r.begin = o.begin;
            r.openers = o.openers;
        } else if (!o.turns.empty()) {
            r.where = open_info::where_t::turn;
            r.op = plurnk::op::TURN;
            r.begin = o.turns.back().first;
            r.suffix = o.turns.back().second;
        } else {
            return r;
        }
        r.bytes = end - r.begin;
        return r;
    }

    [[gnu::noinline]] void check_runaway(const runaway_callback& cb) {
        using W = open_info::where_t;
        if (runaway_limit == 0 || !cb) return;
        const open_info o = info();
        if (o.where == W::none) return;
        const bool fire = o.bytes > runaway_limit;
        std::size_t& fired = o.where == W::turn ? fired_turn : fired_statement;
        if (!fire || fired == o.begin) return;
        fired = o.begin;
        cb(o);
    }

    // The rest of a feed() that left its fast path: the chunk did not fit (in the buffer's room
    // or under the input limit), or is larger than k_few. It is appended here (or by pieces,
    // feed_pieces()), then lexed (lex_fed()). Out of line: most feeds do not get here, and need
    // not pay for what it keeps in registers. Static, with feed()'s own arguments first: feed()
    // hands over in a jump, moving no register (the state is loaded here).
    [[gnu::noinline]] static void feed_on(stream_parser& p, std::string_view chunk);
    // A feed whose bytes feed() appended and that may wake the lexer's step: lex_fed().
    [[gnu::noinline]] static void feed_woken(stream_parser& p) { p.state_->lex_fed(p); }
    // feed_on() for a chunk larger than k_piece, one that does not fit in the buffer's room or
    // under the input limit, or an empty one: out of line, so that the common feed does not set
    // up, nor save the registers of, the limit's cut and the loop over the pieces.
    [[gnu::noinline]] void feed_pieces(stream_parser& p, std::string_view chunk);
    // The end of a feed: the lexer (then the parser and the builder) on what was appended, and
    // the runaway check. A stream with a callback and no runaway check has nothing to do after
    // the lexer's steps (lex_after stays 0 while there is a callback: set_callback()), so they
    // are a jump, and the caller saves no register for what would follow.
    [[gnu::always_inline]] void lex_fed(stream_parser& p) {
        if (p.callback_ && runaway_limit == 0) return lex_steps(p.callback_);
        lex_more(p.callback_);
        if (runaway_limit != 0) check_runaway(p.runaway_);
    }
    static constexpr std::size_t k_piece = 64 * 1024;
    // feed() appends a chunk of up to k_few bytes inline (input_buffer::append_few()); the lexer's
    // short sleep check looks at up to k_short of them (a byte at a time, where the long check
    // finds a body's ':' with memchr).
    static constexpr std::size_t k_few = 16;
    static constexpr std::size_t k_short = detail::stream_lexer::k_short;
    // finish() hands over a buffer holding at least this much (below it, a copy is cheap).
    static constexpr std::size_t k_take_over = 64 * 1024;
    // Before a piece of n bytes of a large chunk with `rest` bytes to go (the piece included):
    // when the tokens would outgrow their room, they are piling up (nothing settles to be
    // released), and they get room for the rest of the chunk at once, as the one-shot lexer
    // reserves for its input (a token per 3 bytes); doubling would copy them and touch up to
    // twice their memory. Room that stays unused is address space only.
    void reserve_tokens(std::size_t n, std::size_t rest) {
        const auto& toks = tokens();
        const std::size_t need = toks.size() + n / 3 + 4;
        if (need <= toks.capacity()) return;
        const std::size_t want = std::max(toks.empty() ? need : toks.size() + rest / 3 + 4, 2 * toks.capacity());
        pipeline::reserve_tokens(want);
    }
    void parse_more(const callback& cb);
    // The builder on what settled since it last ran (with `cb` for events), then a release
    // (`lexed`: the lexer's output, where the caller has it).
    void build(const callback& cb) { build(cb, lexer.output()); }
    void build(const callback& cb, const detail::lex_output& lexed);

    // The lexer on what the buffer holds, then the statement parser and the builder when
    // worth_trying() says so. The lexer pauses at a statement's close tag where a release could
    // happen (pause_at()), and the parser and builder catch up there, so settled input is
    // dropped at the end of a statement whatever the chunking, not only when a chunk happens to
    // end between two statements.
    void lex_more(const callback& cb);
    void lex_steps(const callback& cb);
    // A stream that tells no one (no callback, no runaway check) has nothing to report before
    // finish(), and lexes only once k_lazy bytes have arrived since it last did: feed() of a few
    // bytes then appends them and returns, and the lexer runs on larger pieces, as for larger
    // chunks (the result is the same for every chunking). What asks where the parse stands
    // (safe_prefix(), open(), set_callback(), set_runaway_limit()) catches up first.
    // lex_after (stream_fields): the buffer size at which feed() lexes again; 0 when every feed
    // lexes.
    static constexpr std::size_t k_lazy = 1024;
    // Whether a feed of a few bytes has more to do than a stream with a callback (which stops
    // where the lexer stays asleep): a stream that tells no one (lex_after is not 0 only with no
    // callback) lexes when lex_after is reached, and the runaway check looks after every feed.
    // feed() tests this once, where it tested both; feed_watched() takes the rest. Set where the
    // callback or the runaway limit is (`watched`, in stream_fields).
    void note_modes(bool has_callback) noexcept { watched = !has_callback || runaway_limit != 0; }
    // feed() for such a stream (the chunk appended); static as feed_on() is.
    [[gnu::noinline]] static void feed_watched(stream_parser& p, std::string_view chunk) {
        state& s = *p.state_;
        if (s.lex_after != 0 || chunk.size() > k_short || !s.lexer.stays_asleep_short(s.buffer.view())) {
            return feed_woken(p);
        }
        if (s.runaway_limit != 0) s.check_runaway(p.runaway_);
    }
    // The lexer and the statement parser up to date, at least as far as a callback would have
    // them: the parser tries when worth_trying() says so, or with `always` (once, for
    // set_callback(): a call per feed that always tried could retry a long step at each).
    void catch_up(const callback& cb, bool always) {
        if (finished) return;
        lex_deferred(cb);
        if (worth_trying() || (always && tried_tokens != tokens().size())) parse_more(cb);
    }
    // The bytes such a stream has not lexed yet, lexed now (those that cannot wake the lexer's
    // sleeping step are only looked at, inline).
    void lex_deferred(const callback& cb) {
        if (lex_after != 0 && !lexer.stays_asleep(buffer.view())) lex_more(cb);
    }
    // And a statement whose lexing waits for its close, lexed now (for what reads the tokens of
    // what is open: open(), the runaway check).
    void lex_open_statement(const callback& cb) {
        lex_deferred(cb);
        if (!lexer.deferring()) return;
        lexer.stop_deferring();
        lex_more(cb);
    }
    // Where the lexer may pause: past the release threshold, far enough that the erase would be
    // amortized (maybe_release()), and a threshold past the last pause that released nothing.
    std::size_t pause_at() const noexcept {
        if (release_threshold == 0) return detail::stream_lexer::k_no_pause;
        return std::max({release_threshold, pause_from, (buffer.size() + 1) / 2});
    }

    // Whether a parser attempt is worth it now. Each token is looked at once, not once per feed
    // until the next attempt (that was quadratic on a long run of tokens that end no step).
    bool worth_trying() {
        const auto& toks = tokens();
        if (toks.size() == tried_tokens) return false;
        // A close tag or a TURN's closer among the tokens not looked at yet ends a step: try.
        const auto [from, close] = syntax.note_closes(toks);
        // No token since the parser last looked: the answer is still the last one, which was no
        // (a yes ran the parser, which sets tried_tokens).
        if (toks.size() == from) return false;
        detail::count_token_looks(toks.size() - from);
        // Else a statement under way settles nothing before its close tag, and the parser would
        // not even try its step.
        if (close) return true;
        if (!syntax.can_step(toks)) return false;
        bool opener = false, other = false;  // a statement's opener; any token but a TURN's `<<TURN:`
        for (std::size_t i = from; i < toks.size(); ++i) {
            const detail::tok k = toks[i].kind;
            const bool turn = k == detail::tok::opener && toks[i].op == plurnk::op::TURN;
            opener = opener || (k == detail::tok::opener && !turn);
            other = other || !(turn || k == detail::tok::colon);
        }
        if (opener) return true;
        const std::size_t pending = tried_tokens - syntax.settled();
        // Nothing new but TURN openers and colons: inside a turn each `<<TURN:` is an error that
        // no statement claims (reported at finish()), so nothing is held back by waiting for a
        // few, and the statement parser then sees a repeated cycle's next tokens and copies the
        // cycle instead of running it.
        if (!other) return toks.size() - tried_tokens >= std::max(pending, k_turn_batch);
        return toks.size() - tried_tokens >= pending;
    }
    static constexpr std::size_t k_turn_batch = 32;

    // peek_end() without a copy, in its common case: all that is pending is a statement (not a
    // TURN) whose close tag has not arrived: no `:` and its tag anywhere after its opener (a
    // conservative test: such bytes that are no close tag send it the long way), so the end of
    // input settles no item and makes that statement the unparsed tail. Returns where it begins
    // (else npos). Each byte is searched about once: the search resumes where it stopped.
    [[nodiscard]] std::size_t open_to_the_end() const {
        const auto& toks = lexer.output().tokens;
        const std::size_t first = syntax.settled();
        if (first >= toks.size() || toks[first].kind != detail::tok::opener || toks[first].op == plurnk::op::TURN) {
            return npos;
        }
        const std::string_view in = buffer.view();
        const detail::token& t = toks[first];
        const std::size_t opener = released + t.begin;
        if (close_scan_opener != opener) {
            close_scan_opener = opener;
            close_scan_from = released + t.end;
        }
        const std::string_view tag = in.substr(t.begin + 2, t.end - t.begin - 2);
        for (std::size_t at = close_scan_from - released; at < in.size();) {
            const std::size_t colon = in.find(':', at);
            if (colon == std::string_view::npos) break;
            if (in.substr(colon + 1, tag.size()) == tag) return npos;  // (or the start of one)
            if (in.size() - colon - 1 < tag.size()) return npos;      // a close may be arriving
            at = colon + 1;
        }
        close_scan_from = released + in.size();
        return opener;
    }
};

// The thread's spare (stream_scratch.hpp).
struct detail::stream_access::spare_slot {
    std::unique_ptr<state> spare;
    bool dirty = false;  // as its stream left it (the stream that takes it resets it)
    ~spare_slot();
};

namespace {
// Apart from the spare, trivially destructible (usable while the thread's objects are destroyed):
// what the spare did, and whether the thread's spare is gone (a stream destroyed after it, by a
// thread_local or static destructor, frees its state).
struct spare_flags {
    bool gone = false;
    detail::stream_scratch_stats stats;
};
constinit thread_local spare_flags t_spare_flags;
thread_local detail::stream_access::spare_slot t_spare;
}  // namespace

detail::stream_access::spare_slot::~spare_slot() {
    spare.reset();
    t_spare_flags.gone = true;
}

std::unique_ptr<detail::stream_access::state> detail::stream_access::take(tier t, const parse_options& o) {
    std::unique_ptr<state>& spare = t_spare.spare;
    if (spare && spare->made_for(t, o)) {
        std::unique_ptr<state> s = std::move(spare);
        if (t_spare.dirty) s->reset();  // (if it throws, the state is freed: no spare is left)
        s->options = o;  // (what the state was made for is the same; the rest of the options too)
        ++t_spare_flags.stats.reused;
        return s;
    }
    spare.reset();
    ++t_spare_flags.stats.fresh;
    return std::make_unique<state>(t, o);
}

// Reset when taken: a thread's last stream leaves a spare that no stream may take, and the reset
// is then not done (nor counted) for nothing. A state whose stream's input and items would take
// the spare past the cap is reset here instead, so that a spare never keeps more than the cap of a
// dead stream (its input, which its builder shares with the result, may be large). Nothing here
// or in take() calls user code (the callbacks are the stream_parser's, not the state's), so a
// callback that makes or destroys streams cannot find the slot half updated; a reset that throws
// frees the state.
void detail::stream_access::give_back(std::unique_ptr<state> s) noexcept {
    if (!s || t_spare_flags.gone || t_spare.spare) return;
    const std::size_t held = s->held_bytes();
    if (held > k_stream_scratch_cap) {
        ++t_spare_flags.stats.released;
        return;
    }
    const bool dirty = held + s->content_bytes() <= k_stream_scratch_cap;
    if (!dirty) {
#if defined(__cpp_exceptions)
        try {
            s->reset();
        } catch (...) {
            return;
        }
#else
        s->reset();  // (the core compiles without exceptions too: running out of memory aborts)
#endif
        ++t_spare_flags.stats.reset_given;
    }
    ++t_spare_flags.stats.kept;
    t_spare.spare = std::move(s);
    t_spare.dirty = dirty;
}

detail::stream_scratch_stats detail::stream_scratch_state() noexcept {
    stream_scratch_stats r = t_spare_flags.stats;
    r.held = !t_spare_flags.gone && t_spare.spare != nullptr;
    return r;
}

void detail::release_stream_scratch() noexcept {
    if (!t_spare_flags.gone) t_spare.spare.reset();
}

[[gnu::cold]] void detail::stream_access::reset(stream_parser& p) {
    p.callback_ = nullptr;
    p.runaway_ = nullptr;
    p.state_->reset();
}

// (Cold: tests only, kept from weighing on how the stream's own code is inlined.)
[[gnu::cold]] bool detail::stream_access::is_fresh(const stream_parser& p) {
    const state& s = *p.state_;
    const state fresh(s.t, s.options);
    if (static_cast<const stream_fields&>(s) != fresh || !s.made_for(fresh.t, fresh.options)) return false;
    // The pipeline: its stages compared where they say how (operator==), else what they hold.
    const auto same = []<class T>(const T& a, const T& b) {
        if constexpr (requires { a == b; }) {
            return a == b;
        } else {
            return true;
        }
    };
    if (!same(s.lexer, fresh.lexer) || !same(s.syntax, fresh.syntax) || !same(s.builder, fresh.builder)) return false;
    const auto& l = s.lexer.output();
    return s.tokens().empty() && l.errors.empty() && s.lexer.position() == 0 && s.syntax.settled() == 0 &&
           s.syntax.tree().units.empty() && s.syntax.tree().errors.empty() && s.builder.live_items() == 0 &&
           s.builder.live_statements() == 0 && s.lexer.deferring() == fresh.lexer.deferring();
}

stream_parser::stream_parser(tier t, const parse_options& options) : state_(detail::stream_access::take(t, options)) {}
stream_parser::~stream_parser() { detail::stream_access::give_back(std::move(state_)); }
// A copy shares the items built so far (share() hands them to a reference-counted log first), so
// it costs O(retained()) rather than O(history). `other` is const, its state is not: sharing does
// not change what it reports.
stream_parser::stream_parser(const stream_parser& other) : callback_(other.callback_), runaway_(other.runaway_) {
    other.state_->builder.share();
    other.state_->builder.mark_positions(other.state_->buffer.view());
    state_ = std::make_unique<state>(*other.state_);
}
stream_parser& stream_parser::operator=(const stream_parser& other) {
    if (this != &other) {
        other.state_->builder.share();
        other.state_->builder.mark_positions(other.state_->buffer.view());
        detail::stream_access::give_back(std::exchange(state_, std::make_unique<state>(*other.state_)));
        callback_ = other.callback_;
        runaway_ = other.runaway_;
    }
    return *this;
}
stream_parser::stream_parser(stream_parser&&) noexcept = default;
stream_parser& stream_parser::operator=(stream_parser&& other) noexcept {
    if (this != &other) {
        detail::stream_access::give_back(std::exchange(state_, std::move(other.state_)));
        callback_ = std::move(other.callback_);
        runaway_ = std::move(other.runaway_);
    }
    return *this;
}

// What settled before the callback is set was settled with no one to tell (a parser with no
// callback parses and builds in batches): the parser catches up, and what settled is built now,
// with no events (such items are reported at finish()); events follow from there.
void stream_parser::set_callback(callback cb) {
    if (!state_->finished && cb && !callback_) {
        state_->catch_up(nullptr, true);
        state_->build(nullptr);
        state_->lex_after = 0;  // from now on every feed lexes
    }
    callback_ = std::move(cb);
    state_->note_modes(static_cast<bool>(callback_));
}

namespace {
// `use` called with the sink that reports to `cb` (none when `cb` is empty).
template <class F>
decltype(auto) with_sink(const stream_parser::callback& cb, F&& use) {
    const auto report = [&cb](const item& it, std::size_t index) { cb(stream_event{it, index}); };
    return use(cb ? detail::result_builder::sink(report) : detail::result_builder::sink());
}

}  // namespace

void stream_parser::state::parse_more(const callback& cb) {
    // (pipeline::parse(false) with the lexer's output asked once for it, this and build(): each
    // question is a call.)
    const detail::lex_output& lexed = lexer.output();
    syntax.advance(lexed.tokens, false);
    tried_tokens = lexed.tokens.size();
    // With no callback, nothing is reported before finish(): the builder runs when the input can
    // be released, on every statement settled since, rather than once per statement (its code
    // and data are fetched once per batch). What it builds is the same either way.
    if (cb || release_due()) build(cb, lexed);
}

void stream_parser::state::build(const callback& cb, const detail::lex_output& lexed) {
    // The builder takes settled tokens and new errors: with neither there is nothing for it to do
    // (nor to release, which needs every token settled).
    // (pipeline::build() with what this asked the lexer and the parser: each question is a call.)
    const detail::syntax_tree& tree = syntax.tree();
    const std::size_t settled = syntax.settled();
    const std::size_t errors = lexed.errors.size() + tree.errors.size();
    if (settled == built_settled && errors == built_errors) return;
    built_settled = settled;
    built_errors = errors;
    with_sink(cb, [&](const detail::result_builder::sink& out) {
        builder.advance(buffer.view(), lexed, tree, settled, out);
    });
    maybe_release();
}

// The common feed, all inline and with no call but in tail position (so it saves no registers):
// a chunk of up to k_few bytes that fits is appended here; a stream that tells no one is done
// with it, and one with a callback is when the lexer's step stays asleep (its short check, for
// up to stream_lexer::k_short bytes: a longer chunk has the long one, in lex_steps()). The rest
// is feed_on() (the chunk not appended) or feed_woken() (appended).
// (After finish() the buffer has no room: every feed goes to feed_on(), which drops it, as it
// does an empty chunk.)
void stream_parser::feed(std::string_view chunk) {
    state& s = *state_;
    if (chunk.size() - 1 >= state::k_few || !s.buffer.fits_within_limit(chunk.size())) {
        return state::feed_on(*this, chunk);
    }
    const std::string_view held = s.buffer.append_few(chunk);
    if (held.size() < s.lex_after) return;  // a stream that tells no one lexes later
    if (s.watched) return state::feed_watched(*this, chunk);
    if (chunk.size() > state::k_short || !s.lexer.stays_asleep_short(held)) return state::feed_woken(*this);
}

void stream_parser::state::feed_on(stream_parser& p, std::string_view chunk) {
    state& s = *p.state_;
    // A chunk that fits (the buffer's room and the input limit, one bounds check) and is not
    // large goes in here; the rest, and an empty one, in feed_pieces().
    if (chunk.size() - 1 >= k_piece || !s.buffer.fits_within_limit(chunk.size())) return s.feed_pieces(p, chunk);
    s.buffer.append_fitting(chunk);
    if (s.buffer.size() < s.lex_after) return;  // a stream that tells no one lexes later
    s.lex_fed(p);
}

void stream_parser::state::feed_pieces(stream_parser& p, std::string_view chunk) {
    // (After finish() there is no room: what comes is dropped.)
    if (const std::size_t room = buffer.room_within_limit(); chunk.size() > room) {
        past_limit += chunk.size() - room;
        chunk = chunk.substr(0, room);
    }
    if (chunk.empty()) return;
    // A large chunk goes in by pieces, each taken as a feed of its own (without the runaway
    // check, which looks at the end of the chunk): what settles in a piece is released before
    // the next is appended, so the buffer and the token vectors stay about a piece long and warm,
    // where appending the whole chunk would copy it all into fresh memory. The buffer's room is
    // made for the whole chunk at once, for when nothing settles.
    if (chunk.size() > k_piece && !buffer.fits(chunk.size())) buffer.grow(chunk.size());
    // After the first piece, room for the records of the rest at the density seen in it.
    const std::size_t items = builder.live_items(), statements = builder.live_statements();
    bool projected = chunk.size() <= 2 * k_piece;
    while (chunk.size() > k_piece) {
        reserve_tokens(k_piece, chunk.size());
        buffer.append(chunk.substr(0, k_piece));
        chunk.remove_prefix(k_piece);
        lex_more(p.callback_);
        if (!projected) {
            projected = true;
            builder.expect_rest(k_piece, chunk.size(), items, statements);
        }
    }
    buffer.append(chunk);  // (the pieces leave 1 to k_piece bytes)
    if (buffer.size() < lex_after) return;  // a stream that tells no one lexes later
    lex_fed(p);
}

void stream_parser::state::lex_more(const callback& cb) {
    lex_steps(cb);
    lex_after = cb || runaway_limit != 0 ? 0 : buffer.size() + k_lazy;
}

void stream_parser::state::lex_steps(const callback& cb) {
    if (lexer.stays_asleep(buffer.view())) return;
    for (;;) {
        const std::size_t before = released;
        lexer.advance_steps(buffer.view(), false, pause_at());
        // With no callback nothing is reported before finish(): the statement parser runs only
        // where the input may then be released (so memory follows what is open as it does with
        // a callback), on every token lexed since, rather than at each token that may end a step.
        if ((cb || lexer_releasable()) && worth_trying()) parse_more(cb);
        if (!lexer.paused()) return;
        // A pause that released nothing: none before another threshold's worth of input.
        if (released == before) pause_from = lexer.position() + release_threshold;
    }
}

parse_result stream_parser::finish() {
    state& s = *state_;
    if (s.finished) {
        parse_result none;
        none.dialect = s.options.dialect;
        return none;
    }
    s.finished = true;
    s.buffer.set_limit(s.buffer.size());  // no room: feed() ignores what comes now
    const std::string_view in = s.buffer.view();
    s.run_to_end(in);
    // The result views the input held. A large buffer that is mostly full is handed over as it
    // is (the block stays where it is, and `in` with it); the rest is copied, so that a result
    // does not keep a mostly empty block alive.
    if (in.size() >= state::k_take_over && s.buffer.capacity() - in.size() <= s.buffer.capacity() / 4) {
        auto [block, size, capacity] = s.buffer.take();
        s.builder.input().append_owned(s.released, std::move(block), size, capacity);
        s.released += size;  // what size() and safe_prefix() count; retained() is 0 now
    } else {
        s.builder.input().append_copy(s.released, in);
    }
    parse_result r = with_sink(callback_, [&](const detail::result_builder::sink& out) { return s.finish(in, out); });
    r.dialect = s.options.dialect;
    const std::size_t kept = s.released + s.buffer.size();
    if (s.past_limit != 0) {
        detail::append_input_limit_error(r, s.builder.position_of(in.size()), kept, kept + s.past_limit);
        if (callback_) {
            const item last = r.items.back();
            callback_(stream_event{last, r.items.size() - 1});
        }
    }
    return r;
}

std::size_t stream_parser::peek_end(const callback& cb) const {
    if (state_->finished || !callback_) return size();
    if (const std::size_t tail = state_->open_to_the_end(); tail != state::npos) return tail;
    stream_parser copy(*this);  // what is held, and the items built so far shared, not copied
    state& s = *copy.state_;
    const std::string_view in = s.buffer.view();
    s.run_to_end(in);
    const detail::lex_output& lexed = s.lexer.output();
    const auto report = [&cb](const item& it, std::size_t index) {
        if (cb && !std::holds_alternative<diagnostic>(it)) cb(stream_event{it, index});
    };
    s.builder.settle_end(in, lexed, s.syntax.tree(), report);
    return lexed.tail.open != detail::open_slot::none ? s.released + lexed.tail.last_open_begin : size();
}

std::size_t stream_parser::size() const noexcept { return state_->released + state_->buffer.size(); }

std::size_t stream_parser::retained() const noexcept { return state_->buffer.size(); }

void stream_parser::set_release_threshold(std::size_t bytes) noexcept { state_->release_threshold = bytes; }

std::size_t stream_parser::safe_prefix() const {
    state& s = *state_;
    // A parser with no callback may not have lexed and parsed all it was fed (lex_more()).
    if (!callback_) s.catch_up(callback_, false);
    if (s.finished) return s.released + s.buffer.size();
    const auto& toks = s.lexer.output().tokens;
    const std::size_t settled = s.syntax.settled();
    if (settled < toks.size()) return s.released + toks[settled].begin;
    return s.released + s.lexer.position();
}

bool stream_parser::finished() const noexcept { return state_->finished; }

open_info stream_parser::open() const {
    state& s = *state_;
    if (s.finished) return {};
    s.lex_open_statement(callback_);  // it may not have lexed all it was fed
    return s.info();
}

void stream_parser::set_runaway_limit(std::size_t max_open_bytes, runaway_callback cb) {
    state& s = *state_;
    s.runaway_limit = max_open_bytes;
    s.note_modes(static_cast<bool>(callback_));
    runaway_ = std::move(cb);
    // The check looks at what is lexed after each feed: all of it from now on.
    s.lexer.set_deferral(max_open_bytes == 0);
    if (!s.finished && max_open_bytes != 0) s.lex_open_statement(callback_);
    if (!s.finished && s.lex_after != 0) s.lex_more(callback_);
}

}  // namespace plurnk
