// SPDX-License-Identifier: MIT
// A thread's spare stream state (lib/pipeline/stream_scratch.hpp): a destroyed stream's state is
// reset and kept, and the next stream on the thread made for the same tier, dialect, TURN depth
// and input limit takes it. Checked here: a reset state equals a fresh one (its stream part field
// by field, its pipeline by what it holds), and a stream on it gives what a stream on a fresh
// state gives (events, runaway reports and result), after a first input left it in every kind of
// state (an open statement, an open TURN, a runaway reported, past the input limit, released
// input, a copy alive, finished or not, both dialects, every tier, with and without callback);
// when the spare is taken and when not; the cap; streams made and destroyed inside a callback;
// threads; a reset that throws.
#include <catch2/catch_test_macros.hpp>

#include <cstdlib>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "pipeline/stream_scratch.hpp"
#include "plurnk/json.hpp"
#include "plurnk/stream.hpp"

// test/alloc_fail.cpp: the n-th allocation from now on this thread throws (0: none); returns
// how many were still to go when called (0: the last armed one failed).
std::size_t fail_allocation(std::size_t n) noexcept;

namespace {

using plurnk::detail::stream_access;
using plurnk::detail::stream_scratch_state;

constexpr plurnk::json_options k_spans{.spans = true};

std::string item_json(const plurnk::item& it) {
    plurnk::parse_result one;
    one.items.push_back(it);
    return plurnk::to_json(one, k_spans);
}

// How a stream is set up and fed.
struct setup {
    plurnk::tier t = plurnk::tier::parse;
    plurnk::parse_options options;
    bool callback = true;
    std::size_t runaway = 0;
    std::size_t release_threshold = plurnk::stream_parser::k_default_release_threshold;
    std::size_t chunk = 3;
};

// What a stream reports: its events and runaway reports as they come (into `log`).
void watch(plurnk::stream_parser& p, const setup& s, std::string& log) {
    if (s.callback) {
        p.set_callback([&log](const plurnk::stream_event& ev) {
            log += std::to_string(ev.index) + " " + item_json(ev.value) + "\n";
        });
    }
    if (s.runaway != 0) {
        p.set_runaway_limit(s.runaway, [&log](const plurnk::open_info& o) {
            log += "runaway " + std::to_string(o.begin) + " " + std::to_string(o.bytes) + "\n";
        });
    }
    p.set_release_threshold(s.release_threshold);
}

void feed(plurnk::stream_parser& p, std::string_view in, std::size_t chunk) {
    for (std::size_t at = 0; at < in.size(); at += chunk) p.feed(in.substr(at, chunk));
}

// Input B on `p` (a new stream): its events, runaway reports and result.
std::string run(plurnk::stream_parser& p, const setup& s, std::string_view in) {
    std::string log;
    watch(p, s, log);
    feed(p, in, s.chunk);
    return log + plurnk::to_json(p.finish(), k_spans);
}

// B on a stream with a state of its own (no spare).
std::string run_fresh(const setup& s, std::string_view in) {
    plurnk::detail::release_stream_scratch();
    std::string r;
    {
        plurnk::stream_parser p(s.t, s.options);
        r = run(p, s, in);
    }
    plurnk::detail::release_stream_scratch();
    return r;
}

const std::string k_b =
    "hello <<TURN:<<PLAN:p:PLAN <<SEND[200]:done:SEND:TURN\n<<EDIT(p):some body text:EDIT\n"
    "<<READ(a.md)::READ\n<<EDIT(q):an open body that runs on and on";

// First inputs: what they leave the state in (with the setup's options).
struct first {
    const char* name;
    std::string input;
    bool finish;
};
const std::vector<first>& firsts() {
    static const std::vector<first> all = {
        {"empty", "", false},
        {"open statement", "text <<EDIT(p):a body that is not closed yet, long enough to run away", false},
        {"open TURN", "<<TURN:<<PLAN:p:PLAN <<TURN2:nested <<READ(x)::READ words", false},
        {"closed, released", "<<EDIT(p):one:EDIT\n<<EDIT(q):two:EDIT\ntext\n<<READ(r)::READ\n", false},
        {"finished", "<<TURN:<<PLAN:p:PLAN <<SEND[200]:done:SEND:TURN\n<<EDIT(p):x:EDIT", true},
        {"finished open", "<<EDIT(p):never closed <<READ(", true},
        {"past the limit", std::string(40, 'a') + "<<EDIT(p):b:EDIT" + std::string(40, 'c'), false},
        {"errors", "<<EDIT[(p)]::: <<TURN::TURN:TURN <<<< :EDIT <<NOPE(x)", false},
    };
    return all;
}

std::vector<setup> setups() {
    std::vector<setup> out;
    for (const plurnk::tier t : {plurnk::tier::parse, plurnk::tier::statements, plurnk::tier::log, plurnk::tier::client}) {
        for (const plurnk::parse_dialect d : {plurnk::parse_dialect::contracts, plurnk::parse_dialect::service}) {
            for (const bool cb : {true, false}) {
                setup s;
                s.t = t;
                s.options.dialect = d;
                s.callback = cb;
                out.push_back(s);
                s.runaway = 8;  // fired by the open statements
                s.release_threshold = 1;
                s.chunk = 1;
                out.push_back(s);
                s.runaway = 0;
                s.options.max_input_bytes = 60;
                s.chunk = 7;
                out.push_back(s);
            }
        }
    }
    return out;
}

// A's state, in every way a stream can leave it: on `p`, fed, maybe finished, maybe copied.
void leave(plurnk::stream_parser& p, const setup& s, const first& a, std::string& log) {
    watch(p, s, log);
    feed(p, a.input, s.chunk);
    if (a.finish) (void)p.finish();
}

}  // namespace

