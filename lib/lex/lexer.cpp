// SPDX-License-Identifier: MIT
// The PLURNK lexer (BEHAVIOUR §1). One pass over the input with a small mode enum: DEFAULT
// (between statements), SLOTS (after an opener), the three signal modes, TARGET and BODY; plus an
// explicit stack of open TURN suffixes. It imitates the reference ANTLR lexer exactly where that
// shows: longest match between competing rules, and on a character no rule accepts one error whose
// text runs from the failed token's start through the failing character, after which lexing
// resumes after that character in the same mode. Body text, the hot path, is scanned in bulk for a
// ':' followed by the open tag's first byte (next_tag_colon), then compared against the tag.
//
// The same code lexes a growing input for the push parser: every look past the end of the input
// marks the step, and a marked step is undone (its token is not yet stable) until more input or the
// end arrives. Every token kind that can be long (text, target and body runs, tags, executors,
// integers, scopes, opener suffixes, the close-tag and TURN-suffix compares, the blanks after a
// one-colon close) remembers how far an undone attempt got, so a long token arriving a few bytes
// at a time is still scanned once; and the search for a reasoning enclosure's closer remembers
// where the next closer is (or that there is none so far), so a run of unclosed openers costs
// one search, not one per opener. The step undone last may go to sleep (stream_lexer::advance()):
// while new bytes cannot change it (none of its run's wake set, a literal that keeps matching, a
// keyword still short of its bytes), advance() checks them inline and runs no step. The push
// parser may ask the lexer to pause after a close tag, to release what came before.
// work_counter.hpp counts the bytes examined.
//
// This file has the public API (stream_lexer); the steps are in modes.cpp, the state, its
// primitives and the stepping loop in lexer_state.hpp, the whole-statement reader in
// statement_reader.cpp.
#include "lex/lexer_state.hpp"

namespace plurnk::detail {

stream_lexer::stream_lexer(std::size_t max_turn_depth, parse_dialect dialect) : impl_{new impl(max_turn_depth, dialect)} {}
stream_lexer::~stream_lexer() { delete impl_.p; }
stream_lexer::stream_lexer(const stream_lexer& other) : impl_{new impl(*other.impl_)} {}
// A copy is awake (the sleep's fields as declared), whatever its original does: its next advance
// steps from the cursor, as the original's would once it woke. Assignment gives the same.
stream_lexer& stream_lexer::operator=(const stream_lexer& other) {
    if (this != &other) {
        *impl_ = *other.impl_;
        wake_up();
    }
    return *this;
}
bool stream_lexer::same(const impl& a, const impl& b) noexcept { return a == b; }

void stream_lexer::reset() noexcept {
    impl_->reset();
    wake_up();
}
void stream_lexer::wake_up() noexcept {
    // The sleep's fields, as declared (wake_at_ 0: awake).
    paused_ = false;
    sleep_ = sleep_kind::awake;
    wake_ = nullptr;
    tag_at_ = tag_len_ = until_ = lit_shift_ = seen_ = pending_ = 0;
    close_after_ = 0;
    wake_at_ = 0;
}
// Out of line (stream_lexer::advance() is inline): a step asleep first takes the bytes seen
// since it stalled, then the steps run, and the step undone last (if any) may go to sleep.
void stream_lexer::advance_steps(std::string_view input, bool finished, std::size_t pause_at) {
    const bool closed = sleep_ == sleep_kind::closed;  // (seen_: the close, found whole)
    if (sleep_ != sleep_kind::awake) impl_->resume(seen_);
    paused_ = impl_->advance(input, finished, pause_at, closed);
    if (paused_) {
        sleep_ = sleep_kind::awake;  // no step was undone
    } else {
        impl_->sleep(*this);
    }
    if (sleep_ == sleep_kind::awake) wake_at_ = 0;  // (stays_asleep() tests only the length)
}
const lex_output& stream_lexer::output() const noexcept { return impl_->out_; }
std::size_t stream_lexer::position() const noexcept { return impl_->cur_.i; }

bool stream_lexer::can_release(std::string_view input) const noexcept {
    const impl& m = *impl_;
    // Between statements (an open TURN's suffix is kept aside), and not inside a UTF-8 sequence
    // (positions restart counting at the cut).
    return !m.eof_emitted_ && m.cur_.lex_mode == mode::normal && m.cur_.depth == 0 && m.cur_.i > 0 &&
           m.cur_.i <= input.size() && static_cast<unsigned char>(input[m.cur_.i - 1]) < 0x80;
}

bool stream_lexer::turns_touched() const noexcept { return impl_->turns_.touched(); }

std::size_t stream_lexer::release(std::string_view input) {
    impl& m = *impl_;
    const std::size_t cut = m.cur_.i;
    // The open TURNs' suffixes are in the input being dropped: they are kept aside.
    count_bytes(m.turns_.released(input));
    seen_ = seen_ >= cut ? seen_ - cut : 0;
    until_ = until_ >= cut ? until_ - cut : 0;
    m.body_scan_ = m.body_scan_ >= cut ? m.body_scan_ - cut : 0;
    m.reader_.released(cut);
    m.hints_.released(cut);
    for (closer_memo& c : m.closers_) c.released(cut);
    m.cur_.released();
    m.out_.tail.released(cut);
    m.out_.tokens.clear();
    m.out_.errors.clear();
    m.s_ = {};
    return cut;
}

void stream_lexer::set_token_budget(std::size_t n) noexcept {
    impl_->token_budget_ = n;
    impl_->stop_after_ = static_cast<std::size_t>(-1);
}
void stream_lexer::set_error_budget(std::size_t n) noexcept { impl_->error_budget_ = n; }
bool stream_lexer::at_end() const noexcept { return impl_->eof_emitted_; }
void stream_lexer::set_deferral(bool on) noexcept { impl_->reader_.allow_deferral(on); }
bool stream_lexer::deferring() const noexcept { return impl_->reader_.deferring(); }
void stream_lexer::stop_deferring() noexcept {
    impl_->reader_.stop_deferring();
    sleep_ = sleep_kind::awake;
    wake_at_ = 0;
}
void stream_lexer::forget_errors() noexcept { impl_->out_.errors.clear(); }
void stream_lexer::release_tokens() noexcept {
    impl_->out_.tokens.clear();
    impl_->out_.errors.clear();
}

lex_output stream_lexer::take_output() noexcept { return std::move(impl_->out_); }
void stream_lexer::reserve_tokens(std::size_t n) { impl_->out_.tokens.reserve(n); }

lex_output lex(std::string_view input, std::size_t max_turn_depth, parse_dialect dialect) {
    stream_lexer l(max_turn_depth, dialect);
    // Room for the densest common shapes (a token per 3 bytes): untouched reserve is only address
    // space, while growing copies every token and touches twice the memory.
    l.reserve_tokens(input.size() / 3 + 4);
    l.advance(input, true);
    return l.take_output();
}

}  // namespace plurnk::detail
