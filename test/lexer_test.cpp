// SPDX-License-Identifier: MIT
// The lexer's modes (BEHAVIOUR §1), table-driven: input -> compact token dump and errors.
#include <catch2/catch_test_macros.hpp>

#include <string>

#include "lex/lexer.hpp"
#include "lex/scan.hpp"

using namespace plurnk::detail;

namespace {

const char* kind_name(tok k) {
    switch (k) {
        case tok::opener: return "OPEN";
        case tok::text: return "TEXT";
        case tok::close_turn: return "CLOSE_TURN";
        case tok::lbrack: return "[";
        case tok::lparen: return "(";
        case tok::scope: return "SCOPE";
        case tok::colon: return "COLON";
        case tok::close_tag: return "CLOSE";
        case tok::tag: return "TAG";
        case tok::comma: return ",";
        case tok::rbrack: return "]";
        case tok::disposition: return "DISP";
        case tok::integer: return "INT";
        case tok::ident: return "IDENT";
        case tok::target_text: return "TGT";
        case tok::rparen: return ")";
        case tok::body_text: return "BODY";
        case tok::eof: return "EOF";
    }
    return "?";
}

// "KIND:text KIND:text ..." with punctuation tokens as themselves; errors as "!offset:message".
std::string dump(std::string_view in) {
    const lex_output o = lex(in, 256);
    std::string s;
    for (const token& t : o.tokens) {
        if (!s.empty()) s += ' ';
        s += kind_name(t.kind);
        const bool show = t.kind == tok::opener || t.kind == tok::text || t.kind == tok::scope ||
                          t.kind == tok::tag || t.kind == tok::disposition || t.kind == tok::integer ||
                          t.kind == tok::ident || t.kind == tok::target_text || t.kind == tok::body_text ||
                          t.kind == tok::close_tag || t.kind == tok::close_turn;
        if (show) {
            s += ':';
            s.append(in.substr(t.begin, t.end - t.begin));
        }
    }
    for (const lex_error& e : o.errors) s += " !" + std::to_string(e.begin) + ":" + e.message(in);
    return s;
}

struct row {
    const char* in;
    const char* out;
};

void check_rows(std::initializer_list<row> rows) {
    for (const row& r : rows) {
        CAPTURE(r.in);
        CHECK(dump(r.in) == r.out);
    }
}

}  // namespace

TEST_CASE("DEFAULT mode: openers, text, enclosures", "[lexer]") {
    check_rows({
        {"", "EOF"},
        {"thinking about it", "TEXT:thinking TEXT:about TEXT:it EOF"},
        {"foo<<READ(x)::READ", "TEXT:foo OPEN:<<READ ( TGT:x ) COLON CLOSE::READ EOF"},
        {"<<FINDING::FINDING", "OPEN:<<FINDING COLON CLOSE::FINDING EOF"},
        {"<<CLOSE(log://x)::CLOSE", "TEXT:<<CLOSE(log://x)::CLOSE EOF"},
        {"<<<READ", "TEXT:<<<READ EOF"},
        {"a < b", "TEXT:a TEXT:< b EOF"},
        {"x <", "TEXT:x EOF !2:unrecognized character '<' between statements"},
        {"<think>a <<READ(x)::READ b</think> c",
         "TEXT:<think>a <<READ(x)::READ b</think> TEXT:c EOF"},
        {"<|channel>thought\nplan<channel|>", "TEXT:<|channel>thought\nplan<channel|> EOF"},
        {"<think>never closed", "TEXT:<think>never TEXT:closed EOF"},
        {"<<PLAN:x:PLAN\r\n<<SEND[200]::SEND",
         "OPEN:<<PLAN COLON BODY:x CLOSE::PLAN OPEN:<<SEND [ DISP:200 ] COLON CLOSE::SEND EOF"},
    });
}

TEST_CASE("TURN bodies lex as statements and close suffix-exactly", "[lexer]") {
    check_rows({
        {"<<TURN:<<PLAN:p:PLAN:TURN", "OPEN:<<TURN COLON OPEN:<<PLAN COLON BODY:p CLOSE::PLAN CLOSE_TURN::TURN EOF"},
        {"<<TURN1: :TURN :TURN1", "OPEN:<<TURN1 COLON TEXT::TURN CLOSE_TURN::TURN1 EOF"},
        {"<<TURN: :TURNx", "OPEN:<<TURN COLON TEXT::TURNx EOF"},
        {":TURN", "TEXT::TURN EOF"},
    });
}

