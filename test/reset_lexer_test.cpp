// SPDX-License-Identifier: MIT
// The lexer's reset (stream_lexer::reset(), lib/lex/lexer.hpp): after any input, lexed whole in
// parse()'s windows or streamed in chunks, a reset lexer equals a freshly constructed one field
// by field (operator==, which the compiler enumerates, so a field the reset forgets fails here),
// keeps its vectors' capacity, and gives the next input what a fresh lexer gives it.
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "base/fast_paths.hpp"
#include "hostile_shapes.hpp"
#include "pipeline/pipeline.hpp"
#include "plurnk/json.hpp"
#include "plurnk/parse.hpp"
#include "vectors.hpp"

namespace {

using plurnk::detail::lex_error;
using plurnk::detail::pipeline;
using plurnk::detail::stream_lexer;
using plurnk::detail::token;

struct input {
    std::string text;
    plurnk::tier tier = plurnk::tier::parse;
    plurnk::parse_options options;
};

std::string turn_2k() { return plurnk::test::bench_data("turn-2k.txt"); }

// The inputs: every hostile shape (their errors, long tokens, open ends, both dialects, every
// tier), turn-2k whole and cut inside a statement, a body and an open TURN, deep TURNs past a
// small max_turn_depth, and a sample of the conformance vectors.
std::vector<input> inputs() {
    std::vector<input> all;
    for (const plurnk::shapes::shape& s : plurnk::shapes::all()) {
        all.push_back({plurnk::shapes::make(s, 700), s.tier, s.options()});
    }
    const std::string turn = turn_2k();
    all.push_back({turn, plurnk::tier::parse, {}});
    for (const std::string_view cut : {"<<READ(docs", "<<EDIT(test"}) {  // inside a target, a body
        const std::size_t at = turn.find(cut);
        REQUIRE(at != std::string::npos);
        all.push_back({turn.substr(0, at + cut.size() + 12), plurnk::tier::parse, {}});
    }
    const std::string in_turn = "<<TURN_a:\n" + turn;  // an open TURN, whole and cut in a body
    all.push_back({in_turn, plurnk::tier::log, {}});
    all.push_back({in_turn.substr(0, in_turn.find("<<EDIT(test") + 30), plurnk::tier::log, {}});
    plurnk::parse_options shallow;
    shallow.max_turn_depth = 3;
    std::string deep;
    for (int n = 0; n < 12; ++n) deep += "<<TURN_" + std::to_string(n) + ":<<READ(a)::READ\n";
    all.push_back({deep, plurnk::tier::log, shallow});
    all.push_back({deep + ":TURN_11\n:TURN_10\n", plurnk::tier::log, shallow});
    all.push_back({"<<READ(a)::READ\n<<EDIT(f):" + std::string(9000, 'x'), plurnk::tier::statements, {}});
    std::size_t n = 0;
    plurnk::test::for_each_vector([&](const plurnk::json_value&, const std::string& text) {
        if (n++ % 40 == 0) all.push_back({text, plurnk::tier::parse, {}});
    });
    plurnk::parse_options service;
    service.dialect = plurnk::parse_dialect::service;
    n = 0;
    plurnk::test::for_each_vector([&](const plurnk::json_value&, const std::string& text) {
        if (n++ % 8 == 0) all.push_back({text, plurnk::tier::statements, service});
    }, {"/conformance/service.jsonl"});
    return all;
}

// parse()'s drive (parse.cpp's run_windows): the lexer stops every `window` tokens and errors,
// the parser and the builder take what settled, the tokens go whenever nothing is open.
std::string drive_windows(pipeline& p, std::string_view in, std::size_t window) {
    plurnk::detail::lex_in_windows(p, in, false, window);
    p.parse(true);
    return plurnk::to_json(p.finish(in, {}), plurnk::json_options{.spans = true});
}

// What a streamed lexer gave: every token and error, offsets from the start of the input.
struct lexed {
    std::vector<token> tokens;
    std::vector<lex_error> errors;
    plurnk::detail::tail_facts tail;
    friend bool operator==(const lexed&, const lexed&) = default;
};

// A stream's drive of the lexer (stream.cpp's lex_steps, without the parser): the input fed
// `chunk` bytes at a time (with the deferral when `defer`), pausing after a close tag past
// `threshold` bytes and releasing the input before the lexer's position when it can.
lexed drive_stream(stream_lexer& lexer, std::string_view in, std::size_t chunk, bool defer, std::size_t threshold) {
    lexed out;
    std::string buffer;
    std::size_t released = 0, taken = 0;
    const auto take = [&] {
        const plurnk::detail::lex_output& o = lexer.output();
        for (; taken < o.tokens.size(); ++taken) {
            token t = o.tokens[taken];
            t.begin += static_cast<std::uint32_t>(released);
            t.end += static_cast<std::uint32_t>(released);
            out.tokens.push_back(t);
        }
        for (lex_error e : o.errors) {
            e.begin += static_cast<std::uint32_t>(released);
            e.end += static_cast<std::uint32_t>(released);
            out.errors.push_back(e);
        }
        lexer.forget_errors();
    };
    lexer.set_deferral(defer);
    std::size_t pause_at = threshold;
    for (std::size_t k = 0; k < in.size(); k += std::min(chunk, in.size() - k)) {
        buffer.append(in.substr(k, chunk));
        for (;;) {
            const bool ran = lexer.advance(buffer, false, pause_at);
            if (ran) take();
            if (lexer.position() >= threshold && lexer.can_release(buffer)) {
                const std::size_t cut = lexer.release(buffer);
                buffer.erase(0, cut);
                released += cut;
                taken = 0;
                pause_at = threshold;
            } else if (lexer.paused()) {
                pause_at = lexer.position() + threshold;
            }
            if (!lexer.paused()) break;
        }
    }
    lexer.advance(buffer, true);
    take();
    out.tail = lexer.output().tail;
    return out;
}

struct capacity {
    std::size_t tokens, errors;
};
capacity capacity_of(const stream_lexer& l) { return {l.output().tokens.capacity(), l.output().errors.capacity()}; }

// After `a` on `l`: reset, it equals a fresh lexer with the same arguments, with its capacity.
void check_reset(stream_lexer& l, const input& a) {
    const stream_lexer fresh(a.options.max_turn_depth, a.options.dialect);
    if (!a.text.empty()) CHECK_FALSE(l == fresh);  // (operator== sees what a parse did)
    const capacity before = capacity_of(l);
    l.reset();
    CHECK(l == fresh);
    const capacity after = capacity_of(l);
    CHECK(after.tokens >= before.tokens);
    CHECK(after.errors >= before.errors);
}

}  // namespace

