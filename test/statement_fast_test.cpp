// SPDX-License-Identifier: MIT
// The statement parser's fast path (lib/statement_fast.hpp): which statements clean_statement()
// takes and the unit it records for them (rows: input -> unit or "declined"), and the
// differential check that the fast path changes nothing: on hand-made inputs and on every
// conformance vector (test/conformance/parser.jsonl and own.jsonl) in all four tiers, the
// statement parser's whole state with the fast path on and off is the same after every token and
// at the end, and so are the results' JSON with spans (check_statement_fast, P13 in
// fuzz/invariants.hpp).
#include <catch2/catch_test_macros.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "../fuzz/invariants.hpp"
#include "hostile_shapes.hpp"
#include "lex/lexer.hpp"
#include "syntax/clean_step.hpp"
#include "vectors.hpp"

using namespace plurnk::detail;
using plurnk::tier;

namespace {

constexpr tier k_tiers[] = {tier::parse, tier::statements, tier::log, tier::client};

std::string span_text(std::string_view in, const token_vector& toks, std::uint32_t first, std::uint32_t end) {
    if (first >= end) return "";
    return std::string(in.substr(toks[first].begin, toks[end - 1].end - toks[first].begin));
}

// The first statement of `in`, read by clean_statement() in the given form: the unit as
// `text | slots` with each slot's text, or "declined".
std::string take(std::string_view in, bool terminal) {
    const lex_output lexed = lex(in, 64);
    std::size_t at = 0;
    while (at < lexed.tokens.size() && lexed.tokens[at].kind != tok::opener) ++at;
    if (at == lexed.tokens.size()) return "no opener";
    unit u;
    std::size_t looked = 0;
    if (!clean_statement(lexed.tokens, at, lexed.tokens[at].op, terminal, u, looked)) return "declined";
    const auto& t = lexed.tokens;
    std::string s = span_text(in, t, u.first, u.last + 1) + " |";
    if (!u.clean) s += " unclean";
    if (u.terminal_send) s += " terminal";
    if (u.signal != 0) s += " sig=" + span_text(in, t, u.signal, u.signal_end);
    if (u.target != 0) s += " tgt=" + span_text(in, t, u.target, u.target_end);
    if (u.scope != 0) s += " scope=" + span_text(in, t, u.scope, u.scope + 1);
    if (u.body != 0) s += " body=" + span_text(in, t, u.body, u.body_end);
    // The productions note where the body loop stopped, body or not: the close tag.
    if (u.body_end != u.last) s += " body_end-not-at-close";
    return s;
}

struct row {
    std::string_view in;
    bool terminal;
    std::string_view want;
};

// Inputs for the differential check: the rows' inputs, and these, in every tier.
constexpr std::string_view k_contexts[] = {
    "<<PLAN:p:PLAN\ntext <<SEND[3]:a:SEND <<FIND(x):y:FIND <<SEND(a)[200]<1>:d:SEND tail",
    "lead <<PLAN::PLAN<<WORK[b]:go:WORK<<SEND[102]:x:SEND",
    "<<TURN:<<PLAN:p:PLAN <<SEND[200]:d:SEND:TURN<<TURN[t]:<<PLAN:q:PLAN<<KILL[200]:KILL<<SEND[499]:SEND:TURN",
    "<<LOOK(a):b:LOOK<<BUFF[t]<1>::BUFF<<READ(a)::READ<<TURN:x:TURN<<READ(b)::READ",
    // error runs between clean statements: the fast path stops, the productions recover, it resumes
    "<<READ(a)(b):READ<<READ(c)::READ<<FIND<1><2>:x:FIND<<READ(d)::READ junk <<READ(e)::READ",
    "<<PLAN:p:PLAN <<SEND<1>:x:SEND <<READ(a)::READ <<SEND[200]:d:SEND <<READ(b)::READ",
    "<<KILL[x][y]:KILL<<READ(a)]:READ<<READ(a:x:READ<<WORK::WORK<<READ(z)::READ",
    "<<READ(a)::READ<<READ<<READ<<READ(b)::READ<<READ(",
    "<<PLAN:p:PLAN<<PLAN:q:PLAN<<SEND[200]:x:SEND<<SEND[200]:y:SEND",
    // runs of clean statements (the clean step takes a run in one call) that end at a statement
    // with an error, a terminal SEND, a TEXT, and a statement cut by the end of the input
    "<<READ(a)::READ<<READ(b)::READ<<KILL[1]:KILL<<READ(c)(d):READ<<READ(e)::READ<<READ(f)::READ<<READ(g",
    "<<PLAN:p:PLAN<<READ(a)::READ<<FIND(b):c:FIND<<SEND[1]:m:SEND<<SEND[200]:d:SEND t<<READ(h)::READ",
    "<<PLAN:p:PLAN<<READ(a)::READ x <<READ(b)::READ<<READ(c)::READ<<SEND[200]:d:SEND",
};

}  // namespace