TEST_CASE("a reset stream state equals a fresh one and streams as one does", "[stream][spare]") {
    for (const setup& s : setups()) {
        const std::string want = run_fresh(s, k_b);
        for (const first& a : firsts()) {
            INFO(a.name << " tier " << static_cast<int>(s.t) << " dialect " << static_cast<int>(s.options.dialect)
                        << " callback " << s.callback << " runaway " << s.runaway << " limit " << s.options.max_input_bytes);
            std::string log;
            // In place (stream_access::reset(), what the spare does when given back).
            {
                plurnk::stream_parser p(s.t, s.options);
                leave(p, s, a, log);
                stream_access::reset(p);
                CHECK(stream_access::is_fresh(p));
                CHECK(run(p, s, k_b) == want);
            }
            // Through the spare: A's stream destroyed (a copy of it alive), B's takes its state.
            plurnk::detail::release_stream_scratch();
            std::optional<plurnk::stream_parser> copy;
            std::string copy_want;
            {
                plurnk::stream_parser p(s.t, s.options);
                leave(p, s, a, log);
                if (!a.finish) {
                    copy.emplace(p);
                    copy_want = plurnk::to_json(plurnk::stream_parser(p).finish(), k_spans);
                    plurnk::detail::release_stream_scratch();  // (that copy's state): p's is next
                }
            }
            const auto before = stream_scratch_state();
            CHECK(before.held);
            plurnk::stream_parser b(s.t, s.options);
            CHECK(stream_scratch_state().reused == before.reused + 1);
            CHECK(stream_access::is_fresh(b));
            CHECK(run(b, s, k_b) == want);
            // The copy is untouched by the reset of the state it was copied from.
            if (copy) CHECK(plurnk::to_json(copy->finish(), k_spans) == copy_want);
        }
    }
    plurnk::detail::release_stream_scratch();
}

TEST_CASE("the spare is taken by a stream made for the same options only", "[stream][spare]") {
    plurnk::detail::release_stream_scratch();
    CHECK_FALSE(stream_scratch_state().held);
    const auto s0 = stream_scratch_state();
    { plurnk::stream_parser a; }
    CHECK(stream_scratch_state().held);
    CHECK(stream_scratch_state().kept == s0.kept + 1);
    {
        plurnk::stream_parser b;
        CHECK(stream_scratch_state().reused == s0.reused + 1);
        CHECK_FALSE(stream_scratch_state().held);  // b holds it
        plurnk::stream_parser c;                     // none left: its own
        CHECK(stream_scratch_state().fresh == s0.fresh + 2);
    }
    CHECK(stream_scratch_state().held);  // one of b and c; the other freed
    CHECK(stream_scratch_state().kept == s0.kept + 2);
    // Options the state was not made for: a state of its own (the spare is freed).
    plurnk::parse_options service;
    service.dialect = plurnk::parse_dialect::service;
    plurnk::parse_options depth;
    depth.max_turn_depth = 3;
    plurnk::parse_options limit;
    limit.max_input_bytes = 1000;
    const std::vector<std::pair<plurnk::tier, plurnk::parse_options>> others = {
        {plurnk::tier::statements, {}}, {plurnk::tier::parse, service}, {plurnk::tier::parse, depth}, {plurnk::tier::parse, limit}};
    for (const auto& [t, o] : others) {
        { plurnk::stream_parser made_for_default; }
        const auto before = stream_scratch_state();
        {
            plurnk::stream_parser p(t, o);
            CHECK(stream_scratch_state().fresh == before.fresh + 1);
            CHECK_FALSE(stream_scratch_state().held);
        }
        plurnk::stream_parser again(t, o);  // now it is the spare
        CHECK(stream_scratch_state().reused == before.reused + 1);
        CHECK(stream_access::is_fresh(again));
    }
    // An option the state does not depend on.
    { plurnk::stream_parser a; }
    plurnk::parse_options borrow;
    borrow.borrow_input = true;
    const auto before = stream_scratch_state();
    plurnk::stream_parser p(plurnk::tier::parse, borrow);
    CHECK(stream_scratch_state().reused == before.reused + 1);
    plurnk::detail::release_stream_scratch();
}

