// SPDX-License-Identifier: MIT
// Complexity as a tested invariant: for every hostile shape (bench/hostile_shapes.hpp) the work
// the lexer, the statement parser and the position map do (lib/work_counter.hpp: bytes examined,
// tokens made, token fetches, bytes counted for columns) stays within a constant times the input
// length, one-shot, streamed in random 1- to 16-byte chunks (with no callback, with a callback,
// and asked safe_prefix() and open() after every feed), streamed with checkpoints (a copy taken,
// a draft fed to it and dropped, and now and then the stream rolled back to it), and fed in one
// chunk (which goes in by pieces) -
// at 64 KB and 256 KB, and the work per byte does not grow between the two sizes. A quadratic
// path (a rescan from a token's start on every feed, a closer searched to the end for every
// opener) costs thousands of times the input here. Work is counted, not timed, so the test is
// exact and does not depend on the machine. Built only when the counter is compiled in (Meson
// option work_counter; see test/meson.build).
#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <random>
#include <string>

#include "hostile_shapes.hpp"
#include "plurnk/plurnk.hpp"
#include "plurnk/stream.hpp"
#include "base/fast_paths.hpp"
#include "base/work_counter.hpp"

namespace {

using plurnk::detail::work;

// Work per input byte may not exceed this (typical: 2-10 one-shot, up to ~30 in 1-byte chunks).
constexpr double k_max_work_per_byte = 64.0;
// Work per byte at 256 KB may exceed that at 64 KB by at most this factor.
constexpr double k_max_growth = 1.25;

// A stream with no callback lexes, parses and builds in batches; `events` (a callback set, with
// the checkpoints of `checkpointed`) and `polled` (safe_prefix() and open() asked after every
// feed) make it lex every feed and parse and build as statements settle.
enum class run_mode { one_shot, streamed, checkpointed, one_feed, events, polled };

std::uint64_t total_work() { return work().bytes_examined + work().tokens + work().token_looks + work().position_bytes; }

// Parses `in` as `mode` says and returns the work done and the result's JSON.
std::uint64_t measure(const std::string& in, plurnk::tier t, const plurnk::parse_options& o, run_mode mode,
                      std::string& json) {
    const std::uint64_t before = total_work();
    if (mode == run_mode::one_shot) {
        json = plurnk::to_json(plurnk::parse(in, t, o));
        return total_work() - before;
    }
    if (mode == run_mode::one_feed) {  // a large chunk goes in by pieces, released as they settle
        plurnk::stream_parser p(t, o);
        p.feed(in);
        json = plurnk::to_json(p.finish());
        return total_work() - before;
    }
    std::mt19937 rng(static_cast<std::uint32_t>(in.size()));
    std::uniform_int_distribution<std::size_t> chunk(1, 16);
    plurnk::stream_parser p(t, o);
    if (mode == run_mode::events) p.set_callback([](const plurnk::stream_event&) {});
    std::size_t next_checkpoint = 4096;
    int checkpoints = 0;
    for (std::size_t i = 0; i < in.size();) {
        const std::size_t n = chunk(rng);
        p.feed(std::string_view(in).substr(i, n));
        i += n;
        if (mode == run_mode::polled) {
            (void)p.safe_prefix();
            (void)p.open();
        }
        if ((mode == run_mode::checkpointed || mode == run_mode::events) && i >= next_checkpoint) {
            next_checkpoint += 4096;
            plurnk::stream_parser saved = p;
            if (++checkpoints % 4 == 0) {
                p.feed("<<READ(:EDIT\n<<TURN:<think>");  // a draft on the stream, rolled back
                p = saved;
            } else {
                saved.feed("<<READ(:EDIT\n<<TURN:<think>");  // a draft on the copy, dropped
            }
        }
    }
    json = plurnk::to_json(p.finish());
    return total_work() - before;
}

const char* mode_name(run_mode m) {
    switch (m) {
        case run_mode::one_shot: return "one-shot";
        case run_mode::streamed: return "streamed 1-16";
        case run_mode::checkpointed: return "checkpointed";
        case run_mode::one_feed: return "one feed";
        case run_mode::events: return "streamed 1-16 with events and checkpoints";
        case run_mode::polled: return "streamed 1-16, asked after every feed";
    }
    return "";
}

}  // namespace

