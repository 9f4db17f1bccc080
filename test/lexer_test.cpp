// SPDX-License-Identifier: MIT
// The lexer's modes (BEHAVIOUR §1), table-driven: input -> compact token dump and errors.
#include <catch2/catch_test_macros.hpp>

#include <string>

#include "lex/lexer.hpp"

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