TEST_CASE("a state over the cap is freed, not kept", "[stream][spare]") {
    plurnk::detail::release_stream_scratch();
    const auto before = stream_scratch_state();
    {
        plurnk::stream_parser p;
        p.feed("<<EDIT(p):");
        p.feed(std::string(plurnk::detail::k_stream_scratch_cap, 'x'));  // open: all held
    }
    CHECK(stream_scratch_state().released == before.released + 1);
    CHECK_FALSE(stream_scratch_state().held);
    {
        plurnk::stream_parser p;
        p.feed("<<EDIT(p):");
        p.feed(std::string(1000, 'x'));
    }
    CHECK(stream_scratch_state().held);
    plurnk::detail::release_stream_scratch();
    CHECK_FALSE(stream_scratch_state().held);
}

TEST_CASE("assignment gives the state it drops to the spare", "[stream][spare]") {
    plurnk::detail::release_stream_scratch();
    plurnk::stream_parser p;
    p.feed("<<EDIT(p):x");
    const auto before = stream_scratch_state();
    p = plurnk::stream_parser(plurnk::tier::statements);  // (made with no spare: fresh)
    CHECK(stream_scratch_state().kept == before.kept + 1);
    plurnk::stream_parser moved(std::move(p));           // no state made or given
    CHECK(stream_scratch_state().kept == before.kept + 1);
    plurnk::stream_parser q;                             // takes the one p dropped
    CHECK(stream_scratch_state().reused == before.reused + 1);
    CHECK(stream_access::is_fresh(q));
    moved.feed("<<READ(a)::READ");
    CHECK(plurnk::to_json(moved.finish()) == plurnk::to_json(plurnk::parse("<<READ(a)::READ", plurnk::tier::statements)));
    plurnk::detail::release_stream_scratch();
}

TEST_CASE("streams made and destroyed inside a callback", "[stream][spare]") {
    const std::string in = "<<EDIT(p):one:EDIT\n<<EDIT(q):two:EDIT\ntext <<READ(r)::READ\n<<EDIT(s):x:EDIT";
    const std::string want = plurnk::to_json(plurnk::parse(in, plurnk::tier::statements), k_spans);
    plurnk::detail::release_stream_scratch();
    const auto before = stream_scratch_state();
    std::vector<std::string> inner;
    {
        plurnk::stream_parser p(plurnk::tier::statements);
        // (The callback alone holds `keep`: destroying p destroys the stream it holds.)
        p.set_callback([&inner, keep = std::make_shared<std::optional<plurnk::stream_parser>>()](
                           const plurnk::stream_event& ev) {
            plurnk::stream_parser q;  // the spare once one was given back
            q.feed("<<READ(inner)::READ");
            inner.push_back(plurnk::to_json(q.finish(), k_spans));
            keep->reset();  // a stream destroyed while the outer one feeds
            keep->emplace();
            (**keep).feed(item_json(ev.value));
        });
        feed(p, in, 5);
        CHECK(plurnk::to_json(p.finish(), k_spans) == want);
    }  // p's state given back, then its callback (and the stream it keeps) destroyed
    const std::string one = plurnk::to_json(plurnk::parse("<<READ(inner)::READ", plurnk::tier::parse), k_spans);
    REQUIRE(inner.size() >= 4);
    for (const std::string& r : inner) CHECK(r == one);
    const auto after = stream_scratch_state();
    CHECK(after.reused > before.reused);
    CHECK(after.held);
    plurnk::detail::release_stream_scratch();
}

TEST_CASE("each thread has its own spare, freed when it exits", "[stream][spare]") {
    plurnk::detail::release_stream_scratch();
    const auto before = stream_scratch_state();
    std::optional<plurnk::stream_parser> made_there;
    bool held_there = false;
    std::size_t reused_there = 0;
    std::thread([&] {  // (no assertions on other threads: what it saw is checked after)
        { plurnk::stream_parser p; }
        held_there = stream_scratch_state().held;
        plurnk::stream_parser q;
        reused_there = stream_scratch_state().reused;
        made_there.emplace(plurnk::tier::parse);
        made_there->feed("<<EDIT(p):x:EDIT");
        { plurnk::stream_parser r; }  // a spare left for the thread's exit
    }).join();
    CHECK(held_there);
    CHECK(reused_there == 1);
    CHECK(stream_scratch_state().fresh == before.fresh);
    CHECK_FALSE(stream_scratch_state().held);
    made_there.reset();  // destroyed here: this thread's spare
    CHECK(stream_scratch_state().held);
    plurnk::stream_parser p;
    CHECK(stream_scratch_state().reused == before.reused + 1);
    CHECK(stream_access::is_fresh(p));
    plurnk::detail::release_stream_scratch();
}

