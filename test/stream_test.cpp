// SPDX-License-Identifier: MIT
// Property test of the push parser: every conformance vector (test/conformance/parser.jsonl) is
// fed to plurnk::stream_parser in chunks of 1, 2, 3, 7 and 64 bytes and in seeded random chunks,
// and finish() must equal the one-shot plurnk::parse of the whole input (compared as to_json
// text). Each event must be final: an event with an index carries exactly the item at that index
// of the final result, no index is reported twice, and the events together report every item of
// the result once. Checkpoint/restore must leave no trace: copy the parser, feed junk, assign the
// copy back, feed the rest, and the result and events are those of an undisturbed run.
// The vectors file is found beside this source file, or through PLURNK_CONFORMANCE.
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "plurnk/json.hpp"
#include "plurnk/parse.hpp"
#include "plurnk/stream.hpp"

namespace {

namespace fs = std::filesystem;

struct vector_case {
    std::string id;
    plurnk::tier tier = plurnk::tier::parse;
    std::string input;
    // The one-shot result: its JSON and each item's JSON (filled once, by vectors()).
    std::string want;
    std::vector<std::string> want_items;
};

std::string item_json(const plurnk::item& it);

// Fills the one-shot expectation of `c`.
void expect(vector_case& c) {
    const plurnk::parse_result r = plurnk::parse(c.input, c.tier);
    c.want = plurnk::to_json(r);
    c.want_items.clear();
    for (const auto& it : r.items) c.want_items.push_back(item_json(it));
}

fs::path vectors_path() {
    if (const char* env = std::getenv("PLURNK_CONFORMANCE")) return env;
    // __FILE__ is relative to the build directory (meson's working directory for tests) or absolute.
    return fs::path(__FILE__).parent_path() / "conformance" / "parser.jsonl";
}

const std::vector<vector_case>& vectors() {
    static const std::vector<vector_case> all = [] {
        std::vector<vector_case> out;
        std::ifstream in(vectors_path(), std::ios::binary);
        std::string line;
        while (std::getline(in, line)) {
            if (line.empty()) continue;
            const auto v = plurnk::parse_json(line);
            if (!v) continue;
            const plurnk::json_value* id = v->find("id");
            const plurnk::json_value* tier = v->find("tier");
            const plurnk::json_value* input = v->find("input");
            if (id == nullptr || tier == nullptr || input == nullptr) continue;
            const auto t = plurnk::tier_from_name(tier->string);
            if (!t) continue;
            vector_case c{id->string, *t, input->string, {}, {}};
            expect(c);
            out.push_back(std::move(c));
        }
        return out;
    }();
    return all;
}

// An item as it appears in the result's "items" array.
std::string item_json(const plurnk::item& it) {
    plurnk::parse_result one;
    one.items.push_back(it);
    const std::string all = plurnk::to_json(one);
    constexpr std::string_view head = "{\"items\":[", tail = "]}";
    return all.substr(head.size(), all.size() - head.size() - tail.size());
}

struct event_record {
    std::size_t index;
    std::string json;
};

// Splits [0, n) into chunk lengths.
using chunker = std::function<std::vector<std::size_t>(std::size_t n, std::size_t vector_no)>;

chunker fixed(std::size_t size) {
    return [size](std::size_t n, std::size_t) {
        std::vector<std::size_t> out;
        for (std::size_t at = 0; at < n; at += size) out.push_back(std::min(size, n - at));
        return out;
    };
}

// Chunks of 1 to 24 bytes (some empty feeds too), seeded by the vector's number so that a failure
// reproduces.
chunker random_chunks() {
    return [](std::size_t n, std::size_t vector_no) {
        std::mt19937 rng(static_cast<std::uint32_t>(0x5eed0000u + vector_no));
        std::uniform_int_distribution<std::size_t> len(0, 24);
        std::vector<std::size_t> out;
        std::size_t at = 0;
        while (at < n) {
            const std::size_t k = std::min(len(rng), n - at);
            out.push_back(k);
            at += k;
        }
        return out;
    };
}

constexpr std::string_view k_junk[] = {
    ":PLAN\n<<READ(junk)::READ\n",
    "\n<<SEND[200]:junk:SEND",
    "<<EDIT(j):\xe2\x80",
    ")>::FIND :EDIT :SEND :TURN",
    "\xff\xfe<<TURN:\n",
};

// What one run produced.
struct run {
    std::string result;
    std::vector<event_record> events;
};

// Feeds `input` in the given chunk lengths. When `restore_at` is a chunk boundary index, the
// parser is copied there, fed `junk`, and the copy assigned back before going on.
run stream_run(const vector_case& v, const std::vector<std::size_t>& chunks, std::size_t release,
               std::size_t restore_at = SIZE_MAX, std::string_view junk = {}) {
    run out;
    plurnk::stream_parser p(v.tier);
    p.set_release_threshold(release);
    p.set_callback([&out](const plurnk::stream_event& ev) { out.events.push_back({ev.index, item_json(ev.value)}); });
    std::size_t at = 0;
    for (std::size_t i = 0; i <= chunks.size(); ++i) {
        if (i == restore_at) {
            const plurnk::stream_parser checkpoint = p;
            const std::size_t kept = out.events.size();
            p.feed(junk);
            p = checkpoint;
            out.events.resize(kept);
        }
        if (i == chunks.size()) break;
        p.feed(std::string_view(v.input).substr(at, chunks[i]));
        at += chunks[i];
    }
    out.result = plurnk::to_json(p.finish());
    return out;
}

// Checks one run against the one-shot result of `v`; returns an explanation of the first
// problem, or "" when the run is right.
std::string check_run(const run& r, const vector_case& v) {
    const std::string& want_json = v.want;
    const std::vector<std::string>& items = v.want_items;
    if (r.result != want_json) return "finish() differs from parse():\n  stream:   " + r.result + "\n  one-shot: " + want_json;
    std::vector<bool> claimed(items.size(), false);
    std::vector<std::string> unplaced;
    for (const auto& e : r.events) {
        if (e.index == plurnk::stream_event::npos) {
            unplaced.push_back(e.json);
            continue;
        }
        if (e.index >= items.size()) return "event index " + std::to_string(e.index) + " past the end: " + e.json;
        if (claimed[e.index]) return "two events for index " + std::to_string(e.index);
        claimed[e.index] = true;
        if (e.json != items[e.index])
            return "event for index " + std::to_string(e.index) + " is " + e.json + "\n  final item: " + items[e.index];
    }
    std::vector<std::string> rest;
    for (std::size_t i = 0; i < items.size(); ++i)
        if (!claimed[i]) rest.push_back(items[i]);
    std::sort(rest.begin(), rest.end());
    std::sort(unplaced.begin(), unplaced.end());
    if (rest != unplaced)
        return std::to_string(r.events.size()) + " events for " + std::to_string(items.size()) +
               " items: the events do not report every item exactly once";
    return {};
}

// Runs every vector with `chunks`; `restore` adds a checkpoint/restore in the middle. `release`
// is the stream's release threshold: 1 drops settled input at every chance.
void check_all(const chunker& chunks, bool restore, std::size_t release) {
    const auto& all = vectors();
    REQUIRE(all.size() > 10000);
    std::size_t failures = 0;
    for (std::size_t n = 0; n < all.size(); ++n) {
        const vector_case& v = all[n];
        const std::vector<std::size_t> lengths = chunks(v.input.size(), n);
        std::string problem = check_run(stream_run(v, lengths, release), v);
        if (problem.empty() && restore) {
            const std::string_view junk = k_junk[n % std::size(k_junk)];
            problem = check_run(stream_run(v, lengths, release, lengths.size() / 2, junk), v);
            if (problem.empty()) problem = check_run(stream_run(v, lengths, release, n % (lengths.size() + 1), junk), v);
            if (!problem.empty()) problem = "after checkpoint/restore: " + problem;
        }
        if (!problem.empty()) {
            if (++failures <= 10) FAIL_CHECK(v.id << " (" << plurnk::tier_name(v.tier) << "): " << problem);
        }
    }
    CHECK(failures == 0);
}

}  // namespace

