// SPDX-License-Identifier: MIT
// The canonical producer (include/plurnk/format.hpp): tables of tolerated spellings and their
// canonical form, suffix choice and refusals on statements built by hand, format_turn and
// format_source on whole documents, and the round-trip property (P11, fuzz/invariants.hpp) on
// every input of the conformance vectors.
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cmath>
#include <deque>
#include <span>
#include <vector>
#include <fstream>
#include <limits>
#include <string>

#include "../fuzz/invariants.hpp"
#include "plurnk/plurnk.hpp"

using namespace plurnk;

namespace {

// Results and lists that statements built or parsed here view: kept for the whole run.
std::deque<parse_result> g_results;
template <class T>
std::span<const T> keep(std::initializer_list<T> v) {
    static std::deque<std::vector<T>> lists;
    return lists.emplace_back(v);
}

// The one statement `text` parses to in the statements (or client) tier (a view of a result
// kept for the whole run).
statement only_statement(std::string_view text, tier t = tier::statements) {
    const parse_result& r = g_results.emplace_back(parse(text, t));
    INFO(to_json(r));
    REQUIRE(r.items.size() == 1);
    REQUIRE(std::holds_alternative<statement>(r.items[0]));
    return std::get<statement>(r.items[0]);
}

std::string canonical(std::string_view text, tier t = tier::statements) {
    const format_result f = format(only_statement(text, t));
    INFO(f.error.value_or(""));
    REQUIRE(f);
    return f.text;
}

statement hand(op o, std::string_view suffix, body b) {
    statement s;
    s.op = o;
    s.suffix = suffix;
    s.body = b;
    return s;
}

std::string formatted(const statement& s) {
    const format_result f = format(s);
    INFO(f.error.value_or(""));
    REQUIRE(f);
    return f.text;
}

std::string refusal(const statement& s) {
    const format_result f = format(s);
    REQUIRE(!f);
    CHECK(f.text.empty());
    return *f.error;
}

}  // namespace

TEST_CASE("tolerated spellings get their canonical form") {
    struct row {
        const char* in;
        const char* out;
    };
    const row rows[] = {
        // already canonical
        {"<<READ(a.md)::READ", "<<READ(a.md)::READ"},
        {"<<EDIT(p):hello:EDIT", "<<EDIT(p):hello:EDIT"},
        // the one-colon empty body
        {"<<READ(a.md):READ", "<<READ(a.md)::READ"},
        // slot order, and blanks and line breaks between slots
        {"<<READ<2>(x)[t]::READ", "<<READ[t](x)<2>::READ"},
        {"<<EDIT (x)\n <2> :b:EDIT", "<<EDIT(x)<2>:b:EDIT"},
        {"<<FIND(src/**)[a , b]::FIND", "<<FIND[a,b](src/**)::FIND"},
        {"<<SEND[ 200 ]:ok:SEND", "<<SEND[200]:ok:SEND"},
        {"<<EXEC[ sh ](.)<120, 5>:ls:EXEC", "<<EXEC[sh](.)<120,5>:ls:EXEC"},
        // scope numbers: dash and comma-space separators, spelling of the numbers
        {"<<READ(x)<1-5>::READ", "<<READ(x)<1,5>::READ"},
        {"<<READ(x)<1, 2>::READ", "<<READ(x)<1,2>::READ"},
        {"<<EDIT(x)<0--1>:a:EDIT", "<<EDIT(x)<0,-1>:a:EDIT"},
        {"<<FIND(x)<0.50,007>::FIND", "<<FIND(x)<0.5,7>::FIND"},
        {"<<READ(x)<-0>::READ", "<<READ(x)<0>::READ"},
        // target escapes: every backslash and parenthesis is escaped, so any target round-trips
        {"<<READ(f(1).md)::READ", "<<READ(f\\(1\\).md)::READ"},
        {"<<READ(a\\(b)::READ", "<<READ(a\\(b)::READ"},
        {"<<READ(a\\*b)::READ", "<<READ(a\\\\*b)::READ"},
        {"<<READ(a\\\\b)::READ", "<<READ(a\\\\b)::READ"},
        // request metadata and URLs: the target's own spelling
        {"<<READ(https://h/p?q=1#f{Accept: text/html}{ X : y })::READ",
         "<<READ(https://h/p?q=1#f{Accept: text/html}{ X : y })::READ"},
        // a COPY destination: its target escaped, its scope canonical
        {"<<COPY(a)<1,2>:worker:///b(1)<3, 4>:COPY", "<<COPY(a)<1,2>:worker:///b\\(1\\)<3,4>:COPY"},
        // suffixes are kept when they are safe
        {"<<EDIT1(p):x :EDIT y:EDIT1", "<<EDIT1(p):x :EDIT y:EDIT1"},
        {"<<PLAN_x:goal:PLAN_x", "<<PLAN_x:goal:PLAN_x"},
        // signal codes
        {"<<KILL[-9](p)::KILL", "<<KILL[-9](p)::KILL"},
        {"<<SEND[0042]:x:SEND", "<<SEND[42]:x:SEND"},
    };
    for (const row& r : rows) {
        CAPTURE(r.in);
        CHECK(canonical(r.in) == r.out);
    }
    CHECK(canonical("<<LOOK[a] (x) <1> :~y:LOOK", tier::client) == "<<LOOK[a](x)<1>:~y:LOOK");
}

