// SPDX-License-Identifier: MIT
// parse()'s thread scratch (lib/pipeline/parse_scratch.hpp): a parse on a reused pipeline gives
// the result of a pipeline of its own, whatever ran on it before (large or small, another tier
// or dialect, clean or error-dense); a scratch past its cap is released after the parse; a parse
// while the scratch is in use makes its own; each thread has its own scratch. Results are
// compared as JSON with the byte spans; the fresh result is a parse made while the scratch is
// marked in use (which the reentrancy test shows makes a pipeline of its own).
// And the memo slots such a reset copies (base/memo_slots.hpp).
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cstddef>
#include <string>
#include <thread>
#include <vector>

#include "base/fast_paths.hpp"
#include "base/memo_slots.hpp"
#include "hostile_shapes.hpp"
#include "pipeline/parse_scratch.hpp"
#include "plurnk/json.hpp"
#include "plurnk/parse.hpp"
#include "vectors.hpp"

namespace {

constexpr plurnk::json_options k_spans{.spans = true};

struct input {
    std::string text;
    plurnk::tier tier = plurnk::tier::parse;
    plurnk::parse_options options;
};

std::string turn_2k() { return plurnk::test::bench_data("turn-2k.txt"); }

input shape_input(const char* name, std::size_t size) {
    for (const plurnk::shapes::shape& s : plurnk::shapes::all()) {
        if (std::string_view(s.name) == name) return {plurnk::shapes::make(s, size), s.tier, s.options()};
    }
    FAIL("no shape " << name);
    return {};
}

// Inputs in an order where each leaves the scratch in a different state for the next: large
// (under the cap) and small, clean and error-dense, open at the end; every tier and both
// dialects, in runs of one tier and dialect (a pipeline is kept for one of them at a time).
std::vector<input> sequence() {
    plurnk::parse_options service;
    service.dialect = plurnk::parse_dialect::service;
    const std::string turn = turn_2k();
    constexpr std::size_t k_large = 8'000;
    return {
        shape_input("scope_errors", k_large),
        {turn, plurnk::tier::parse, {}},
        shape_input("long_signal_declined", k_large / 3),  // a token a byte, all held
        {turn.substr(0, 900), plurnk::tier::parse, {}},
        shape_input("text_items_e_acute", k_large),
        {turn, plurnk::tier::parse, {}},
        shape_input("read_statements", k_large),
        {"<<READ(a)::READ\n<<SEND[x:y:SEND\n", plurnk::tier::statements, {}},
        shape_input("send_index_keys", k_large),
        {"<<READ(a)::READ\n", plurnk::tier::statements, {}},
        shape_input("nested_turns", k_large),
        {"<<TURN:<<READ(a)::READ\n:TURN\n", plurnk::tier::log, {}},
        shape_input("service_hash_bodies", k_large),
        {"<<FIND(#a(b)?#i)::FIND\n", plurnk::tier::statements, service},
        shape_input("service_unit_flags", k_large),
        {"<<READ(a)::READ\n", plurnk::tier::client, {}},
        {turn, plurnk::tier::parse, {}},
    };
}

// How many parses of `inputs`, in order, follow one of the same tier and dialect.
std::size_t same_kind_runs(const std::vector<input>& inputs) {
    std::size_t n = 0;
    for (std::size_t i = 1; i < inputs.size(); ++i) {
        n += inputs[i].tier == inputs[i - 1].tier && inputs[i].options.dialect == inputs[i - 1].options.dialect;
    }
    return n;
}

std::string parsed(const input& in) { return plurnk::to_json(plurnk::parse(in.text, in.tier, in.options), k_spans); }

std::string parsed_fresh(const input& in) {
    std::string out;
    plurnk::detail::with_parse_scratch_in_use([&] { out = parsed(in); });
    return out;
}

}  // namespace

TEST_CASE("a parse on the reused scratch gives a fresh pipeline's result", "[scratch]") {
    const std::vector<input> inputs = sequence();
    std::vector<std::string> want;
    for (const input& in : inputs) want.push_back(parsed_fresh(in));
    const plurnk::detail::parse_scratch_stats before = plurnk::detail::parse_scratch_state();
    for (int round = 0; round < 2; ++round) {
        for (std::size_t i = 0; i < inputs.size(); ++i) {
            INFO("round " << round << ", input " << i);
            CHECK(parsed(inputs[i]) == want[i]);
        }
    }
    // Those after one of the same tier and dialect ran on a kept pipeline.
    CHECK(plurnk::detail::parse_scratch_state().reused >= before.reused + 2 * same_kind_runs(inputs));
    CHECK(plurnk::detail::parse_scratch_state().released == before.released);
}

