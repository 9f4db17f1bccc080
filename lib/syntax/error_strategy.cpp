// SPDX-License-Identifier: MIT
// The reference parser's error strategy (see error_strategy.hpp for its rules).
#include "syntax/error_strategy.hpp"

namespace plurnk::detail {

namespace {
constexpr std::uint64_t point_bit(recovery_point at) { return std::uint64_t{1} << static_cast<int>(at); }
}  // namespace

tset error_strategy::recovery_set() const {
    tset s = 0;
    for (tset f : follow_) s |= f;
    return s & ~bit(k_eps);
}

tset error_strategy::expected(tset next) const {
    if (!(next & bit(k_eps))) return next;
    tset e = next & ~bit(k_eps);
    bool eps = true;
    for (auto it = follow_.rbegin(); it != follow_.rend() && eps; ++it) {
        e |= *it & ~bit(k_eps);
        eps = (*it & bit(k_eps)) != 0;
    }
    if (eps) e |= bit(tok::eof);
    return e;
}

void error_strategy::add_error(const token& at, syntax_error::shape kind, tset expect) {
    tree_.errors.push_back(syntax_error{at.begin, static_cast<std::uint32_t>(fetched()), expect, at, kind});
    ++rs_.events;
}

// "unexpected X; expected A, B" (extraneous token, input mismatch, no viable alternative).
void error_strategy::report_unexpected(const token& at, tset expect, bool oxford) {
    add_error(at, oxford ? syntax_error::shape::unexpected_oxford : syntax_error::shape::unexpected, expect);
}

void error_strategy::report_unwanted(tset next) {
    ++rs_.events;
    if (rs_.recovering) return;
    rs_.recovering = true;
    --rs_.events;
    report_unexpected(lt(), expected(next), false);
}

void error_strategy::report_missing(tset next) {
    ++rs_.events;
    if (rs_.recovering) return;
    rs_.recovering = true;
    --rs_.events;
    add_error(lt(), syntax_error::shape::missing, expected(next));
}

bool error_strategy::fail(tset next) {
    rs_.pending_mismatch = true;
    rs_.pending_token = index();
    rs_.pending_expected = expected(next);
    return false;
}

bool error_strategy::fail_no_viable(std::size_t at, tset next) {
    rs_.pending_mismatch = false;
    rs_.pending_token = at;
    rs_.pending_expected = expected(next);
    return false;
}

void error_strategy::report_and_recover() {
    report_and_note();
    consume_until(recovery_set());
}

void error_strategy::report_and_note() {
    ++rs_.events;
    if (!rs_.recovering) {
        rs_.recovering = true;
        report_unexpected(tok_at(rs_.pending_token), rs_.pending_expected, rs_.pending_mismatch);
    }
    if (rs_.last_error_index == static_cast<long>(index()) && (rs_.last_error_points & point_bit(rs_.point)) != 0) {
        consume();
    }
    rs_.last_error_index = static_cast<long>(index());
    rs_.last_error_points |= point_bit(rs_.point);
}

void error_strategy::consume_until(tset set) {
    while (la() != sym(tok::eof) && !(set & bit(la()))) consume();
}

bool error_strategy::sync_mismatch(tset next, sync_kind kind) {
    if (kind == sync_kind::loop_back) {
        report_unwanted(next);
        consume_until(expected(next) | recovery_set());
        return true;
    }
    if (single_token_deletion(next)) return true;
    return fail(next);
}

tset error_strategy::sync_back(recovery_point at, tset next) {
    rs_.point = at;
    if (rs_.recovering) return 0;
    const symbol t = la();
    if ((next & bit(t)) || (next & bit(k_eps))) return 0;
    report_unwanted(next);
    return expected(next) | recovery_set();
}

bool error_strategy::single_token_deletion(tset next) {
    if (!(expected(next) & bit(la(2)))) return false;
    report_unwanted(next);
    consume();  // the extraneous token
    end_error_condition();
    return true;
}

bool error_strategy::match_mismatch(symbol t, tset after) {
    const tset next = bit(t);
    if (single_token_deletion(next)) {
        consume();  // the expected token, now current
        return true;
    }
    if (expected(after) & bit(la())) {  // single-token insertion
        report_missing(next);
        return true;
    }
    return fail(next);
}

void error_strategy::release_recovery(std::size_t tokens) {
    rs_.pending_token = 0;
    rs_.last_error_index =
        rs_.last_error_index >= static_cast<long>(tokens) ? rs_.last_error_index - static_cast<long>(tokens) : -1;
}

}  // namespace plurnk::detail
