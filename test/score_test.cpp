// SPDX-License-Identifier: MIT
// The scorer (lib/score): what a turn counts as, JSON Lines records and their aliases, reports
// that round-trip through JSON and merge exactly (shards in any order equal one run), and the
// Wilson interval. The rail recognizer is checked against the sampler in rail_test.cpp.
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "plurnk/json.hpp"
#include "plurnk/score.hpp"
#include "hostile_report.hpp"
#include "hostile_shapes.hpp"
#include "base/work_counter.hpp"

using namespace plurnk;

namespace {

const std::string k_gemma = "<|channel>thought\nok<channel|>\n";

std::string jsonl(const std::vector<std::string>& texts, const std::string& model) {
    std::string out;
    for (std::size_t i = 0; i < texts.size(); ++i) {
        std::string line = "{\"id\":\"t" + std::to_string(i) + "\",\"model\":\"" + model + "\",\"text\":";
        append_json_string(line, texts[i]);
        out += line + "}\n";
    }
    return out;
}

}  // namespace

TEST_CASE("a clean rail turn counts as clean, on its rail, with its ops and disposition", "[score]") {
    score::scorer s;
    score::report r = s.empty_report();
    s.add(r, {.text = k_gemma + "<<PLAN:g:PLAN\n<<READ1(a.md)::READ1\n<<SEND[200]:done:SEND", .id = "x"});
    REQUIRE(r.groups.size() == 1);
    const score::group& g = r.groups.at("");
    CHECK(g.turns == 1);
    CHECK(g.clean == 1);
    CHECK(g.statements == 3);
    CHECK(g.text_items == 1);  // the channel
    CHECK(g.ops == std::map<std::string, std::uint64_t>{{"PLAN", 1}, {"READ", 1}, {"SEND", 1}});
    CHECK(g.suffixes == std::map<std::string, std::uint64_t>{{"", 2}, {"1", 1}});
    CHECK(g.dispositions == std::map<std::string, std::uint64_t>{{"200", 1}});
    CHECK(g.rail == std::map<std::string, std::uint64_t>{{"gemma", 1}});
    CHECK(g.shape.empty());
    CHECK(g.errors.empty());
}

TEST_CASE("turn-shape violations and error classes", "[score]") {
    score::scorer s;
    score::report r = s.empty_report();
    s.add(r, {.text = "<<READ(a)::READ\n<<PLAN:g:PLAN", .id = "a"});                        // no PLAN first, no SEND (an error item)
    s.add(r, {.text = "<<PLAN:g:PLAN\n<<SEND[200]:d:SEND\n<<EXEC[sh]:ls:EXEC", .id = "b"});  // an op after SEND
    s.add(r, {.text = "<<PLAN:g:PLAN\n<<SEND[200]:d:SEND\n<<EXEC[sh]:ls:EXEC", .id = "c"});
    const score::group& g = r.groups.at("");
    CHECK(g.turns == 3);
    CHECK(g.clean == 0);
    CHECK(g.shape.at("no-plan-first").turns == 1);
    CHECK(g.shape.at("no-terminal-send").turns == 1);
    CHECK(g.shape.size() == 3);
    CHECK(g.shape.at("ops-after-send").turns == 2);
    // Both turns are in the sample (k_examples is 3), ordered by sample key.
    const auto& ex = g.shape.at("ops-after-send").examples;
    REQUIRE(ex.size() == 2);
    CHECK(((ex[0].id == "b" && ex[1].id == "c") || (ex[0].id == "c" && ex[1].id == "b")));
    CHECK(score::sample_key("", ex[0].id) < score::sample_key("", ex[1].id));
    CHECK(ex[0].excerpt == "<<SEND[200]:d:SEND\n<<EXEC[sh]:ls:EXEC");  // the line before and the line (the last)
    CHECK(g.dispositions == std::map<std::string, std::uint64_t>{{"200", 2}, {"none", 1}});
    CHECK(g.turns_with_errors == 3);
    CHECK(g.errors.at("turn_missing_plan").turns == 1);  // classes are the message table's names
    CHECK(g.errors.at("turn_ended_by_send").turns == 2);
    CHECK(score::class_template("turn_missing_plan").find("PLAN") != std::string::npos);
    std::uint64_t errors = 0;
    for (const auto& [k, t] : g.errors) errors += t.count;
    CHECK(errors >= 3);
    CHECK(g.rail.empty());
}