TEST_CASE("a long SEND code and scope numbers are written in full digits") {
    // 2^70 and a decimal that needs 17 significant digits; both read back to the same double.
    const std::string s = canonical("<<SEND[1180591620717411303424]:x:SEND");
    CHECK(s == "<<SEND[1180591620717411303424]:x:SEND");
    const std::string r = canonical("<<READ(x)<0.30000000000000004>::READ");
    CHECK(r == "<<READ(x)<0.30000000000000004>::READ");
}

TEST_CASE("the suffix: the statement's own when safe, else the shortest digit suffix") {
    // An unsuffixed body holding its own close tag gets "1"; holding `:EDIT1` too, "2".
    CHECK(formatted(hand(op::EDIT, "", std::string_view("a :EDIT b"))) == "<<EDIT1:a :EDIT b:EDIT1");
    CHECK(formatted(hand(op::EDIT, "", std::string_view(":EDIT :EDIT1 :EDIT12"))) == "<<EDIT2::EDIT :EDIT1 :EDIT12:EDIT2");
    // At the very end of the body the close tag collides too (the real close follows it).
    CHECK(formatted(hand(op::EDIT, "", std::string_view("a:EDIT"))) == "<<EDIT1:a:EDIT:EDIT1");
    // `:EDITOR` is not `:EDIT` (an identifier character follows): no collision.
    CHECK(formatted(hand(op::EDIT, "", std::string_view("a:EDITOR"))) == "<<EDIT:a:EDITOR:EDIT");
    // Own suffix kept when safe, replaced (shortest first: "") when not.
    CHECK(formatted(hand(op::EDIT, "9", std::string_view(":EDIT"))) == "<<EDIT9::EDIT:EDIT9");
    CHECK(formatted(hand(op::EDIT, "A", std::string_view(":EDITA"))) == "<<EDIT::EDITA:EDIT");
    CHECK(formatted(hand(op::EDIT, "a-b", std::string_view("x"))) == "<<EDIT:x:EDIT");
    // A body that begins with the open tag, blanks and a line break would be read as the
    // one-colon empty close.
    CHECK(formatted(hand(op::PLAN, "", std::string_view("PLAN \nmore"))) == "<<PLAN1:PLAN \nmore:PLAN1");
    CHECK(formatted(hand(op::PLAN, "", std::string_view("PLAN <<READ"))) == "<<PLAN1:PLAN <<READ:PLAN1");
    CHECK(formatted(hand(op::PLAN, "", std::string_view("PLAN more"))) == "<<PLAN:PLAN more:PLAN");
    // The nested statement of SPEC §8.
    const std::string nested = "\n<<SEND[400](worker://reviewer):still working:SEND\n";
    statement send = hand(op::SEND, "", send_body{nested, std::nullopt});
    send.signal.kind = signal::kind_t::number;
    send.signal.number = 400;
    CHECK(formatted(send) == "<<SEND1[400]:" + nested + ":SEND1");
    // Whatever the suffix, the text parses back to the body.
    const statement back = only_statement(formatted(send));
    CHECK(std::get<send_body>(back.body).raw == nested);
}

