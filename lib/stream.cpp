// SPDX-License-Identifier: MIT
// The push parser: the one-shot pipeline (lexer, statement parser, result builder) run over a
// growing input. Each feed() appends to the buffer, lexes the tokens that became stable, lets the
// statement parser take the steps those tokens allow, and reports the items that settled.
// finish() runs the same code to the end, so its result is parse() of the concatenation for any
// chunking. A statement-parser step that ran out of tokens is retried only when a token that can
// end a step arrives (a close tag, an opener, a TURN closer) or when the pending tokens have doubled,
// so retries cost amortized O(1) per token.
#include "plurnk/stream.hpp"

#include <string>

#include "builder.hpp"

namespace plurnk {

struct stream_parser::state {
    state(tier tr, const parse_options& o) : t(tr), options(o), lexer(o.max_turn_depth), syntax(tr), builder(tr, o) {}

    tier t;
    parse_options options;
    std::string buffer;
    detail::stream_lexer lexer;
    detail::stream_syntax syntax;
    detail::result_builder builder;
    bool finished = false;
    std::uint64_t total = 0;  // bytes fed, including any past max_input_bytes
    std::size_t released = 0;  // settled bytes dropped from the front of `buffer`
    std::size_t release_threshold = stream_parser::k_default_release_threshold;

    // Drops the settled input when everything before the lexer's position is taken: no statement
    // open, every token parsed and reported. What stays is the unsettled rest, so memory follows
    // what is still open. Done only when at least release_threshold bytes can go, so the
    // erase's cost (the bytes kept) is amortized by the bytes dropped.
    void maybe_release() {
        if (release_threshold == 0 || lexer.position() < release_threshold) return;
        const std::size_t tokens = lexer.output().tokens.size();
        if (!lexer.can_release() || !syntax.can_release(tokens) || !builder.can_release(tokens)) return;
        if (2 * lexer.position() < buffer.size()) return;  // keep the erase amortized
        builder.release(lexer.position(), tokens);
        syntax.release(tokens);
        const std::size_t cut = lexer.release();
        buffer.erase(0, cut);
        released += cut;
        tried_tokens = 0;
    }
    std::size_t tried_tokens = 0;  // tokens available at the last statement-parser attempt

    // Whether a parser attempt is worth it now.
    bool worth_trying() const {
        const auto& toks = lexer.output().tokens;
        if (toks.size() == tried_tokens) return false;
        for (std::size_t i = tried_tokens; i < toks.size(); ++i) {
            const detail::tok k = toks[i].kind;
            if (k == detail::tok::close_tag || k == detail::tok::opener || k == detail::tok::close_turn) return true;
        }
        const std::size_t pending = tried_tokens - syntax.settled();
        return toks.size() - tried_tokens >= pending;
    }
};

stream_parser::stream_parser(tier t, const parse_options& options) : state_(std::make_unique<state>(t, options)) {}
stream_parser::~stream_parser() = default;
stream_parser::stream_parser(const stream_parser& other)
    : state_(std::make_unique<state>(*other.state_)), callback_(other.callback_) {}
stream_parser& stream_parser::operator=(const stream_parser& other) {
    if (this != &other) {
        state_ = std::make_unique<state>(*other.state_);
        callback_ = other.callback_;
    }
    return *this;
}
stream_parser::stream_parser(stream_parser&&) noexcept = default;
stream_parser& stream_parser::operator=(stream_parser&&) noexcept = default;

void stream_parser::set_callback(callback cb) { callback_ = std::move(cb); }

namespace {
detail::result_builder::sink make_sink(const stream_parser::callback& cb) {
    if (!cb) return {};
    return [&cb](const item& it, std::size_t index) { cb(stream_event{it, index}); };
}
}  // namespace

void stream_parser::feed(std::string_view chunk) {
    state& s = *state_;
    if (s.finished || chunk.empty()) return;
    s.total += chunk.size();
    const std::size_t room = detail::input_limit(s.options) - (s.released + s.buffer.size());
    if (room == 0) return;
    s.buffer.append(chunk.substr(0, room));
    s.lexer.advance(s.buffer, false);
    if (!s.worth_trying()) return;
    const auto& toks = s.lexer.output().tokens;
    s.syntax.advance(toks, s.buffer, false);
    s.tried_tokens = toks.size();
    s.builder.advance(s.buffer, s.lexer.output(), s.syntax.tree(), s.syntax.settled(), make_sink(callback_));
    s.maybe_release();
}

parse_result stream_parser::finish() {
    state& s = *state_;
    if (s.finished) return {};
    s.finished = true;
    s.lexer.advance(s.buffer, true);
    s.syntax.advance(s.lexer.output().tokens, s.buffer, true);
    parse_result r = s.builder.finish(s.buffer, s.lexer.output(), s.syntax.tree(), make_sink(callback_));
    if (s.total > s.released + s.buffer.size()) {
        detail::append_input_limit_error(r, s.builder.position_of(s.buffer.size()), s.released + s.buffer.size(),
                                         s.total);
        if (callback_) callback_(stream_event{r.items.back(), r.items.size() - 1});
    }
    return r;
}

std::size_t stream_parser::size() const noexcept { return state_->released + state_->buffer.size(); }

std::size_t stream_parser::retained() const noexcept { return state_->buffer.size(); }

void stream_parser::set_release_threshold(std::size_t bytes) noexcept { state_->release_threshold = bytes; }

std::size_t stream_parser::safe_prefix() const noexcept {
    const state& s = *state_;
    if (s.finished) return s.released + s.buffer.size();
    const auto& toks = s.lexer.output().tokens;
    const std::size_t settled = s.syntax.settled();
    if (settled < toks.size()) return s.released + toks[settled].begin;
    return s.released + s.lexer.position();
}

bool stream_parser::finished() const noexcept { return state_->finished; }

}  // namespace plurnk
