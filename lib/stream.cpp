// The push parser. FIRST VERSION: buffers the input and parses at finish(); events fire at
// finish() only. The incremental engine replaces the internals without changing the interface.
#include "plurnk/stream.hpp"

#include <string>

namespace plurnk {

struct stream_parser::state {
    tier t;
    parse_options options;
    std::string buffer;
    bool finished = false;
};

stream_parser::stream_parser(tier t, const parse_options& options) : state_(std::make_unique<state>()) {
    state_->t = t;
    state_->options = options;
}
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

void stream_parser::feed(std::string_view chunk) {
    if (state_->finished) return;
    state_->buffer.append(chunk);
}

parse_result stream_parser::finish() {
    state_->finished = true;
    parse_result r = parse(state_->buffer, state_->t, state_->options);
    if (callback_) {
        for (std::size_t i = 0; i < r.items.size(); ++i) callback_(stream_event{r.items[i], i});
    }
    return r;
}

std::size_t stream_parser::size() const noexcept { return state_->buffer.size(); }
std::size_t stream_parser::safe_prefix() const noexcept { return state_->finished ? state_->buffer.size() : 0; }
bool stream_parser::finished() const noexcept { return state_->finished; }

}  // namespace plurnk
