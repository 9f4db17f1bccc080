// SPDX-License-Identifier: MIT
// Property test of the push parser: every conformance vector (test/conformance/parser.jsonl) is
// fed to plurnk::stream_parser in chunks of 1, 2, 3, 7 and 64 bytes and in seeded random chunks,
// and finish() must equal the one-shot plurnk::parse of the whole input (compared as to_json
// text with the byte spans, so the spans must be equal too). Each event must be final: an event
// with an index carries exactly the item at that index of the final result, no index is reported
// twice, and the events together report every item of the result once. Checkpoint/restore must
// leave no trace: copy the parser, feed junk, assign the copy back, feed the rest, and the result
// and events are those of an undisturbed run. The one-shot spans of every vector are consistent
// with the input (check_spans).
// The vectors file is found beside this source file, or through PLURNK_CONFORMANCE; our own
// vectors (own.jsonl, in the same directory) are run too, and the service dialect's
// (service.jsonl) in that dialect.
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "plurnk/json.hpp"
#include "plurnk/parse.hpp"
#include "pipeline/pipeline.hpp"
#include "plurnk/stream.hpp"
#include "base/utf8.hpp"

namespace {

namespace fs = std::filesystem;

// Results are compared as JSON with the byte spans, so a stream must give every item the span
// the one-shot parse gives it, at every chunking.
constexpr plurnk::json_options k_spans{.spans = true};

struct vector_case {
    std::string id;
    plurnk::tier tier = plurnk::tier::parse;
    std::string input;
    plurnk::parse_options options;  // the vector's dialect
    // The one-shot result: its JSON and each item's JSON (filled once, by vectors()).
    std::string want;
    std::vector<std::string> want_items;
};

std::string item_json(const plurnk::item& it);

// Fills the one-shot expectation of `c`: the whole input lexed at once (one window).
void expect(vector_case& c) {
    const plurnk::parse_result r = plurnk::detail::parse_in_windows(c.input, c.tier, c.options, SIZE_MAX);
    c.want = plurnk::to_json(r, k_spans);
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
        // The shared vectors, then our own (own.jsonl beside them) when present, then the
        // service dialect's.
        for (const fs::path& file : {vectors_path(), vectors_path().parent_path() / "own.jsonl",
                                     vectors_path().parent_path() / "service.jsonl"}) {
            plurnk::parse_options options;
            if (file.filename() == "service.jsonl") options.dialect = plurnk::parse_dialect::service;
            std::ifstream in(file, std::ios::binary);
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
                vector_case c{id->string, *t, input->string, options, {}, {}};
                expect(c);
                out.push_back(std::move(c));
            }
        }
        return out;
    }();
    return all;
}