TEST_CASE("fast path: the statements it takes, and the unit it records", "[statement_fast]") {
    const row rows[] = {
        // every slot, in any order, each once
        {"<<FIND[x,y](src/)<1,2>:/re/:FIND", false, "<<FIND[x,y](src/)<1,2>:/re/:FIND | sig=[x,y] tgt=(src/) scope=<1,2> body=/re/"},
        {"<<FIND<3>(a)[t]:b:FIND", false, "<<FIND<3>(a)[t]:b:FIND | sig=[t] tgt=(a) scope=<3> body=b"},
        {"<<READ(a):READ", false, "<<READ(a):READ | tgt=(a)"},        // the one-colon close
        {"<<READ(a)::READ", false, "<<READ(a)::READ | tgt=(a)"},      // an empty body
        {"<<READ[]():READ", false, "<<READ[]():READ | sig=[] tgt=()"},  // empty slots
        {"<<READ[,,]:READ", false, "<<READ[,,]:READ | sig=[,,]"},
        // the signal shapes
        {"<<KILL[12]:KILL", false, "<<KILL[12]:KILL | sig=[12]"},
        {"<<KILL[200]:KILL", false, "<<KILL[200]:KILL | sig=[200]"},  // KILL counts a disposition as an integer
        {"<<EXEC[sh]:ls:EXEC", false, "<<EXEC[sh]:ls:EXEC | sig=[sh] body=ls"},
        {"<<EXEC[]:ls:EXEC", false, "<<EXEC[]:ls:EXEC | sig=[] body=ls"},
        {"<<WORK[b]:go:WORK", false, "<<WORK[b]:go:WORK | sig=[b] body=go"},
        {"<<SEND[3]:hi:SEND", false, "<<SEND[3]:hi:SEND | sig=[3] body=hi"},
        {"<<SEND[]:hi:SEND", false, "<<SEND[]:hi:SEND | sig=[] body=hi"},
        {"<<SEND(a):hi:SEND", false, "<<SEND(a):hi:SEND | tgt=(a) body=hi"},
        // the terminal SEND: a disposition, then a scope may follow; the target anywhere
        {"<<SEND[200]:done:SEND", true, "<<SEND[200]:done:SEND | terminal sig=[200] body=done"},
        {"<<SEND(a)[102]<1>:x:SEND", true, "<<SEND(a)[102]<1>:x:SEND | terminal sig=[102] tgt=(a) scope=<1> body=x"},
        {"<<SEND[200](a):SEND", true, "<<SEND[200](a):SEND | terminal sig=[200] tgt=(a)"},
        // what it leaves to the productions: each is an error there
        {"<<READ(a)(b):READ", false, "declined"},           // a slot twice
        {"<<READ[a][b]:READ", false, "declined"},
        {"<<FIND<1><2>:x:FIND", false, "declined"},
        {"<<OPEN<1>:x:OPEN", false, "declined"},            // a scope OPEN does not admit
        {"<<SEND<1>:x:SEND", false, "declined"},            // nor the mid SEND
        {"<<SEND<1>[200]:x:SEND", true, "declined"},        // the terminal SEND's scope before its disposition
        {"<<SEND[200]:x:SEND", false, "declined"},          // a disposition is not the mid SEND's integer
        {"<<SEND[3]:x:SEND", true, "declined"},             // nor an integer the terminal SEND's disposition
        {"<<SEND[]:x:SEND", true, "declined"},
        {"<<SEND(a):x:SEND", true, "declined"},             // the terminal SEND needs its signal
        {"<<WORK::WORK", false, "declined"},                // WORK and FORK need a body
        {"<<FORK[b]:FORK", false, "declined"},
        {"<<WORK[]:x:WORK", false, "declined"},             // the branch tag is required
        {"<<WORK[a,b]:x:WORK", false, "declined"},
        {"<<READ(a:x:READ", false, "declined"},
        {"<<READ(a)", false, "declined"},                   // no close tag: eof
        // a lexer error inside the statement: the lexer skips the character, the tokens are
        // clean, and so is the unit either way (the builder shows the lexer's error for it)
        {"<<KILL[x]:KILL", false, "<<KILL[x]:KILL | sig=[x]"},
        {"<<READ(a)]:READ", false, "<<READ(a)]:READ | tgt=(a)"},
        {"<<READ<<READ(a)::READ", false, "<<READ<<READ(a)::READ | tgt=(a)"},
        {"<<TURN:x:TURN", false, "declined"},               // a TURN is not an op statement
    };
    for (const row& r : rows) {
        INFO("input: " << r.in << (r.terminal ? " (terminal)" : ""));
        CHECK(take(r.in, r.terminal) == r.want);
        for (const tier t : k_tiers) CHECK(plurnk::fuzz::check_statement_fast(r.in, t) == "");
    }
}