TEST_CASE("JSON Lines records: field aliases, groups, tiers and invalid lines", "[score]") {
    score::options o;
    o.group_by = "family";
    score::scorer s(o);
    score::report r = s.empty_report();
    s.add_jsonl(r,
                "{\"id\":\"g1\",\"output\":\"<<PLAN:g:PLAN<<SEND[200]:d:SEND\"}\n"
                "{\"id\":\"g2\",\"completion\":\"<<READ(a)::READ\",\"tier\":\"statements\"}\r\n"
                "\n"
                "{\"id\":\"r1\",\"input\":\"x\"}\n"
                "not json\n"
                "{\"id\":\"r2\",\"text\":3}\n"
                "{\"id\":\"r3\",\"text\":\"x\",\"tier\":\"nope\"}",
                "f.jsonl");
    CHECK(r.groups.at("g").turns == 2);
    CHECK(r.groups.at("g").tiers == std::map<std::string, std::uint64_t>{{"parse", 1}, {"statements", 1}});
    CHECK(r.groups.at("g").shape_checked == 1);
    CHECK(r.groups.at("g").clean == 2);
    CHECK(r.groups.at("r").turns == 1);
    CHECK(r.invalid_records == 3);
    REQUIRE(r.invalid_example);
    CHECK(r.invalid_example->line == 5);
    CHECK(r.invalid_example->id == "#5");
}

TEST_CASE("two keys group by cell, a missing key as null, and only such cells read back", "[score]") {
    score::options o;
    o.group_by = "family,task";
    score::scorer s(o);
    score::report r = s.empty_report();
    s.add_jsonl(r,
                "{\"id\":\"g1\",\"task\":\"t1\",\"text\":\"x\"}\n"
                "{\"id\":\"g2\",\"task\":null,\"text\":\"x\"}\n"
                "{\"id\":\"r1\",\"task\":\"\",\"text\":\"x\"}\n"
                "{\"id\":\"r2\",\"task\":7,\"text\":\"x\"}\n"
                "{\"id\":\"r3\",\"text\":\"x\"}",
                "f.jsonl");
    CHECK(r.groups.size() == 5);
    CHECK(r.groups.at(R"(["g","t1"])").turns == 1);
    CHECK(r.groups.at(R"(["g",null])").turns == 1);
    CHECK(r.groups.at(R"(["r",""])").turns == 1);
    CHECK(r.groups.at(R"(["r","7"])").turns == 1);
    CHECK(r.groups.at(R"(["r",null])").turns == 1);  // absent and null are both missing
    const auto v = score::split_cross_key(R"(["g",null])");
    REQUIRE(v);
    CHECK((*v)[0] == "g");
    CHECK(!(*v)[1]);
    CHECK(score::cross_key(*v) == R"(["g",null])");
    for (const char* bad : {R"(["g", null])", R"(["g"])", R"(["a","b","c"])", R"(["a",1])", "g", R"({"a":"b"})"}) {
        CHECK(!score::split_cross_key(bad));
    }
    const auto back = score::report::from_json(r.to_json());
    REQUIRE(back);
    CHECK(*back == r);
    score::report one = r;
    one.groups = {{"g", r.groups.begin()->second}};
    std::string why;
    CHECK(!score::report::from_json(one.to_json(), &why));
    CHECK(why.find("cross-tab cell") != std::string::npos);
    score::options three;
    three.group_by = "family,task,tier";
    CHECK_THROWS_AS(score::scorer(three), std::invalid_argument);
}

TEST_CASE("reports round-trip through JSON and merge exactly in any order", "[score]") {
    std::vector<std::string> texts;
    for (int i = 0; i < 40; ++i) {
        std::string t = "<<PLAN:goal " + std::to_string(i) + ":PLAN\n";
        if (i % 3 == 0) t += "<<EDIT(f)<" + std::to_string(i) + ">:x:EDIT\n";
        if (i % 5 == 0) t += "<<READ(a:READ\n";
        if (i % 7 != 0) t += "<<SEND[" + std::string(i % 2 ? "200" : "102") + "]:d:SEND";
        if (i % 11 == 0) t = k_gemma + t;
        texts.push_back(t);
    }
    score::scorer s;
    const std::string all = jsonl(texts, "m") + jsonl(texts, "n");
    score::report whole = s.empty_report();
    s.add_jsonl(whole, all, "in.jsonl");
    const std::string json = whole.to_json();
    const auto back = score::report::from_json(json);
    REQUIRE(back);
    CHECK(*back == whole);
    CHECK(back->to_json() == json);
    CHECK(score::report::from_json(whole.to_json(true)) == whole);

    // Shards cut at line ends, scored by separate scorers, merged in reverse order.
    std::vector<score::report> parts;
    std::size_t at = 0, line = 1;
    for (std::size_t cut : {7u, 30u, 55u, 80u}) {
        std::size_t end = at;
        std::size_t lines = 0;
        while (lines < cut - (line - 1)) end = all.find('\n', end) + 1, ++lines;
        score::scorer other;
        parts.push_back(other.empty_report());
        other.add_jsonl(parts.back(), std::string_view(all).substr(at, end - at), "in.jsonl", line);
        at = end;
        line = cut + 1;
    }
    score::report merged = s.empty_report();
    for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
        const auto round = score::report::from_json(it->to_json());
        REQUIRE(round);
        CHECK(merged.merge(*round).empty());
    }
    CHECK(merged == whole);
    CHECK(merged.to_json() == json);

    score::options o;
    o.group_by = "file";
    score::report other = score::scorer(o).empty_report();
    CHECK_FALSE(merged.merge(other).empty());
    std::string why;
    CHECK_FALSE(score::report::from_json("{\"plurnkScore\":1}", &why));
    CHECK(!why.empty());
    CHECK_FALSE(score::report::from_json("[]"));
}