// An item as it appears in the result's "items" array.
std::string item_json(const plurnk::item& it) {
    plurnk::parse_result one;
    one.items.push_back(it);
    const std::string all = plurnk::to_json(one, k_spans);
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

// Bursts: chunks of 16 to 63 bytes (by vector), where one feed closes several statements.
chunker bursts() {
    return [](std::size_t n, std::size_t vector_no) { return fixed(16 + vector_no % 48)(n, vector_no); };
}

// Chunks of 1 byte to `largest`, log-uniform (a 1-2 byte chunk as likely as an 8-16 KB one),
// seeded by the vector's number.
chunker log_uniform(std::size_t largest) {
    return [largest](std::size_t n, std::size_t vector_no) {
        std::mt19937_64 rng(0x16c0ffeeu + vector_no);
        std::uniform_int_distribution<int> bits(0, std::bit_width(largest) - 1);
        std::vector<std::size_t> out;
        for (std::size_t at = 0; at < n;) {
            const std::size_t low = std::size_t{1} << bits(rng);
            const std::size_t k = std::min(low + rng() % low, n - at);
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
    // Each event's item, copied as it was reported (item_list copies its strings), and the final
    // result: the two must be equal field by field, not only in JSON.
    plurnk::item_list reported;
    plurnk::item_list final_items;
};

// Feeds `input` in the given chunk lengths. When `restore_at` is a chunk boundary index, the
// parser is copied there, fed `junk`, and the copy assigned back before going on.
run stream_run(const vector_case& v, const std::vector<std::size_t>& chunks, std::size_t release,
               std::size_t restore_at = SIZE_MAX, std::string_view junk = {}) {
    run out;
    plurnk::stream_parser p(v.tier, v.options);
    p.set_release_threshold(release);
    p.set_callback([&out](const plurnk::stream_event& ev) {
        out.events.push_back({ev.index, item_json(ev.value)});
        out.reported.push_back(ev.value);
    });
    std::size_t at = 0;
    for (std::size_t i = 0; i <= chunks.size(); ++i) {
        if (i == restore_at) {
            const plurnk::stream_parser checkpoint = p;
            const std::size_t kept = out.events.size();
            p.feed(junk);
            p = checkpoint;
            out.events.resize(kept);
            while (out.reported.size() > kept) out.reported.pop_back();
        }
        if (i == chunks.size()) break;
        p.feed(std::string_view(v.input).substr(at, chunks[i]));
        at += chunks[i];
    }
    const plurnk::parse_result r = p.finish();
    out.result = plurnk::to_json(r, k_spans);
    out.final_items = r.items;
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
    const bool copied = r.reported.size() == r.events.size() && r.final_items.size() == items.size();
    for (std::size_t k = 0; k < r.events.size(); ++k) {
        const event_record& e = r.events[k];
        if (copied && e.index < items.size() && !(r.reported[k] == r.final_items[e.index]))
            return "event for index " + std::to_string(e.index) + " (" + e.json + ") is not equal to the final item";
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

// A parser with no callback parses and builds in batches (stream.cpp). A callback set after
// `from` chunks sees, while the rest is fed, only events that a callback set at the start sees
// then too, in the same order (the parser catches up when it is set, so it may have settled
// some of them already: those are reported at finish(), as is everything settled before it),
// and the run still reports every item once. Returns the first problem, or "".
std::string check_late_callback(const vector_case& v, const std::vector<std::size_t>& chunks, std::size_t release,
                                std::size_t from) {
    std::vector<event_record> early;
    run late;
    std::size_t early_from = 0;
    plurnk::stream_parser a(v.tier, v.options), b(v.tier, v.options);
    a.set_release_threshold(release);
    b.set_release_threshold(release);
    a.set_callback([&early](const plurnk::stream_event& ev) { early.push_back({ev.index, item_json(ev.value)}); });
    std::size_t at = 0;
    for (std::size_t i = 0; i <= chunks.size(); ++i) {
        if (i == from) {
            early_from = early.size();
            b.set_callback([&late](const plurnk::stream_event& ev) { late.events.push_back({ev.index, item_json(ev.value)}); });
        }
        if (i == chunks.size()) break;
        const std::string_view chunk = std::string_view(v.input).substr(at, chunks[i]);
        a.feed(chunk);
        b.feed(chunk);
        at += chunks[i];
    }
    const std::string where = "callback set after " + std::to_string(from) + " chunks: ";
    // late.events so far: a subsequence of early[early_from, end).
    std::size_t k = early_from;
    for (const event_record& e : late.events) {
        while (k < early.size() && (early[k].index != e.index || early[k].json != e.json)) ++k;
        if (k == early.size()) {
            return where + "event " + e.json + " before finish(), which a callback set at the start does not see then";
        }
        ++k;
    }
    late.result = plurnk::to_json(b.finish(), k_spans);
    if (std::string problem = check_run(late, v); !problem.empty()) return where + problem;
    return {};
}

// Runs every vector with `chunks`; `restore` adds a checkpoint/restore in the middle. `release`
// is the stream's release threshold: 1 drops settled input at every chance. `late` adds runs
// whose callback is set only after some of the chunks (check_late_callback()).
void check_all(const chunker& chunks, bool restore, std::size_t release, bool late = false) {
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
        if (problem.empty() && late) {
            for (const std::size_t from : {lengths.size() / 2, n % (lengths.size() + 1), lengths.size()}) {
                problem = check_late_callback(v, lengths, release, from);
                if (!problem.empty()) break;
            }
        }
        if (!problem.empty()) {
            if (++failures <= 10) FAIL_CHECK(v.id << " (" << plurnk::tier_name(v.tier) << "): " << problem);
        }
    }
    CHECK(failures == 0);
}

// The (line, column) of every byte offset of `s`, as positions count them (lines advance on
// '\n', columns are code points, each byte outside a well-formed sequence one).
std::vector<plurnk::position> positions_of(std::string_view s) {
    std::vector<plurnk::position> at(s.size() + 1);
    plurnk::position p{1, 0};
    std::size_t i = 0;
    while (i < s.size()) {
        const std::size_t len = std::max<std::size_t>(1, plurnk::detail::utf8_sequence_length(s, i));
        for (std::size_t k = 0; k < len; ++k) at[i + k] = p;  // (inside a sequence: its start)
        if (s[i] == '\n') {
            ++p.line;
            p.column = 0;
        } else {
            ++p.column;
        }
        i += len;
    }
    at[s.size()] = p;
    return at;
}

// The first problem with the spans of `r` for `input`, or "": inside the input; statements and
// text items in order and apart; a statement from its `<<` to the end of its close tag;
// input[begin, end) of a text item is its text; the start of each statement, text item and tail
// is where its position says; an unparsedTail runs to the end of the input; a diagnostic covers
// its position (doc/library.md, "Byte spans").
std::string check_spans(const plurnk::parse_result& r, std::string_view input) {
    const std::vector<plurnk::position> pos = positions_of(input);
    std::size_t prev_end = 0;
    for (std::size_t n = 0; n < r.items.size(); ++n) {
        const plurnk::item& it = r.items[n];
        const plurnk::byte_span sp = std::visit([](const auto& x) { return x.span; }, it);
        const std::string where = "item " + std::to_string(n) + " [" + std::to_string(sp.begin) + ", " +
                                  std::to_string(sp.end) + "): ";
        if (sp.begin > sp.end || sp.end > input.size()) return where + "not inside the input";
        const std::string_view covered = input.substr(sp.begin, sp.size());
        if (const auto* s = std::get_if<plurnk::statement>(&it)) {
            if (sp.begin < prev_end) return where + "overlaps the statement or text before it";
            prev_end = sp.end;
            if (covered.substr(0, 2) != "<<") return where + "a statement that does not start at its `<<`";
            const std::string close = ":" + std::string(plurnk::op_name(s->op)).append(s->suffix);
            if (covered.size() < 2 + close.size() || covered.substr(covered.size() - close.size()) != close) {
                return where + "a statement that does not end after its close tag " + close;
            }
            if (pos[sp.begin] != s->position) return where + "a statement whose start is not its position";
        } else if (const auto* t = std::get_if<plurnk::text_item>(&it)) {
            if (sp.begin < prev_end) return where + "overlaps the statement or text before it";
            prev_end = sp.end;
            if (covered != t->text) return where + "a text item whose span is not its text";
            if (pos[sp.begin] != t->position) return where + "a text item whose start is not its position";
        } else {
            const auto& d = std::get<plurnk::diagnostic>(it);
            // Its position lies in what it covers (the end included: an error at the end of the
            // input, or an empty token).
            if (d.position < pos[sp.begin] || pos[sp.end] < d.position) return where + "a diagnostic not covering its position";
        }
    }
    if (r.tail) {
        const plurnk::byte_span sp = r.tail->span;
        if (sp.end != input.size()) return "the unparsedTail does not run to the end of the input";
        if (sp.begin >= sp.end || input.substr(sp.begin, 2) != "<<") return "the unparsedTail does not start at a `<<`";
        if (pos[sp.begin] != r.tail->from) return "the unparsedTail's start is not its position";
        if (sp.begin < prev_end) return "the unparsedTail overlaps an item";
    }
    return {};
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
TEST_CASE("stream: a callback set late reports what one set at the start reports from there", "[stream]") {
    check_all(fixed(5), false, k_eager, true);
    check_all(fixed(16), false, k_default, true);
}
// A callback set, then taken away (the stream goes on as one that tells no one: its feeds of a
// few bytes lex in batches again), with and without a runaway check: the result is still parse()'s.
TEST_CASE("stream: a callback taken away midway leaves the result parse()'s", "[stream]") {
    const auto& all = vectors();
    std::size_t failures = 0;
    for (std::size_t n = 0; n < all.size(); ++n) {
        const vector_case& v = all[n];
        for (const std::size_t size : {std::size_t{1}, std::size_t{3}}) {
            const std::vector<std::size_t> lengths = fixed(size)(v.input.size(), n);
            plurnk::stream_parser p(v.tier, v.options);
            p.set_release_threshold(k_eager);
            std::size_t events = 0;
            p.set_callback([&events](const plurnk::stream_event&) { ++events; });
            if (n % 2 == 1) p.set_runaway_limit(64, [](const plurnk::open_info&) {});
            std::size_t at = 0;
            for (std::size_t i = 0; i < lengths.size(); ++i) {
                if (i == lengths.size() / 2) p.set_callback({});
                p.feed(std::string_view(v.input).substr(at, lengths[i]));
                at += lengths[i];
            }
            const std::string got = plurnk::to_json(p.finish(), k_spans);
            if (got != v.want && ++failures <= 10) FAIL_CHECK(v.id << " at " << size << "-byte chunks: " << got);
        }
    }
    CHECK(failures == 0);
}
TEST_CASE("stream: 64-byte chunks equal the one-shot parse, with checkpoint/restore", "[stream]") {
    check_all(fixed(64), true, k_default);
}
TEST_CASE("stream: random chunks equal the one-shot parse, with checkpoint/restore", "[stream]") {
    check_all(random_chunks(), true, k_eager);
}

// Every event equals its final item field by field (run::reported is copied in the callback, the
// way doc/streaming.md says to keep an event) when one feed settles several items: the whole
// input at once, bursts, and chunks of 1 byte to 16 KB, with a rejected draft in the middle.
TEST_CASE("stream: whole inputs, bursts and chunks up to 16 KB, with checkpoint/restore", "[stream]") {
    check_all([](std::size_t n, std::size_t) { return std::vector<std::size_t>{n}; }, true, k_default);
    check_all(bursts(), true, k_eager);
    check_all(log_uniform(16 * 1024), true, k_default);
}

// A generated turn of 3,000 statements of every shape (paths, URLs, re-serialized JSON bodies,
// regexes, JSONPath, COPY destinations, prose, errors) at chunk sizes from 1 byte to the whole.
TEST_CASE("stream: a 3,000-statement turn at every chunk size, events equal to the final items", "[stream]") {
    static constexpr std::string_view pieces[] = {
        "<<EDIT(src/file#.py):line of body text\nline of body text\n:EDIT\n",
        "<<READ(a\\(#\\).md)<1-3>::READ\n",
        "<<EXEC[sh]:echo # && ls:EXEC\n",
        "<<FIND(src/**):/retry#/i:FIND\n",
        "<<SEND(worker://w):{\"b\":#,\"a\":[1,2]}:SEND\n",
        "<<READ(http://u:p@xn--ls8h.example.com:80/a/../b#?q#f)::READ\n",
        "<<READ(http://h\xc3\xa9#.example/p?q#f)::READ\n",
        "<<COPY(a#)<1>:worker:///d<2>:COPY\n",
        "<<READ[t#,u](x)::READ\n",
        "words # here, \xc3\xbcnicode \xf0\x9f\x98\x80\n",
        "<<FIND(a):$.x[?@.y>#]:FIND\n",
        "<<READ(a#):/(/:READ\n",
        "<<SEND[102]:still working #:SEND\n",
    };
    std::mt19937 rng(2);
    std::string turn;
    for (int i = 0; i < 3000; ++i) {
        const std::string_view piece = pieces[rng() % std::size(pieces)];
        const std::size_t hole = piece.find('#');
        turn.append(piece.substr(0, hole)).append(std::to_string(i)).append(piece.substr(hole + 1));
    }
    for (const plurnk::tier t : {plurnk::tier::statements, plurnk::tier::parse}) {
        vector_case v{"generated", t, turn, {}, {}, {}};
        expect(v);
        REQUIRE(v.want_items.size() > (t == plurnk::tier::statements ? 3000U : 1000U));
        for (const std::size_t size : {std::size_t{1}, std::size_t{7}, std::size_t{64}, std::size_t{103},
                                       std::size_t{1024}, std::size_t{16384}, turn.size()}) {
            INFO(plurnk::tier_name(t) << ", chunks of " << size);
            const std::vector<std::size_t> lengths = fixed(size)(turn.size(), 0);
            CHECK(check_run(stream_run(v, lengths, k_default), v).empty());
            CHECK(check_run(stream_run(v, lengths, k_default, lengths.size() / 2, k_junk[size % std::size(k_junk)]), v).empty());
        }
        for (std::size_t seed = 0; seed < 4; ++seed) {
            INFO(plurnk::tier_name(t) << ", random chunks, seed " << seed);
            const std::vector<std::size_t> lengths = log_uniform(16 * 1024)(turn.size(), seed);
            CHECK(check_run(stream_run(v, lengths, seed % 2 == 0 ? k_eager : k_default, seed * 7 % lengths.size(),
                                       k_junk[seed]), v).empty());
        }
    }
}

// parse() lexes in windows of tokens and forgets the tokens of each (ast_builder.hpp,
// parse_in_windows): every window size gives the one-window result, parse() included.
TEST_CASE("parse: windows of any size equal the one-window parse", "[stream][parse]") {
    std::size_t n = 0;
    for (const vector_case& v : vectors()) {
        CHECK(plurnk::to_json(plurnk::parse(v.input, v.tier, v.options), k_spans) == v.want);
        for (const std::size_t w : {1, 2, 3, 7}) {
            INFO(v.id << " window " << w);
            CHECK(plurnk::to_json(plurnk::detail::parse_in_windows(v.input, v.tier, v.options, w), k_spans) == v.want);
        }
        ++n;
    }
    CHECK(n > 12000);
}

TEST_CASE("stream: whole input in one feed, and no feed at all", "[stream]") {
    for (const plurnk::tier t : {plurnk::tier::parse, plurnk::tier::statements, plurnk::tier::log, plurnk::tier::client}) {
        plurnk::stream_parser empty(t);
        CHECK(plurnk::to_json(empty.finish()) == plurnk::to_json(plurnk::parse("", t)));
        CHECK(empty.finished());
    }
    vector_case v{"whole", plurnk::tier::parse, "<<PLAN:p:PLAN\ntext <<READ(a)::READ\n<<SEND[200]:d:SEND", {}, {}, {}};
    expect(v);
    const run r = stream_run(v, {v.input.size()}, k_eager);
    CHECK(check_run(r, v).empty());
}

// The lexer's step that ran out of input can sleep until a byte that may change its outcome
// arrives (lib/lexer.hpp, sleep_kind), so a chunk that cannot wake it is not lexed at all. Each
// input below ends a chunk inside one such run, literal or length, before, on and after every
// byte that wakes it: every split into two and three chunks, and the rest a byte at a time, must
// equal the one-shot parse.
TEST_CASE("stream: chunks that end inside a token at every split", "[stream]") {
    using plurnk::tier;
    const std::vector<std::pair<tier, std::string>> inputs = {
        // A body waiting for ':' (':' inside words, before a near-miss close, at the end).
        {tier::statements, "<<EDIT(a):x: y :EDI :EDITX\n:EDIT_ :EDIT\n<<READ(b)::READ"},
        // The close tag after its ':' (a literal): cut anywhere in `:EDIT`, a mismatch on each byte.
        {tier::statements, "<<EDIT(a)::EDXT :EDIX :E:ED:EDIT:EDIT"},
        {tier::statements, "<<EDITab(a):x:EDITa :EDITab1 :EDITab"},
        // A target run: escapes, nested parentheses, '<' before a stop, a line end.
        {tier::statements, "<<READ(a\\(b\\)c(d)e<f<(g)::READ\n<<READ(x\ny)::READ"},
        // A text run (parse tier): '<' inside words, CRLF, tabs, an enclosure.
        {tier::parse, "lead a<b\tc\r\n<think>x:y</think> <<PLAN:p:PLAN\r\n<<SEND[200]:d:SEND"},
        // `<<` and the keyword after it (a length): short, wrong and right keywords, `<<<`.
        {tier::statements, "<<RE<<REAX <<<READ(a)::READ\n<<READ(b)::READ"},
        {tier::parse, "x <<PLA<<PLAN:p:PLAN\n<< <<<<SEND[200]:d:SEND"},
        // An opener's suffix, and a one-colon close with a suffix.
        {tier::statements, "<<READfoo_1(a)::READfoo_1\n<<READ_x:READ_x \t\n<<READ(b):READ"},
        // Tags: '<' followed by a stop and by a tag character; blanks; an empty tag.
        {tier::statements, "<<FIND[ab,c<d,e< f,<](s):x:FIND\n<<FIND[a,,b ](t):y:FIND"},
        // Integers and executors.
        {tier::parse, "<<PLAN:p:PLAN\n<<KILL[-123]::KILL\n<<EXEC[sh.x+y-1](./):ls:EXEC\n<<SEND[200]:d:SEND"},
        // Scope digits and separators.
        {tier::statements, "<<READ(a)<12.50,300-4, 5>::READ\n<<READ(b)<1.x>::READ\n<<READ(c)<-7>::READ"},
        // The one-colon close: its tag, then the blanks after it (a line end, `<<`, anything else).
        {tier::statements, "<<READ(a):READ  \t\r\n<<READ(b):READ \t<<READ(c):READ  x:READ\n<<READ(d):REA:READ"},
        // UTF-8 sequences cut anywhere: in text, a body, a target, and ill-formed.
        {tier::parse, "h\xc3\xa9 \xe2\x82\xac<<PLAN:\xf0\x9f\x98\x80:PLAN\n\xe2\x80 <<SEND[200]:d:SEND"},
        {tier::statements, "<<READ(\xc3\xa9\xe2\x82\xac)\xc3\xa9::READ\n<<READ(a)\xe2\x82::READ"},
        // Log tier: TURN bodies and their closers, with suffixes.
        {tier::log, "<<TURNa:<<PLAN:p:PLAN\n<<SEND[200]:d:SEND\n:TURNab :TURNa\n<<TURN:x:TUR :TURN"},
    };
    std::size_t runs = 0, failures = 0;
    for (const auto& [t, input] : inputs) {
        vector_case v{"split", t, input, {}, {}, {}};
        expect(v);
        const std::size_t n = input.size();
        for (std::size_t i = 0; i <= n; ++i) {
            for (std::size_t j = i; j <= n; ++j) {
                // [0, i) [i, j) [j, n); and [0, i) then a byte at a time.
                std::vector<std::size_t> chunks = {i, j - i, n - j};
                std::vector<std::size_t> bytes = {i};
                if (j == i) bytes.insert(bytes.end(), n - i, 1);
                for (const auto* c : {&chunks, &bytes}) {
                    if (c == &bytes && j != i) continue;
                    ++runs;
                    const std::string problem = check_run(stream_run(v, *c, k_eager), v);
                    if (!problem.empty() && ++failures <= 10) {
                        FAIL_CHECK(plurnk::tier_name(t) << " " << input << " cut at " << i << ", " << j << ": " << problem);
                    }
                }
            }
        }
    }
    CHECK(failures == 0);
    CHECK(runs > 10000);
}

// A sleeping step must wake when it should, not only at finish(): fed a byte at a time, each
// statement of the statements tier is reported by the feed of the line end after its close tag
// (the byte that settles it), whatever run, literal or length the lexer slept in on the way.
TEST_CASE("stream: a statement is reported as soon as its close tag is settled", "[stream]") {
    const std::string input =
        "<<READ(src/a.ts)<1,20>::READ\n<<FIND[a,b<c](s/**)<12.5-3>:x: y :FIN :FIND\n"
        "<<EDITx(b):body :EDIT :EDITxy :EDITx\n<<READ_1(q):READ_1  \t\n<<EXEC[sh.1+x](./):ls:EXEC\n"
        "<<KILL[-42]::KILL\n<<RE<<READ(c\\)(d)e)::READ\n";
    plurnk::stream_parser p(plurnk::tier::statements);
    std::size_t events = 0;
    p.set_callback([&events](const plurnk::stream_event&) { ++events; });
    std::size_t lines = 0;
    for (std::size_t i = 0; i < input.size(); ++i) {
        p.feed(std::string_view(input).substr(i, 1));
        if (input[i] == '\n') {
            ++lines;
            // The line's statement (an error item for `<<RE`, which no keyword follows, also
            // counts) is out.
            CHECK(events >= lines);
        }
    }
    const plurnk::parse_result r = p.finish();
    CHECK(events == r.items.size());
}

// A chunk larger than a piece (64 KB) goes in by pieces that end, when they can, before a `<<`
// at the start of a line: the result and the events are those of any other chunking, what is
// open at the end is what the whole chunk leaves open, and settled input is dropped along the
// way (what is held afterwards is the open rest, not the chunk).
TEST_CASE("stream: a large chunk in one feed", "[stream]") {
    using namespace plurnk;
    std::string statements = "<<PLAN:many:PLAN\n";
    for (int i = 0; statements.size() < 300000; ++i) {
        statements += "<<READ[t](src/f" + std::to_string(i) + ".ts)<1,20>::READ\ntext " + std::to_string(i) + " <<EDIT(a):x:\n<<y\n:EDIT\n";
    }
    std::string body = "<<EDIT(big.ts):";  // one body across pieces, with line-start `<<` in it
    while (body.size() < 300000) body += "line: <<x\n<<READ(a)::READ\n";
    const std::string turn = "<<TURN:" + statements + "<<SEND[200]:d:SEND\n:TURN";
    struct large {
        tier t;
        std::string input;
        bool held;  // whether it ends inside something open (else what is held at the end is small)
    };
    const std::vector<large> inputs = {
        {tier::parse, statements + "<<SEND[200]:d:SEND\n", false},
        {tier::parse, statements, false},
        {tier::statements, body + ":EDIT\n<<READ(b)::READ\n", false},
        {tier::statements, body, true},  // the body never closes
        {tier::log, turn, false},        // an open TURN releases what settles inside it
    };
    for (const auto& [t, input, held] : inputs) {
        vector_case v{"large", t, input, {}, {}, {}};
        expect(v);
        for (const std::size_t release : {std::size_t{1}, stream_parser::k_default_release_threshold}) {
            CHECK(check_run(stream_run(v, {input.size()}, release), v).empty());
            // A large chunk after a small one, and a small one after.
            CHECK(check_run(stream_run(v, {7, input.size() - 107, 100}, release), v).empty());
        }
        stream_parser p(t);
        p.feed(input);
        if (held) {
            CHECK(p.retained() > 200000);
        } else {
            CHECK(p.retained() < 3 * stream_parser::k_default_release_threshold);
        }
        const open_info whole = p.open();
        stream_parser q(t);
        for (std::size_t at = 0; at < input.size(); at += 4096) q.feed(std::string_view(input).substr(at, 4096));
        const open_info fed = q.open();
        CHECK(whole.where == fed.where);
        CHECK(whole.begin == fed.begin);
        CHECK(whole.bytes == fed.bytes);
        CHECK(whole.openers == fed.openers);
        CHECK(whole.turn_depth == fed.turn_depth);
    }
}

// finish() hands a large held buffer over to the result instead of copying it (stream.cpp):
// the result is still the one-shot parse's, however the buffer was filled, and outlives the
// parser; a checkpoint taken before finish() holds a copy of its own, which it finishes
// (or feeds) after the original is gone.
TEST_CASE("stream: finish() hands a large held input over; a checkpoint keeps its own", "[stream]") {
    using namespace plurnk;
    std::string input = "<<PLAN:p:PLAN\n<<EDIT(big.ts):";
    while (input.size() < 450000) input += "line <<x é\n";  // in 2^19 bytes of room or less: taken over
    const std::string want = to_json(parse(input, tier::parse), k_spans);
    const std::string want_closed = to_json(parse(input + ":EDIT\n", tier::parse), k_spans);
    for (const std::size_t chunk : {std::size_t{16}, std::size_t{4096}, input.size()}) {
        INFO("chunk " << chunk);
        parse_result r;
        std::optional<stream_parser> checkpoint;
        {
            stream_parser p(tier::parse);
            for (std::size_t at = 0; at < input.size(); at += chunk) p.feed(std::string_view(input).substr(at, chunk));
            CHECK(p.retained() > 200000);  // the open body is held
            checkpoint.emplace(p);
            r = p.finish();
            CHECK(p.size() == input.size());
            CHECK(p.safe_prefix() == input.size());
        }
        CHECK(to_json(r, k_spans) == want);
        // The checkpoint's input is its own: the original's went to its result.
        stream_parser again = *checkpoint;
        checkpoint->feed(":EDIT\n");
        CHECK(to_json(checkpoint->finish(), k_spans) == want_closed);
        checkpoint.reset();
        CHECK(to_json(again.finish(), k_spans) == want);
        // A finished parser copies and finishes to nothing more.
        stream_parser done = again;
        CHECK(done.finish().items.empty());
        CHECK(to_json(r, k_spans) == want);
    }
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

// A parser with no callback lexes and parses in batches, but safe_prefix() and open() catch it
// up: polled after any feed, open() answers as it does with a callback set (which lexes at
// every feed), and safe_prefix() never moves back and is true: no statement or text item of
// the final result starts before it and ends after it. (Its statement parser tries a step at
// other points than one fed token by token, so it may be a few bytes ahead or behind; the next
// test checks that it keeps up.) The parser with no callback is polled after every third feed
// only, so that it has input it has not lexed when it is asked.
TEST_CASE("stream: safe_prefix() and open() with no callback", "[stream]") {
    std::size_t compared = 0, ahead = 0, open_seen = 0;
    for (const vector_case& v : vectors()) {
        const plurnk::parse_result final_result = plurnk::parse(v.input, v.tier, v.options);
        const auto splits = [&final_result](std::size_t sp) {
            for (const plurnk::item& it : final_result.items) {
                if (std::holds_alternative<plurnk::diagnostic>(it)) continue;
                const plurnk::byte_span span = std::visit([](const auto& x) { return x.span; }, it);
                if (span.begin < sp && span.end > sp) return true;
            }
            return false;
        };
        for (const std::size_t chunk : {std::size_t{1}, std::size_t{7}}) {
            plurnk::stream_parser with(v.tier, v.options), without(v.tier, v.options);
            with.set_callback([](const plurnk::stream_event&) {});
            std::size_t last = 0, feeds = 0;
            for (std::size_t at = 0; at < v.input.size(); at += chunk) {
                const std::string_view piece = std::string_view(v.input).substr(at, chunk);
                with.feed(piece);
                without.feed(piece);
                if (++feeds % 3 != 0) continue;
                const std::size_t want = with.safe_prefix(), got = without.safe_prefix();
                const plurnk::open_info o = without.open(), w = with.open();
                const bool same_open = o.where == w.where && o.op == w.op && o.suffix == w.suffix && o.begin == w.begin &&
                                       o.bytes == w.bytes && o.openers == w.openers && o.turn_depth == w.turn_depth;
                if (got < last || got > without.size() || splits(got) || !same_open) {
                    FAIL_CHECK(v.id << " at " << at << " in " << chunk << "-byte chunks: safe_prefix() " << got
                                    << " with no callback (before: " << last << "), " << want
                                    << " with one; splits an item: " << splits(got) << "; open() the same: " << same_open);
                    break;
                }
                ahead += got > want ? 1 : 0;
                open_seen += o.where != plurnk::open_info::where_t::none ? 1 : 0;
                last = got;
                ++compared;
            }
        }
    }
    INFO(ahead << " of " << compared << " answers ahead of the parser with a callback");
    CHECK(compared > 30000);
    CHECK(open_seen > 10000);
}

// With no callback, safe_prefix() moves past a statement once the byte that settles it (the
// line end after its close tag) is fed, whatever the lexer and the parser deferred.
TEST_CASE("stream: safe_prefix() with no callback keeps up with each statement", "[stream]") {
    const std::string input =
        "<<READ(src/a.ts)<1,20>::READ\n<<FIND[a,b<c](s/**)<12.5-3>:x: y :FIN :FIND\n"
        "<<EDITx(b):body :EDIT :EDITxy :EDITx\n<<READ_1(q):READ_1  \t\n<<EXEC[sh.1+x](./):ls:EXEC\n"
        "<<KILL[-42]::KILL\nsome text <<READ(c\\)(d)e)::READ\n";
    for (const std::size_t chunk : {std::size_t{1}, std::size_t{3}}) {
        plurnk::stream_parser p(plurnk::tier::statements);
        std::size_t at = 0;
        while (at < input.size()) {
            const std::size_t n = std::min(chunk, input.size() - at);
            p.feed(std::string_view(input).substr(at, n));
            at += n;
            // The last line end fed, and the statement before it, settled by it.
            const std::size_t nl = input.rfind('\n', at - 1);
            if (nl == std::string::npos) continue;
            const std::size_t close = input.rfind(':', nl);
            INFO("fed " << at << " bytes in " << chunk << "-byte chunks");
            CHECK(p.safe_prefix() > close);
        }
    }
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

// The short feed's one bounds check counts the limit from the input still held: it must move
// with every release, and leave no room after finish().
TEST_CASE("stream: max_input_bytes holds across releases, and a feed after finish() is dropped", "[stream][limits]") {
    using namespace plurnk;
    std::string in;
    for (int i = 0; i < 400; ++i) in += "Now " + std::to_string(i) + ".\n<<READ(src/f" + std::to_string(i) + ".ts)::READ\n";
    parse_options o;
    o.max_input_bytes = in.size() / 2 + 7;
    const std::string want = to_json(parse(in, tier::parse, o));
    for (std::size_t chunk : {std::size_t{1}, std::size_t{4}, std::size_t{9}, std::size_t{64}}) {
        stream_parser s(tier::parse, o);
        s.set_release_threshold(1);
        std::size_t events = 0;
        s.set_callback([&](const stream_event&) { ++events; });
        for (std::size_t i = 0; i < in.size(); i += chunk) s.feed(std::string_view(in).substr(i, chunk));
        CHECK(s.size() == o.max_input_bytes);
        CHECK(s.retained() < 200);
        const parse_result r = s.finish();
        CHECK(to_json(r) == want);
        CHECK(events == r.items.size());
        s.feed("<<READ(x)::READ\n");
        s.feed("x");
        CHECK(s.size() == o.max_input_bytes);
        CHECK(s.finish().items.empty());
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

    // With a callback, and with none (then the stream lexes every 1 KB and parses and builds in
    // batches where it can release: what it holds is at most that kilobyte more).
    for (const bool with_events : {true, false}) {
        INFO((with_events ? "with a callback" : "with no callback"));
        stream_parser p(tier::parse);
        std::size_t most_before_body = 0, most_in_body = 0, events = 0;
        if (with_events) p.set_callback([&events](const stream_event&) { ++events; });
        for (std::size_t at = 0; at < turn.size(); at += 16) {
            p.feed(std::string_view(turn).substr(at, 16));
            if (at + 16 < open_at) most_before_body = std::max(most_before_body, p.retained());
            if (at + 16 >= open_at && at + 16 < body_end) most_in_body = std::max(most_in_body, p.retained());
        }
        CHECK(p.size() == turn.size());
        // 1.2 MB of settled statements went through with no more than a few KB held at any
        // time; the open EDIT body is held whole.
        CHECK(open_at > 1'000'000);
        CHECK(most_before_body < 3 * stream_parser::k_default_release_threshold + (with_events ? 0 : 1024));
        CHECK(most_in_body >= 100000);
        const parse_result r = p.finish();
        CHECK(to_json(r, k_spans) == to_json(parse(turn, tier::parse), k_spans));
        if (with_events) CHECK(events == r.items.size());
        CHECK(p.retained() < 200000);
    }
}

// Inside an open TURN (log tier) too: its closer is matched against the suffix the lexer keeps
// aside, so what settles in the turn is released. A turn of text alone (no close tag after its
// opener) is parsed as it comes: its text items fire before the turn ends, and a run of nested
// `<<TURN:` (each an error reported at finish()) is held no longer than a turn of statements.
TEST_CASE("stream: an open TURN holds only what is open inside it", "[stream]") {
    using namespace plurnk;
    std::string statements = "<<TURN_a:<<PLAN:p:PLAN\n";
    while (statements.size() < 300000) statements += "word <<READ(a)::READ\n";
    statements += "<<SEND[200]:d:SEND\n:TURN_a\n";
    std::string text = "<<TURN:";
    while (text.size() < 300000) text += "word ";
    std::string nested;
    while (nested.size() < 300000) nested += "<<TURN:";
    const std::pair<const std::string*, bool> turns[] = {{&statements, true}, {&text, true}, {&nested, false}};
    for (const auto& [input, items_stream] : turns) {
        const std::string& turn = *input;
        stream_parser p(tier::log);
        std::size_t most = 0, events_before_end = 0, events = 0;
        p.set_callback([&events](const stream_event&) { ++events; });
        for (std::size_t at = 0; at < turn.size(); at += 16) {
            p.feed(std::string_view(turn).substr(at, 16));
            most = std::max(most, p.retained());
        }
        events_before_end = events;
        INFO(turn.substr(0, 20) << "…, " << turn.size() << " bytes: held at most " << most << ", "
                                << events_before_end << " events before finish()");
        CHECK(most < 3 * stream_parser::k_default_release_threshold);
        if (items_stream) CHECK(events_before_end > 10000);
        const parse_result r = p.finish();
        CHECK(to_json(r, k_spans) == to_json(parse(turn, tier::log), k_spans));
        CHECK(events == r.items.size());
        // With no callback (lexed every 1 KB, parsed and built in batches), about as little.
        stream_parser q(tier::log);
        std::size_t most_quiet = 0;
        for (std::size_t at = 0; at < turn.size(); at += 16) {
            q.feed(std::string_view(turn).substr(at, 16));
            most_quiet = std::max(most_quiet, q.retained());
        }
        INFO("with no callback: held at most " << most_quiet);
        CHECK(most_quiet < 3 * stream_parser::k_default_release_threshold + 1024);
        CHECK(to_json(q.finish(), k_spans) == to_json(r, k_spans));
    }
}

// Input is released at the end of a statement even when no chunk ends there (the lexer pauses
// at a close tag to let the parser and builder catch up): statements of ~10 KB fed in 997-byte
// chunks, each chunk running from inside one body into the next, hold about one statement.
TEST_CASE("stream: a statement end releases what came before at any chunking", "[stream]") {
    using namespace plurnk;
    std::string input;
    for (int i = 0; i < 100; ++i) {
        input += "<<EDIT(f" + std::to_string(i) + "):";
        for (int k = 0; k < 1250; ++k) input += i % 2 == 0 ? "code: x\n" : "yyyyyyyy";  // 10 KB
        input += ":EDIT\n";
    }
    for (const std::size_t chunk : {std::size_t{997}, std::size_t{64 * 1024 + 1}, input.size()}) {
        stream_parser p(tier::statements);
        std::size_t most = 0;
        for (std::size_t at = 0; at < input.size(); at += chunk) {
            p.feed(std::string_view(input).substr(at, chunk));
            most = std::max(most, p.retained());
        }
        INFO("chunk " << chunk);
        CHECK(most < 2 * 10030 + chunk);
        CHECK(to_json(p.finish(), k_spans) == to_json(parse(input, tier::statements), k_spans));
    }
}

// A long turn's settled items are shared between a parser and its checkpoints (streaming keeps
// them in frozen pieces of a few hundred items). Checkpoints taken throughout, each of them fed
// junk, abandoned or finished later, and restores at many points must leave every parser's result
// equal to the one-shot parse of what it was fed, with the events of an undisturbed run.
TEST_CASE("stream: checkpoints share a long history and stay independent", "[stream]") {
    using namespace plurnk;
    std::string turn = "<<PLAN:check:PLAN\n";
    for (int i = 0; i < 3000; ++i) {
        switch (i % 6) {
            case 0: turn += "<<READ(f" + std::to_string(i) + ")::READ\n"; break;
            case 1: turn += "text \xc3\xa9 <<CLOSE:CLOSE "; break;        // text with an advisory
            case 2: turn += "<<READ(a):/(/:READ\n"; break;                 // a visitor error
            case 3: turn += "<<EDIT(x):\n"; break;                          // a parser error follows
            case 4: turn += ":EDIT\n<<FIND[a,b](s)<1,2>:*.ts:FIND\n"; break;
            default: turn += "<<SEND[1]:{\"a\":[1,2]}:SEND\n";
        }
    }
    turn += "<<SEND[200]:done:SEND\n";
    vector_case v{"long", tier::parse, turn, {}, {}, {}};
    expect(v);
    REQUIRE(v.want_items.size() > 2000);

    for (const std::size_t release : {std::size_t{1}, stream_parser::k_default_release_threshold}) {
        run out;
        stream_parser p(tier::parse);
        p.set_release_threshold(release);
        p.set_callback([&out](const stream_event& ev) { out.events.push_back({ev.index, item_json(ev.value)}); });
        std::vector<std::pair<std::size_t, stream_parser>> kept;  // (fed bytes, checkpoint)
        std::size_t at = 0, step = 0;
        while (at < turn.size()) {
            const std::size_t n = std::min<std::size_t>(1 + (step * 7) % 23, turn.size() - at);
            p.feed(std::string_view(turn).substr(at, n));
            at += n;
            ++step;
            if (step % 9 == 0) {
                // Checkpoint, disturb the live parser, restore.
                const stream_parser checkpoint = p;
                const std::size_t events = out.events.size();
                p.feed(k_junk[step % std::size(k_junk)]);
                p = checkpoint;
                out.events.resize(events);
            }
            if (step % 97 == 0) {
                stream_parser c = p;
                c.set_callback({});
                kept.emplace_back(at, std::move(c));
            }
            if (step % 131 == 0 && !kept.empty()) {
                // A checkpoint fed junk must not reach the parser it came from.
                kept.back().second.feed(k_junk[step % std::size(k_junk)]);
                kept.back().first = SIZE_MAX;
            }
        }
        out.result = to_json(p.finish(), k_spans);
        CHECK(check_run(out, v).empty());
        REQUIRE(kept.size() > 10);
        std::size_t finished = 0;
        for (auto& [fed, c] : kept) {
            if (fed == SIZE_MAX) continue;
            // Finish a checkpoint on a different ending: what it was fed plus junk.
            c.feed(k_junk[1]);
            const std::string want = to_json(parse(turn.substr(0, fed) + std::string(k_junk[1]), tier::parse), k_spans);
            CHECK(to_json(c.finish(), k_spans) == want);
            ++finished;
        }
        CHECK(finished > 5);
    }
}

TEST_CASE("spans: consistent on every conformance vector", "[spans]") {
    const auto& all = vectors();
    REQUIRE(all.size() > 12000);
    std::size_t failures = 0, items = 0;
    for (const vector_case& v : all) {
        const plurnk::parse_result r = plurnk::parse(v.input, v.tier, v.options);
        items += r.items.size();
        const std::string problem = check_spans(r, v.input);
        if (!problem.empty() && ++failures <= 10) FAIL_CHECK(v.id << " (" << plurnk::tier_name(v.tier) << "): " << problem);
    }
    CHECK(failures == 0);
    CHECK(items > 10000);
}
