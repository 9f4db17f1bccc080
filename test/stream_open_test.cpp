// SPDX-License-Identifier: MIT
// stream_parser::open() (what is open now) and the opt-in runaway event
// (set_runaway_limit): where the lexer is for inputs cut at each byte, the event on a statement
// that swallows the rest of the turn and on an unclosed 1 MB body with a 64 KB limit, and never
// on a conformance vector without an unparsedTail; the final result is never changed.
#include <catch2/catch_test_macros.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "plurnk/plurnk.hpp"

namespace {

using W = plurnk::open_info::where_t;

plurnk::open_info open_after(std::string_view input) {
    plurnk::stream_parser p(plurnk::tier::log);
    p.feed(input);
    return p.open();
}

struct fired {
    std::vector<plurnk::open_info> events;
};

// Feeds `input` in `chunk`-byte pieces with a runaway limit; the events and the final JSON. With
// `items`, a callback takes the items too (the stream lexes at every feed that wakes its lexer).
std::string run(std::string_view input, plurnk::tier t, std::size_t chunk, std::size_t limit, fired& f,
                bool items = false) {
    plurnk::stream_parser p(t);
    if (items) p.set_callback([](const plurnk::stream_event&) {});
    p.set_runaway_limit(limit, [&f](const plurnk::open_info& o) { f.events.push_back(o); });
    for (std::size_t at = 0; at < input.size(); at += chunk) p.feed(input.substr(at, chunk));
    return plurnk::to_json(p.finish());
}

}  // namespace

TEST_CASE("open(): which statement is open and where the lexer is in it", "[stream][open]") {
    CHECK(open_after("").where == W::none);
    CHECK(open_after("hello ").where == W::none);
    CHECK(open_after("hello <<EDIT2").where == W::none);  // the suffix may go on: not lexed yet
    const plurnk::open_info slots = open_after("hello <<EDIT2 ");
    CHECK(slots.where == W::slots);
    CHECK(slots.op == plurnk::op::EDIT);
    CHECK(slots.suffix == "2");
    CHECK(slots.begin == 6);
    CHECK(slots.bytes == 8);
    CHECK(open_after("<<EDIT[a").where == W::signal);
    CHECK(open_after("<<EDIT[a]").where == W::slots);
    CHECK(open_after("<<EDIT[a](sr").where == W::target);
    CHECK(open_after("<<EDIT[a](src)<1,2>").where == W::slots);
    const plurnk::open_info body = open_after("<<EDIT(src)<1,2>:new text");
    CHECK(body.where == W::body);
    CHECK(body.bytes == 25);
    CHECK(open_after("<<EDIT(src):new text:EDIT\n").where == W::none);
    const plurnk::open_info turn = open_after("<<TURN7:\n<<PLAN:a:PLAN\n");
    CHECK(turn.where == W::turn);
    CHECK(turn.op == plurnk::op::TURN);
    CHECK(turn.suffix == "7");
    CHECK(turn.turn_depth == 1);
    const plurnk::open_info inner = open_after("<<TURN:\n<<PLAN:a:PLAN\n<<SEND[200]:b");
    CHECK(inner.where == W::body);
    CHECK(inner.op == plurnk::op::SEND);
    CHECK(inner.begin == 22);
    CHECK(inner.turn_depth == 1);
    CHECK(open_after("<<TURN:\n<<PLAN:a:PLAN\n<<SEND[200]:b:SEND\n:TURN\n").where == W::none);
    // Openers swallowed after the open statement's own (the keyword must have arrived).
    CHECK(open_after("<<READ[oops(b.py)::READ\n<<EXEC[sh]:ls:EXEC\n<<SE").openers == 1);
    CHECK(open_after("<<READ[oops(b.py)::READ\n<<EXEC[sh]:ls:EXEC\n<<SEND").openers == 2);
    plurnk::stream_parser done;
    done.feed("<<PLAN:a");
    (void)done.finish();
    CHECK(done.open().where == W::none);
}