// Streams made and destroyed by a thread_local's destructor that runs after the thread's spare was
// freed (the object is made before the thread's first stream, so it is destroyed after the
// spare's owner).
struct streams_at_exit {
    std::string* json = nullptr;
    plurnk::detail::stream_scratch_stats* after = nullptr;
    std::optional<plurnk::stream_parser> made_before;  // made while the spare is there
    ~streams_at_exit() {
        if (json == nullptr) return;
        made_before.reset();  // destroyed now
        plurnk::stream_parser p;
        p.feed("<<EDIT(p):x:EDIT");
        *json = plurnk::to_json(p.finish(), k_spans);
        *after = stream_scratch_state();
    }
};

TEST_CASE("streams destroyed after the thread's spare is freed at its end free their own state", "[stream][spare]") {
    const std::string want = plurnk::to_json(plurnk::parse("<<EDIT(p):x:EDIT", plurnk::tier::parse), k_spans);
    std::string got;
    plurnk::detail::stream_scratch_stats during{}, after{};
    std::thread([&] {  // (no assertions on other threads: what it saw is checked after)
        thread_local streams_at_exit late;
        late.json = &got;
        late.after = &after;
        { plurnk::stream_parser p; }  // the spare kept till the thread ends
        late.made_before.emplace(plurnk::tier::parse);  // (takes it)
        { plurnk::stream_parser q; }  // a spare again
        during = stream_scratch_state();
    }).join();
    CHECK(during.held);
    CHECK(during.kept == 2);
    CHECK(got == want);
    // Neither the stream made before nor the one made then left a state that no one frees.
    CHECK_FALSE(after.held);
    CHECK(after.kept == 2);
}

TEST_CASE("a reset that throws leaves no spare half reset", "[stream][spare]") {
    plurnk::detail::release_stream_scratch();
    // Reset when taken: the n-th allocation of the taking stream's construction fails.
    for (std::size_t n = 1; n < 64; ++n) {
        {
            plurnk::stream_parser p;
            p.feed("<<TURN:<<EDIT(p):x:EDIT <<READ(open");
        }
        REQUIRE(stream_scratch_state().held);
        (void)fail_allocation(n);
        bool threw = false;
        try {
            plurnk::stream_parser q;
            (void)fail_allocation(0);
            CHECK(stream_access::is_fresh(q));
        } catch (const std::bad_alloc&) {
            threw = true;
        }
        (void)fail_allocation(0);
        if (threw) CHECK_FALSE(stream_scratch_state().held);
        plurnk::detail::release_stream_scratch();
        if (!threw) break;  // the reset allocates fewer than n times
    }
    // Reset when given back (its input would keep the spare past the cap): the same.
    std::string big;
    while (big.size() <= plurnk::detail::k_stream_scratch_cap / 8) big += "<<EDIT(p):x:EDIT\n";
    for (std::size_t n = 1; n < 64; ++n) {
        const auto before = stream_scratch_state();
        {
            plurnk::stream_parser p(plurnk::tier::statements);
            feed(p, big, 100);
            (void)fail_allocation(n);  // the n-th allocation of the give-back (the reset) fails
        }
        const bool threw = fail_allocation(0) == 0;
        // Reset there (unless it threw): the spare keeps none of that stream's input.
        if (!threw) CHECK(stream_scratch_state().reset_given == before.reset_given + 1);
        if (stream_scratch_state().held) {
            plurnk::stream_parser q(plurnk::tier::statements);
            CHECK(stream_access::is_fresh(q));
        }
        plurnk::detail::release_stream_scratch();
        if (!threw) break;
    }
    // A stream whose construction throws takes no spare and leaves none behind.
    { plurnk::stream_parser p; }
    (void)fail_allocation(1);
    bool threw = false;
    try {
        plurnk::stream_parser q(plurnk::tier::statements);  // not the spare's options: constructs
    } catch (const std::bad_alloc&) {
        threw = true;
    }
    (void)fail_allocation(0);
    CHECK(threw);
    CHECK_FALSE(stream_scratch_state().held);  // the spare for other options was freed first
    plurnk::detail::release_stream_scratch();
}