TEST_CASE("work stays linear on every hostile shape", "[complexity]") {
    REQUIRE(plurnk::detail::k_work_counter);
    for (const plurnk::shapes::shape& s : plurnk::shapes::all()) {
        for (run_mode mode : {run_mode::one_shot, run_mode::streamed, run_mode::checkpointed, run_mode::one_feed,
                              run_mode::events, run_mode::polled}) {
            double per_byte[2] = {0, 0};
            std::string one_shot_json[2];
            // One feed at 64 KB would be a single piece (stream.cpp's k_piece), and not go in by
            // pieces at all: that mode is measured at twice the sizes, both cut into pieces.
            const std::size_t scale = mode == run_mode::one_feed ? 2 : 1;
            const std::size_t sizes[2] = {scale * (64 << 10), scale * (256 << 10)};
            for (int k = 0; k < 2; ++k) {
                const std::string in = plurnk::shapes::make(s, sizes[k]);
                std::string json;
                const std::uint64_t w = measure(in, s.tier, s.options(), mode, json);
                per_byte[k] = static_cast<double>(w) / static_cast<double>(in.size());
                INFO(s.name << " (" << s.group << "), " << mode_name(mode) << ", " << in.size()
                            << " bytes: work " << w << " = " << per_byte[k] << " per byte");
                CHECK(per_byte[k] <= k_max_work_per_byte);
                if (mode == run_mode::one_shot) {
                    one_shot_json[k] = json;
                } else {
                    // The stream is the one-shot parse at any chunking (P8), here on big inputs.
                    CHECK(json == plurnk::to_json(plurnk::parse(in, s.tier, s.options())));
                }
            }
            INFO(s.name << ", " << mode_name(mode) << ": work per byte " << per_byte[0] << " at 64 KB, "
                        << per_byte[1] << " at 256 KB");
            CHECK(per_byte[1] <= k_max_growth * per_byte[0] + 1.0);
        }
    }
}

TEST_CASE("a stream keeps an open TURN's suffix once, however often it releases", "[complexity]") {
    // A long TURN suffix, then a turn body of statements that settle (and are released) every
    // few bytes: the suffix is kept aside once when the input before it is first dropped, not
    // copied again at every release (which would cost the suffix per release).
    REQUIRE(plurnk::detail::k_work_counter);
    double per_byte[2] = {0, 0};
    const std::size_t sizes[2] = {64 << 10, 256 << 10};
    for (int k = 0; k < 2; ++k) {
        std::string in = "<<TURN_" + std::string(sizes[k] / 2, 'x') + ":<<PLAN:p:PLAN\n";
        while (in.size() < sizes[k]) in += "<<READ(a)::READ\n";
        plurnk::stream_parser p(plurnk::tier::log);
        p.set_release_threshold(1);
        const std::uint64_t before = total_work();
        for (std::size_t i = 0; i < in.size(); i += 16) p.feed(std::string_view(in).substr(i, 16));
        const std::string json = plurnk::to_json(p.finish());
        per_byte[k] = static_cast<double>(total_work() - before) / static_cast<double>(in.size());
        INFO(in.size() << " bytes: work " << per_byte[k] << " per byte");
        CHECK(per_byte[k] <= k_max_work_per_byte);
        CHECK(json == plurnk::to_json(plurnk::parse(in, plurnk::tier::log)));
    }
    CHECK(per_byte[1] <= k_max_growth * per_byte[0] + 1.0);
}

TEST_CASE("the work counter counts", "[complexity]") {
    // A scan that examines nothing would pass the bound trivially: the counter must see each byte.
    REQUIRE(plurnk::detail::k_work_counter);
    const std::string in = "<<PLAN:p:PLAN\n" + std::string(10000, 'a');
    const plurnk::detail::work_counts before = work();
    (void)plurnk::parse(in, plurnk::tier::parse);
    CHECK(work().bytes_examined - before.bytes_examined >= in.size());
    CHECK(work().tokens - before.tokens >= 3);
    CHECK(work().token_looks - before.token_looks >= 3);
}

TEST_CASE("the cycle replay takes repeated error cycles", "[complexity]") {
    // A shape that drives the statement parser round one error cycle per unit: nearly every cycle
    // is copied, not run, one-shot and in one large feed; with the fast path off, none is. (In
    // small chunks a cycle is copied only when the next one's tokens are lexed already: there
    // the stream's result is checked, above.)
    REQUIRE(plurnk::detail::k_work_counter);
    for (const char* name : {"nested_turns", "deep_turn_then_text", "turn_errors_one_line"}) {
        const plurnk::shapes::shape* s = nullptr;
        for (const plurnk::shapes::shape& x : plurnk::shapes::all()) {
            if (std::string_view(x.name) == name) s = &x;
        }
        REQUIRE(s != nullptr);
        const std::string in = plurnk::shapes::make(*s, 64 << 10);
        const std::uint64_t cycles = in.size() / s->unit.size();
        for (run_mode mode : {run_mode::one_shot, run_mode::one_feed}) {
            std::string json;
            const std::uint64_t before = work().cycles_replayed;
            (void)measure(in, s->tier, s->options(), mode, json);
            INFO(name << ", " << mode_name(mode) << ": " << work().cycles_replayed - before << " of " << cycles
                      << " cycles replayed");
            CHECK(work().cycles_replayed - before >= cycles * 9 / 10);
        }
        const std::uint64_t before = work().cycles_replayed;
        std::string off;
        {
            const plurnk::detail::fast_paths_scope replay_off({.statement = false});
            off = plurnk::to_json(plurnk::parse(in, s->tier));
        }
        CHECK(work().cycles_replayed == before);
        CHECK(off == plurnk::to_json(plurnk::parse(in, s->tier)));
    }
}
