// SPDX-License-Identifier: MIT
// The four tiers end to end (BEHAVIOUR §2-§4): statements, AST shapes, diagnostics, recovery,
// unparsedTail and the parse-tier passes. Table-driven: input -> the result's JSON.
#include <catch2/catch_test_macros.hpp>

#include <string>

#include "plurnk/plurnk.hpp"

using namespace plurnk;

namespace {

struct row {
    tier t;
    const char* in;
    const char* json;  // the whole result, compact
};

void check_rows(std::initializer_list<row> rows) {
    for (const row& r : rows) {
        CAPTURE(tier_name(r.t), r.in);
        CHECK(to_json(parse(r.in, r.t)) == r.json);
    }
}

// Compact one-line rendering of items: "S:OP@l:c" "T:text@l:c" "E:source:severity@l:c:message".
std::string brief(const parse_result& r) {
    std::string s;
    for (const item& it : r.items) {
        if (!s.empty()) s += " | ";
        if (const auto* st = std::get_if<statement>(&it)) {
            s += "S:" + std::string(op_name(st->op)) + std::string(st->suffix) + "@" + std::to_string(st->position.line) + ":" +
                 std::to_string(st->position.column);
        } else if (const auto* t = std::get_if<text_item>(&it)) {
            s += "T:" + std::string(t->text) + "@" + std::to_string(t->position.line) + ":" + std::to_string(t->position.column);
        } else {
            const auto& d = std::get<diagnostic>(it);
            s += std::string("E:") + (d.source == source::lexer ? "lexer" : d.source == source::parser ? "parser" : "visitor") +
                 (d.severity == severity::warning ? ":warning" : "") + "@" + std::to_string(d.position.line) + ":" +
                 std::to_string(d.position.column) + ":" + std::string(d.message);
        }
    }
    if (r.tail) s += std::string(s.empty() ? "" : " | ") + "TAIL@" + std::to_string(r.tail->from.line) + ":" + std::to_string(r.tail->from.column) + ":" + r.tail->reason;
    return s;
}

struct brief_row {
    tier t;
    const char* in;
    const char* out;
};

void check_brief(std::initializer_list<brief_row> rows) {
    for (const brief_row& r : rows) {
        CAPTURE(tier_name(r.t), r.in);
        CHECK(brief(parse(r.in, r.t)) == r.out);
    }
}

}  // namespace