TEST_CASE("statements built by hand") {
    statement s = hand(op::READ, "", {});
    parsed_path url;
    url.kind = parsed_path::kind_t::url;
    url.scheme = "https";
    url.hostname = "example.com";
    url.port = 8443;
    url.pathname = "/a b(1)";
    url.query = "";
    url.fragment = "top";
    url.headers = keep<header>({{"Accept", "text/html"}});
    s.target = url;
    s.marker = line_marker{keep<double>({1, -1})};
    // An empty raw: spelled from the fields, escapes and request metadata included.
    CHECK(formatted(s) == "<<READ(https://example.com:8443/a b\\(1\\)?#top{Accept: text/html})<1,-1>::READ");
    const statement back = only_statement(formatted(s));
    REQUIRE(back.target);
    CHECK(back.target->hostname == "example.com");
    REQUIRE(back.target->headers);
    CHECK(std::ranges::equal(*back.target->headers, *url.headers));

    statement tags = hand(op::FOLD, "", matcher_body{dialect::glob, "*.md", "", ""});
    tags.signal.kind = signal::kind_t::tags;
    tags.signal.tags = keep<std::string_view>({"a", "b<c"});
    CHECK(formatted(tags) == "<<FOLD[a,b<c]:*.md:FOLD");
    tags.signal.tags = {};
    CHECK(formatted(tags) == "<<FOLD[]:*.md:FOLD");
    CHECK(fuzz::same_statement(only_statement(formatted(tags)), tags));
}

TEST_CASE("parts PLURNK cannot spell are refused, not written") {
    CHECK(refusal(hand(op::TURN, "", std::string_view("x"))).find("TURN") != std::string::npos);
    statement s = hand(op::FIND, "", {});
    s.signal.kind = signal::kind_t::tags;
    s.signal.tags = keep<std::string_view>({"a]b"});
    CHECK(refusal(s).find("tag 1") != std::string::npos);
    s.signal.tags = keep<std::string_view>({"a<<b"});
    CHECK(!format(s));
    s.signal.tags = keep<std::string_view>({"a<"});
    CHECK(!format(s));
    s.signal.tags = keep<std::string_view>({""});
    CHECK(!format(s));

    statement t = hand(op::READ, "", {});
    parsed_path p;
    p.raw = "a\nb";
    t.target = p;
    CHECK(refusal(t).find("line break") != std::string::npos);
    t.target->raw = "a<(b";
    CHECK(!format(t));
    t.target->raw = "a<";
    CHECK(!format(t));
    t.target->raw = "";
    CHECK(!format(t));
    t.target->raw = "a<b";
    CHECK(formatted(t) == "<<READ(a<b)::READ");

    statement kill = hand(op::KILL, "", {});
    kill.marker = line_marker{keep<double>({1})};
    CHECK(refusal(kill).find("scope") != std::string::npos);
    statement send = hand(op::SEND, "", send_body{"x", std::nullopt});
    send.signal.kind = signal::kind_t::number;
    send.signal.number = 1.5;
    CHECK(refusal(send).find("integer") != std::string::npos);
    send.signal.number = 42;
    send.marker = line_marker{keep<double>({5})};
    CHECK(refusal(send).find("terminal") != std::string::npos);
    send.signal.number = 202;
    CHECK(formatted(send) == "<<SEND[202]<5>:x:SEND");
    send.marker = line_marker{keep<double>({std::numeric_limits<double>::quiet_NaN()})};
    CHECK(!format(send));
    send.marker = line_marker{};
    CHECK(!format(send));

    CHECK(refusal(hand(op::WORK, "", {})).find("prompt") != std::string::npos);
    statement exec = hand(op::EXEC, "", std::string_view("ls"));
    exec.signal.kind = signal::kind_t::text;
    exec.signal.text = "1sh";
    CHECK(!format(exec));
    exec.signal.text = "python3.11";
    CHECK(formatted(exec) == "<<EXEC[python3.11]:ls:EXEC");
    exec.signal.kind = signal::kind_t::number;
    CHECK(!format(exec));
}