// Every hostile shape at a small size, and turn-2k cut at places that leave a statement, a body
// or a TURN open, grouped by tier and dialect: within a group each parse runs on the pipeline
// the one before it left (the reset in place), so every ordered pair of a group is a parse B
// after a parse A.
std::vector<std::vector<input>> same_kind_groups() {
    std::vector<input> pool;
    for (const plurnk::shapes::shape& s : plurnk::shapes::all()) {
        pool.push_back({plurnk::shapes::make(s, 1'500), s.tier, s.options()});
    }
    const std::string turn = turn_2k();
    for (const std::size_t cut : {std::size_t{0}, std::size_t{7}, std::size_t{61}, std::size_t{333}, std::size_t{900}, turn.size()}) {
        pool.push_back({turn.substr(0, cut), plurnk::tier::parse, {}});
        pool.push_back({turn.substr(0, cut), plurnk::tier::statements, {}});
    }
    std::vector<std::vector<input>> groups;
    for (input& in : pool) {
        auto g = std::find_if(groups.begin(), groups.end(), [&](const std::vector<input>& x) {
            return x[0].tier == in.tier && x[0].options.dialect == in.options.dialect;
        });
        if (g == groups.end()) {
            groups.push_back({std::move(in)});
        } else {
            g->push_back(std::move(in));
        }
    }
    return groups;
}

TEST_CASE("every parse after every other of its tier and dialect gives a fresh pipeline's result", "[scratch]") {
    std::size_t pairs = 0;
    for (const std::vector<input>& group : same_kind_groups()) {
        std::vector<std::string> want;
        for (const input& in : group) want.push_back(parsed_fresh(in));
        for (std::size_t a = 0; a < group.size(); ++a) {
            for (std::size_t b = 0; b < group.size(); ++b) {
                INFO("tier " << static_cast<int>(group[a].tier) << ", input " << a << " then " << b);
                const plurnk::detail::parse_scratch_stats before = plurnk::detail::parse_scratch_state();
                CHECK(parsed(group[a]) == want[a]);
                CHECK(parsed(group[b]) == want[b]);
                // B ran on the pipeline A left (reset in place), unless A's held more than the cap.
                const plurnk::detail::parse_scratch_stats after = plurnk::detail::parse_scratch_state();
                CHECK(after.reused + after.released >= before.reused + before.released + 1);
                ++pairs;
            }
        }
    }
    CHECK(pairs > 1'000);
}

// The stages read this thread's fast-path switches when they are made (base/fast_paths.hpp) and a
// reset keeps what they read: a parse under other switches gets a pipeline made under them, or a
// differential test's "off" parse would run the fast paths on a kept pipeline.
TEST_CASE("a parse under other fast-path switches makes a pipeline of them", "[scratch]") {
    const input in{"<<READ(a)::READ\n<<FIND(b):x:FIND\n", plurnk::tier::parse, {}};
    const std::string want = parsed_fresh(in);
    CHECK(parsed(in) == want);  // the scratch is made (or kept) with every path on
    const plurnk::detail::parse_scratch_stats before = plurnk::detail::parse_scratch_state();
    {
        const plurnk::detail::fast_paths_scope off({.lexer = false, .statement = false});
        CHECK(parsed(in) == want);
        CHECK(parsed(in) == want);
    }
    CHECK(parsed(in) == want);
    const plurnk::detail::parse_scratch_stats after = plurnk::detail::parse_scratch_state();
    CHECK(after.fresh == before.fresh + 2);  // made for the switches off, then on again
    CHECK(after.reused == before.reused + 1);  // the second parse with them off
}

TEST_CASE("a scratch past its cap is released after the parse; a large input goes without it", "[scratch]") {
    const input small{turn_2k(), plurnk::tier::parse, {}};
    (void)parsed(small);
    CHECK(plurnk::detail::parse_scratch_state().held);
    const plurnk::detail::parse_scratch_stats before = plurnk::detail::parse_scratch_state();
    // 24 KB, a token a byte, all held by a statement open to the end: over a megabyte of tokens.
    (void)parsed(shape_input("long_signal_declined", 24'000));
    CHECK_FALSE(plurnk::detail::parse_scratch_state().held);
    CHECK(plurnk::detail::parse_scratch_state().released == before.released + 1);
    (void)parsed(small);
    CHECK(plurnk::detail::parse_scratch_state().held);
    // A megabyte would grow it past the cap: the parse makes a pipeline of its own instead.
    const plurnk::detail::parse_scratch_stats kept = plurnk::detail::parse_scratch_state();
    const input big = shape_input("text_items_e_acute", 1 << 20);
    (void)parsed(big);
    const plurnk::detail::parse_scratch_stats after = plurnk::detail::parse_scratch_state();
    CHECK(after.held);
    CHECK(after.fresh == kept.fresh);
    CHECK(after.reused == kept.reused);
    CHECK(after.released == kept.released);
    (void)parsed(small);
    CHECK(plurnk::detail::parse_scratch_state().reused == kept.reused + 1);
}

TEST_CASE("a parse while the scratch is in use makes its own pipeline", "[scratch]") {
    const input in{turn_2k(), plurnk::tier::parse, {}};
    const std::string want = parsed(in);
    const plurnk::detail::parse_scratch_stats before = plurnk::detail::parse_scratch_state();
    REQUIRE(before.held);
    plurnk::detail::with_parse_scratch_in_use([&] {
        CHECK(plurnk::detail::parse_scratch_state().in_use);
        CHECK(parsed(in) == want);
        CHECK(parsed({"<<READ(", plurnk::tier::statements, {}}) != want);
        CHECK(plurnk::detail::parse_scratch_state().in_use);  // the nested parses left it marked
    });
    const plurnk::detail::parse_scratch_stats after = plurnk::detail::parse_scratch_state();
    CHECK_FALSE(after.in_use);
    CHECK(after.reused == before.reused);
    CHECK(after.fresh == before.fresh);
    CHECK(after.nested == before.nested + 2);
    CHECK(parsed(in) == want);
    CHECK(plurnk::detail::parse_scratch_state().reused == before.reused + 1);
}

TEST_CASE("threads parsing at once each use their own scratch, with the serial results", "[scratch]") {
    const std::vector<input> inputs = sequence();
    std::vector<std::string> want;
    for (const input& in : inputs) want.push_back(parsed_fresh(in));
    const plurnk::detail::parse_scratch_stats main_before = plurnk::detail::parse_scratch_state();
    constexpr int k_threads = 4;
    std::vector<int> mismatches(k_threads, 0);
    std::vector<std::size_t> reused(k_threads, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < k_threads; ++t) {
        threads.emplace_back([&, t] {
            for (int round = 0; round < 3; ++round) {
                for (std::size_t k = 0; k < inputs.size(); ++k) {
                    if (parsed(inputs[k]) != want[k]) ++mismatches[static_cast<std::size_t>(t)];
                }
            }
            reused[static_cast<std::size_t>(t)] = plurnk::detail::parse_scratch_state().reused;
        });
    }
    for (std::thread& th : threads) th.join();
    for (int t = 0; t < k_threads; ++t) {
        INFO("thread " << t);
        CHECK(mismatches[static_cast<std::size_t>(t)] == 0);
        CHECK(reused[static_cast<std::size_t>(t)] >= 3 * same_kind_runs(inputs));  // counted per thread
    }
    CHECK(plurnk::detail::parse_scratch_state().reused == main_before.reused);
}

// What a parse from a thread_local's destructor saw, on a thread whose scratch was torn down
// before it: the object is made before the thread's first parse, so it is destroyed after the
// scratch's owner, which frees the pipeline at the thread's end.
struct parse_at_exit {
    std::string* json = nullptr;
    plurnk::detail::parse_scratch_stats* after = nullptr;
    ~parse_at_exit() {
        if (json == nullptr) return;
        *json = parsed({turn_2k(), plurnk::tier::parse, {}});
        *after = plurnk::detail::parse_scratch_state();
    }
};

TEST_CASE("a parse after the thread's scratch is freed at its end makes and frees a pipeline of its own", "[scratch]") {
    const std::string want = parsed_fresh({turn_2k(), plurnk::tier::parse, {}});
    std::string got;
    plurnk::detail::parse_scratch_stats during{}, after{};
    std::thread([&] {  // (no assertions on other threads: what it saw is checked after)
        thread_local parse_at_exit late;
        late.json = &got;
        late.after = &after;
        (void)plurnk::parse("<<READ(a)::READ", plurnk::tier::parse);  // the scratch kept till the thread ends
        during = plurnk::detail::parse_scratch_state();
    }).join();
    CHECK(during.held);
    CHECK(during.fresh == 1);
    CHECK(got == want);
    // Nothing kept that no one would free, and no new pipeline counted as the scratch's.
    CHECK_FALSE(after.held);
    CHECK_FALSE(after.in_use);
    CHECK(after.fresh == 1);
    CHECK(after.reused == 0);
}

// The memos a reset copies (record_log's and error_ledger's messages) fill their slots only once
// one is placed, and copy them only then: what an unused one reads, and what a copy, an
// assignment or a move leaves, must still be the memo's contents as if every slot were there.
TEST_CASE("memo slots read as defaults until placed; copies and assignments keep the contents", "[scratch]") {
    struct slot {
        int a = 0;
        const char* s = nullptr;
    };
    using memo = plurnk::detail::memo_slots<slot, 8>;
    memo m;
    CHECK(m[3].a == 0);
    CHECK(m[3].s == nullptr);
    m.place(3) = slot{7, "x"};
    CHECK(m[3].a == 7);
    for (const std::size_t i : {std::size_t{0}, std::size_t{2}, std::size_t{4}, std::size_t{7}}) {
        CHECK((m[i].a == 0 && m[i].s == nullptr));  // the others: defaults
    }
    memo c(m);
    CHECK(c[3].a == 7);
    const memo unused;
    c = unused;  // back to every slot the default ...
    CHECK(c[3].a == 0);
    c.place(5).a = 1;  // ... and placing again does not bring the old entry back
    CHECK(c[5].a == 1);
    CHECK((c[3].a == 0 && c[3].s == nullptr));
    c = m;
    CHECK((c[3].a == 7 && c[5].a == 0));
    memo moved(std::move(c));
    CHECK(moved[3].a == 7);
    memo assigned;
    assigned = std::move(moved);
    CHECK(assigned[3].a == 7);
    memo copied(unused);
    CHECK(copied[3].s == nullptr);
    copied.place(1).a = 2;
    CHECK((copied[1].a == 2 && copied[3].a == 0));
}
