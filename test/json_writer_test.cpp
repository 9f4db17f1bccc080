// SPDX-License-Identifier: MIT
// The JSON writer: JavaScript number text, JSON.stringify string escapes, U+FFFD for invalid
// UTF-8, and the result object's key order.
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <string>
#include <string_view>

#include "plurnk/plurnk.hpp"

using namespace plurnk;

namespace {
std::string num(double d) {
    std::string s;
    append_js_number(s, d);
    return s;
}
std::string quoted(std::string_view text) {
    std::string s;
    append_json_string(s, text);
    return s;
}
}  // namespace

TEST_CASE("numbers are written as JavaScript writes them", "[json_writer]") {
    struct row {
        double in;
        const char* out;
    };
    const row rows[] = {
        {0, "0"},          {-0.0, "0"},        {1, "1"},           {-1, "-1"},
        {0.7, "0.7"},      {11, "11"},         {1.5, "1.5"},       {100, "100"},
        {1e21, "1e+21"},   {1e20, "100000000000000000000"},        {123e-7, "0.0000123"},
        {1e-7, "1e-7"},    {1.25e-7, "1.25e-7"}, {0.000001, "0.000001"},
        {12345678901234567890.0, "12345678901234567000"},          {2.5e300, "2.5e+300"},
        {0.1 + 0.2, "0.30000000000000004"},
    };
    for (const auto& r : rows) {
        CAPTURE(r.in);
        CHECK(num(r.in) == r.out);
    }
}

TEST_CASE("strings are escaped as JSON.stringify does", "[json_writer]") {
    CHECK(quoted("plain") == "\"plain\"");
    CHECK(quoted("a\"b\\c") == "\"a\\\"b\\\\c\"");
    CHECK(quoted("\n\r\t\b\f") == "\"\\n\\r\\t\\b\\f\"");
    CHECK(quoted(std::string_view("\x00\x1f", 2)) == "\"\\u0000\\u001f\"");
    CHECK(quoted("\x7f") == "\"\x7f\"");
    CHECK(quoted("é𝒜") == "\"é𝒜\"");
}

TEST_CASE("invalid UTF-8 becomes one U+FFFD per byte", "[json_writer]") {
    CHECK(quoted("a\xffz") == "\"a\xEF\xBF\xBDz\"");
    CHECK(quoted("\xC3") == "\"\xEF\xBF\xBD\"");                      // truncated sequence
    CHECK(quoted("\xC0\xAF") == "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");      // overlong
    CHECK(quoted("\xED\xA0\x80") == "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");  // surrogate
}

TEST_CASE("result objects keep the reference's key order", "[json_writer]") {
    parse_result r;
    statement s;
    s.op = op::READ;
    s.target = parsed_path{parsed_path::kind_t::local, "a.md", {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}};
    static constexpr double k_marks[] = {1, 5};
    s.marker = line_marker{k_marks};
    s.position = {1, 0};
    r.items.emplace_back(s);
    r.items.emplace_back(diagnostic{{2, 3}, source::lexer, severity::error, "m"});
    r.items.emplace_back(text_item{"t", {3, 0}});
    r.tail = unparsed_tail{{4, 0}, "why"};
    CHECK(to_json(r) ==
          R"({"items":[{"kind":"statement","statement":{"op":"READ","suffix":"","signal":null,)"
          R"("target":{"kind":"local","raw":"a.md"},"lineMarker":{"marks":[1,5]},"body":null,)"
          R"("position":{"line":1,"column":0}}},{"kind":"error","error":{"line":2,"column":3,)"
          R"("source":"lexer","severity":"error","message":"m"}},{"kind":"text","text":"t",)"
          R"("position":{"line":3,"column":0}}],"unparsedTail":{"from":{"line":4,"column":0},)"
          R"("reason":"why"}})");
    CHECK(to_json(parse_result{}) == R"({"items":[]})");
    CHECK(to_json(parse_result{}, {.pretty = true}) == "{\n  \"items\": []\n}");
}