TEST_CASE("Wilson intervals", "[score]") {
    const score::rate none = score::wilson(0, 0);
    CHECK(none.value == 0);
    const score::rate zero = score::wilson(0, 10);
    CHECK(zero.low == 0);
    CHECK(std::abs(zero.high - 0.27753) < 1e-4);
    const score::rate half = score::wilson(50, 100);
    CHECK(std::abs(half.low - 0.40383) < 1e-4);
    CHECK(std::abs(half.high - 0.59617) < 1e-4);
    const score::rate all = score::wilson(10, 10);
    CHECK(all.high == 1);
    CHECK(std::abs(all.low - 0.72247) < 1e-4);
}

TEST_CASE("a class's examples are a seeded sample of its turns, with their messages and lines", "[score]") {
    score::scorer s;
    score::report r = s.empty_report();
    std::vector<std::pair<std::uint64_t, std::string>> keys;
    for (int i = 0; i < 200; ++i) {
        const std::string id = "t" + std::to_string(i);
        s.add(r, {.text = "<<PLAN:g:PLAN\n<<SEND[200]:d:SEND\n<<EXEC[sh]:ls:EXEC\nafter", .id = id});
        keys.emplace_back(score::sample_key("", id), id);
    }
    std::sort(keys.begin(), keys.end());
    const score::tally& t = r.groups.at("").errors.at("turn_ended_by_send");
    REQUIRE(t.turns == 200);
    REQUIRE(t.examples.size() == score::k_examples);
    for (std::size_t i = 0; i < score::k_examples; ++i) {
        CHECK(t.examples[i].id == keys[i].second);  // the smallest sample keys, not the smallest ids
        CHECK(t.examples[i].line == 3);
        CHECK(t.examples[i].excerpt == "<<SEND[200]:d:SEND\n<<EXEC[sh]:ls:EXEC\nafter");
        CHECK(t.examples[i].message.find('{') == std::string::npos);  // rendered, no placeholder left
    }
    CHECK_FALSE((t.examples[0].id == "t0" && t.examples[1].id == "t1" && t.examples[2].id == "t10"));
    // Any split merges to the same sample.
    score::report a = s.empty_report(), b = s.empty_report();
    for (int i = 0; i < 200; ++i) {
        s.add(i % 3 == 0 ? a : b, {.text = "<<PLAN:g:PLAN\n<<SEND[200]:d:SEND\n<<EXEC[sh]:ls:EXEC\nafter",
                                   .id = "t" + std::to_string(i)});
    }
    CHECK(b.merge(a).empty());
    CHECK(b == r);
}

// ---- Near-misses -------------------------------------------------------------------------------

namespace {

// The near-misses of one turn, as "kind line:column OP" in order.
std::vector<std::string> near_misses(std::string_view text) {
    parse_options po;
    po.borrow_input = true;  // the spans index `text`
    const parse_result res = parse(text, tier::parse, po);
    std::vector<std::string> out;
    const score::near_miss_sink found = [&](std::string_view kind, position at, std::string_view op) {
        out.push_back(std::string(kind) + " " + std::to_string(at.line) + ":" + std::to_string(at.column) + " " +
                      std::string(op));
    };
    score::near_miss_finder f(text);
    for (const item& it : res.items) {
        if (const auto* t = std::get_if<text_item>(&it)) {
            f.text(*t, found);
        } else if (const auto* st = std::get_if<statement>(&it)) {
            f.other(st->span, st->position, found);
        } else if (const auto* d = std::get_if<diagnostic>(&it)) {
            f.other(d->span, d->position, found);
        }
    }
    f.finish(found);
    return out;
}

using lines = std::vector<std::string>;

}  // namespace

TEST_CASE("near-misses: an opener that lost a '<'", "[score][near]") {
    CHECK(near_misses("<<PLAN:p:PLAN\n<READ(a.md)::READ\n<<SEND[200]:ok:SEND") == lines{"opener-missing-lt 2:0 READ"});
    CHECK(near_misses("<<PLAN:p:PLAN\n  <EDIT1(a.md)<3,4>:x\n") == lines{"opener-missing-lt 2:2 EDIT"});
    CHECK(near_misses("<<PLAN:p:PLAN\n<SEND_a[200]:ok:SEND_a") == lines{"opener-missing-lt 2:0 SEND"});
    CHECK(near_misses("<FIND[ts](src):/x/:FIND") == lines{"opener-missing-lt 1:0 FIND"});
    // Not an opener: a tag, a word that only starts with an op, lowercase, a letter suffix, mid-line.
    CHECK(near_misses("<<PLAN:p:PLAN\n<READ> and <SEND/> are tags\n<READY(x)\n<read(a.md)::read\n"
                      "<READx(a)\nsee <READ(a.md)::READ here\n<PLANNING:\n")
              .empty());
}

