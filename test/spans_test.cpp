// SPDX-License-Identifier: MIT
// Byte spans (item::span, doc/library.md "Byte spans"): what each kind of item covers, one-shot
// and streamed. (That they are consistent on every conformance vector, and equal at every
// chunking, is checked by the stream test.)
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "plurnk/plurnk.hpp"

TEST_CASE("spans: what each kind of item covers", "[spans]") {
    const auto spans = [](std::string_view in, plurnk::tier t) {
        std::vector<std::pair<std::size_t, std::size_t>> out;
        for (const auto& it : plurnk::parse(in, t).items) {
            const plurnk::byte_span sp = std::visit([](const auto& x) { return x.span; }, it);
            out.emplace_back(sp.begin, sp.end);
        }
        return out;
    };
    using P = std::vector<std::pair<std::size_t, std::size_t>>;
    // Statements and words of text.
    CHECK(spans("<<PLAN:p:PLAN\nhello <<SEND[200]:done:SEND\n", plurnk::tier::parse) == P{{0, 13}, {14, 19}, {20, 41}});
    // An error that claims a statement covers the statement (the visitor's about its target too).
    CHECK(spans("<<SEND[abc]:x:SEND", plurnk::tier::statements) == P{{0, 18}});
    CHECK(spans("<<READ(https://[::1)::READ", plurnk::tier::statements) == P{{0, 26}});
    // An error no statement claims covers the token it names.
    CHECK(spans("hello <<READ(a)::READ", plurnk::tier::statements) == P{{0, 5}, {6, 21}, {0, 5}});
    // A near-miss advisory covers the `<<Word` in the text; the one for a PLAN body, the PLAN.
    const P near = spans("<<PLAN:p:PLAN\nsee <<GET(x):GET\n<<SEND[200]:d:SEND", plurnk::tier::parse);
    REQUIRE(near.size() >= 3);
    CHECK(std::find(near.begin(), near.end(), std::pair<std::size_t, std::size_t>{18, 23}) != near.end());
    const P plan = spans("<<PLAN:x <<READ(a)::READ:PLAN\n<<SEND[200]:d:SEND", plurnk::tier::parse);
    REQUIRE(plan.size() == 3);
    CHECK(plan[1] == plan[0]);
    // Past max_input_bytes: the error covers the bytes left out.
    plurnk::parse_options o;
    o.max_input_bytes = 14;
    const plurnk::parse_result cut = plurnk::parse("<<PLAN:p:PLAN\n<<SEND[200]:done:SEND\n", plurnk::tier::statements, o);
    REQUIRE(!cut.items.empty());
    CHECK(std::get<plurnk::diagnostic>(cut.items.back()).span == plurnk::byte_span{14, 36});
    // A stream gives the same spans, offsets counted over the whole input after a release.
    const std::string many = std::string(5000, ' ') + "<<READ(a)::READ\nword";
    plurnk::stream_parser p(plurnk::tier::parse);
    p.set_release_threshold(1);
    for (const char c : many) p.feed(std::string_view(&c, 1));
    const plurnk::parse_result streamed = p.finish();
    CHECK(plurnk::to_json(streamed, {.spans = true}) == plurnk::to_json(plurnk::parse(many, plurnk::tier::parse), {.spans = true}));
}
