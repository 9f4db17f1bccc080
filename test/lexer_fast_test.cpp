// SPDX-License-Identifier: MIT
// The lexer's whole-statement fast path (lib/lexer_fast.cpp): which statements it takes (rows:
// input -> taken or not, counted by the work counter's fast_statements), and the differential
// check that it changes nothing (check_lexer_fast, P15 in fuzz/invariants.hpp): the lexer's
// output with the path on and off is the same, one-shot and streamed in chunks of 1, 3, 7, 64 and
// 5000 bytes, on hand-made rows, on every conformance vector, on every hostile shape and on the
// benchmark inputs.
#include <catch2/catch_test_macros.hpp>

#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>

#include "../fuzz/invariants.hpp"
#include "hostile_shapes.hpp"
#include "lex/lexer.hpp"
#include "base/fast_paths.hpp"
#include "vectors.hpp"
#include "base/work_counter.hpp"

using namespace plurnk::detail;

namespace {

// How many statements of `in` the fast path took, lexed one-shot.
std::uint64_t taken(std::string_view in) {
    const std::uint64_t before = work().fast_statements;
    (void)lex(in, 64);
    return work().fast_statements - before;
}

struct row {
    std::string_view in;
    std::uint64_t fast;  // statements the fast path takes
};

// The statements end in a newline unless the row says otherwise: the path does not look at
// the end of the input (a one-colon close or a close tag right at the end is left to the steps).
constexpr row k_rows[] = {
    // Taken: every slot, in any order, with blanks between them.
    {"<<READ(src/a.ts)<1,40>::READ\n", 1},
    {"<<FIND[http,retry](src/**/*.ts)<1,20>:/retry(Count|Delay)/i:FIND\n", 1},
    {"<<EXEC[sh](./)<60,5>:echo run && ls -la\n:EXEC\n", 1},
    {"<<SEND[102]:Patched the jitter bound.:SEND\n", 1},
    {"<<KILL[-3]::KILL\n", 1},
    {"<<SEND[200]:done:SEND\n", 1},
    {"<<EDIT (src/x.ts) <1.5-2, 3> :body\nwith : colons :EDITx inside:EDIT\n", 1},
    {"<<FIND[ a , b ](x)::FIND\n", 1},
    {"<<EXEC[ py3.11+x-y ]:x:EXEC\n", 1},
    {"<<READ_a1()::READ_a1<<READ(b)::READ\n", 2},
    {"<<PLAN:p:PLAN <<READ(x)::READ\t\n", 2},
    {"<<WORK[tag]:w:WORK\n", 1},
    {"<<READ(a)::READ  \n", 1},    // the fence and an empty body
    {"<<READ(a)::READx:READ\n", 1},  // a close tag right after the fence, then a word character: a body
    {"<<READ(a)::RE:READ\n", 1},     // the tag cut short right after the fence
    {"<<READ(a)::REA", 0},            // the tag cut by the end right after the fence
    {"<<READ(a):READ  \n", 1},     // the one-colon close, then blanks and a line end
    {"<<READ(a):READ<<READ(b):READ\r\n", 2},
    {"<<EDIT(a):b:EDIT", 0},       // the close tag at the end: the steps decide
    {"<<READ(a):READ", 0},         // the one-colon close at the end
    {"<<READ(a):READ <", 0},       // a '<' whose next byte has not arrived
    {"<<READ(a):READ <x:READ\n", 1},  // not a close: the fence, and a body up to `:READ`
    {"<<READ(a):REA", 0},          // the tag cut short by the end
    {"<<FIND[a<b,<c](x)::FIND\n", 1},  // a '<' in a tag, before a byte that is not a stop
    {"<<READ(a\\)b\\\\c\\d)::READ\n", 1},  // escapes, and a lone backslash, in a target
    {"<<READ(a(b(c))d)::READ\n", 1},  // nested parentheses
    {"<<READ(a<b)::READ\n", 1},        // a '<' pair that is text
    // A stream's close search (close_arrived) hands the body's search the close it found: here
    // it found one in the target, before the body, or one followed by a word character.
    {"<<READ(a:READ b)::READ\n", 1},
    {"<<READ(a:READ b):READ\n", 1},
    {"<<EDIT(a):x:EDITy:EDIT\n", 1},
    // Declined: what the steps lex with an error or a rule the path does not take.
    {"<<READ(a<(b)::READ\n", 0},       // a '<' before a parenthesis in a target (an error)
    {"<<READ(a\nb)::READ\n", 0},       // a line end in a target
    {"<<READ(a)<>::READ\n", 0},        // an empty scope
    {"<<READ(a)<1,>::READ\n", 0},      // a scope cut short
    {"<<READ(a)<1.>::READ\n", 0},
    {"<<FIND[a<](x)::FIND\n", 0},      // a '<' before a tag's stop (an error)
    {"<<FIND[a<<b](x)::FIND\n", 0},    // a '<' before another
    {"<<EXEC[-1]:x:EXEC\n", 0},        // an executor that is a number
    {"<<SEND[x]:y:SEND\n", 0},         // a word where an integer goes
    {"<<READ$(a)::READ\n", 0},         // a character no slot starts with
    {"<<TURN:<<PLAN:p:PLAN\n:TURN\n", 1},  // a TURN is the steps' (its PLAN is taken)
    {"<<EDIT(a):never closed\n", 0},   // no close tag
    {"text <<READ(a)::READ\n more", 1},
};

}  // namespace