TEST_CASE("spans are written only when asked, as each item's last member", "[json_writer]") {
    parse_result r;
    statement s;
    s.op = op::PLAN;
    s.position = {1, 0};
    s.span = {0, 12};
    r.items.emplace_back(s);
    r.items.emplace_back(diagnostic{{2, 3}, source::lexer, severity::error, "m", message_id::external, {13, 14}});
    r.items.emplace_back(text_item{"t", {3, 0}, {20, 21}});
    r.tail = unparsed_tail{{4, 0}, "why", message_id::external, {30, 4294967300u}};
    const std::string plain = to_json(r);
    CHECK(plain.find("span") == std::string::npos);
    CHECK(to_json(r, {.spans = true}) ==
          R"({"items":[{"kind":"statement","statement":{"op":"PLAN","suffix":"","signal":null,)"
          R"("target":null,"lineMarker":null,"body":null,"position":{"line":1,"column":0}},)"
          R"("span":{"start":0,"end":12}},{"kind":"error","error":{"line":2,"column":3,)"
          R"("source":"lexer","severity":"error","message":"m"},"span":{"start":13,"end":14}},)"
          R"({"kind":"text","text":"t","position":{"line":3,"column":0},"span":{"start":20,"end":21}}],)"
          R"("unparsedTail":{"from":{"line":4,"column":0},"reason":"why","span":{"start":30,"end":4294967300}}})");
    // Pretty output is the same members, indented.
    const std::string pretty = to_json(r, {.pretty = true, .spans = true});
    CHECK(pretty.find("\n      \"span\": {\n        \"start\": 13,\n        \"end\": 14\n      }") != std::string::npos);
    std::string one;
    append_json(one, r.items[2], {.spans = true});
    CHECK(one == R"({"kind":"text","text":"t","position":{"line":3,"column":0},"span":{"start":20,"end":21}})");
}

TEST_CASE("json writer: write_json cuts one large item into pieces, the text unchanged", "[json]") {
    // Long strings (text, target, body), a long SEND JSON body, long scope and tag lists: each
    // item alone is far over the 64 KB flush size. The text mixes 2- and 4-byte sequences,
    // truncated and stray bytes, quotes and controls, and the shift moves the slice cuts across
    // them, so a cut inside a sequence would change the escaping.
    std::string mixed;
    for (int i = 0; i < 9000; ++i) mixed += "a\xf0\x9f\x92\xa9\xc3\"\x80\x80\x80\x80\x80\xc3\xa9\x01\xe2\x82";
    std::string json = "[";
    for (int i = 0; i < 20000; ++i) json += "\"\xc3\xa9x\",{\"k\":[1,2.5]},";
    json += "0]";
    std::string scope = "<1";
    for (int i = 0; i < 30000; ++i) scope += ",1";
    std::string tags;
    for (int i = 0; i < 20000; ++i) tags += "tag,";
    std::string host;
    for (int i = 0; i < 20000; ++i) host += "xn--ls8h.";
    for (int shift = 0; shift < 4; ++shift) {
        const std::string pad(static_cast<std::size_t>(shift), 'p');
        const std::string in = "<<SEND(a):" + json + ":SEND\n<<READ[" + tags + "](https://" + host + "/" + pad +
                               "x)" + scope + ">::READ\n<<EDIT(e):" + pad + mixed + ":EDIT\n" + pad + mixed;
        const plurnk::parse_result r = plurnk::parse(in, plurnk::tier::statements);
        REQUIRE(r.items.size() == 5);  // three statements, the text and its error
        for (std::size_t i = 0; i < 3; ++i) REQUIRE(std::holds_alternative<plurnk::statement>(r.items[i]));
        for (const bool pretty : {false, true}) {
            std::string joined;
            std::size_t largest = 0;
            plurnk::write_json(r, [&](std::string_view piece) {
                joined += piece;
                largest = std::max(largest, piece.size());
            }, {.pretty = pretty});
            const std::string whole = plurnk::to_json(r, {.pretty = pretty});
            INFO("shift " << shift << (pretty ? ", pretty" : ", compact"));
            CHECK(joined == whole);
            CHECK(whole.size() > 4 * (1 << 16));
            CHECK(largest < 70000);
        }
    }
}

TEST_CASE("json writer: write_json hands out to_json's text in pieces", "[json]") {
    std::string turn = "<<PLAN:p:PLAN\n";
    for (int i = 0; i < 4000; ++i) turn += "text \xc3\xa9 <<READ(src/f" + std::to_string(i) + ".md)<1,2>::READ\n<<CLOSE:CLOSE ";
    turn += "<<EDIT(x):unclosed";
    const plurnk::parse_result r = plurnk::parse(turn, plurnk::tier::parse);
    for (const bool pretty : {false, true}) {
        std::string joined;
        std::size_t pieces = 0, largest = 0;
        plurnk::write_json(r, [&](std::string_view piece) {
            joined += piece;
            ++pieces;
            largest = std::max(largest, piece.size());
        }, {.pretty = pretty});
        const std::string whole = plurnk::to_json(r, {.pretty = pretty});
        CHECK(joined == whole);
        CHECK(whole.size() > 200000);
        CHECK(pieces > 2);                     // really in pieces
        CHECK(largest < 70000);                // none much past the 64 KB flush size
    }
    std::string empty;
    plurnk::write_json(plurnk::parse("", plurnk::tier::statements), [&](std::string_view p) { empty += p; });
    CHECK(empty == R"({"items":[]})");
}
