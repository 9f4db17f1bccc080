// SPDX-License-Identifier: MIT
// The statement parser: recursive descent over the token stream for the four document tiers
// (BEHAVIOUR §2), in layers: token_cursor.hpp reads the tokens and records the tree,
// error_strategy.hpp is the reference's ANTLR error handling, parse_state.hpp records the units
// over them, productions.cpp holds the productions, one function per rule, and tier_machine.cpp
// runs the top-level rules as a resumable machine so that a stream can stop between any two
// steps (a statement is parsed within one step). This file is the parser as the pipeline sees
// it: stream_syntax, parse_syntax() and the state dump the tests compare.
// Grammar (tokens from the lexer):
//   document   : turn_content EOF
//   turn_content: TEXT* plan (mid_statement | TEXT)* terminal_send TEXT*
//   statements : statement* EOF          client: (statement | look | buff)* EOF
//   log        : turn+ EOF               turn  : TURN_OPEN slots? COLON turn_content CLOSE_TURN
//   op statement: OPEN slots? COLON? BODY* CLOSE   (WORK/FORK: a body is required)
//   slots      : the op's signal, target and scope slots, any order, each at most once
#include "syntax/statement_parser.hpp"

#include <cstddef>
#include <string>

#include "grammar/token.hpp"
#include "syntax/tier_machine.hpp"

namespace plurnk::detail {

namespace {

class syntax_parser : public tier_machine {
public:
    using tier_machine::tier_machine;
    friend bool operator==(const syntax_parser&, const syntax_parser&) = default;

    void reserve_errors(std::size_t n) { tree_.errors.reserve(n); }
    // Room for `n` tokens, and for the units they may hold (a statement is rarely under 8 tokens).
    void reserve_tokens(std::size_t n) {
        tree_.token_unit.reserve(n);
        tree_.units.reserve(n / 8 + 4);
    }

    // See stream_syntax::dump_state().
    [[nodiscard]] std::string dump_state() const {
        std::string s;
        const auto num = [&s](const char* name, auto v) {
            s += name;
            s += '=';
            s += std::to_string(v);
            s += ' ';
        };
        num("p", index());
        num("fetched", fetched());
        num("unit", unit_);
        num("unit_errors", unit_errors_);
        num("scanned", scanned_);
        num("last_close", last_close_);
        num("recovering", rs_.recovering);
        num("last_error_index", rs_.last_error_index);
        num("last_error_points", rs_.last_error_points);
        num("events", rs_.events);
        num("point", static_cast<int>(rs_.point));
        num("pending_mismatch", rs_.pending_mismatch);
        num("pending_token", rs_.pending_token);
        num("pending_expected", rs_.pending_expected);
        s += "\nfollow";
        for (const tset f : follow_) num("", f);
        s += "\nframes";
        for (const frame& f : frames_) {
            num(" r", static_cast<int>(f.r));
            num("phase", f.phase);
            num("resume", f.resume);
            num("consume_set", f.consume_set);
            num("consume_then", f.consume_then);
        }
        for (const unit& u : tree_.units) {
            s += "\nunit ";
            for (const std::uint32_t v : {u.first, u.last, u.signal, u.signal_end, u.target, u.target_end, u.scope,
                                          u.body, u.body_end}) {
                num("", v);
            }
            num("clean", u.clean);
            num("terminal", u.terminal_send);
        }
        s += "\ntoken_unit";
        for (const std::int32_t i : tree_.token_unit) num("", i);
        for (const syntax_error& e : tree_.errors) {
            s += "\nerror ";
            num("offset", e.offset);
            num("fetched", e.fetched);
            num("expected", e.expected);
            num("at", static_cast<int>(e.at.kind));
            num("begin", e.at.begin);
            num("end", e.at.end);
            num("op", static_cast<int>(e.at.op));
            num("shape", static_cast<int>(e.kind));
        }
        return s;
    }
};

}  // namespace

struct stream_syntax::impl {
    impl(tier t, parse_dialect d) : parser(t, d) {}
    syntax_parser parser;
    friend bool operator==(const impl&, const impl&) = default;
};

stream_syntax::stream_syntax(tier t, parse_dialect d) : impl_(new impl(t, d)) {}
stream_syntax::~stream_syntax() { delete impl_; }
stream_syntax::stream_syntax(const stream_syntax& other) : impl_(new impl(*other.impl_)) {}
stream_syntax& stream_syntax::operator=(const stream_syntax& other) {
    if (this != &other) *impl_ = *other.impl_;
    return *this;
}
void stream_syntax::advance(const token_vector& tokens, bool finished) {
    impl_->parser.advance(tokens, finished);
}
const syntax_tree& stream_syntax::tree() const noexcept { return impl_->parser.tree(); }
std::size_t stream_syntax::settled() const noexcept { return impl_->parser.settled(); }
bool stream_syntax::can_release(std::size_t tokens) const noexcept { return impl_->parser.can_release(tokens); }
void stream_syntax::release(std::size_t tokens) { impl_->parser.release(tokens); }
stream_syntax::closes stream_syntax::note_closes(const token_vector& tokens) noexcept {
    const std::size_t from = impl_->parser.looked_at();
    return closes{from, impl_->parser.note_closes(tokens)};
}
bool stream_syntax::can_step(const token_vector& tokens) const noexcept { return impl_->parser.can_step(tokens); }
std::string stream_syntax::dump_state() const { return impl_->parser.dump_state(); }

void stream_syntax::reserve_tokens(std::size_t n) { impl_->parser.reserve_tokens(n); }
void stream_syntax::reset() { impl_->parser.reset(); }
bool operator==(const stream_syntax& a, const stream_syntax& b) noexcept { return *a.impl_ == *b.impl_; }

syntax_tree parse_syntax(const lex_output& lexed, tier t) {
    syntax_parser p(t, parse_dialect::contracts);
    // At most about one error per two tokens: reserving that much is address space only (a
    // large vector's untouched pages cost nothing), and growing would copy and touch it twice.
    p.reserve_errors(lexed.tokens.size() / 2 + 1);
    p.advance(lexed.tokens, true);
    return p.take_tree();
}

}  // namespace plurnk::detail