TEST_CASE("open() cut at every byte agrees with one feed, and costs one pass", "[stream][open]") {
    const std::string turn = "<<TURN:\n<<PLAN:p:PLAN\n<<EDIT[a](x.md)<1,2>:<<READ(y)::READ\n:EDIT\n<<SEND[200]:d:SEND\n:TURN\n";
    const std::string input = "<<READ(a)::READ\n" + turn + "<<EDIT(b):x\n<<FIND";  // log tier: a stray READ
    plurnk::stream_parser p(plurnk::tier::log);
    plurnk::stream_parser eager(plurnk::tier::log);  // releases input at every chance
    eager.set_release_threshold(1);
    for (std::size_t i = 0; i < input.size(); ++i) {
        p.feed(input.substr(i, 1));
        eager.feed(input.substr(i, 1));
        const plurnk::open_info b = open_after(input.substr(0, i + 1));
        for (const plurnk::open_info& a : {p.open(), eager.open()}) {
            INFO("after " << i + 1 << " bytes");
            CHECK(a.where == b.where);
            CHECK(a.op == b.op);
            CHECK(a.suffix == b.suffix);
            CHECK(a.begin == b.begin);
            CHECK(a.bytes == b.bytes);
            CHECK(a.openers == b.openers);
            CHECK(a.turn_depth == b.turn_depth);
        }
    }
    CHECK(eager.retained() < p.retained());
}

TEST_CASE("runaway: a statement that swallows the rest of the turn", "[stream][open]") {
    // The READ's signal never closes: it swallows the EXEC and the SEND. open() says so at once;
    // the event (bytes only) fires once it holds more than the limit, here 32 bytes.
    const std::string turn = "<<PLAN:p:PLAN\n<<READ[oops(b.py)::READ\n<<EXEC[sh]:ls:EXEC\n<<SEND[200]:x:SEND";
    plurnk::stream_parser p(plurnk::tier::parse);
    p.feed(turn.substr(0, turn.find("<<SEND") + 6));
    const plurnk::open_info o = p.open();
    CHECK(o.op == plurnk::op::READ);
    CHECK(o.begin == 14);
    CHECK(o.openers == 2);
    for (const std::size_t chunk : {1, 4, 4096}) {
        fired f;
        CHECK(run(turn, plurnk::tier::parse, chunk, 32, f) == plurnk::to_json(plurnk::parse(turn, plurnk::tier::parse)));
        REQUIRE(f.events.size() == 1);
        CHECK(f.events[0].op == plurnk::op::READ);
        CHECK(f.events[0].begin == 14);
        CHECK(f.events[0].bytes > 32);
        if (chunk == 1) CHECK(f.events[0].bytes == 33);
    }
    // With a 64 KB limit a short turn raises nothing.
    fired quiet;
    (void)run(turn, plurnk::tier::parse, 1, 64 * 1024, quiet);
    CHECK(quiet.events.empty());
}

TEST_CASE("runaway: an unclosed 1 MB EDIT body with a 64 KB limit", "[stream][open]") {
    const std::size_t limit = 64 * 1024, chunk = 4096;
    const std::string input = "<<PLAN:p:PLAN\n<<EDIT(big.txt):" + std::string(1 << 20, 'x');
    fired f;
    plurnk::stream_parser p(plurnk::tier::parse);
    p.set_runaway_limit(limit, [&f](const plurnk::open_info& o) { f.events.push_back(o); });
    plurnk::stream_parser copy_before(p);  // a checkpoint keeps the limit
    for (std::size_t at = 0; at < input.size(); at += chunk) p.feed(std::string_view(input).substr(at, chunk));
    REQUIRE(f.events.size() == 1);
    CHECK(f.events[0].op == plurnk::op::EDIT);
    CHECK(f.events[0].where == W::body);
    CHECK(f.events[0].begin == 14);
    CHECK(f.events[0].bytes > limit);
    CHECK(f.events[0].bytes <= limit + chunk);
    CHECK(plurnk::to_json(p.finish()) == plurnk::to_json(plurnk::parse(input, plurnk::tier::parse)));
    copy_before.feed(input);
    CHECK(f.events.size() == 2);
    // Off: no event.
    fired none;
    CHECK(run(input, plurnk::tier::parse, chunk, 0, none) == plurnk::to_json(plurnk::parse(input, plurnk::tier::parse)));
    CHECK(none.events.empty());
}

// A rejected draft leaves nothing behind: restoring a checkpoint rewinds what the limit has
// reported too, so the runaway a draft raised fires again if the accepted path runs away the same
// way, and not at all if it does not (the parser queues nothing: the callback had the event).
TEST_CASE("runaway: restore forgets the runaway of a rejected draft", "[stream][open]") {
    const std::string before = "<<PLAN:p:PLAN\n", draft = "<<EDIT(x):a body that runs away past the limit";
    fired f;
    plurnk::stream_parser p(plurnk::tier::parse);
    p.set_runaway_limit(16, [&f](const plurnk::open_info& o) { f.events.push_back(o); });
    p.feed(before);
    const plurnk::stream_parser checkpoint = p;
    p.feed(draft);
    REQUIRE(f.events.size() == 1);
    p = checkpoint;
    p.feed("<<READ(a)::READ\n");
    CHECK(f.events.size() == 1);
    p = checkpoint;
    p.feed(draft);
    REQUIRE(f.events.size() == 2);
    CHECK(f.events[1].begin == f.events[0].begin);
    p.feed("more of the same body");
    CHECK(f.events.size() == 2);
    CHECK(plurnk::to_json(p.finish()) == plurnk::to_json(plurnk::parse(before + draft + "more of the same body", plurnk::tier::parse)));
}