TEST_CASE("a reset lexer is a fresh one after parse()'s windows", "[reset]") {
    const std::vector<input> all = inputs();
    // With the whole-statement reader and without it (the steps alone): it keeps a state of its own.
    const bool reader = GENERATE(true, false);
    const plurnk::detail::fast_paths_scope fast({.lexer = reader});
    for (std::size_t i = 0; i < all.size(); ++i) {
        const input& a = all[i];
        const std::string_view b = all[(i + 1) % all.size()].text;  // in a's tier and dialect
        for (const std::size_t window : {std::size_t{4096}, std::size_t{16}, std::size_t{3}, SIZE_MAX}) {
            INFO("input " << i << ", window " << window << ": " << a.text.substr(0, 80));
            pipeline p(a.tier, a.options);
            (void)drive_windows(p, a.text, window);
            check_reset(p.lexer, a);
            // b on the reset lexer (the other stages fresh) is b on a fresh pipeline.
            const pipeline others(a.tier, a.options);
            p.syntax = others.syntax;
            p.builder = others.builder;
            pipeline q(a.tier, a.options);
            CHECK(drive_windows(p, b, window) == drive_windows(q, b, window));
        }
    }
}

TEST_CASE("a reset lexer is a fresh one after a stream", "[reset]") {
    const std::vector<input> all = inputs();
    struct feed {
        std::size_t chunk;
        bool defer;
        std::size_t threshold;
    };
    constexpr feed k_feeds[] = {{1, true, 64}, {7, true, 16}, {7, false, 1}, {64, true, 256}, {SIZE_MAX, false, 64}};
    const bool reader = GENERATE(true, false);
    const plurnk::detail::fast_paths_scope fast({.lexer = reader});
    for (std::size_t i = 0; i < all.size(); ++i) {
        const input& a = all[i];
        const std::string_view b = all[(i + 1) % all.size()].text;
        for (const feed& f : k_feeds) {
            INFO("input " << i << ", chunk " << f.chunk << (f.defer ? " deferred" : "") << ": " << a.text.substr(0, 80));
            const std::size_t depth = a.options.max_turn_depth;
            {  // the whole input, finished
                stream_lexer l(depth, a.options.dialect);
                (void)drive_stream(l, a.text, f.chunk, f.defer, f.threshold);
                check_reset(l, a);
            }
            // An input left unfinished (a stream dropped, maybe mid-statement), cut at a quarter,
            // a half or three quarters: the lexer asleep, paused or deferring there.
            stream_lexer l(depth, a.options.dialect);
            const std::size_t cut = a.text.size() * (1 + i % 3) / 4;
            std::string buffer;
            l.set_deferral(f.defer);
            for (std::size_t k = 0; k < cut; k += std::min(f.chunk, cut - k)) {
                buffer.append(a.text.substr(k, std::min(f.chunk, cut - k)));
                (void)l.advance(buffer, false, f.threshold);
            }
            // A fresh lexer assigned to one so left is a fresh one too (a copy is awake).
            {
                stream_lexer m(depth, a.options.dialect);
                m.set_deferral(f.defer);
                std::string fed;
                for (std::size_t k = 0; k < cut; k += std::min(f.chunk, cut - k)) {
                    fed.append(a.text.substr(k, std::min(f.chunk, cut - k)));
                    (void)m.advance(fed, false, f.threshold);
                }
                m = stream_lexer(depth, a.options.dialect);
                CHECK(m == stream_lexer(depth, a.options.dialect));
            }
            check_reset(l, a);
            stream_lexer fresh(depth, a.options.dialect);
            CHECK(drive_stream(l, b, f.chunk, f.defer, f.threshold) == drive_stream(fresh, b, f.chunk, f.defer, f.threshold));
        }
    }
}