TEST_CASE("lexer fast path: the statements it takes", "[lexer_fast]") {
    if constexpr (!k_work_counter) SKIP("needs the work counter (a build type other than release)");
    for (const row& r : k_rows) {
        INFO("input: " << r.in);
        CHECK(taken(r.in) == r.fast);
        CHECK(plurnk::fuzz::check_lexer_fast(r.in) == "");
    }
}

// check_lexer_fast compares the path with the steps alone only if the switch turns it off: with
// fast_paths::lexer off (for the lexers this thread constructs), no statement is taken.
TEST_CASE("lexer fast path: its switch turns it off", "[lexer_fast]") {
    if constexpr (!k_work_counter) return;
    const std::string_view in = "<<READ(src/a.ts)<1,40>::READ\n<<FIND[a](b)::FIND\n";
    CHECK(taken(in) == 2);
    {
        const fast_paths_scope off({.lexer = false});
        CHECK(taken(in) == 0);
    }
    CHECK(taken(in) == 2);
}

// A whole input lexed in token windows as parse() lexes it (a token budget of `window` more
// tokens at each stop, the tokens forgotten there): where each window stopped, and its tokens.
std::string windows(std::string_view in, std::size_t window, bool fast) {
    const fast_paths_scope s({.lexer = fast});
    stream_lexer lx(256, plurnk::parse_dialect::contracts);
    std::string out;
    for (std::size_t stops = 0; stops <= in.size() + 1; ++stops) {
        lx.set_token_budget(lx.output().tokens.size() + window);
        lx.advance(in, true);
        out += "stop at " + std::to_string(lx.position()) + ": " + plurnk::fuzz::lex_dump(lx.output(), SIZE_MAX) + "\n";
        if (lx.at_end()) break;
        lx.release_tokens();
    }
    return out;
}

// A whole input's clean statements one after another are lexed in one step (read_run); the
// run stops where the steps would stop for the token window (past a close tag, one token later),
// so the windows are the same with the path on and off, whatever their size.
TEST_CASE("lexer fast path: a run of statements stops where the token window does", "[lexer_fast]") {
    std::string in;
    for (int n = 0; n < 12; ++n) {
        in += "<<READ(src/a.ts)<1,40>::READ\n<<FIND[http,retry](x)<1,20>:/r/i:FIND\n  <<SEND[200]:done:SEND\n"
              "<<READ(a):READ<<READ(b):READ\r\ntext <<EDIT(a):x:EDITy:EDIT\n<<READ(a\nb)::READ\n"
              "<<TURN:<<PLAN:p:PLAN\n:TURN\n<<KILL[-3]::KILL";
    }
    for (std::size_t window = 1; window <= 40; ++window) {
        INFO("window " << window);
        CHECK(windows(in, window, true) == windows(in, window, false));
    }
}

// A stream with much input after an opener (statement_reader::k_defer_max bytes or more: a
// large chunk): the reader reads the statement without looking for its close first, and where
// the close has not arrived it declines at the input's end, and the steps take the statement.
TEST_CASE("lexer fast path: a stream's large chunk", "[lexer_fast]") {
    const std::string pad(5000, 'x');
    const auto taken_streamed = [](std::string_view in) {
        const std::uint64_t before = work().fast_statements;
        stream_lexer lx(256, plurnk::parse_dialect::contracts);
        lx.advance(in, false);
        return work().fast_statements - before;
    };
    const std::pair<std::string, std::uint64_t> rows[] = {
        {"<<READ(a)<1,2>::READ\n" + pad, 1},            // read whole, the close found by the read
        {"<<EDIT(a):b:EDIT\n<<SEND[1]:s:SEND\n" + pad, 2},
        {"<<EDIT(a):" + pad + ":EDIT\n" + pad, 1},     // a long body, closed
        {"<<EDIT(a):b" + pad, 0},                       // the close not here: declined at the end
        {"<<READ(a" + pad, 0},                          // a target cut by the end
        {"<<READ(a):READ" + pad, 0},                    // a fence, and no close
    };
    for (const auto& [in, fast] : rows) {
        INFO("input: " << in.substr(0, 24) << "... (" << in.size() << " bytes)");
        if constexpr (k_work_counter) CHECK(taken_streamed(in) == fast);
        CHECK(plurnk::fuzz::check_lexer_fast(in) == "");
    }
}