TEST_CASE("SLOTS mode: scopes, one-colon close, errors and redirects", "[lexer]") {
    check_rows({
        {"<<READ(a)<1,2><3-5>", "OPEN:<<READ ( TGT:a ) SCOPE:<1,2> SCOPE:<3-5> EOF"},
        {"<<READ<0--5><-3--1><1, -1><0.7,11,20>",
         "OPEN:<<READ SCOPE:<0--5> SCOPE:<-3--1> SCOPE:<1, -1> SCOPE:<0.7,11,20> EOF"},
        {"<<READ<1,>", "OPEN:<<READ EOF !6:unrecognized character '<1,>' in slot region - expected `[signal]`, "
                       "`(target)`, `<L>`, or `:body:` (any order)"},
        // the failed span runs through the failing character; lexing resumes after it
        {"<<READ<1,  2>::READ",
         "OPEN:<<READ COLON CLOSE::READ EOF !6:unrecognized character '<1,  ' in slot region - expected "
         "`[signal]`, `(target)`, `<L>`, or `:body:` (any order) !11:unrecognized character '2' in slot region - "
         "expected `[signal]`, `(target)`, `<L>`, or `:body:` (any order) !12:unrecognized character '>' in slot "
         "region - expected `[signal]`, `(target)`, `<L>`, or `:body:` (any order)"},
        {"<<READ(t):READ\n", "OPEN:<<READ ( TGT:t ) CLOSE::READ EOF"},
        {"<<READ(t):READ", "OPEN:<<READ ( TGT:t ) CLOSE::READ EOF"},
        {"<<READ(a):READ <<READ(b)::READ",
         "OPEN:<<READ ( TGT:a ) CLOSE::READ OPEN:<<READ ( TGT:b ) COLON CLOSE::READ EOF"},
        {"<<EDIT(t):EDIT this line:EDIT", "OPEN:<<EDIT ( TGT:t ) COLON BODY:EDIT this line CLOSE::EDIT EOF"},
        {"<<FIND(a)$.x:FIND",
         "OPEN:<<FIND ( TGT:a ) CLOSE::FIND EOF !9:unrecognized character '$' in slot region - a matcher "
         "rides the `:body:` slot; put it between the body fences !10:unrecognized character '.' in slot region - "
         "expected `[signal]`, `(target)`, `<L>`, or `:body:` (any order) !11:unrecognized character 'x' in slot "
         "region - expected `[signal]`, `(target)`, `<L>`, or `:body:` (any order)"},
    });
}

TEST_CASE("signal modes: tags, integers, executors", "[lexer]") {
    check_rows({
        {"<<FIND[a, b,,c a<b]", "OPEN:<<FIND [ TAG:a , TAG:b , , TAG:c TAG:a<b ] EOF"},
        {"<<FIND[a<]", "OPEN:<<FIND [ TAG:a EOF !8:unrecognized character '<]' in tag signal - expected tag, `,`, or `]`"},
        {"<<SEND[200][2000][-200][0102]",
         "OPEN:<<SEND [ DISP:200 ] [ INT:2000 ] [ INT:-200 ] [ INT:0102 ] EOF"},
        {"<<KILL[x]", "OPEN:<<KILL [ ] EOF !7:unrecognized character 'x' in signal - expected integer for SEND/KILL, then `]`"},
        {"<<EXEC[node.js+2-b]", "OPEN:<<EXEC [ IDENT:node.js+2-b ] EOF"},
        {"<<EXEC[-1]",
         "OPEN:<<EXEC [ ] EOF !7:unrecognized character '-' in signal - timeout/poll ride the `<scope>` slot; try "
         "`EXEC<-1,300>` !8:unrecognized character '1' in signal - timeout/poll ride the `<scope>` slot; try "
         "`EXEC<-1,300>`"},
    });
}

TEST_CASE("TARGET mode: escapes, balanced parentheses, forbidden characters", "[lexer]") {
    check_rows({
        {"<<READ(f\\(1\\).txt)", "OPEN:<<READ ( TGT:f\\(1\\).txt ) EOF"},
        {"<<READ(https://en.wikipedia.org/wiki/Igor_(politician))",
         "OPEN:<<READ ( TGT:https://en.wikipedia.org/wiki/Igor_(politician) ) EOF"},
        {"<<READ(a\\*b)", "OPEN:<<READ ( TGT:a\\*b ) EOF"},
        {"<<READ(a<b)", "OPEN:<<READ ( TGT:a<b ) EOF"},
        {"<<READ(a<<b)", "OPEN:<<READ ( TGT:a TGT:b ) EOF !8:unrecognized character '<<' in target slot - "
                         "expected URI characters or `)`"},
        {"<<READ(https://x/a(b)", "OPEN:<<READ ( TGT:https://x/a(b) EOF"},
    });
}