TEST_CASE("fast path: a statement cut short is declined, not read past the tokens", "[statement_fast]") {
    // Every prefix of a clean statement's tokens: only the whole statement is taken.
    const std::string_view in = "<<FIND[x,y](src/)<1,2>:/re/:FIND";
    const lex_output lexed = lex(in, 64);
    for (std::size_t n = 1; n + 1 < lexed.tokens.size(); ++n) {
        token_vector prefix;
        for (std::size_t i = 0; i < n; ++i) prefix.push_back(lexed.tokens[i]);
        unit u;
        std::size_t looked = 0;
        INFO("tokens: " << n);
        CHECK(!clean_statement(prefix, 0, plurnk::op::FIND, false, u, looked));
        CHECK(looked <= n);
    }
    unit u;
    std::size_t looked = 0;
    CHECK(clean_statement(lexed.tokens, 0, plurnk::op::FIND, false, u, looked));
    CHECK(looked == lexed.tokens.size() - 1);  // up to the close tag, not the eof after it
}

TEST_CASE("fast path: a clean statement sets every field of the unit it is handed", "[statement_fast]") {
    // The unit a declined form left (or any other) is overwritten whole: no slot of it stays.
    const std::string_view in = "<<READ(src/):body:READ";
    const lex_output lexed = lex(in, 64);
    unit u;
    u.signal = 7;
    u.signal_end = 8;
    u.scope = 9;
    u.body = 3;
    std::size_t looked = 0;
    REQUIRE(clean_statement(lexed.tokens, 0, plurnk::op::READ, false, u, looked));
    CHECK(u.first == 0);
    CHECK(u.signal == 0);
    CHECK(u.signal_end == 0);
    CHECK(u.target == 1);
    CHECK(u.scope == 0);
    CHECK(u.body == u.target_end + 1);  // past the `:`
    CHECK(u.body_end == u.last);
    CHECK(u.clean);
    CHECK(!u.terminal_send);
}