TEST_CASE("statement shapes per op family", "[parse][ast]") {
    check_rows({
        {tier::statements, "<<EDIT(p):hello:EDIT",
         R"J({"items":[{"kind":"statement","statement":{"op":"EDIT","suffix":"","signal":null,"target":{"kind":"local","raw":"p"},"lineMarker":null,"body":"hello","position":{"line":1,"column":0}}}]})J"},
        {tier::statements, "<<READ(a.md)::READ",
         R"J({"items":[{"kind":"statement","statement":{"op":"READ","suffix":"","signal":null,"target":{"kind":"local","raw":"a.md"},"lineMarker":null,"body":null,"position":{"line":1,"column":0}}}]})J"},
        {tier::statements, "<<FIND1[a, +b,,-c](src/**)<1-20>:/retry(Count)/i:FIND1",
         R"J({"items":[{"kind":"statement","statement":{"op":"FIND","suffix":"1","signal":["a","+b","-c"],"target":{"kind":"local","raw":"src/**"},"lineMarker":{"marks":[1,20]},"body":{"dialect":"regex","raw":"/retry(Count)/i","pattern":"retry(Count)","flags":"i"},"position":{"line":1,"column":0}}}]})J"},
        {tier::statements, "<<SEND[200]:{\"a\":[1,2.50]}:SEND",
         R"J({"items":[{"kind":"statement","statement":{"op":"SEND","suffix":"","signal":200,"target":null,"lineMarker":null,"body":{"raw":"{\"a\":[1,2.50]}","json":{"a":[1,2.5]}},"position":{"line":1,"column":0}}}]})J"},
        {tier::statements, "<<KILL[-1](log:///1)::KILL",
         R"J({"items":[{"kind":"statement","statement":{"op":"KILL","suffix":"","signal":-1,"target":{"kind":"url","raw":"log:///1","scheme":"log","username":null,"password":null,"hostname":null,"port":null,"pathname":"/1","query":null,"fragment":null},"lineMarker":null,"body":null,"position":{"line":1,"column":0}}}]})J"},
        {tier::statements, "<<EXEC[sh](.)<60,5>:ls:EXEC",
         R"J({"items":[{"kind":"statement","statement":{"op":"EXEC","suffix":"","signal":"sh","target":{"kind":"local","raw":"."},"lineMarker":{"marks":[60,5]},"body":"ls","position":{"line":1,"column":0}}}]})J"},
        {tier::statements, "<<WORK[main](worker://w):do it:WORK",
         R"J({"items":[{"kind":"statement","statement":{"op":"WORK","suffix":"","signal":"main","target":{"kind":"url","raw":"worker://w","scheme":"worker","username":null,"password":null,"hostname":"w","port":null,"pathname":"","query":null,"fragment":null},"lineMarker":null,"body":"do it","position":{"line":1,"column":0}}}]})J"},
        {tier::statements, "<<COPY(a.md)<2,3>:known:///archive#notes<1,3,1,3>:COPY",
         R"J({"items":[{"kind":"statement","statement":{"op":"COPY","suffix":"","signal":null,"target":{"kind":"local","raw":"a.md"},"lineMarker":{"marks":[2,3]},"body":{"target":{"kind":"url","raw":"known:///archive#notes","scheme":"known","username":null,"password":null,"hostname":null,"port":null,"pathname":"/archive","query":null,"fragment":"notes"},"lineMarker":{"marks":[1,3,1,3]}},"position":{"line":1,"column":0}}}]})J"},
        {tier::client, "<<LOOK[x](a)<0.7>:~similar:LOOK",
         R"J({"items":[{"kind":"statement","statement":{"op":"LOOK","suffix":"","signal":["x"],"target":{"kind":"local","raw":"a"},"lineMarker":{"marks":[0.7]},"body":{"dialect":"semantic","raw":"~similar"},"position":{"line":1,"column":0}}}]})J"},
    });
}

TEST_CASE("scopes keep every numeric component", "[parse][scope]") {
    struct r {
        const char* in;
        const char* marks;
    };
    for (const r& x : {r{"<1-5>", "[1,5]"}, r{"<0--5>", "[0,-5]"}, r{"<-3--1>", "[-3,-1]"}, r{"<1, -1>", "[1,-1]"},
                       r{"<0.7,11,20>", "[0.7,11,20]"}, r{"<-1>", "[-1]"}, r{"<1,3,1,3>", "[1,3,1,3]"},
                       // digits summed in an integer up to 15 bytes, read by from_chars beyond
                       r{"<123456789012345>", "[123456789012345]"}, r{"<-1234567890123456>", "[-1234567890123456]"},
                       r{"<12345678901234.5>", "[12345678901234.5]"}, r{"<1.25,-0.5>", "[1.25,-0.5]"},
                       // the scan's sum of 23 digits wraps (from_chars reads them); 16 bytes of
                       // leading zeros; a fraction, then a long run of zeros
                       r{"<99999999999999999999999>", "[1e+23]"}, r{"<0000000000000001,007>", "[1,7]"},
                       r{"<1.5-000000000000002>", "[1.5,2]"},
                       // a short scope of many signs (the scratch), and more numbers than it holds
                       r{"<-1--2--3--4--5--6--7--8--9>", "[-1,-2,-3,-4,-5,-6,-7,-8,-9]"},
                       r{"<1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17>", "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17]"}}) {
        const std::string in = std::string("<<READ(a)") + x.in + "::READ";
        CAPTURE(in);
        const std::string json = to_json(parse_statements(in));
        CHECK(json.find(std::string("\"lineMarker\":{\"marks\":") + x.marks + "}") != std::string::npos);
    }
}

TEST_CASE("one hard error per malformed statement, recovery at the next statement", "[parse][errors]") {
    check_brief({
        {tier::statements, "<<FIND[a][b](p):m:FIND\n<<READ(x)::READ",
         "E:parser@1:9:unexpected `[` (signal slot opener); expected `:` (body fence), body content, or close tag `:OPsuffix` | S:READ@2:0"},
        {tier::statements, "<<SEND[400]<5>:x:SEND",
         "E:parser@1:11:unexpected `<L>` line marker; expected `:` (body fence) or body content or close tag `:OPsuffix`"},
        {tier::statements, "<<WORK[](w):x:WORK <<READ(a)::READ",
         "E:parser@1:7:expected tag; got `]` (signal slot closer) | S:READ@1:19"},
        {tier::statements, "<<EXEC[x y]:ls:EXEC",
         "E:parser@1:9:unexpected executor (EXEC signal); expected `]` (signal slot closer)"},
        {tier::statements, "<<SEND<5>:x:SEND\n<<READ(a)::READ",
         "E:parser@1:6:unexpected `<L>` line marker; expected open tag `<<OPsuffix` | S:READ@2:0"},
        {tier::statements, "words <<READ(a)::READ",
         "T:words@1:0 | S:READ@1:6 | E:parser@1:0:unexpected text between statements; expected open tag `<<OPsuffix`"},
        {tier::statements, "<<READ(a)x::READ",
         "E:lexer@1:9:unrecognized character 'x' in slot region - expected `[signal]`, `(target)`, `<L>`, or `:body:` (any order)"},
        {tier::statements, "<<FIND(a)://a[:FIND",
         "E:visitor@1:0:pattern leads with `//` but is not a valid xpath selector - XPath parse error"},
        {tier::statements, "<<READ(http://[bad)::READ", "E:visitor@1:0:invalid URI in path"},
        {tier::statements, "<<WORK(w)::WORK", "E:parser@1:10:expected body content; got close tag `:OPsuffix`"},
    });
}

TEST_CASE("unparsedTail: trust ends at the last opener", "[parse][tail]") {
    check_brief({
        {tier::parse, "<<PLAN:p:PLAN\n<<EDIT(worker:///bad):unterminated",
         "S:PLAN@1:0 | TAIL@2:0:body of `<<EDIT` opened at line 2 but never closed - add `:EDIT` to terminate"},
        {tier::statements, "<<EDIT(a):x :COMPARISON_TASK y",
         "TAIL@1:0:body of `<<EDIT` opened at line 1 but never closed - add `:EDIT` to terminate; found "
         "`:COMPARISON_TASK`, which is body text - the closer echoes the op's name"},
        {tier::statements, "<<READ(a)::READ <<READ(b",
         "S:READ@1:0 | TAIL@1:16:target slot of `<<READ` opened at line 1 but never closed - add `)` to terminate the target"},
        {tier::statements, "<<SEND[2", "TAIL@1:0:signal slot of `<<SEND` opened at line 1 but never closed - add `]` to terminate the signal"},
        {tier::statements, "<<READ(a)",
         "TAIL@1:0:statement `<<READ` opened at line 1 but never reached its close tag - add `:READ` to terminate"},
    });
}

TEST_CASE("parse tier: turn shape, mid-termination and advisories", "[parse][passes]") {
    check_brief({
        {tier::parse, "<<PLAN:p:PLAN <<READ(a)::READ <<SEND[200]:done:SEND", "S:PLAN@1:0 | S:READ@1:14 | S:SEND@1:30"},
        {tier::parse, "<<READ(a)::READ",
         "E:parser@1:0:a turn must begin with `<<PLAN:…:PLAN` (the required first operation)"},
        {tier::parse, "<<PLAN:p:PLAN <<READ(a)::READ",
         "S:PLAN@1:0 | S:READ@1:14 | E:parser@1:29:a turn must end with a terminal `<<SEND[code]:…:SEND` carrying the loop status"},
        {tier::parse, "<<PLAN:p:PLAN <<SEND[200]:x:SEND <<READ(a)::READ",
         "S:PLAN@1:0 | S:SEND@1:14 | E:parser@1:33:a disposition SEND ends the turn - nothing may follow it"},
        {tier::parse, "<<PLAN:p:PLAN <<SEND[200]:x:SEND trailing prose", "S:PLAN@1:0 | S:SEND@1:14 | T:trailing@1:33 | T:prose@1:42"},
        {tier::parse, "<<PLAN:read then <<EXEC it:PLAN <<SEND[200]:x:SEND",
         "S:PLAN@1:0 | E:parser:warning@1:0:PLAN body contains op-shaped text (`<<EXEC`) - ops belong after the plan "
         "closes; did you omit `:PLAN`? | S:SEND@1:32"},
        {tier::parse, "<<PLAN:p:PLAN <<CLOSE(log://x):y:CLOSE <<SEND[200]:x:SEND",
         "S:PLAN@1:0 | T:<<CLOSE(log://x):y:CLOSE@1:14 | E:parser:warning@1:14:`<<CLOSE` is not a Plurnk operation, so "
         "it was read as text; did you mean `<<FOLD`? | S:SEND@1:39"},
        {tier::parse, "<<PLAN:p:PLAN <<EDIT[src/a.go]:x:EDIT <<SEND[200]:x:SEND",
         "S:PLAN@1:0 | S:EDIT@1:14 | E:parser:warning@1:14:`<<EDIT` has no `(target)` - that path sits in the `[…]` tag "
         "slot; a target goes in `(…)`. Try `EDIT(src/a.go):…` | S:SEND@1:38"},
        {tier::parse, "<think><<PLAN:x:PLAN</think>\n<<PLAN:y:PLAN\n<<SEND[102]:z:SEND",
         "T:<think><<PLAN:x:PLAN</think>@1:0 | S:PLAN@2:0 | S:SEND@3:0"},
    });
}

TEST_CASE("log tier: TURN-wrapped turns", "[parse][log]") {
    check_brief({
        {tier::log, "<<TURN:<<PLAN:p:PLAN <<SEND[200]:x:SEND:TURN\n<<TURN1:<<PLAN:q:PLAN <<SEND[102]:y:SEND:TURN1",
         "S:PLAN@1:7 | S:SEND@1:21 | S:PLAN@2:8 | S:SEND@2:22"},
        {tier::log, "", "E:parser@1:0:unexpected end of input; expected open tag `<<TURNsuffix`"},
        {tier::log, "<<TURN:<<PLAN:p:PLAN <<SEND[200]:x:SEND",
         "S:PLAN@1:7 | S:SEND@1:21 | E:parser@1:39:expected close tag `:TURNsuffix`; got end of input"},
    });
}

TEST_CASE("positions count code points; only LF starts a line", "[parse][position]") {
    check_brief({
        {tier::parse, "é𝒜漢 <<PLAN:p:PLAN\r\n\r<<SEND[200]:x:SEND", "T:é𝒜漢@1:0 | S:PLAN@1:4 | S:SEND@2:1"},
        // Each byte outside a well-formed sequence (here a UTF-8-encoded surrogate) is one column.
        {tier::parse, "\xed\xa0\x80 x <<PLAN:p:PLAN <<SEND[200]:x:SEND",
         "T:\xed\xa0\x80@1:0 | T:x@1:4 | S:PLAN@1:6 | S:SEND@1:20"},
    });
}

TEST_CASE("max_input_bytes: the first bytes are parsed, the rest is one error item", "[parse][limits]") {
    const std::string in = "<<PLAN:p:PLAN\n<<SEND[200]:done:SEND\n";
    parse_options o;
    o.max_input_bytes = 14;  // the PLAN line and its newline
    const parse_result r = parse(in, tier::statements, o);
    REQUIRE(r.items.size() == 2);
    CHECK(std::holds_alternative<statement>(r.items[0]));
    const auto d = std::get<diagnostic>(r.items[1]);
    CHECK(d.position == position{2, 0});
    CHECK(d.source == source::lexer);
    CHECK(d.message == "input is 36 bytes; only the first 14 were parsed (the max_input_bytes limit)");
    CHECK(!r.clean());
    // At or under the limit nothing changes; values past 2^32 - 1 act as 2^32 - 1.
    o.max_input_bytes = in.size();
    CHECK(to_json(parse(in, tier::statements, o)) == to_json(parse(in, tier::statements)));
    o.max_input_bytes = static_cast<std::size_t>(-1);
    CHECK(to_json(parse(in, tier::statements, o)) == to_json(parse(in, tier::statements)));
}