TEST_CASE("near-misses: a closer at a line's end with nothing open", "[score][near]") {
    CHECK(near_misses("<<PLAN:p:PLAN\nI read the file:READ\n<<SEND[200]:ok:SEND") == lines{"stray-closer 2:15 READ"});
    // A body whose opener lost its '<': the opener, then its closer on a line of its own.
    CHECK(near_misses("<EDIT(a.md):\nnew text\n  :EDIT  \n") ==
          lines{"opener-missing-lt 1:0 EDIT", "stray-closer 3:2 EDIT"});
    CHECK(near_misses("café:SEND1") == lines{"stray-closer 1:4 SEND"});  // columns in code points
    // Not a closer: a word that starts with an op, a colon after a blank, a keyword mid-line,
    // lowercase, a colon whose line starts with a statement.
    CHECK(near_misses("<<PLAN:p:PLAN\nstatus:READY\nthe op is :READ\nREAD:READ me\nx:read\n<<PLAN:q:PLAN:READ\n").empty());
}

TEST_CASE("near-misses: a statement-shaped line inside a fence", "[score][near]") {
    // The parser splits "<< READ" after its "<<": the line is two text items, joined.
    CHECK(near_misses("<<PLAN:p:PLAN\n```\n<< READ(a.md)::READ\n```\n") == lines{"statement-in-fence 3:0 READ"});
    CHECK(near_misses("<<PLAN:p:PLAN\n~~~plurnk\n  <<read(a.md)::read\n~~~\n") == lines{"statement-in-fence 3:2 READ"});
    // A statement in a fence is a statement (it runs), the fence stays open across it, and the
    // same line outside a fence is not this kind.
    CHECK(near_misses("<<PLAN:p:PLAN\n```\n<<READ(a.md)::READ\n<< FIND(b)::FIND\n```\n<< EDIT(c)::EDIT\n") ==
          lines{"statement-in-fence 4:0 FIND"});
    CHECK(near_misses("<<PLAN:p:PLAN\n```\n<<\n<< the end\n```\n").empty());
}

TEST_CASE("near-misses: a text item that holds a line break is read line by line", "[score][near]") {
    // A '<' takes the byte after it into its text item, a line break too: the line after it
    // starts inside the item, or right after it.
    CHECK(near_misses("<<PLAN:p:PLAN\nx<\n :EDIT\n") == lines{"stray-closer 3:1 EDIT"});
    CHECK(near_misses("<<PLAN:p:PLAN\nx<\n<READ(a)::READ\n<<SEND[200]:ok:SEND") == lines{"opener-missing-lt 3:0 READ"});
    CHECK(near_misses("<<PLAN:p:PLAN\nx<\n <<READ1~~~:READ\n").empty());  // a line that starts with `<<` ends as it may
    // A reasoning enclosure is one text item over many lines; the last item has no item after it.
    CHECK(near_misses("<think>\n<READ(a.md)::READ\nthen:SEND\n</think>") ==
          lines{"opener-missing-lt 2:0 READ", "stray-closer 3:4 SEND"});
    // A colon that touches the text before it follows a character that is not a blank.
    CHECK(near_misses("<think>x</think>:EDIT") == lines{"stray-closer 1:16 EDIT"});
}

TEST_CASE("near-misses are counted per group with examples, and read back and merge", "[score][near]") {
    score::scorer s;
    score::report r = s.empty_report();
    s.add(r, {.text = "<<PLAN:p:PLAN\n<READ(a.md)::READ\n<READ(b.md)::READ\n<<SEND[200]:ok:SEND", .id = "a", .group = "m1"});
    s.add(r, {.text = "<<PLAN:p:PLAN\n<<SEND[200]:ok:SEND", .id = "b", .group = "m1"});
    s.add(r, {.text = "<<PLAN:p:PLAN\ndone:SEND\n", .id = "c", .group = "m2"});
    const score::group& g = r.groups.at("m1");
    CHECK(g.clean == 2);  // the parser admits them: only the scorer sees the damage
    REQUIRE(g.near_misses.size() == 1);
    const score::tally& t = g.near_misses.at("opener-missing-lt");
    CHECK(t.count == 2);
    CHECK(t.turns == 1);
    REQUIRE(t.examples.size() == 1);
    CHECK(t.examples[0].line == 2);
    CHECK(t.examples[0].message == "<READ opens no statement: a '<' of <<READ is missing");
    CHECK(t.examples[0].excerpt == "<<PLAN:p:PLAN\n<READ(a.md)::READ\n<READ(b.md)::READ");
    CHECK(r.groups.at("m2").near_misses.at("stray-closer").turns == 1);
    CHECK(r.total().near_misses.size() == 2);
    const std::string json = r.to_json();
    CHECK(json.find("\"nearMisses\":{\"opener-missing-lt\":{\"count\":2,\"turns\":1,\"template\":\"<{op} opens no "
                    "statement: a '<' of <<{op} is missing\"") != std::string::npos);
    const auto back = score::report::from_json(json);
    REQUIRE(back);
    CHECK(*back == r);
    // A kind the scorer does not write is refused.
    std::string bad = json;
    const std::string kind = "\"stray-closer\"";
    for (std::size_t at = bad.find(kind); at != std::string::npos; at = bad.find(kind, at)) bad.replace(at, kind.size(), "\"<b>\"");
    std::string why;
    CHECK_FALSE(score::report::from_json(bad, &why));
    CHECK(why.find("near-miss") != std::string::npos);
}

