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
    const std::size_t room = detail::input_limit(s.options) - s.buffer.size();
    if (room == 0) return;
    s.buffer.append(chunk.substr(0, room));
    s.lexer.advance(s.buffer, false);
    if (!s.worth_trying()) return;
    const auto& toks = s.lexer.output().tokens;
    s.syntax.advance(toks, s.buffer, false);
    s.tried_tokens = toks.size();
    s.builder.advance(s.buffer, s.lexer.output(), s.syntax.tree(), s.syntax.settled(), make_sink(callback_));
}

parse_result stream_parser::finish() {
    state& s = *state_;
    if (s.finished) return {};
    s.finished = true;
    s.lexer.advance(s.buffer, true);
    s.syntax.advance(s.lexer.output().tokens, s.buffer, true);
    parse_result r = s.builder.finish(s.buffer, s.lexer.output(), s.syntax.tree(), make_sink(callback_));
    if (s.total > s.buffer.size()) {
        detail::append_input_limit_error(r, s.buffer, s.total);
        if (callback_) callback_(stream_event{r.items.back(), r.items.size() - 1});
    }
    return r;
}

std::size_t stream_parser::size() const noexcept { return state_->buffer.size(); }

std::size_t stream_parser::safe_prefix() const noexcept {
    const state& s = *state_;
    if (s.finished) return s.buffer.size();
    const auto& toks = s.lexer.output().tokens;
    const std::size_t settled = s.syntax.settled();
    if (settled < toks.size()) return toks[settled].begin;
    return s.lexer.position();
}

bool stream_parser::finished() const noexcept { return state_->finished; }

}  // namespace plurnk