TEST_CASE("BODY mode: suffix-exact close tags, opaque text", "[lexer]") {
    check_rows({
        {"<<EDIT(p):x:EDITouter:EDIT", "OPEN:<<EDIT ( TGT:p ) COLON BODY:x:EDITouter CLOSE::EDIT EOF"},
        {"<<EDITouter(p):x:EDIT:EDITouter", "OPEN:<<EDITouter ( TGT:p ) COLON BODY:x:EDIT CLOSE::EDITouter EOF"},
        {"<<EDIT(p):x:EDIT.", "OPEN:<<EDIT ( TGT:p ) COLON BODY:x CLOSE::EDIT TEXT:. EOF"},
        {"<<SEND1[400]:a <<SEND[400]:b:SEND c:SEND1",
         "OPEN:<<SEND1 [ INT:400 ] COLON BODY:a <<SEND[400]:b:SEND c CLOSE::SEND1 EOF"},
        {"<<EDIT(p):never closed", "OPEN:<<EDIT ( TGT:p ) COLON BODY:never closed EOF"},
    });
}

TEST_CASE("the lexer ends in the mode a truncated statement leaves it in", "[lexer]") {
    CHECK(lex("<<EDIT(p):body", 256).tail.final_mode == mode::body);
    CHECK(lex("<<READ(p", 256).tail.final_mode == mode::target);
    CHECK(lex("<<READ[a", 256).tail.final_mode == mode::signal_tags);
    CHECK(lex("<<SEND[2", 256).tail.final_mode == mode::signal_int);
    CHECK(lex("<<READ", 256).tail.final_mode == mode::slots);
    CHECK(lex("<<READ::READ", 256).tail.final_mode == mode::normal);
}

TEST_CASE("TURN nesting past max_turn_depth is a diagnostic, not a deeper stack", "[lexer][limits]") {
    const lex_output o = lex("<<TURN:<<TURN1: :TURN1 :TURN", 1);
    REQUIRE(o.errors.size() == 1);
    CHECK(o.errors[0].begin == 7);
    CHECK(o.errors[0].message("<<TURN:<<TURN1: :TURN1 :TURN") ==
          "`<<TURN` nested deeper than 1 levels (the max_turn_depth limit); its close tag will not be recognized");
    // The inner closer is text; the outer one still closes the outer TURN.
    std::string kinds;
    for (const token& t : o.tokens) kinds += std::string(kind_name(t.kind)) + " ";
    CHECK(kinds == "OPEN COLON OPEN COLON TEXT CLOSE_TURN EOF ");
}

TEST_CASE("the max_turn_depth diagnostic is given once per input", "[lexer][limits]") {
    const std::string in = "<<TURN:<<TURN:<<TURN:<<TURN: :TURN";
    const lex_output o = lex(in, 1);
    REQUIRE(o.errors.size() == 1);
    CHECK(o.errors[0].begin == 7);
    // The same input streamed one byte at a time reports it once too.
    stream_lexer s(1);
    for (std::size_t n = 1; n <= in.size(); ++n) s.advance(std::string_view(in).substr(0, n), false);
    s.advance(in, true);
    REQUIRE(s.output().errors.size() == 1);
    CHECK(s.output().errors[0].begin == 7);
}