TEST_CASE("turns off every rail count under the rule that refused them, on the channel they went farthest on", "[score]") {
    score::scorer s;
    score::report r = s.empty_report();
    s.add(r, {.text = k_gemma + "<<PLAN:g:PLAN\n<<READ(a.md)::READ\n<<SEND[200]:done:SEND", .id = "on"});
    s.add(r, {.text = k_gemma + "<<PLAN:g:PLAN\n<<READ(a.md)::READ\n<<SEND[200]:done:SEND\nmore", .id = "after"});
    s.add(r, {.text = "<<PLAN:g:PLAN\n<<READ(a.md", .id = "cut"});
    const score::group& g = r.groups.at("");
    CHECK(g.rail == std::map<std::string, std::uint64_t>{{"gemma", 1}});
    REQUIRE(g.off_rail.size() == 2);
    const score::tally& after = g.off_rail.at("after-end");
    CHECK((after.count == 1 && after.turns == 1));
    REQUIRE(after.examples.size() == 1);
    CHECK(after.examples[0].line == 5);  // the line break after the terminal SEND (the gemma channel is two lines)
    CHECK(after.examples[0].column == 21);
    CHECK(after.examples[0].message.starts_with("off the gemma rail at byte "));
    CHECK(after.examples[0].message.ends_with(", in rule after-end"));
    // Cut short on the none rail (the gemma and think rails refuse its first byte).
    const auto other = std::find_if(g.off_rail.begin(), g.off_rail.end(), [](const auto& x) { return x.first != "after-end"; });
    REQUIRE(other != g.off_rail.end());
    const auto& [rule, cut] = *other;
    REQUIRE(cut.examples.size() == 1);
    CHECK(cut.examples[0].message == "off the none rail at byte 25 (the text ended), in rule " + rule);
    CHECK((cut.examples[0].line == 2 && cut.examples[0].column == 11));
    const auto back = score::report::from_json(r.to_json());
    REQUIRE(back);
    CHECK(*back == r);
}

TEST_CASE("Newcombe's interval and Holm's correction", "[score]") {
    // Newcombe (1998), Statistics in Medicine 17, table II: 56/70 - 48/80, method 10.
    const score::rate d = score::newcombe(56, 70, 48, 80);
    CHECK(std::fabs(d.value - 0.2) < 1e-12);
    CHECK(std::fabs(d.low - 0.0524) < 5e-5);
    CHECK(std::fabs(d.high - 0.3339) < 5e-5);
    CHECK(score::newcombe(1, 0, 1, 2).value == 0);

    // Three groups, clean 30/40, 20/40, 25/40 (no classes): three comparisons of "clean". The
    // p-values are the 2x2 chi-square test's (z squared), the first 0.0209 (chi-square 5.33).
    score::report r;
    for (const auto& [k, clean] : {std::pair{"a", 30}, {"b", 20}, {"c", 25}}) {
        r.groups[k].turns = 40;
        r.groups[k].clean = static_cast<std::uint64_t>(clean);
    }
    const std::vector<score::comparison> cs = score::compare_groups(r);
    REQUIRE(cs.size() == 3);
    CHECK((cs[0].metric == "clean" && cs[0].a == "a" && cs[0].b == "b" && cs[0].a_count == 30 && cs[0].b_turns == 40));
    CHECK(std::fabs(cs[0].difference - 0.25) < 1e-12);
    CHECK(std::fabs(cs[0].p - 0.0209213) < 1e-6);
    CHECK(std::fabs(cs[1].p - 0.2277999) < 1e-6);
    CHECK(std::fabs(cs[2].p - 0.2597964) < 1e-6);
    // Holm: 3 x 0.0209; then max(that, 2 x 0.2278) for both others (monotone).
    CHECK(std::fabs(cs[0].p_holm - 0.0627640) < 1e-6);
    CHECK(std::fabs(cs[1].p_holm - 0.4555999) < 1e-6);
    CHECK(std::fabs(cs[2].p_holm - 0.4555999) < 1e-6);

    // A class is compared too; more than k_compared_groups groups are not compared at all.
    r.groups["a"].errors["mismatched_token"] = {5, 4, {}};
    CHECK(score::compare_groups(r).size() == 6);
    CHECK(score::compare_groups(r)[3].metric == "errors/mismatched_token");
    for (std::size_t i = 0; i < score::k_compared_groups; ++i) r.groups["g" + std::to_string(i)].turns = 1;
    CHECK(score::compare_groups(r).empty());
}