TEST_CASE("lexer fast path: the steps alone agree on every conformance vector", "[lexer_fast]") {
    const std::size_t vectors = plurnk::test::for_each_vector([](const plurnk::json_value& v, const std::string& input) {
        const std::string broken = plurnk::fuzz::check_lexer_fast(input);
        if (!broken.empty()) {
            INFO(v.find("id")->string << ": " << input);
            CHECK(broken == "");
        }
    });
    CHECK(vectors >= 12868);
}

TEST_CASE("lexer fast path: the steps alone agree on every service vector, in that dialect", "[lexer_fast]") {
    const std::size_t vectors = plurnk::test::for_each_vector(
        [](const plurnk::json_value& v, const std::string& input) {
            const std::string broken = plurnk::fuzz::check_lexer_fast(input, 256, plurnk::parse_dialect::service);
            if (!broken.empty()) {
                INFO(v.find("id")->string << ": " << input);
                CHECK(broken == "");
            }
        },
        {"/conformance/service.jsonl"});
    CHECK(vectors >= 474);
}

// The service dialect's regex unit (SERVICE.md S3): the whole-statement reader takes it, and a
// text that is no unit goes on as 1.4.0's target; a unit cut by the end of the input declines.
TEST_CASE("lexer fast path: the service dialect's regex targets", "[lexer_fast]") {
    if constexpr (!k_work_counter) SKIP("needs the work counter (a build type other than release)");
    const auto taken_service = [](std::string_view in) {
        const std::uint64_t before = work().fast_statements;
        (void)lex(in, 64, plurnk::parse_dialect::service);
        return work().fast_statements - before;
    };
    for (const row& r : std::initializer_list<row>{
             {"<<FIND(#src/.*\\.test\\.ts#)::FIND\n", 1},  // a unit with escapes
             {"<<FIND(#a)b#i)::FIND\n", 1},                  // a unit holding `)`
             {"<<READ(#stdout)::READ\n", 1},                 // no unit: 1.4.0's plain target
             {"<<READ(#a#b(c))::READ\n", 1},                 // no unit, then a nested target (scan::target)
             {"<<FIND(#a", 0},                                // cut by the end
         }) {
        INFO("input: " << r.in);
        CHECK(taken_service(r.in) == r.fast);
        CHECK(plurnk::fuzz::check_lexer_fast(r.in, 256, plurnk::parse_dialect::service) == "");
    }
}

TEST_CASE("lexer fast path: the steps alone agree on hostile shapes and the benchmark inputs", "[lexer_fast]") {
    for (const plurnk::shapes::shape& s : plurnk::shapes::all()) {
        for (const std::size_t size : {std::size_t{700}, std::size_t{2500}}) {
            const std::string in = plurnk::shapes::make(s, size);
            INFO(s.name << " at " << in.size() << " bytes");
            CHECK(plurnk::fuzz::check_lexer_fast(in, 256, s.dialect) == "");
        }
    }
    // The turn whole, and the first 64 KB of the statements (the streamed checks feed a byte at
    // a time); the fast path takes nearly every statement of both.
    for (const char* name : {"turn-2k.txt", "statements-1m.txt"}) {
        std::ifstream f(std::string(PLURNK_TEST_SOURCE_DIR) + "/../bench/data/" + name, std::ios::binary);
        REQUIRE(f);
        std::ostringstream text;
        text << f.rdbuf();
        const std::string in = text.str().substr(0, 64 * 1024);
        INFO(name);
        CHECK(plurnk::fuzz::check_lexer_fast(in) == "");
        if constexpr (k_work_counter) {
            std::size_t openers = 0;
            for (std::size_t i = in.find("\n<<"); i != std::string::npos; i = in.find("\n<<", i + 1)) ++openers;
            CHECK(taken(in) >= openers * 9 / 10);
        }
    }
}
