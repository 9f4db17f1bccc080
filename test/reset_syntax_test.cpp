// SPDX-License-Identifier: MIT
// stream_syntax::reset() (lib/syntax/tier_machine.hpp): after any parse, a reset statement parser
// is equal, field by field, to a fresh one of the same tier and dialect (the comparison is the
// compiler's, over every member of every layer: a field the reset forgets fails it), keeps the
// room of its records, and the next parse through it gives the result, and leaves the state, of
// a fresh pipeline. The parses before the reset run the pipeline as parse() does (windows of
// tokens, large and small) and as a stream does (chunks of a few bytes, releasing the settled
// input), over clean statements, every kind of syntax error, inputs cut inside a statement, a
// body and a turn, deep nesting, long tokens, every hostile shape and every conformance vector,
// in every tier and both dialects.
#include <catch2/catch_test_macros.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "hostile_shapes.hpp"
#include "pipeline/pipeline.hpp"
#include "plurnk/json.hpp"
#include "plurnk/parse.hpp"
#include "vectors.hpp"

using plurnk::parse_dialect;
using plurnk::parse_options;
using plurnk::tier;
using plurnk::detail::pipeline;
using plurnk::detail::stream_syntax;

namespace {

constexpr plurnk::json_options k_spans{.spans = true};
constexpr std::size_t k_window = 4096;  // parse()'s (parse.cpp)

// parse()'s driver (parse.cpp's run_windows(), without the scratch and the input limit): the
// lexer in windows of `window` tokens, the parser and the builder after each, the tokens
// released whenever nothing is open.
plurnk::parse_result run_windows(pipeline& p, std::string_view in, std::size_t window) {
    plurnk::detail::lex_in_windows(p, in, false, window);
    p.parse(true);
    return p.finish(in, {});
}

// A stream's driver (stream.cpp, without events and laziness): `chunk` bytes at a time, the
// lexer, the parser and the builder after each, the settled input dropped whenever it can be.
plurnk::parse_result run_chunks(pipeline& p, std::string_view in, std::size_t chunk) {
    p.reserve_tokens(64);
    std::string buf;
    std::size_t released = 0;
    for (std::size_t at = 0; at < in.size(); at += chunk) {
        buf.append(in.substr(at, chunk));
        if (!p.lexer.advance(buf, false)) continue;
        p.parse(false);
        p.build(buf, {});
        if (p.lexer.can_release(buf) && p.can_release()) {
            const std::size_t cut = p.release(buf, [] {});
            buf.erase(0, cut);
            released += cut;
        }
    }
    p.run_to_end(buf);
    p.builder.input().append_copy(released, buf);
    return p.finish(buf, {});
}

// How an input is driven: in windows of tokens or in chunks of bytes.
struct drive {
    bool chunks;
    std::size_t size;
};
constexpr drive k_drives[] = {{false, k_window}, {false, 3}, {true, 1}, {true, 7}, {true, 64}};

std::string run(pipeline& p, std::string_view in, drive d) {
    return plurnk::to_json(d.chunks ? run_chunks(p, in, d.size) : run_windows(p, in, d.size), k_spans);
}

parse_options options_of(parse_dialect d) {
    parse_options o;
    o.dialect = d;
    return o;
}

// A reset, after `a` driven by `da` on a fresh pipeline: the statement parser is a fresh one
// with its room kept; then `b` driven by `db` through it (the lexer and the builder assigned
// fresh ones, as parse() does today) gives a fresh pipeline's result and state.
void check_reset(std::string_view a, drive da, std::string_view b, drive db, tier t, parse_dialect d) {
    const parse_options o = options_of(d);
    const pipeline pristine(t, o);
    pipeline p(t, o);
    (void)run(p, a, da);
    const auto& tree = p.syntax.tree();
    const std::size_t units = tree.units.capacity(), marks = tree.token_unit.capacity();
    const std::size_t errors = tree.errors.capacity();
    p.syntax.reset();
    CHECK(p.syntax == pristine.syntax);
    CHECK(tree.units.capacity() >= units);
    CHECK(tree.token_unit.capacity() >= marks);
    CHECK(tree.errors.capacity() >= errors);
    p.lexer = pristine.lexer;
    p.builder = pristine.builder;
    pipeline fresh(t, o);
    CHECK(run(p, b, db) == run(fresh, b, db));
    // (Not ==: each parser now points at its own pipeline's tokens.)
    CHECK(p.syntax.dump_state() == fresh.syntax.dump_state());
}

// Every drive of `a`, each followed by `a` again and by `b` (one-shot and in small chunks).
void check_all(std::string_view a, std::string_view b, tier t, parse_dialect d = parse_dialect::contracts) {
    for (const drive da : k_drives) {
        if (da.chunks && da.size == 1 && a.size() > 4000) continue;  // (long enough at 7 bytes)
        INFO("A: " << (da.chunks ? "chunks of " : "windows of ") << da.size);
        check_reset(a, da, a, da, t, d);
        check_reset(a, da, b, drive{false, k_window}, t, d);
        check_reset(a, da, b, drive{true, 5}, t, d);
    }
}

std::string turn_2k() { return plurnk::test::bench_data("turn-2k.txt"); }

std::string repeat(std::string_view s, std::size_t n) {
    std::string out;
    for (std::size_t i = 0; i < n; ++i) out += s;
    return out;
}

// Per tier, a short input B to run after the reset.
std::string_view b_of(tier t) {
    switch (t) {
        case tier::parse: return "<<PLAN:p:PLAN\ntext <<READ(a)::READ <<SEND[200]:done:SEND\n";
        case tier::statements: return "<<READ(a)::READ\n<<SEND[x:y:SEND\n<<FIND(b):c:FIND";
        case tier::log: return "<<TURN:<<PLAN:p:PLAN <<SEND[200]:d:SEND:TURN\n";
        case tier::client: return "<<READ(a)::READ\n<<LOOK(b):c:LOOK\n<<BUFF[t]<1>::BUFF";
    }
    return "";
}

struct input {
    std::string text;
    tier t;
    parse_dialect d = parse_dialect::contracts;
};

// Hand-made inputs: clean, every kind of syntax error, cut inside a statement, a body and a
// turn, deep nesting and repeated error cycles (the cycle replay), long tokens.
std::vector<input> hand_made() {
    const std::string long_body(6000, 'b');
    const std::string long_target(5000, 't');
    return {
        {repeat("<<READ(a)::READ\n<<FIND(x):y:FIND\n", 200), tier::statements},
        {"<<WORK::WORK<<READ(a)(b):READ<<KILL[x][y]:KILL<<READ(a:x:READ junk <<READ(e)::READ", tier::statements},
        {"<<READ(a)]:READ<<FIND<1><2>:x:FIND<<SEND<1>:x:SEND<<READ<<READ<<READ(b)::READ<<READ(", tier::statements},
        {"<<READ(a)::READ<<READ(b", tier::statements},
        {"<<EDIT(p):a body cut before its clo", tier::statements},
        {"<<PLAN:p:PLAN\ntext <<SEND[3]:a:SEND <<FIND(x):y:FIND <<SEND(a)[200]<1>:d:SEND tail", tier::parse},
        {"lead <<PLAN::PLAN<<WORK[b]:go:WORK<<SEND[102]:x:SEND<<SEND<1>:x:SEND", tier::parse},
        {"<<PLAN:p:PLAN <<READ(a)::READ <<SEND[200]:open bod", tier::parse},
        {"<<TURN:<<PLAN:p:PLAN <<SEND[200]:d:SEND:TURN<<TURN[t]:<<PLAN:q:PLAN<<READ(a)::READ", tier::log},
        {repeat("<<TURN:", 300), tier::log},
        {repeat("<<TURN:<<PLAN:p:PLAN ", 100) + repeat(":TURN", 100), tier::log},
        {repeat("<<TURN:x:TURN junk ]", 200), tier::log},
        {repeat("<<LOOK(a):b:LOOK<<BUFF[t]<1>::BUFF<<READ(a)::READ<<TURN:x:TURN", 40), tier::client},
        {"<<EDIT(p):" + long_body + ":EDIT<<READ(" + long_target + ")::READ", tier::statements},
        {"<<PLAN:p:PLAN <<EDIT(p):" + long_body + ":EDIT <<SEND[200]:" + long_body, tier::parse},
        {"<<FIND(#a(b)?#i)::FIND\n<<READ(a)::READ\n<<FIND(", tier::statements, parse_dialect::service},
        {"<<PLAN:p:PLAN <<FIND(#a#)::FIND <<SEND[200]:d:SEND", tier::parse, parse_dialect::service},
        {turn_2k(), tier::parse},
        {turn_2k().substr(0, 900), tier::parse},
    };
}

}  // namespace