TEST_CASE("the table and the page show the groups", "[score]") {
    score::scorer s;
    score::report r = s.empty_report();
    s.add_jsonl(r, jsonl({"<<PLAN:g:PLAN<<SEND[200]:d:SEND", "<<READ(a)::READ"}, "model<x>"), "f.jsonl");
    const std::string table = score::render_table(r);
    CHECK(table.find("model<x>") != std::string::npos);
    CHECK(table.find("50.0%") != std::string::npos);
    const std::string html = score::render_html(r);
    CHECK(html.find("model&lt;x&gt;") != std::string::npos);
    CHECK(html.find("<svg") != std::string::npos);
    CHECK(html.find("<script") == std::string::npos);
    CHECK(html.find("http://") == html.find("http://www.w3.org/2000/svg"));  // no other URL
}

// ---- Hostile reports --------------------------------------------------------------------------

namespace {

// Every tag the page writes; anything else after a '<' is text that escaped.
bool known_tag(std::string_view name) {
    static const std::vector<std::string_view> tags = {
        "!DOCTYPE", "html", "head", "meta", "title", "style", "body", "main", "h1", "h2", "p", "b", "div", "small",
        "section", "svg", "line", "text", "tspan", "rect", "table", "tr", "th", "td", "br", "code", "span", "i", "pre", "mark"};
    if (name.starts_with("/")) name.remove_prefix(1);
    return std::find(tags.begin(), tags.end(), name) != tags.end();
}

}  // namespace

TEST_CASE("the page writes every text of a report as text", "[score][html]") {
    const std::string html = score::render_html(test::hostile_report());
    for (std::size_t at = html.find('<'); at != std::string::npos; at = html.find('<', at + 1)) {
        std::size_t end = at + 1;
        while (end < html.size() && html[end] != ' ' && html[end] != '>' && html[end] != '\n') ++end;
        const std::string_view name = std::string_view(html).substr(at + 1, end - at - 1);
        INFO("a tag the page does not write: " << std::string_view(html).substr(at, 60));
        CHECK(known_tag(name));
    }
    const auto control = std::find_if(html.begin(), html.end(), [](unsigned char c) { return c < 0x20 && c != '\n'; });
    CHECK(control == html.end());
    CHECK(html.find("onerror=\"") == std::string::npos);
    CHECK(html.find("&amp;lt;b&amp;gt;already escaped") != std::string::npos);
    CHECK(html.find("&lt;script&gt;document.title=&#39;PWNED&#39;&lt;/script&gt;") != std::string::npos);
    CHECK(html.find("Content-Security-Policy") != std::string::npos);
}

TEST_CASE("the table prints text only: no control character from a report reaches the terminal", "[score]") {
    const std::string table = score::render_table(test::hostile_report(), {.top = 100});
    // The first byte that is a control (C0, DEL, C1 as U+0080-U+009F) or not UTF-8 (0xFF).
    std::size_t bad = 0;
    while (bad < table.size()) {
        const auto c = static_cast<unsigned char>(table[bad]);
        const bool c1 = c == 0xC2 && bad + 1 < table.size() && static_cast<unsigned char>(table[bad + 1]) < 0xA0;
        if ((c < 0x20 && c != '\n') || c == 0x7F || c == 0xFF || c1) break;
        ++bad;
    }
    INFO("byte " << bad << ": " << std::string_view(table).substr(bad > 20 ? bad - 20 : 0, 40));
    CHECK(bad == table.size());
    CHECK(table.find("\xe2\x80\xae") == std::string::npos);  // U+202E RIGHT-TO-LEFT OVERRIDE
    CHECK(table.find("\xe2\x90\x9b]0;pwned") != std::string::npos);  // ESC shown as U+241B
    CHECK(table.find("red") != std::string::npos);
}