TEST_CASE("fast path: the productions alone agree, in every context", "[statement_fast]") {
    for (const std::string_view in : k_contexts) {
        for (const tier t : k_tiers) {
            INFO("input: " << in << ", tier " << plurnk::tier_name(t));
            CHECK(plurnk::fuzz::check_statement_fast(in, t) == "");
        }
    }
}

// Repeated cycles, for the cycle replay (statement_parser.cpp): the same tokens over and over,
// some with units and errors in each cycle, and runs that change pattern part way.
constexpr std::string_view k_cycles[] = {
    "<<TURN:", "<<TURN:x", "<<TU\xc3:<<TURN", "<<TURN[a]:", "<<TURN:<<PLAN:p:PLAN", "<<TURN:y:TURN<<TURN:",
    "<<READ(a)(b):READ ", "<<SEND<1>:x:SEND ", "junk <<READ", "<<READ<<READ(b)::READ", "<<PLAN:p:PLAN<<PLAN:q:PLAN",
    "<<KILL[x][y]:KILL", "<<READ(a:x:READ", "<<SEND[200]<1><2>:x:SEND\n", "<<WORK::WORK", ":READ", "<<GET:GET",
    "<<SEND[200]:d:SEND <<SEND[300]:", "<<EXEC[1", "]", "<<READ[,][x]::READ ",
};

TEST_CASE("fast path: the productions alone agree on repeated cycles", "[statement_fast]") {
    // Each cycle alone, then 40 times, then 40 times with another cycle's tokens after 25 of
    // them, and again behind a plan and behind a turn's opener.
    for (const std::string_view a : k_cycles) {
        for (const std::string_view b : {std::string_view(), k_cycles[0], k_cycles[6], k_cycles[8]}) {
            std::string run;
            for (int i = 0; i < 40; ++i) run += i >= 25 && !b.empty() ? b : a;
            for (const std::string& in : {run, "<<PLAN:p:PLAN\n" + run, "<<TURN:" + run + ":TURN"}) {
                for (const tier t : k_tiers) {
                    INFO("input: " << in << ", tier " << plurnk::tier_name(t));
                    CHECK(plurnk::fuzz::check_statement_fast(in, t) == "");
                }
            }
        }
    }
    // Every hostile shape (bench/hostile_shapes.hpp) at two sizes, in every tier.
    for (const plurnk::shapes::shape& s : plurnk::shapes::all()) {
        for (const std::size_t size : {std::size_t{700}, std::size_t{2500}}) {
            const std::string in = plurnk::shapes::make(s, size);
            for (const tier t : k_tiers) {
                INFO(s.name << " at " << in.size() << " bytes, tier " << plurnk::tier_name(t));
                CHECK(plurnk::fuzz::check_statement_fast(in, t, s.dialect) == "");
            }
        }
    }
}

TEST_CASE("fast path: the productions alone agree on every conformance vector", "[statement_fast]") {
    const std::size_t vectors = plurnk::test::for_each_vector([](const plurnk::json_value& v, const std::string& input) {
        for (const tier t : k_tiers) {
            const std::string broken = plurnk::fuzz::check_statement_fast(input, t);
            if (!broken.empty()) {
                INFO(v.find("id")->string << ", tier " << plurnk::tier_name(t) << ": " << input);
                CHECK(broken == "");
            }
        }
    });
    CHECK(vectors >= 12868);
}

TEST_CASE("fast path: the productions alone agree on every service vector, in that dialect", "[statement_fast]") {
    const std::size_t vectors = plurnk::test::for_each_vector(
        [](const plurnk::json_value& v, const std::string& input) {
            for (const tier t : k_tiers) {
                const std::string broken = plurnk::fuzz::check_statement_fast(input, t, plurnk::parse_dialect::service);
                if (!broken.empty()) {
                    INFO(v.find("id")->string << ", tier " << plurnk::tier_name(t) << ": " << input);
                    CHECK(broken == "");
                }
            }
        },
        {"/conformance/service.jsonl"});
    CHECK(vectors >= 474);
}