TEST_CASE("format_turn writes the items, one statement a line") {
    const parse_result r = parse_turn("Hello  world\n<<PLAN : goal :PLAN <<READ (a.md):READ\n<<SEND[200]:done:SEND\ntail");
    REQUIRE(r.clean());
    const format_result f = format_turn(r);
    REQUIRE(f);
    CHECK(f.text == "Hello world\n<<PLAN: goal :PLAN\n<<READ(a.md)::READ\n<<SEND[200]:done:SEND\ntail\n");
    CHECK(fuzz::same_items(r, parse_turn(f.text), "format_turn") == "");
    // Diagnostics are left out, and with them the statement that failed.
    const parse_result bad = parse_statements("<<READ(a)::READ <<FIND(b):/(/:FIND <<READ(c)::READ");
    const format_result g = format_turn(bad);
    REQUIRE(g);
    CHECK(g.text == "<<READ(a)::READ\n<<READ(c)::READ\n");
    CHECK(format_turn(parse_result{}).text.empty());
}

TEST_CASE("format_source rewrites admitted statements and keeps everything else") {
    const std::string in =
        "<think>plan it</think>\n<<PLAN:goal:PLAN\n\n  <<READ<1-3>(a.md):READ   \n<<FIND(x) :/(/:FIND\n"
        "<<SEND[102] :ok:SEND\n";
    const source_format sf = format_source(in, tier::parse);
    CHECK(sf.changed);
    CHECK(sf.text ==
          "<think>plan it</think>\n<<PLAN:goal:PLAN\n\n  <<READ(a.md)<1,3>::READ   \n<<FIND(x) :/(/:FIND\n"
          "<<SEND[102]:ok:SEND\n");
    CHECK(to_json(sf.result) == to_json(parse_turn(in)));
    const source_format again = format_source(sf.text, tier::parse);
    CHECK(!again.changed);
    CHECK(again.text == sf.text);
    // TURN wrappers of the log tier stay, their statements are rewritten.
    const source_format log = format_source("<<TURN:<<PLAN :x:PLAN <<SEND[200]:y:SEND:TURN", tier::log);
    CHECK(log.text == "<<TURN:<<PLAN:x:PLAN <<SEND[200]:y:SEND:TURN");
    // An unparsed tail is left as it is.
    const source_format tail = format_source("<<READ (a)::READ <<EDIT(b):never closed", tier::statements);
    CHECK(tail.text == "<<READ(a)::READ <<EDIT(b):never closed");
    // Bytes past max_input_bytes are not parsed and are kept.
    parse_options cut;
    cut.max_input_bytes = 17;
    const source_format limited = format_source("<<READ (a)::READ <<READ (b)::READ", tier::statements, cut);
    CHECK(limited.text == "<<READ(a)::READ <<READ (b)::READ");
}

TEST_CASE("format_source in pieces: the same text, the input's runs not copied") {
    for (const char* file : {"/conformance/parser.jsonl", "/conformance/own.jsonl"}) {
        std::ifstream f(std::string(PLURNK_TEST_SOURCE_DIR) + file, std::ios::binary);
        REQUIRE(f);
        std::string line, joined;
        while (std::getline(f, line)) {
            const auto v = parse_json(line);
            REQUIRE(v);
            const std::string& in = v->find("input")->string;
            const auto t = tier_from_name(v->find("tier")->string);
            REQUIRE(t);
            CAPTURE(v->find("id")->string);
            joined.clear();
            std::size_t copies = 0;  // pieces of the input that are not views into it
            const source_format pieces = format_source(in, *t, {}, [&](std::string_view piece) {
                joined += piece;
                const bool inside = piece.data() >= in.data() && piece.data() + piece.size() <= in.data() + in.size();
                if (!inside && in.find(piece) != std::string::npos && piece.size() > 64) ++copies;
            });
            const source_format whole = format_source(in, *t);
            CHECK(joined == whole.text);
            CHECK(pieces.changed == whole.changed);
            CHECK(pieces.text.empty());
            CHECK(copies == 0);
        }
    }
}