namespace {

score::report scored_sample() {
    score::scorer s;
    score::report r = s.empty_report();
    s.add_jsonl(r,
                jsonl({"<<PLAN:g:PLAN\n<<SEND[200]:d:SEND", "<<READ(a)::READ",
                       "<<PLAN:read <<READ a:PLAN\n<<READ(a:READ"},
                      "m"),
                "f.jsonl");
    return r;
}

// `json` with the first occurrence of `from` replaced by `to` (which must be there).
std::string edited(std::string json, std::string_view from, std::string_view to) {
    const std::size_t at = json.find(from);
    REQUIRE(at != std::string::npos);
    return json.replace(at, from.size(), to);
}

// from_json's answer to `json`: "" when it reads, else its one-line reason.
std::string refusal(const std::string& json) {
    std::string why;
    const auto r = score::report::from_json(json, &why);
    if (r) return "";
    CHECK(!why.empty());
    CHECK(why.find('\n') == std::string::npos);
    return why;
}

}  // namespace

TEST_CASE("a report reads back only with keys of the kinds the scorer writes", "[score]") {
    const score::report good = scored_sample();
    REQUIRE(refusal(good.to_json()).empty());
    const std::string evil = "<script>alert(1)</script>\n";
    // The first key of each map of the group renamed to a hostile one.
    const auto renamed = [&](auto member) {
        score::report r = good;
        auto& m = r.groups.at("m").*member;
        REQUIRE(!m.empty());
        auto node = m.extract(m.begin());
        node.key() = evil;
        m.insert(std::move(node));
        return refusal(r.to_json());
    };
    using G = score::group;
    for (const std::string& why : {renamed(&G::errors), renamed(&G::warnings), renamed(&G::tails), renamed(&G::shape),
                                   renamed(&G::dispositions), renamed(&G::ops), renamed(&G::suffixes), renamed(&G::tiers)}) {
        INFO(why);
        CHECK(why.find("which is not") != std::string::npos);
        CHECK(why.find("\"<script>alert(1)</script>\\n\"") != std::string::npos);  // quoted as JSON: one line
    }
    CHECK(!renamed(&G::rail).empty());
    score::report bad = good;
    bad.channels.push_back("<b>");
    CHECK(refusal(bad.to_json()).find("not a rail channel") != std::string::npos);
    bad.channels = {"gemma", "gemma"};
    CHECK(!refusal(bad.to_json()).empty());
    bad = good;
    bad.group_by = "";
    CHECK(!refusal(bad.to_json()).empty());
    // A class of a message the core did not make is a key the scorer writes; the bare name is not.
    score::report ext = good;
    auto& errors = ext.groups.at("m").errors;
    auto node = errors.extract(errors.begin());
    node.key() = "external: a <b>message</b>";
    errors.insert(std::move(node));
    CHECK(refusal(ext.to_json()).empty());
    node = errors.extract(errors.begin());
    node.key() = "external";
    errors.insert(std::move(node));
    CHECK(!refusal(ext.to_json()).empty());
}

TEST_CASE("a report reads back only when its counts agree", "[score]") {
    const score::report good = scored_sample();
    REQUIRE(good.groups.at("m").turns == 3);
    const auto with = [&](auto change) {
        score::report r = good;
        change(r.groups.at("m"));
        return refusal(r.to_json());
    };
    CHECK(with([](score::group& x) { x.clean = x.turns + 1; }).find("inconsistent") != std::string::npos);
    CHECK(!with([](score::group& x) { ++x.turns_with_errors, ++x.clean; }).empty());
    CHECK(!with([](score::group& x) { ++x.shape_checked; }).empty());
    CHECK(!with([](score::group& x) { ++x.dispositions["none"]; }).empty());
    CHECK(!with([](score::group& x) { ++x.ops["READ"]; }).empty());
    CHECK(!with([](score::group& x) { x.suffixes["7"] = 1; }).empty());
    CHECK(!with([](score::group& x) { ++x.tiers["log"]; }).empty());
    CHECK(!with([](score::group& x) { x.rail["think"] = x.turns + 1; }).empty());
    CHECK(!with([](score::group& x) { x.errors.begin()->second.turns = x.turns + 1; }).empty());
    CHECK(!with([](score::group& x) { x.errors.begin()->second.turns = 0; }).empty());
    CHECK(!with([](score::group& x) { x.turns_with_errors = 0; }).empty());
    // The total is the sum of the groups.
    const std::string json = good.to_json();
    CHECK(refusal(edited(json, "\"total\":{\"turns\":3,", "\"total\":{\"turns\":2,")).find("inconsistent") !=
          std::string::npos);
}

