// SPDX-License-Identifier: MIT
// Op and tier names round-trip; the clean() predicate follows the CLI exit rule.
#include <catch2/catch_test_macros.hpp>

#include "plurnk/plurnk.hpp"

using namespace plurnk;

TEST_CASE("op names round-trip", "[ast]") {
    for (int i = 0; i < k_op_count; ++i) {
        const auto o = static_cast<op>(i);
        REQUIRE(op_from_name(op_name(o)) == o);
    }
    CHECK_FALSE(op_from_name("FINDX"));
    CHECK_FALSE(op_from_name("find"));
    CHECK_FALSE(op_from_name(""));
}

TEST_CASE("tier names round-trip", "[ast]") {
    for (auto t : {tier::parse, tier::statements, tier::log, tier::client}) {
        REQUIRE(tier_from_name(tier_name(t)) == t);
    }
    CHECK_FALSE(tier_from_name("turn"));
}

TEST_CASE("clean() is false for any error item or a tail", "[ast]") {
    parse_result r;
    CHECK(r.clean());
    r.items.emplace_back(text_item{"x", {1, 0}});
    CHECK(r.clean());
    r.items.emplace_back(diagnostic{{1, 0}, source::parser, severity::warning, "w"});
    CHECK_FALSE(r.clean());
    parse_result t;
    t.tail = unparsed_tail{{1, 0}, "r"};
    CHECK_FALSE(t.clean());
}

TEST_CASE("first_invalid_utf8 finds the first ill-formed byte", "[ast][utf8]") {
    CHECK(first_invalid_utf8("") == std::string_view::npos);
    CHECK(first_invalid_utf8("plain é𝒜 text") == std::string_view::npos);
    CHECK(first_invalid_utf8("ab\xff") == 2);
    CHECK(first_invalid_utf8("a\xc3") == 1);              // cut short
    CHECK(first_invalid_utf8("x\xed\xa0\x80") == 1);     // encoded surrogate
    CHECK(first_invalid_utf8("\xc0\xaf") == 0);          // overlong
    CHECK(first_invalid_utf8("\xf4\x90\x80\x80") == 0);  // past U+10FFFF
}
