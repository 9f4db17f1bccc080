// SPDX-License-Identifier: MIT
// result_builder::reset() (issue 33: parse()'s thread scratch resets its pipeline in place): after
// any input, driven as parse() and the push parser drive it (windows of tokens, chunks with and
// without events, a copy taken midway, cut before finish()), the reset builder equals one freshly
// constructed (operator==, which the compiler writes over every field), keeps the room its error
// ledger had, and builds the next input as a fresh one does.
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "pipeline/pipeline.hpp"
#include "plurnk/json.hpp"
#include "plurnk/parse.hpp"
#include "vectors.hpp"

namespace {

namespace pd = plurnk::detail;

constexpr plurnk::json_options k_spans{.spans = true};
constexpr std::size_t k_window = 4096;  // parse()'s (parse.cpp)

struct input_case {
    plurnk::tier tier = plurnk::tier::parse;
    plurnk::parse_options options;
    std::string input;
};

// How an input is driven: parse()'s windows of `size` tokens, or the push parser's chunks of
// `size` bytes (with events, a copy of the pipeline taken midway, input released as it settles).
// `finish`: to the result; else the pipeline is left where the input ends.
struct drive_mode {
    bool stream = false;
    std::size_t size = k_window;
    bool events = false;
    bool copy_midway = false;
    bool finish = true;
    bool copied_input = false;  // windows: the input copied into the builder, else borrowed
};

// parse.cpp's run_windows(), without its thread scratch and input limit.
plurnk::parse_result run_windows(pd::pipeline& p, std::string_view in, const drive_mode& m) {
    pd::lex_in_windows(p, in, !m.copied_input, m.size);
    if (!m.finish) return {};
    p.parse(true);
    return p.finish(in, {});
}

// The push parser's steps (stream.cpp) over chunks of the input: lex, parse, build (events to
// `events`), release what settled; finish() with the input held copied into the builder.
plurnk::parse_result run_stream(pd::pipeline& p, std::string_view input, const drive_mode& m,
                                std::vector<std::unique_ptr<pd::pipeline>>& copies, std::vector<std::string>& events) {
    const auto report = [&events](const plurnk::item& it, std::size_t index) {
        plurnk::parse_result one;
        one.items.push_back(it);
        events.push_back(std::to_string(index) + plurnk::to_json(one, k_spans));
    };
    const pd::result_builder::sink out = m.events ? pd::result_builder::sink(report) : pd::result_builder::sink();
    std::string buf;
    std::size_t released = 0;
    for (std::size_t at = 0; at < input.size(); at += m.size) {
        buf.append(input.substr(at, m.size));
        p.lexer.advance(buf, false);
        p.parse(false);
        p.build(buf, out);
        if (m.copy_midway && copies.empty() && 2 * (at + m.size) >= input.size()) {
            p.builder.share();  // a stream checkpoint (stream_parser's copy)
            p.builder.mark_positions(buf);
            copies.push_back(std::make_unique<pd::pipeline>(p));
        }
        if (p.lexer.can_release(buf) && p.can_release()) {
            const std::size_t cut = p.release(buf, [] {});
            buf.erase(0, cut);
            released += cut;
        }
    }
    if (!m.finish) return {};
    p.run_to_end(buf);
    p.builder.input().append_copy(released, buf);
    return p.finish(buf, out);
}

struct outcome {
    std::string json;
    std::vector<std::string> events;
    friend bool operator==(const outcome&, const outcome&) = default;
};

outcome drive(pd::pipeline& p, const input_case& c, const drive_mode& m,
              std::vector<std::unique_ptr<pd::pipeline>>& copies) {
    outcome o;
    plurnk::parse_result r = m.stream ? run_stream(p, c.input, m, copies, o.events) : run_windows(p, c.input, m);
    if (m.finish) o.json = plurnk::to_json(r, k_spans);
    return o;
}

// Every conformance vector (vectors.hpp), in its tier and dialect.
std::vector<input_case> load_vectors() {
    std::vector<input_case> out;
    plurnk::parse_options options;
    const auto add = [&](const plurnk::json_value& v, const std::string& text) {
        const plurnk::json_value* tier = v.find("tier");
        REQUIRE(tier != nullptr);
        const auto t = plurnk::tier_from_name(tier->string);
        REQUIRE(t);
        out.push_back(input_case{*t, options, text});
    };
    plurnk::test::for_each_vector(add);
    options.dialect = plurnk::parse_dialect::service;
    plurnk::test::for_each_vector(add, {"/conformance/service.jsonl"});
    return out;
}

std::string repeat(std::string_view s, std::size_t n) {
    std::string out;
    for (std::size_t i = 0; i < n; ++i) out += s;
    return out;
}

// Shapes the vectors are short of: cut inside a statement, a body, an open TURN; deep TURNs
// (past a small max_turn_depth too); long tokens; error-dense runs; a long turn (many windows).
std::vector<input_case> extra_inputs() {
    std::vector<std::string> texts = {
        "<<EDIT(p):hello",
        "<<EDIT(p",
        "text before <<READ(a.md)::READ and <<EDIT[x,y](known://h/p?q#f)<1,2-5>:body:EDIT after",
        "<<TURN:<<PLAN:p:PLAN <<READ(worker:///x)::READ",
        repeat("<<TURN:", 40) + "<<SEND[200]:done:SEND" + repeat(":TURN", 40),
        repeat("<<TURN:", 12) + "<<PLAN:p:PLAN",
        "<<EDIT(" + std::string(9000, 'a') + "):" + std::string(12000, 'b') + ":EDIT",
        std::string(10000, 'x') + "\n<<READ(a)::READ",
        repeat("\x01<<<<>>:::(]\xff", 300),
        repeat("<<FROB(x)::FROB <<READ(::READ <<EDIT(a):b:COPY\n", 200),
        repeat("<<COPY(a):dest/b.md<3-4>:COPY <<MOVE(c):known://h/d<1>:MOVE <<SEND[200]:{\"a\":1}:SEND\n", 100),
        repeat("<<TURN:<<PLAN:step:PLAN <<READ(src/" + std::string(70, 'z') + ")::READ :TURN\n", 150),
    };
    texts.push_back(plurnk::test::bench_data("turn-2k.txt"));
    std::vector<input_case> out;
    for (const std::string& s : texts) {
        for (const plurnk::tier t : {plurnk::tier::statements, plurnk::tier::parse}) {
            for (const plurnk::parse_dialect d : {plurnk::parse_dialect::contracts, plurnk::parse_dialect::service}) {
                input_case c{t, {}, s};
                c.options.dialect = d;
                out.push_back(c);
            }
        }
    }
    input_case shallow{plurnk::tier::parse, {}, repeat("<<TURN:", 9) + "x" + repeat(":TURN", 9)};
    shallow.options.max_turn_depth = 4;
    out.push_back(shallow);
    return out;
}

// The lexer and the parser as constructed (their resets are their own).
void fresh_front(pd::pipeline& p, const input_case& c) {
    std::destroy_at(&p.lexer);
    std::construct_at(&p.lexer, c.options.max_turn_depth, c.options.dialect);
    std::destroy_at(&p.syntax);
    std::construct_at(&p.syntax, c.tier, c.options.dialect);
}

// Drives `a` with `m` through `p` (as the last call left it, the builder reset), resets the
// builder and checks it against a fresh one; then drives `b` through it and checks the outcome
// against `b` on a fresh pipeline.
void check_reset(pd::pipeline& p, const input_case& a, const drive_mode& m, const input_case& b) {
    fresh_front(p, a);
    p.builder.reset();
    std::vector<std::unique_ptr<pd::pipeline>> copies;
    (void)drive(p, a, m, copies);
    const std::size_t held = p.builder.ledger_bytes();
    p.builder.reset();
    const pd::result_builder fresh(a.tier, a.options.dialect);
    CHECK(p.builder == fresh);
    CHECK(p.builder.ledger_bytes() >= held);

    fresh_front(p, a);
    drive_mode mb = m;
    mb.finish = true;
    mb.copy_midway = false;
    std::vector<std::unique_ptr<pd::pipeline>> none;
    const outcome got = drive(p, b, mb, none);
    pd::pipeline own(b.tier, b.options);
    const outcome want = drive(own, b, mb, none);
    INFO("A: " << a.input.substr(0, 200) << "\nB: " << b.input.substr(0, 200) << "\nmode: stream " << m.stream
               << " size " << m.size << " events " << m.events << " finish " << m.finish << "\ngot:  " << got.json
               << "\nwant: " << want.json);
    CHECK(got == want);
}

}  // namespace