TEST_CASE("runaway: never on a conformance vector without an unparsedTail", "[stream][open]") {
    std::filesystem::path path = std::filesystem::path(__FILE__).parent_path() / "conformance" / "parser.jsonl";
    if (const char* env = std::getenv("PLURNK_CONFORMANCE")) path = env;
    std::ifstream in(path, std::ios::binary);
    REQUIRE(in);
    std::string line;
    std::size_t vectors = 0, tails = 0, tails_fired = 0;
    while (std::getline(in, line)) {
        const auto v = plurnk::parse_json(line);
        if (!v || !v->find("input") || !v->find("tier")) continue;
        const auto t = plurnk::tier_from_name(v->find("tier")->string);
        if (!t) continue;
        const std::string& input = v->find("input")->string;
        const plurnk::parse_result want = plurnk::parse(input, *t);
        ++vectors;
        for (const std::size_t chunk : {1, 7}) {
            fired f;
            const std::string got = run(input, *t, chunk, 64 * 1024, f);
            if (got != plurnk::to_json(want)) FAIL_CHECK("the runaway limit changed the result of " << line);
            if (want.tail) {
                if (chunk == 1) {
                    ++tails;
                    tails_fired += f.events.empty() ? 0 : 1;
                }
            } else if (!f.events.empty()) {
                FAIL_CHECK("runaway event on a vector without unparsedTail: " << line);
            }
        }
    }
    CHECK(vectors > 10000);
    std::printf("runaway: %zu vectors; of the %zu with an unparsedTail, %zu raise the event early (64 KB limit)\n",
                vectors, tails, tails_fired);
}

TEST_CASE("runaway: a long TURN body fires once for the TURN, and a statement in it once", "[stream][open]") {
    std::string log = "<<TURN:\n<<PLAN:p:PLAN\n";
    for (int i = 0; i < 200; ++i) log += "<<READ(a.md)::READ\n";
    log += "<<EDIT(x):" + std::string(3000, 'y');  // still open at the end
    fired f;
    CHECK(run(log, plurnk::tier::log, 64, 2048, f) == plurnk::to_json(plurnk::parse(log, plurnk::tier::log)));
    REQUIRE(f.events.size() == 2);
    CHECK(f.events[0].where == W::turn);
    CHECK(f.events[0].begin == 0);
    CHECK(f.events[0].turn_depth == 1);
    CHECK(f.events[1].where == W::body);
    CHECK(f.events[1].op == plurnk::op::EDIT);
    CHECK(f.events[1].bytes > 2048);
}

TEST_CASE("runaway: a stream whose callback takes the items fires as one without", "[stream][open]") {
    // Such a stream lexes at each feed that wakes its lexer (a ':' in a body, a close tag's
    // byte), and the runaway check follows those feeds too, at every chunking.
    std::string log = "<<TURN:\n<<PLAN:p:PLAN\n<<READ[oops(b.py)::READ\n<<EXEC[sh]:ls:EXEC\n";
    for (int i = 0; i < 40; ++i) log += "<<READ(a.md)::READ\n";
    log += "<<EDIT(x):a:b:EDI:" + std::string(300, 'y');  // still open at the end
    for (const std::size_t chunk : {1, 2, 5, 9, 16, 64}) {
        fired quiet, told;
        const std::string expected = run(log, plurnk::tier::log, chunk, 128, quiet);
        CHECK(run(log, plurnk::tier::log, chunk, 128, told, true) == expected);
        REQUIRE(told.events.size() == quiet.events.size());
        CHECK(!told.events.empty());
        for (std::size_t i = 0; i < told.events.size(); ++i) {
            CHECK(told.events[i].where == quiet.events[i].where);
            CHECK(told.events[i].op == quiet.events[i].op);
            CHECK(told.events[i].begin == quiet.events[i].begin);
            CHECK(told.events[i].bytes == quiet.events[i].bytes);
        }
    }
}