TEST_CASE("the example turn is canonical") {
    std::ifstream f(std::string(PLURNK_TEST_SOURCE_DIR) + "/../doc/examples/turn.plurnk", std::ios::binary);
    const std::string text{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
    REQUIRE(!text.empty());
    const source_format sf = format_source(text, tier::parse);
    CHECK(sf.result.clean());
    CHECK(!sf.changed);
}

TEST_CASE("round trip on every input of the conformance vectors (P11)") {
    std::size_t vectors = 0, statements = 0, changed = 0;
    // The service dialect's vectors in that dialect (doc/dialects.md): the producer writes its
    // spelling (a `#` matcher and a regex target as written, OPEN/FOLD scopes, an empty FORK).
    for (const char* file : {"/conformance/parser.jsonl", "/conformance/own.jsonl", "/conformance/service.jsonl"}) {
        parse_options options;
        if (std::string_view(file) == "/conformance/service.jsonl") options.dialect = parse_dialect::service;
        std::ifstream f(std::string(PLURNK_TEST_SOURCE_DIR) + file, std::ios::binary);
        REQUIRE(f);
        std::string line;
        while (std::getline(f, line)) {
            const auto v = parse_json(line);
            REQUIRE(v);
            const json_value* input = v->find("input");
            const json_value* tier_v = v->find("tier");
            REQUIRE(input != nullptr);
            REQUIRE(tier_v != nullptr);
            const auto t = tier_from_name(tier_v->string);
            REQUIRE(t);
            CAPTURE(v->find("id")->string, input->string);
            const std::string broken = fuzz::check_format(input->string, *t, options);
            CHECK(broken == "");
            ++vectors;
            const parse_result r = parse(input->string, *t, options);
            for (const item& it : r.items) statements += std::holds_alternative<statement>(it) ? 1 : 0;
            changed += format_source(input->string, *t, options).changed ? 1 : 0;
        }
    }
    // Every vector was read, and most of them hold statements, many of them not canonical.
    CHECK(vectors >= 12868);
    CHECK(statements > 20000);
    CHECK(changed > 1500);
    WARN("vectors: " << vectors << ", admitted statements: " << statements << ", inputs not canonical: " << changed);
}

namespace {

// migrate() of the one statement `text` reads as in `from`: the text, or "note: WHY".
std::string migrated(std::string_view text, parse_dialect from, parse_dialect to) {
    parse_options o;
    o.dialect = from;
    const parse_result& r = g_results.emplace_back(parse(text, tier::statements, o));
    INFO(to_json(r));
    REQUIRE(r.items.size() == 1);
    REQUIRE(std::holds_alternative<statement>(r.items[0]));
    const format_result f = migrate(std::get<statement>(r.items[0]), to);
    return f ? f.text : "note: " + *f.error;
}

std::string to_contracts(std::string_view text) {
    return migrated(text, parse_dialect::service, parse_dialect::contracts);
}
std::string to_service(std::string_view text) {
    return migrated(text, parse_dialect::contracts, parse_dialect::service);
}

}  // namespace

TEST_CASE("migration from the service dialect into contracts") {
    // A `#` regex gets the `/` fence, each `/` the 1.4.0 split would end at escaped; an empty one
    // is `(?:)` (`//` is XPath).
    CHECK(to_contracts("<<FIND(log:///**/error):#budget overflow|budget exceeded#i:FIND") ==
          "<<FIND(log:///**/error):/budget overflow|budget exceeded/i:FIND");
    CHECK(to_contracts("<<FIND(src/**):#a/b#g:FIND") == "<<FIND(src/**):/a\\/b/g:FIND");
    CHECK(to_contracts("<<FIND(src/**):#a\\/b#:FIND") == "<<FIND(src/**):/a\\/b/:FIND");
    CHECK(to_contracts("<<FIND(src/**):#[/]x#:FIND") == "<<FIND(src/**):/[/]x/:FIND");
    CHECK(to_contracts("<<FIND(src/**):#[a]/#:FIND") == "<<FIND(src/**):/[a]\\//:FIND");
    CHECK(to_contracts("<<READ(a.md):##:READ") == "<<READ(a.md):/(?:)/:READ");
    CHECK(to_contracts("<<FIND(a.md):#a\\#b#:FIND") == "<<FIND(a.md):/a\\#b/:FIND");
    // A lone-`/` glob gets a glob escape, `\/`: no regex fence.
    CHECK(to_contracts("<<READ(x):/etc/hosts:READ") == "<<READ(x):\\/etc/hosts:READ");
    CHECK(to_contracts("<<FIND(x):/createCoder/i:FIND") == "<<FIND(x):\\/createCoder/i:FIND");
    CHECK(to_contracts("<<FIND(x):/:FIND") == "<<FIND(x):\\/:FIND");
    // The rest is written as format() writes it: a unit that is no regex is a local path.
    CHECK(to_contracts("<<FIND(#a)b#)::FIND") == "<<FIND(#a\\)b#)::FIND");
    CHECK(to_contracts("<<READ(#stdout)::READ") == "<<READ(#stdout)::READ");
    CHECK(to_contracts("<<FIND(x)://h1:FIND") == "<<FIND(x)://h1:FIND");
    CHECK(to_contracts("<<WORK(worker://a):go:WORK") == "<<WORK(worker://a):go:WORK");
    CHECK(to_contracts("<<FORK(worker://a): :FORK") == "<<FORK(worker://a): :FORK");
    // What 1.4.0 cannot express.
    CHECK(to_contracts("<<FIND(#src/.*\\.test\\.ts#)::FIND") ==
          "note: <<FIND: a regex target (`#pattern#flags`) has no 1.4.0 spelling");
    CHECK(to_contracts("<<MOVE(a.md):#b.*#i<1,3>:MOVE") ==
          "note: <<MOVE: a regex destination (`#pattern#flags`) has no 1.4.0 spelling");
    CHECK(to_contracts("<<OPEN(log:///**)<1,10>::OPEN") == "note: <<OPEN: OPEN and FOLD take no scope in 1.4.0");
    CHECK(to_contracts("<<FOLD(log:///**)<1>::FOLD") == "note: <<FOLD: OPEN and FOLD take no scope in 1.4.0");
    CHECK(to_contracts("<<FORK(worker://recheck)::FORK") == "note: <<FORK: FORK needs a prompt in 1.4.0");
    CHECK(to_contracts("<<FIND(#a(<<b#)::FIND") == "note: <<FIND: the target holds `<` before `<`, `\\`, `(` or `)`");
}

TEST_CASE("migration from contracts into the service dialect") {
    CHECK(to_service("<<FIND(x):/a#b/i:FIND") == "<<FIND(x):#a\\#b#i:FIND");
    CHECK(to_service("<<FIND(x):/a#b/u:FIND") == "<<FIND(x):#a\\x23b#u:FIND");
    CHECK(to_service("<<FIND(x):/a\\#b/:FIND") == "<<FIND(x):#a\\#b#:FIND");
    CHECK(to_service("<<FIND(x):/a\\/b[#]/:FIND") == "<<FIND(x):#a\\/b[\\#]#:FIND");
    CHECK(to_service("<<FIND(x):#TODO:FIND") == "<<FIND(x):\\#TODO:FIND");
    CHECK(to_service("<<FIND(x):/etc/:FIND") == "<<FIND(x):#etc#:FIND");
    // A local `#...` target: spelled as the unit it is when its escaped spelling would be a regex.
    CHECK(to_service("<<FIND(#a\\)b#)::FIND") == "<<FIND(#a)b#)::FIND");
    CHECK(to_service("<<FIND(#a\\(b)::FIND") == "<<FIND(#a\\(b)::FIND");
    CHECK(to_service("<<WORK[feature/x](worker://a):go:WORK") ==
          "note: <<WORK: WORK and FORK take no signal in the service dialect");
    CHECK(to_service("<<FIND(#abc#)::FIND") ==
          "note: <<FIND: the target has no spelling in the service dialect (it would read as a regex path)");
}

TEST_CASE("migrate_source rewrites what migrates, notes the rest and keeps everything else") {
    parse_options o;
    o.dialect = parse_dialect::service;
    const std::string in =
        "<<PLAN:p:PLAN\nsome text\n<<FIND(src/**):#a/b#i:FIND\n  <<OPEN(log:///**)<1,10>::OPEN\n"
        "<<FIND(x):#a#i::FIND\n<<SEND[200]:done:SEND\n";
    const source_migration sm = migrate_source(in, tier::parse, parse_dialect::contracts, o);
    CHECK(sm.text ==
          "<<PLAN:p:PLAN\nsome text\n<<FIND(src/**):/a\\/b/i:FIND\n  <<OPEN(log:///**)<1,10>::OPEN\n"
          "<<FIND(x):#a#i::FIND\n<<SEND[200]:done:SEND\n");
    CHECK(sm.changed);
    REQUIRE(sm.notes.size() == 1);
    CHECK(sm.notes[0].at == position{4, 2});
    CHECK(sm.notes[0].message == "<<OPEN: OPEN and FOLD take no scope in 1.4.0");
    CHECK(!sm.result.clean());  // the `#a#i:` flags error stays the parse's
    CHECK(fuzz::check_migrate(in, tier::parse, parse_dialect::contracts, o) == "");
    // Into the dialect read, it is format_source.
    const source_migration same = migrate_source(in, tier::parse, parse_dialect::service, o);
    CHECK(same.text == format_source(in, tier::parse, o).text);
    CHECK(same.notes.empty());
}

TEST_CASE("migration of every input of the conformance vectors (P16)") {
    struct run {
        const char* file;
        parse_dialect from, to;
    };
    for (const run& x : {run{"/conformance/service.jsonl", parse_dialect::service, parse_dialect::contracts},
                         run{"/conformance/parser.jsonl", parse_dialect::contracts, parse_dialect::service}}) {
        parse_options options;
        options.dialect = x.from;
        std::ifstream f(std::string(PLURNK_TEST_SOURCE_DIR) + x.file, std::ios::binary);
        REQUIRE(f);
        fuzz::migration_counts counts;
        std::string line;
        while (std::getline(f, line)) {
            const auto v = parse_json(line);
            REQUIRE(v);
            const auto t = tier_from_name(v->find("tier")->string);
            REQUIRE(t);
            CAPTURE(v->find("id")->string, v->find("input")->string);
            CHECK(fuzz::check_migrate(v->find("input")->string, *t, x.to, options, &counts) == "");
        }
        CHECK(counts.inputs >= (x.from == parse_dialect::service ? 474u : 12868u));
        CHECK(counts.migrated > counts.inputs / 3);
        CHECK(counts.noted > 0);
        WARN(x.file << " from " << dialect_name(x.from) << " to " << dialect_name(x.to) << ": " << counts.inputs
                    << " inputs: " << counts.migrated << " migrated (read back as the same items), " << counts.noted
                    << " with a note (" << counts.notes << " notes), " << counts.with_errors
                    << " with errors in the parse and no note (" << counts.errors_same
                    << " of them read back as the same items); " << counts.statements << " statements");
    }
}

TEST_CASE("a result remembers its dialect: format_turn writes it") {
    parse_options o;
    o.dialect = parse_dialect::service;
    const std::string text = "<<OPEN(log:///**)<1,10>::OPEN\n<<FORK(worker://a)::FORK\n";
    const parse_result r = parse(text, tier::statements, o);
    REQUIRE(r.clean());
    CHECK(r.dialect == parse_dialect::service);
    CHECK(parse(text, tier::statements).dialect == parse_dialect::contracts);
    const format_result f = format_turn(r);
    INFO(f.error.value_or(""));
    CHECK(f.text == text);
    // Told otherwise, it writes 1.4.0's rules (which have no OPEN scope).
    CHECK(!format_turn(r, parse_dialect::contracts));
    stream_parser s(tier::statements, o);
    s.feed(text);
    const parse_result streamed = s.finish();
    CHECK(streamed.dialect == parse_dialect::service);
    CHECK(streamed == r);
}