// The short sleep check (stays_asleep_short(), what a stream's feed() asks for a chunk of a few
// bytes) leaves the lexer as the long one (in advance()) does, byte by byte and in small chunks:
// where it says asleep, the long one would have too, and moved the sleep the same way (a body's
// ':' that ends the input pends; a pending ':' whose next byte matches the tag goes on pending).
TEST_CASE("the short sleep check leaves the lexer as the long one does", "[reset]") {
    const std::vector<input> all = inputs();
    const bool defer = GENERATE(true, false);
    for (std::size_t i = 0; i < all.size(); ++i) {
        const input& a = all[i];
        for (const std::size_t chunk : {std::size_t{1}, std::size_t{3}}) {
            INFO("input " << i << ", chunk " << chunk << (defer ? " deferred" : "") << ": " << a.text.substr(0, 80));
            stream_lexer quick(a.options.max_turn_depth, a.options.dialect);
            stream_lexer slow(a.options.max_turn_depth, a.options.dialect);
            quick.set_deferral(defer);
            slow.set_deferral(defer);
            std::string buffer;
            std::size_t diverged = std::string::npos;
            for (std::size_t k = 0; k < a.text.size() && diverged == std::string::npos; k += chunk) {
                buffer.append(a.text.substr(k, chunk));
                if (!quick.stays_asleep_short(buffer)) (void)quick.advance(buffer, false);
                (void)slow.advance(buffer, false);
                if (!(quick == slow)) diverged = buffer.size();
            }
            CHECK(diverged == std::string::npos);
        }
    }
}

// A deferred statement's sleep that wakes at the statement's close, found whole (a ':', the open
// tag and a byte after them), hands that close to the reader, which reads the statement from it
// without searching again (sleep_kind::closed). A copy of the lexer is awake and searches for the
// close itself: fed the same bytes after every feed, the two must lex the same (tokens, errors,
// position, whether a statement still waits, a pause), in chunks of 1 to 16 bytes, pausing after
// close tags as a stream does. A close handed over wrong (one whose byte after the tag has not
// arrived) or stale (an input past the deferral's limit, not woken at a close) reads otherwise.
TEST_CASE("a deferred statement's close found by the sleep is the one the reader finds", "[reset]") {
    std::vector<input> all = inputs();
    // Bodies whose ':' start no close, or start one only after a word character, and long ones.
    for (const std::string_view body : {"a:EDI:EDITx:EDIT_:ED", "::::EDIT", ":E:ED:EDI:EDIT:x"}) {
        all.push_back({"<<EDIT(f):" + std::string(body) + ":EDIT\n<<READ(a)::READ\n", plurnk::tier::parse, {}});
    }
    all.push_back({"<<EDIT(f):" + std::string(5000, ':') + ":EDIT\n<<READ(a)::READ\n", plurnk::tier::parse, {}});
    for (std::size_t i = 0; i < all.size(); ++i) {
        const input& a = all[i];
        for (const std::size_t chunk : {std::size_t{1}, std::size_t{3}, std::size_t{7}, std::size_t{16}}) {
            INFO("input " << i << ", chunk " << chunk << ": " << a.text.substr(0, 80));
            stream_lexer lx(a.options.max_turn_depth, a.options.dialect);
            lx.set_deferral(true);
            std::string buffer;
            std::size_t pause_at = 64, diverged = std::string::npos;
            for (std::size_t k = 0; k < a.text.size() && diverged == std::string::npos; k += chunk) {
                buffer.append(a.text.substr(k, chunk));
                for (;;) {
                    stream_lexer probe = lx;  // awake: its advance() looks for the close itself
                    (void)lx.advance(buffer, false, pause_at);
                    (void)probe.advance(buffer, false, pause_at);
                    if (!(lx.output() == probe.output() && lx.position() == probe.position() &&
                          lx.deferring() == probe.deferring() && lx.paused() == probe.paused())) {
                        diverged = buffer.size();
                    }
                    if (!lx.paused() || diverged != std::string::npos) break;
                    pause_at = lx.position() + 64;
                }
            }
            CHECK(diverged == std::string::npos);
        }
    }
}