TEST_CASE("a fresh builder equals a fresh one, a used one does not") {
    pd::pipeline p(plurnk::tier::parse, {});
    CHECK(p.builder == pd::result_builder(plurnk::tier::parse));
    std::vector<std::unique_ptr<pd::pipeline>> copies;
    (void)drive(p, input_case{plurnk::tier::parse, {}, "<<READ(a)::READ <<EDIT(b):c:EDIT"}, drive_mode{.finish = false},
                copies);
    CHECK_FALSE(p.builder == pd::result_builder(plurnk::tier::parse));
}

TEST_CASE("the stream driver gives parse()'s result") {
    // (So that the streamed inputs below reach the states the push parser does.)
    for (const input_case& c : extra_inputs()) {
        std::vector<std::unique_ptr<pd::pipeline>> copies;
        pd::pipeline p(c.tier, c.options);
        const outcome o =
            drive(p, c, drive_mode{.stream = true, .size = 7, .events = true, .copy_midway = true}, copies);
        CHECK(o.json == plurnk::to_json(pd::parse_in_windows(c.input, c.tier, c.options, k_window), k_spans));
    }
}

TEST_CASE("reset() after every vector and shape, in windows and in chunks") {
    std::vector<input_case> all = load_vectors();
    REQUIRE(all.size() > 13000);
    const std::vector<input_case> extra = extra_inputs();
    all.insert(all.end(), extra.begin(), extra.end());
    const input_case next{plurnk::tier::parse, {}, "<<PLAN:p:PLAN x <<READ(a)::READ <<FROB:"};
    std::size_t n = 0;
    for (std::size_t i = 0; i < all.size(); ++i) {
        const input_case& a = all[i];
        const bool is_extra = i >= all.size() - extra.size();
        // B: the next input (another tier or dialect now and then), or one with errors and an
        // open statement, driven as A was.
        input_case b = i + 1 < all.size() ? all[i + 1] : next;
        if (i % 2 == 0) b.input += next.input;
        b.tier = a.tier;
        b.options = a.options;
        pd::pipeline p(a.tier, a.options);
        check_reset(p, a, drive_mode{.copied_input = i % 3 == 0}, b);
        check_reset(p, a, drive_mode{.size = 3, .finish = i % 4 != 1}, b);
        check_reset(p, a, drive_mode{.stream = true, .size = 7, .events = true, .copy_midway = i % 2 == 0}, b);
        check_reset(
            p, a,
            drive_mode{
                .stream = true, .size = 64, .events = i % 2 == 1, .copy_midway = i % 4 < 2, .finish = i % 3 != 0},
            b);
        if (is_extra || i % 16 == 0) {
            check_reset(p, a, drive_mode{.size = 1, .finish = false}, b);
            check_reset(p, a, drive_mode{.stream = true, .size = 1, .events = true, .copy_midway = true}, b);
            check_reset(p, a, drive_mode{.stream = true, .size = 1, .copy_midway = true, .finish = false}, b);
        }
        ++n;
    }
    CHECK(n == all.size());
}