TEST_CASE("a reset statement parser is a fresh one: hand-made inputs", "[reset]") {
    for (const input& in : hand_made()) {
        INFO(plurnk::tier_name(in.t) << ": " << in.text.substr(0, 80));
        check_all(in.text, b_of(in.t), in.t, in.d);
    }
}

TEST_CASE("a reset statement parser is a fresh one: every hostile shape", "[reset]") {
    for (const plurnk::shapes::shape& s : plurnk::shapes::all()) {
        INFO(s.name);
        const std::string a = plurnk::shapes::make(s, 3000);
        check_all(a, b_of(s.tier), s.tier, s.dialect);
    }
}

TEST_CASE("a reset statement parser is a fresh one: every conformance vector", "[reset]") {
    // Each vector in its tier, one-shot and in chunks of 3 bytes, then the next vector of the
    // same tier through the reset parser.
    for (const parse_dialect d : {parse_dialect::contracts, parse_dialect::service}) {
        std::vector<input> inputs;
        const auto add = [&](const plurnk::json_value& v, const std::string& text) {
            const plurnk::json_value* name = v.find("tier");
            const auto t = plurnk::tier_from_name(name != nullptr ? name->string : "parse");
            REQUIRE(t);
            inputs.push_back({text, *t, d});
        };
        if (d == parse_dialect::service) {
            plurnk::test::for_each_vector(add, {"/conformance/service.jsonl"});
        } else {
            plurnk::test::for_each_vector(add);
        }
        REQUIRE(inputs.size() > 400);
        for (std::size_t i = 0; i < inputs.size(); ++i) {
            const input& a = inputs[i];
            const input& b = inputs[(i + 1) % inputs.size()].t == a.t ? inputs[(i + 1) % inputs.size()] : a;
            INFO("vector " << i << " (" << plurnk::tier_name(a.t) << "): " << a.text.substr(0, 80));
            check_reset(a.text, drive{false, k_window}, b.text, drive{false, k_window}, a.t, d);
            check_reset(a.text, drive{true, 3}, b.text, drive{true, 2}, a.t, d);
        }
    }
}
