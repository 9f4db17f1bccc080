// SPDX-License-Identifier: MIT
// The passes (lib/builder/passes.cpp) one row each: the parse tier's advisories, the unparsed tail with
// the invented-closer advisory, and the turn-shape rewrites. A row is an input and the classes of
// the diagnostics it gives, in order (message_name, "!" for an error, "?" for a warning), then
// "| tail:<class>" when an unparsed tail is set.
#include <catch2/catch_test_macros.hpp>

#include <string>
#include <string_view>

#include "plurnk/parse.hpp"

using namespace plurnk;

namespace {

std::string classes(const parse_result& r) {
    std::string s;
    for (const item& it : r.items) {
        const auto* d = std::get_if<diagnostic>(&it);
        if (d == nullptr) continue;
        if (!s.empty()) s += ' ';
        s += d->severity == severity::error ? '!' : '?';
        s.append(message_name(d->id));
    }
    if (r.tail) {
        s += s.empty() ? "| tail:" : " | tail:";
        s.append(message_name(r.tail->reason_id));
    }
    return s;
}

struct row {
    tier t;
    std::string_view in;
    std::string_view want;
};

constexpr std::string_view k_plan = "<<PLAN:p:PLAN ";
constexpr std::string_view k_send = " <<SEND[200]:done:SEND";

std::string turn(std::string_view middle) { return std::string(k_plan) + std::string(middle) + std::string(k_send); }

}  // namespace

TEST_CASE("advisories of the parse tier", "[passes]") {
    const row rows[] = {
        // near-miss op names: only with the matching closer in the same text
        {tier::parse, "<<DELETE-x:DELETE", "?near_miss_op"},
        {tier::parse, "<<DELETE-x:REMOVE", ""},
        {tier::parse, "<<Hello-x:Hello", ""},  // not a near miss
        // a path in EDIT/COPY/MOVE's tag slot without a target
        {tier::parse, "<<EDIT[src/a.go]:x:EDIT", "?misplaced_target"},
        {tier::parse, "<<COPY[a.txt]:x:COPY", "?misplaced_target"},
        {tier::parse, "<<EDIT[src/a.go](b):x:EDIT", ""},
        {tier::parse, "<<FIND[src/a.go](b):x:FIND", ""},
        {tier::parse, "<<EDIT[notes]:x:EDIT", ""},
    };
    int n = 0;
    for (const row& r : rows) {
        const std::string in = turn(r.in);
        INFO("row " << n++ << ": " << in);
        CHECK(classes(parse(in, r.t)) == r.want);
    }
    CHECK(classes(parse("<<PLAN:p <<EXEC x:PLAN <<SEND[200]:x:SEND", tier::parse)) == "?plan_body_op_text");
    // op-shaped text in a suffixed PLAN body draws none
    CHECK(classes(parse("<<PLANx:p <<EXEC x:PLANx <<SEND[200]:x:SEND", tier::parse)).empty());
    // the statements tier has no advisories (its text between statements is an error)
    CHECK(classes(parse("<<GET-x:GET <<EDIT[src/a.go]:x:EDIT", tier::statements)) == "!unexpected_token");
}

TEST_CASE("the unparsed tail and the invented-closer advisory", "[passes]") {
    const row rows[] = {
        {tier::statements, "<<EDIT(a):x", "| tail:tail_body_unclosed"},
        {tier::statements, "<<EDIT(a):x :DONE", "| tail:tail_body_unclosed"},
        {tier::statements, "<<SEND[2", "| tail:tail_signal_unclosed"},
        // every signal mode is the signal's slot (tags, an integer above, an executor)
        {tier::statements, "<<READ[a", "| tail:tail_signal_unclosed"},
        {tier::statements, "<<EXEC[sh", "| tail:tail_signal_unclosed"},
        {tier::statements, "<<READ(a", "| tail:tail_target_unclosed"},
        {tier::statements, "<<READ", "| tail:tail_statement_unclosed"},
        {tier::statements, "<<EDIT(a):x:EDIT <<READ(b", "| tail:tail_target_unclosed"},
    };
    for (const row& r : rows) {
        INFO(r.in);
        CHECK(classes(parse(r.in, r.t)) == r.want);
    }
    const parse_result invented = parse("<<EDIT(a):x :DONE y", tier::statements);
    REQUIRE(invented.tail);
    CHECK(invented.tail->reason.ends_with("; found `:DONE`, which is body text - the closer echoes the op's name"));
    // one-letter names are not invented closers, nor names running on into lower case
    for (const std::string_view in : {"<<EDIT(a):x :X", "<<EDIT(a):x :DONEx"}) {
        const parse_result r = parse(in, tier::statements);
        REQUIRE(r.tail);
        CHECK(r.tail->reason.find("; found") == std::string::npos);
    }
    // items from the tail's opener on are dropped
    const parse_result cut = parse("<<EDIT(a):x:EDIT <<READ(b", tier::statements);
    CHECK(cut.items.size() == 1);
}

TEST_CASE("the turn shape of the parse tier", "[passes]") {
    const row rows[] = {
        {tier::parse, "<<SEND[200]:x:SEND", "!turn_missing_plan"},
        {tier::parse, "<<PLAN:p:PLAN", "!turn_missing_terminal_send"},
        // parser errors are replaced by the one imperative ...
        {tier::parse, "<<PLAN:p:PLAN <<WORK[]:x:WORK", "!turn_missing_terminal_send"},
        // ... unless a lexer or visitor error is present
        {tier::parse, "<<PLAN:p:PLAN <<FIND(a)#:x:FIND", "!unrecognized_character"},
        // a parser error after the terminal SEND is reworded
        {tier::parse, "<<PLAN:p:PLAN <<SEND[200]:x:SEND <<FIND(a):x:FIND", "!turn_ended_by_send"},
        {tier::parse, "<<PLAN:p:PLAN <<SEND[200]:x:SEND", ""},
        // the statements tier has no turn shape
        {tier::statements, "<<SEND[200]:x:SEND", ""},
    };
    for (const row& r : rows) {
        INFO(r.in);
        CHECK(classes(parse(r.in, r.t)) == r.want);
    }
}