// The scanners the mode steps and the whole-statement reader share (lex/scan.hpp): where each
// rule's token ends, and whether the input ended first (more) or a byte broke the rule (bad).
namespace {

struct scan_row {
    const char* rule;
    std::string_view in;
    std::size_t from;  // where the scan starts
    std::size_t end;
    scan::verdict v;
};

scan::run run_rule(const scan_row& r) {
    const std::string_view rule = r.rule;
    if (rule == "tag") return scan::tag(r.in, r.from);
    if (rule == "integer") return scan::integer(r.in, r.from);
    if (rule == "executor") return scan::executor(r.in, r.from);
    if (rule == "target") return scan::target(r.in, r.from, 0, false);
    if (rule == "target final") return scan::target(r.in, r.from, 0, true);
    if (rule == "regex unit") return scan::regex_unit(r.in, r.from);
    return {};
}

constexpr auto done = scan::verdict::done;
constexpr auto more = scan::verdict::more;
constexpr auto bad = scan::verdict::bad;

constexpr scan_row k_scan_rows[] = {
    {"tag", "a,b", 0, 1, done},
    {"tag", "ab]", 0, 2, done},
    {"tag", "ab c", 0, 2, done},
    {"tag", "a<b]", 0, 3, done},   // '<' before a byte that is not a stop: part of the tag
    {"tag", "a<]", 0, 1, done},    // '<' before a stop ends the tag
    {"tag", "a<<b", 0, 1, done},   // '<' before '<' too
    {"tag", "a<", 0, 1, more},     // '<' as the last byte: the next byte decides
    {"tag", "abc", 0, 3, more},
    {"tag", "abc", 2, 3, more},    // resumed inside the tag
    {"integer", "12]", 0, 2, done},
    {"integer", "-12]", 0, 3, done},
    {"integer", "-]", 0, 1, bad},  // a digit must follow the sign
    {"integer", "-", 0, 1, bad},   // (the end of the input, too: the step's fail() asks has())
    {"integer", "x", 0, 0, bad},
    {"integer", "123", 0, 3, more},
    {"executor", "py3.11+x-y]", 0, 10, done},
    {"executor", "_a ", 0, 2, done},
    {"executor", "1a]", 0, 0, bad},
    {"executor", "sh", 0, 2, more},
    {"target", "a/b)", 0, 3, done},
    {"target", "a(b)c)", 0, 5, done},       // nested parentheses
    {"target", "a\\)b)", 0, 4, done},      // an escaped ')'
    {"target", "a<b)", 0, 3, done},         // a '<' pair that is text
    {"target", "a<(b)", 0, 1, done},        // a '<' before a parenthesis ends the text
    {"target", "a\nb)", 0, 1, done},        // a line end ends it
    {"target", "ab", 0, 2, more},
    {"target", "a\\", 0, 1, more},          // an escape whose next byte has not arrived
    {"target", "a<", 0, 1, more},
    {"target final", "ab", 0, 2, done},
    {"target final", "a\\", 0, 2, done},    // finished: a lone backslash is text
    {"target final", "a<", 0, 1, done},      // finished: a '<' at the end ends the text
    // The service dialect's regex unit (S3), from past the `#` after a target's `(`: `done` at
    // its `)`, `bad` where it is decided to be no unit.
    {"regex unit", "#a#i)", 1, 4, done},
    {"regex unit", "#a\\#b#)", 1, 6, done},   // an escaped `#` stays in the pattern
    {"regex unit", "##)", 1, 2, done},          // an empty pattern, no flags
    {"regex unit", "#a#1)", 1, 3, bad},         // a flag is a letter
    {"regex unit", "#a#i/x)", 1, 4, bad},
    {"regex unit", "#a\nb#)", 1, 2, bad},      // a line end in the pattern
    {"regex unit", "#a", 1, 2, more},
    {"regex unit", "#a\\", 1, 2, more},       // an escape whose next byte has not arrived
    {"regex unit", "#a#i", 1, 4, more},         // the flags may go on
};

}  // namespace

TEST_CASE("scanners: where each rule's token ends", "[lexer][scan]") {
    for (const scan_row& r : k_scan_rows) {
        INFO(r.rule << " on \"" << r.in << "\" from " << r.from);
        const scan::run got = run_rule(r);
        CHECK(got.end == r.end);
        CHECK(got.v == r.v);
    }
    // The target's depth at a resume point, and after a close.
    CHECK(scan::target("a(b", 0, 0, false).depth == 1);
    CHECK(scan::target("b))", 0, 1, false).end == 2);
    // The regex unit's phase at a resume point, and a scan resumed in it.
    CHECK(scan::regex_unit("#a", 1).depth == 0);
    CHECK(scan::regex_unit("#a#i", 1).depth == 1);
    CHECK(scan::regex_unit("#a#i)", 4, 1).v == done);
    CHECK(scan::regex_unit("#a#i)", 4, 1).end == 4);
}

TEST_CASE("scanners: the close tags and the open-tag compare", "[lexer][scan]") {
    CHECK(scan::one_colon_close("\nx", 0, false) == done);
    CHECK(scan::one_colon_close("\r", 0, false) == done);
    CHECK(scan::one_colon_close("<<READ", 0, false) == done);
    CHECK(scan::one_colon_close("<x", 0, false) == bad);   // the fence: a body follows
    CHECK(scan::one_colon_close("x", 0, false) == bad);
    CHECK(scan::one_colon_close("", 0, false) == more);
    CHECK(scan::one_colon_close("", 0, true) == done);     // the end of a finished input closes
    CHECK(scan::one_colon_close("<", 0, false) == more);
    CHECK(scan::one_colon_close("<", 0, true) == bad);
    CHECK(scan::body_close(":READ\n", 5, false) == done);
    CHECK(scan::body_close(":READx", 5, false) == bad);    // a word character follows the tag
    CHECK(scan::body_close(":READ", 5, false) == more);
    CHECK(scan::body_close(":READ", 5, true) == done);
    CHECK(scan::literal(":READ_x", 1, "READ_x") == 6);
    CHECK(scan::literal(":READ_y", 1, "READ_x") == 5);
    CHECK(scan::literal(":REA", 1, "READ_x") == 3);        // the input ends inside the tag
    CHECK(scan::literal(":READ_x", 1, "READ_x", 4) == 6);  // resumed after 4 matched bytes
}
