// SPDX-License-Identifier: MIT
// The statement parser's cycle replay (cycle_replay.hpp says what it does and why it is exact):
// an anchor per loop head, the check that two visits are one cycle apart, and the copy of the
// cycle's errors, units and token marks, shifted, as often as the tokens repeat.
#include "syntax/cycle_replay.hpp"

#include <algorithm>

#include "base/work_counter.hpp"

namespace plurnk::detail {

cycle_replay::anchor cycle_replay::capture(const parser_state& s) {
    anchor a;
    if (s.frames.size() > k_anchor_depth) return a;
    a.valid = true;
    a.depth = static_cast<std::uint8_t>(s.frames.size());
    a.p = s.p;
    a.fetched = s.fetched;
    a.errors = s.tree.errors.size();
    a.units = s.tree.units.size();
    a.unit_errors = s.unit_errors;
    a.rs = s.rs;
    std::copy(s.frames.begin(), s.frames.end(), a.frames.begin());
    std::copy(s.follow.begin(), s.follow.end(), a.follow.begin());
    return a;
}


cycle_replay::anchor cycle_replay::shifted(anchor a, const cycle& c, std::size_t k) {
    a.p += k * c.tokens;
    a.fetched += k * c.tokens;
    a.errors += k * c.errors;
    a.units += k * c.units;
    a.rs.events += k * c.events;
    if (a.rs.last_error_index >= 0) a.rs.last_error_index += static_cast<long>(k * c.tokens);
    a.rs.pending_token += k * c.tokens;
    if (c.units_begun) a.unit_errors += k * c.events;
    return a;
}


// Whether `b` is `a` one cycle on: the same frames, and the same recovery state with token
// indices taken from the cursor.
bool cycle_replay::same_state(const anchor& a, const anchor& b) {
    using diff = std::ptrdiff_t;
    const auto rel = [](std::size_t v, std::size_t p) { return static_cast<diff>(v) - static_cast<diff>(p); };
    if (!a.valid || !b.valid || a.depth != b.depth || b.p <= a.p || b.errors < a.errors || b.units < a.units) {
        return false;
    }
    for (std::size_t i = 0; i < a.depth; ++i) {
        const frame& x = a.frames[i];
        const frame& y = b.frames[i];
        if (x.r != y.r || x.phase != y.phase || x.resume != y.resume || x.consume_set != y.consume_set ||
            x.consume_then != y.consume_then || a.follow[i] != b.follow[i]) {
            return false;
        }
    }
    const recovery_state& r = a.rs;
    const recovery_state& q = b.rs;
    if (r.recovering != q.recovering || r.last_error_points != q.last_error_points || r.point != q.point ||
        r.pending_mismatch != q.pending_mismatch || r.pending_expected != q.pending_expected ||
        rel(r.pending_token, a.p) != rel(q.pending_token, b.p) || rel(a.fetched, a.p) != rel(b.fetched, b.p)) {
        return false;
    }
    if ((r.last_error_index < 0) != (q.last_error_index < 0)) return false;
    if (r.last_error_index >= 0 && r.last_error_index - static_cast<long>(a.p) != q.last_error_index - static_cast<long>(b.p)) {
        return false;
    }
    // unit_errors_ is the event count when the last unit began: moved on by the cycle only
    // if the cycle began one.
    if (b.units == a.units) return a.unit_errors == b.unit_errors;
    return rel(a.unit_errors, a.rs.events) == rel(b.unit_errors, b.rs.events);
}


static bool same_symbol(const token& x, const token& y) { return x.kind == y.kind && x.op == y.op; }


bool cycle_replay::replay(int phase, parser_state& s) {
    const int slot = anchor_slot(phase);
    if (slot < 0) return false;
    touched_ |= static_cast<std::uint8_t>(1U << slot);
    anchor& last = anchors_[static_cast<std::size_t>(slot)];
    const anchor now = capture(s);
    const std::size_t k = same_state(last, now) ? replay_cycles(last, now, s) : 0;
    if (k == 0) {
        last = now;
        return false;
    }
    return true;
}


// The index in toks[lo, hi] of the token equal to `t`, or npos when none is or two are (tokens
// are in input order).
static std::size_t index_of(const token_vector& toks, std::size_t lo, std::size_t hi, const token& t) {
    const token* first = std::lower_bound(toks.begin() + lo, toks.begin() + hi + 1, t.begin,
                                          [](const token& x, std::uint32_t b) { return x.begin < b; });
    std::size_t found = cycle_replay::npos;
    for (const token* u = first; u != toks.begin() + hi + 1 && u->begin == t.begin; ++u) {
        if (u->end == t.end && u->kind == t.kind && u->op == t.op) {
            if (found != cycle_replay::npos) return cycle_replay::npos;
            found = static_cast<std::size_t>(u - toks.begin());
        }
    }
    return found;
}

// A unit `shift` tokens on: its token range and every slot it has (0: none).
static unit unit_shifted(unit x, std::size_t shift) {
    const auto by = static_cast<std::uint32_t>(shift);
    for (std::uint32_t unit::*field : {&unit::signal, &unit::signal_end, &unit::target, &unit::target_end,
                                       &unit::scope, &unit::body, &unit::body_end}) {
        if (x.*field != 0) x.*field += by;
    }
    if (x.first <= x.last) {
        x.first += by;
        x.last += by;
    }
    return x;
}

std::size_t cycle_replay::replay_cycles(anchor& a, const anchor& b, parser_state& s) {
    const token_vector& toks = s.toks;
    const cycle c{b.p - a.p, b.errors - a.errors, b.units - a.units, b.rs.events - a.rs.events, b.units > a.units};
    const std::size_t len = c.tokens;
    // The tokens the cycle read: from its start (or the pending error's token, which a report
    // reads) to the last one fetched or stepped at.
    const std::size_t lo = std::min(a.p, a.rs.pending_token);
    const std::size_t hi = std::max(b.fetched, b.p);
    if (hi - lo > 4 * len + 64 || hi + len >= toks.size()) return 0;
    // First the tokens: the next cycle's must repeat the ones this cycle read (where most
    // tries that fail stop). Each comparison counts as a token fetch for the work counter.
    std::size_t checked = lo + len - 1;  // tokens through here repeat the ones `len` before
    const auto repeats_through = [&](std::size_t end) {
        const std::size_t from = checked;
        while (checked < end && same_symbol(toks[checked + 1], toks[checked + 1 - len])) ++checked;
        s.looks += (checked - from + 1);
        return checked >= end;
    };
    if (!repeats_through(hi + len)) return 0;
    // Each error's token, by index (tokens are in input order; one that is not found once,
    // or is found twice, stops the replay).
    std::array<std::size_t, 16> at{};
    if (c.errors > at.size()) return 0;
    for (std::size_t e = 0; e < c.errors; ++e) {
        at[e] = index_of(toks, lo, hi, s.tree.errors[a.errors + e].at);
        if (at[e] == npos) return 0;
    }
    // Each token mark, by unit; and whether a step of the cycle starts at an opener that
    // can_step() holds back until a close tag is lexed.
    bool opener = false;
    for (std::size_t i = a.p; i < b.p; ++i) {
        const std::int32_t m = s.tree.token_unit[i];
        if (m >= 0 && static_cast<std::size_t>(m) < a.units) return 0;
    }
    for (std::size_t i = a.p; i <= b.p; ++i) {
        opener = opener || (toks[i].kind == tok::opener && toks[i].op != plurnk::op::TURN);
    }
    std::size_t k = 0;
    for (;;) {
        const std::size_t shift = (k + 1) * len;
        const std::size_t end = hi + shift;
        if (end >= toks.size()) break;
        if (!s.finished && opener && (s.last_close == npos || s.last_close < b.p + shift)) break;
        if (!repeats_through(end)) break;
        for (std::size_t e = 0; e < c.errors; ++e) {
            syntax_error x = s.tree.errors[a.errors + e];
            x.at = toks[at[e] + shift];
            x.offset = x.at.begin;
            x.fetched += static_cast<std::uint32_t>(shift);
            s.tree.errors.push_back(x);
        }
        for (std::size_t u = 0; u < c.units; ++u) s.tree.units.push_back(unit_shifted(s.tree.units[a.units + u], shift));
        for (std::size_t i = a.p; i < b.p; ++i) {
            const std::int32_t m = s.tree.token_unit[i];
            s.tree.token_unit[i + shift] = m < 0 ? -1 : m + static_cast<std::int32_t>((k + 1) * c.units);
        }
        s.looks += (hi - lo + 1);
        ++k;
    }
    if (k == 0) return 0;
    count_cycles_replayed(k);
    const anchor to = shifted(b, c, k);
    s.p = to.p;
    s.fetched = to.fetched;
    s.rs = to.rs;
    s.unit_errors = to.unit_errors;
    a = shifted(b, c, k - 1);  // the head one cycle back, so that a later call can go on
    return k;
}

}  // namespace plurnk::detail