// Most runs drop settled input at every chance (release threshold 1); two keep the default.
constexpr std::size_t k_eager = 1;
constexpr std::size_t k_default = plurnk::stream_parser::k_default_release_threshold;
TEST_CASE("stream: 1-byte chunks equal the one-shot parse", "[stream]") { check_all(fixed(1), false, k_eager); }
TEST_CASE("stream: 2-byte chunks equal the one-shot parse", "[stream]") { check_all(fixed(2), false, k_default); }
TEST_CASE("stream: 3-byte chunks equal the one-shot parse, with checkpoint/restore", "[stream]") {
    check_all(fixed(3), true, k_eager);
}
TEST_CASE("stream: 7-byte chunks equal the one-shot parse", "[stream]") { check_all(fixed(7), false, k_eager); }
TEST_CASE("stream: 64-byte chunks equal the one-shot parse, with checkpoint/restore", "[stream]") {
    check_all(fixed(64), true, k_default);
}
TEST_CASE("stream: random chunks equal the one-shot parse, with checkpoint/restore", "[stream]") {
    check_all(random_chunks(), true, k_eager);
}

TEST_CASE("stream: whole input in one feed, and no feed at all", "[stream]") {
    for (const plurnk::tier t : {plurnk::tier::parse, plurnk::tier::statements, plurnk::tier::log, plurnk::tier::client}) {
        plurnk::stream_parser empty(t);
        CHECK(plurnk::to_json(empty.finish()) == plurnk::to_json(plurnk::parse("", t)));
        CHECK(empty.finished());
    }
    vector_case v{"whole", plurnk::tier::parse, "<<PLAN:p:PLAN\ntext <<READ(a)::READ\n<<SEND[200]:d:SEND", {}, {}};
    expect(v);
    const run r = stream_run(v, {v.input.size()}, k_eager);
    CHECK(check_run(r, v).empty());
}

