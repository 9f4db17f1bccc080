// SPDX-License-Identifier: MIT
// Op and tier names round-trip; the clean() predicate follows the CLI exit rule.
#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <string>

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

TEST_CASE("a statement whose optional parts are all empty reads back as it was stored", "[ast]") {
    // Such a statement keeps no extras record; reading it back must give the defaults (a fuzz
    // find: a COPY body with an empty local destination read through a null record).
    parse_result r;
    statement copy;
    copy.op = op::COPY;
    copy.body = resource_selection{};
    r.items.emplace_back(copy);
    statement send;
    send.op = op::SEND;
    send.body = send_body{"", std::string_view{}};
    r.items.emplace_back(send);
    statement find;
    find.op = op::FIND;
    find.body = matcher_body{};
    r.items.emplace_back(find);
    REQUIRE(r.items.size() == 3);
    const item i0 = r.items[0], i1 = r.items[1], i2 = r.items[2];
    const auto& sel = std::get<resource_selection>(std::get<statement>(i0).body);
    CHECK(sel.target.kind == parsed_path::kind_t::local);
    CHECK(sel.target.raw.empty());
    CHECK_FALSE(sel.marker);
    const statement& s = std::get<statement>(i1);
    CHECK(s.signal.tags.size() == 0);
    CHECK(std::get<send_body>(s.body).json == std::optional<std::string_view>(""));
    const auto& m = std::get<matcher_body>(std::get<statement>(i2).body);
    CHECK(m.pattern.empty());
    CHECK(m.flags.empty());
    CHECK(to_json(r).find(R"("op":"COPY")") != std::string::npos);
}

// A statement's scope marks and tag references: a few are packed with its extras, more stay in
// an array of their own (result_store.hpp, k_inline_array = 16); either way they read back as
// parsed, with a suffix beside them, from the result and from a copy built by push_back.
TEST_CASE("scope marks and tags read back, few or many", "[ast]") {
    for (const int n : {1, 2, 15, 16, 17, 40}) {
        INFO(n);
        std::string tags, marks;
        for (int i = 0; i < n; ++i) {
            if (i != 0) {
                tags.push_back(',');
                marks.push_back(',');
            }
            tags.append(1, 't').append(std::to_string(i));
            marks.append(std::to_string(i + 1));
        }
        std::string in = "<<FINDx[";
        in.append(tags).append("](src/)<").append(marks).append(">:x:FINDx\n");
        const parse_result r = parse(in, tier::statements);
        REQUIRE(r.items.size() == 1);
        plurnk::item_list copy;
        copy.push_back(r.items[0]);
        for (const item& it : {r.items[0], copy[0]}) {
            const statement& s = std::get<statement>(it);
            CHECK(s.suffix == "x");
            REQUIRE(s.marker);
            REQUIRE(s.marker->marks.size() == static_cast<std::size_t>(n));
            REQUIRE(s.signal.tags.size() == static_cast<std::size_t>(n));
            for (int i = 0; i < n; ++i) {
                CHECK(s.marker->marks[static_cast<std::size_t>(i)] == i + 1);
                const std::string_view tag = s.signal.tags[static_cast<std::size_t>(i)];
                CHECK(tag.substr(0, 1) == "t");
                CHECK(tag.substr(1) == std::to_string(i));
            }
        }
        CHECK(copy[0] == r.items[0]);
    }
}

// What a statement holds when it is empty or zero, but there: an empty scope, an empty JSON form,
// a negative zero, flags without a pattern, an empty destination with an empty scope. A copy
// built by push_back reads back as it was (the records leave out only what is absent).
TEST_CASE("a statement built by hand keeps its empty and zero fields", "[ast]") {
    statement send;
    send.op = op::SEND;
    send.signal.kind = signal::kind_t::number;
    send.signal.number = -0.0;
    send.marker = line_marker{};
    send.body = send_body{"x", std::string_view{}};
    statement find;
    find.op = op::FIND;
    find.target = parsed_path{};
    find.body = matcher_body{dialect::regex, "/a/i", {}, "i"};
    statement copy_to;
    copy_to.op = op::COPY;
    copy_to.body = resource_selection{parsed_path{}, line_marker{}};
    plurnk::item_list copy;
    for (const statement& st : {send, find, copy_to}) copy.push_back(st);
    REQUIRE(copy.size() == 3);
    CHECK(copy[0] == item(send));
    CHECK(copy[1] == item(find));
    CHECK(copy[2] == item(copy_to));
    const statement s = std::get<statement>(copy[0]);
    CHECK(std::signbit(s.signal.number));
    REQUIRE(s.marker);
    CHECK(s.marker->marks.empty());
    const send_body& b = std::get<send_body>(s.body);
    REQUIRE(b.json);
    CHECK(b.json->empty());
    const matcher_body m = std::get<matcher_body>(std::get<statement>(copy[1]).body);
    CHECK(m.pattern.empty());
    CHECK(m.flags == "i");
    const resource_selection sel = std::get<resource_selection>(std::get<statement>(copy[2]).body);
    REQUIRE(sel.marker);
    CHECK(sel.marker->marks.empty());
    CHECK(sel.target.raw.empty());
}