TEST_CASE("counts up to 2^53 - 1 read back, and no merge passes them", "[score]") {
    // A group at the limit, as many merges of shards make it.
    score::report big = score::scorer().empty_report();
    score::group& g = big.groups["limit"];
    g.turns = g.clean = g.bytes = score::k_max_count;
    g.tiers["statements"] = score::k_max_count;
    const std::string json = big.to_json();
    CHECK(json.find("\"turns\":9007199254740991") != std::string::npos);
    std::string why;
    const auto back = score::report::from_json(json, &why);
    INFO(why);
    REQUIRE(back);
    CHECK(*back == big);
    // The total of the groups is past it: refused as such.
    score::report over = big;
    over.groups["limit2"] = g;
    CHECK(refusal(over.to_json()).find("2^53") != std::string::npos);
    // One more turn in that group cannot be merged in, and the report is left as it was.
    score::report one = score::scorer().empty_report();
    score::scorer().add(one, {.text = "<<PLAN:g:PLAN", .group = "limit", .tier = tier::statements});
    score::report merged = *back;
    CHECK(merged.merge(one).find("2^53") != std::string::npos);
    CHECK(merged == big);
    // A count past the limit in the text is refused.
    CHECK(refusal(edited(json, "\"turns\":9007199254740991", "\"turns\":9007199254740992")).find("not a count") !=
          std::string::npos);
}

// ---- Linear time ------------------------------------------------------------------------------

TEST_CASE("scoring a turn costs its length once, however many diagnostics it has", "[score][complexity]") {
    if (!detail::k_work_counter) SKIP("the work counter is compiled out (a release build)");
    // A turn of a repetition loop has a diagnostic on every line; each class's example used to be
    // built for every diagnostic, its excerpt found by counting lines from the turn's start.
    // A byte is looked at about once for the excerpts (walking to the last line's example) and
    // at most once by the near-miss scan (the blanks after a text item, an item's first and last
    // few bytes); shapes of near-misses are loops too. The near-miss scan used to read every line
    // whole, and its joins twice: 2.00 to 2.14 bytes per byte in all, now 1.00 to 1.56.
    for (const shapes::shape& s : shapes::loops()) {
        double per_byte[2] = {0, 0};
        for (int k = 0; k < 2; ++k) {
            const std::string in = shapes::make(s, k == 0 ? 64 << 10 : 256 << 10);
            score::scorer sc;
            score::report r = sc.empty_report();
            const std::uint64_t before = detail::work().score_bytes;
            sc.add(r, {.text = in, .id = "x", .tier = s.tier});
            per_byte[k] = static_cast<double>(detail::work().score_bytes - before) / static_cast<double>(in.size());
        }
        INFO(s.name << ": " << per_byte[0] << " and " << per_byte[1] << " bytes looked at per byte at 64 KB and 256 KB");
        CHECK(per_byte[1] <= 2.0);
        CHECK(per_byte[1] <= per_byte[0] * 1.25);
    }
}

// The rail leaves regex groups unbounded, so a recognizer's stacks grow as deep as a turn nests.
// Stacks share their tails: a byte costs a bounded number of new stack cells however deep the
// turn is (copied whole per state, 640 nested groups took 1.7 GB and 9 s, and the Python stack
// test's deepest regex ran out of memory); the old count grew with the depth, 16 times here.
// Each level is still a new state, so the recognizer follows k_rail_max_depth frames and refuses
// the step past them: a turn nested 16,000 deep costs what one at the bound does, not 16 times
// more (100,000 nested groups took 6 s on each rail before the bound).
TEST_CASE("the rail recognizer's work per byte does not grow with nesting", "[score][rail][complexity]") {
    if (!detail::k_work_counter) SKIP("the work counter is compiled out (a release build)");
    rail::options none;
    none.channel = rail::channel_format::none;
    score::rail_recognizer rec(rail::build(none).value());
    const std::string head = "<<PLAN:p:PLAN\n<<FIND(a):/";
    const auto nested = [&](std::size_t depth, std::string_view open, std::string_view close) {
        std::string t = head;
        for (std::size_t i = 0; i < depth; ++i) t += open;
        t += "a";
        for (std::size_t i = 0; i < depth; ++i) t += close;
        return t + "/u:FIND\n<<SEND[200]:d:SEND";
    };
    struct shape {
        std::string_view name, open, close;
    };
    for (const shape& s : {shape{"groups", "(", ")"}, shape{"non-capturing groups", "(?:", ")"},
                           shape{"lookaheads", "(?=", ")"}}) {
        // 500 levels are on the rail; 16,000 are refused where the nesting passes the bound
        const std::string within = nested(500, s.open, s.close);
        std::uint64_t before = detail::work().rail_cells;
        CHECK(rec.accepts(within));
        const std::uint64_t cells_within = detail::work().rail_cells - before;
        const std::string past = nested(16000, s.open, s.close);
        before = detail::work().rail_cells;
        const score::rail_verdict v = rec.explain(past);
        const std::uint64_t cells_past = detail::work().rail_cells - before;
        CHECK_FALSE(v.accepted);
        CHECK(v.rule == score::k_rail_too_deep);
        CHECK(v.offset > head.size() + 500 * s.open.size());
        CHECK(v.offset < head.size() + (score::k_rail_max_depth + 64) * s.open.size());
        INFO(s.name << ": " << cells_within << " stack cells at 500 deep, " << cells_past << " at 16,000");
        CHECK(cells_past <= 2 * cells_within);
    }
}