TEST_CASE("stream: size, safe_prefix and finished", "[stream]") {
    const std::string input = "<<PLAN:p:PLAN\nsome text <<READ(a)::READ\n<<SEND[200]:d:SEND";
    plurnk::stream_parser p(plurnk::tier::parse);
    std::size_t last_safe = 0;
    for (std::size_t i = 0; i < input.size(); ++i) {
        p.feed(std::string_view(input).substr(i, 1));
        CHECK(p.size() == i + 1);
        CHECK(p.safe_prefix() <= p.size());
        CHECK(p.safe_prefix() >= last_safe);  // the watermark never moves back
        last_safe = p.safe_prefix();
        CHECK_FALSE(p.finished());
    }
    const auto r = p.finish();
    CHECK(p.finished());
    CHECK(p.safe_prefix() <= input.size());
    CHECK(plurnk::to_json(r) == plurnk::to_json(plurnk::parse(input, plurnk::tier::parse)));
}

TEST_CASE("stream: a checkpoint is an independent parser", "[stream]") {
    const std::string input = "<<PLAN:p:PLAN\n<<EDIT(a.md):new body\n:EDIT\n<<SEND[200]:d:SEND";
    const std::size_t mid = input.find("new body") + 4;
    plurnk::stream_parser p(plurnk::tier::parse);
    p.feed(std::string_view(input).substr(0, mid));
    plurnk::stream_parser copy = p;
    p.feed(":EDIT junk");
    copy.feed(std::string_view(input).substr(mid));
    CHECK(plurnk::to_json(copy.finish()) == plurnk::to_json(plurnk::parse(input, plurnk::tier::parse)));
    CHECK(plurnk::to_json(p.finish()) ==
          plurnk::to_json(plurnk::parse(input.substr(0, mid) + ":EDIT junk", plurnk::tier::parse)));
    // Moving keeps the state.
    plurnk::stream_parser a(plurnk::tier::statements);
    a.feed("<<READ(x)::RE");
    plurnk::stream_parser b = std::move(a);
    b.feed("AD");
    CHECK(plurnk::to_json(b.finish()) == plurnk::to_json(plurnk::parse("<<READ(x)::READ", plurnk::tier::statements)));
}

TEST_CASE("stream: input past max_input_bytes ends as parse() ends it", "[stream][limits]") {
    using namespace plurnk;
    const std::string in = "<<PLAN:p:PLAN\n<<READ(a.md)::READ\n<<SEND[200]:done:SEND\n";
    parse_options o;
    o.max_input_bytes = 20;  // inside the READ statement
    const std::string want = to_json(parse(in, tier::parse, o));
    for (std::size_t chunk : {std::size_t{1}, std::size_t{3}, std::size_t{64}}) {
        stream_parser s(tier::parse, o);
        std::vector<std::string> events;
        s.set_callback([&](const stream_event& e) {
            std::string j;
            append_json(j, e.value);
            events.push_back(std::move(j));
        });
        for (std::size_t i = 0; i < in.size(); i += chunk) s.feed(std::string_view(in).substr(i, chunk));
        CHECK(s.size() == 20);
        const parse_result r = s.finish();
        CHECK(to_json(r) == want);
        REQUIRE(!events.empty());
        std::string last;
        append_json(last, r.items.back());
        CHECK(events.back() == last);
    }
}

TEST_CASE("stream: settled input is released, so what is held follows what is open", "[stream]") {
    using namespace plurnk;
    std::string turn = "<<PLAN:read everything:PLAN\n";
    for (int i = 0; i < 20000; ++i) {
        turn += "Now file " + std::to_string(i) + ".\n<<READ[t](src/f" + std::to_string(i) + ".ts)<1,20>::READ\n";
    }
    const std::size_t open_at = turn.size();
    turn += "<<EDIT(src/big.ts):";
    turn += std::string(100000, 'x');  // an unclosed body: held until it closes
    const std::size_t body_end = turn.size();
    turn += "\n:EDIT\n<<SEND[200]:done:SEND\n";

    stream_parser p(tier::parse);
    std::size_t most_before_body = 0, most_in_body = 0, events = 0;
    p.set_callback([&events](const stream_event&) { ++events; });
    for (std::size_t at = 0; at < turn.size(); at += 16) {
        p.feed(std::string_view(turn).substr(at, 16));
        if (at + 16 < open_at) most_before_body = std::max(most_before_body, p.retained());
        if (at + 16 >= open_at && at + 16 < body_end) most_in_body = std::max(most_in_body, p.retained());
    }
    CHECK(p.size() == turn.size());
    // 1.2 MB of settled statements went through with no more than a few KB held at any time;
    // the open EDIT body is held whole.
    CHECK(open_at > 1'000'000);
    CHECK(most_before_body < 3 * stream_parser::k_default_release_threshold);
    CHECK(most_in_body >= 100000);
    const parse_result r = p.finish();
    CHECK(to_json(r) == to_json(parse(turn, tier::parse)));
    CHECK(events == r.items.size());
    CHECK(p.retained() < 200000);
}
