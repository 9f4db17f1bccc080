// SPDX-License-Identifier: MIT
// The statement parser's three layers on their own (lib/token_cursor.hpp, lib/error_strategy.hpp,
// lib/send_prediction.hpp, lib/statement_parser.cpp), table-driven. A parse row is a tier, an
// input and the syntax tree as text: each unit as `{text | flags slots}` (the source text its
// tokens cover, `clean` / `terminal`, and the text of each slot the parser handed over), then
// each syntax error as `!offset message`.
#include <catch2/catch_test_macros.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "syntax/error_strategy.hpp"
#include "lex/lexer.hpp"
#include "syntax/send_prediction.hpp"
#include "syntax/statement_parser.hpp"

using namespace plurnk::detail;
using plurnk::tier;

namespace {

std::string span_text(std::string_view in, const token_vector& toks, std::uint32_t first, std::uint32_t end) {
    if (first >= end) return "";
    const std::uint32_t b = toks[first].begin;
    const std::uint32_t e = toks[end - 1].end;
    return std::string(in.substr(b, e - b));
}

std::string dump(std::string_view in, const token_vector& toks, const syntax_tree& tree) {
    std::string s;
    for (const unit& u : tree.units) {
        if (!s.empty()) s += ' ';
        s += '{';
        s += span_text(in, toks, u.first, u.last + 1);
        s += " |";
        if (u.clean) s += " clean";
        if (u.terminal_send) s += " terminal";
        if (u.signal != 0) s += " sig=" + span_text(in, toks, u.signal, u.signal_end);
        if (u.target != 0) s += " tgt=" + span_text(in, toks, u.target, u.target_end);
        if (u.scope != 0) s += " scope=" + span_text(in, toks, u.scope, u.scope + 1);
        if (u.body != 0) s += " body=" + span_text(in, toks, u.body, u.body_end);
        s += '}';
    }
    for (const syntax_error& e : tree.errors) {
        if (!s.empty()) s += ' ';
        s += '!' + std::to_string(e.offset) + ' ' + e.message(in);
    }
    return s;
}

std::string parse_dump(tier t, std::string_view in) {
    const lex_output lexed = lex(in, 64);
    return dump(in, lexed.tokens, parse_syntax(lexed, t));
}

struct row {
    tier t;
    std::string_view in;
    std::string_view want;
};

void check_rows(const row* begin, const row* end) {
    for (const row* r = begin; r != end; ++r) {
        INFO("input: " << r->in);
        CHECK(parse_dump(r->t, r->in) == r->want);
    }
}

}  // namespace

TEST_CASE("statements: op statement, slots and body", "[statement_parser]") {
    const row rows[] = {
        // op statement : OPEN slots? COLON? BODY* CLOSE
        {tier::statements, "<<READ(a):READ", "{<<READ(a):READ | clean tgt=(a)}"},
        {tier::statements, "<<FIND[x,y](src/)<1,2>:/re/:FIND",
         "{<<FIND[x,y](src/)<1,2>:/re/:FIND | clean sig=[x,y] tgt=(src/) scope=<1,2> body=/re/}"},
        // slots in any order, each at most once
        {tier::statements, "<<FIND<3>(a)[t]:b:FIND", "{<<FIND<3>(a)[t]:b:FIND | clean sig=[t] tgt=(a) scope=<3> body=b}"},
        // the signal shapes: integer, ident, branch tag
        {tier::statements, "<<KILL[12]:KILL", "{<<KILL[12]:KILL | clean sig=[12]}"},
        {tier::statements, "<<EXEC[sh]:ls:EXEC", "{<<EXEC[sh]:ls:EXEC | clean sig=[sh] body=ls}"},
        // two statements, text between them is not the statements tier's
        {tier::statements, "<<READ(a):READ<<READ(b):READ", "{<<READ(a):READ | clean tgt=(a)} {<<READ(b):READ | clean tgt=(b)}"},
        // WORK needs a body
        {tier::statements, "<<WORK::WORK", "{<<WORK::WORK |} !7 expected body content; got close tag `:OPsuffix`"},
        {tier::statements, "<<WORK:go:WORK", "{<<WORK:go:WORK | clean body=go}"},
    };
    check_rows(std::begin(rows), std::end(rows));
}

TEST_CASE("turns: plan, mid statements, the terminal SEND", "[statement_parser]") {
    const row rows[] = {
        // turn_content : TEXT* plan (mid_statement | TEXT)* terminal_send TEXT*
        {tier::parse, "<<PLAN:p:PLAN <<SEND[200]:done:SEND",
         "{<<PLAN:p:PLAN | clean body=p} {<<SEND[200]:done:SEND | clean terminal sig=[200] body=done}"},
        // a mid SEND (integer signal) then the terminal one
        {tier::parse, "<<PLAN:p:PLAN <<SEND[3]:hi:SEND <<SEND[200]:x:SEND",
         "{<<PLAN:p:PLAN | clean body=p} {<<SEND[3]:hi:SEND | clean sig=[3] body=hi} "
         "{<<SEND[200]:x:SEND | clean terminal sig=[200] body=x}"},
        // the terminal SEND admits a scope after its disposition
        {tier::parse, "<<PLAN:p:PLAN <<SEND[102]<1>:x:SEND",
         "{<<PLAN:p:PLAN | clean body=p} {<<SEND[102]<1>:x:SEND | clean terminal sig=[102] scope=<1> body=x}"},
        // text around the statements, a mid statement with the one-colon close
        {tier::parse, "lead <<PLAN:p:PLAN <<READ(a)::READ mid <<SEND[200]:d:SEND trail",
         "{<<PLAN:p:PLAN | clean body=p} {<<READ(a)::READ | clean tgt=(a)} {<<SEND[200]:d:SEND | clean terminal "
         "sig=[200] body=d}"},
        // a scope before any disposition: neither SEND alternative, no viable alternative
        {tier::parse, "<<PLAN:p:PLAN <<SEND<1>:x:SEND <<SEND[200]:d:SEND",
         "{<<PLAN:p:PLAN | clean body=p} !20 unexpected `<L>` line marker; expected text between statements or open "
         "tag `<<OPsuffix`"},
        // no plan first: the turn fails at the opener
        {tier::parse, "<<READ(a):READ", "!0 unexpected open tag `<<OPsuffix`; expected text between statements or open tag `<<OPsuffix`"},
        // no terminal SEND: end of input where the loop needs another statement or the SEND
        {tier::parse, "<<PLAN:p:PLAN",
         "{<<PLAN:p:PLAN | clean body=p} !13 unexpected end of input; expected text between statements or open tag `<<OPsuffix`"},
    };
    check_rows(std::begin(rows), std::end(rows));
}

TEST_CASE("log: turns inside TURN", "[statement_parser]") {
    const row rows[] = {
        // log : turn+ EOF ; turn : TURN_OPEN slots? COLON turn_content CLOSE_TURN
        {tier::log, "<<TURN:<<PLAN:p:PLAN <<SEND[200]:d:SEND:TURN",
         "{<<PLAN:p:PLAN | clean body=p} {<<SEND[200]:d:SEND | clean terminal sig=[200] body=d}"},
        {tier::log, "text", "!0 unexpected text between statements; expected open tag `<<TURNsuffix`"},
        // a turn without its terminal SEND
        {tier::log, "<<TURN:<<PLAN:p:PLAN:TURN",
         "{<<PLAN:p:PLAN | clean body=p} !20 unexpected close tag `:TURNsuffix`; expected text between statements or "
         "open tag `<<OPsuffix`"},
    };
    check_rows(std::begin(rows), std::end(rows));
}

TEST_CASE("recovery: deletion, insertion, resynchronisation", "[statement_parser]") {
    const row rows[] = {
        // single-token deletion: one stray token before what fits is reported and skipped; the
        // statement goes on (its body is matched) but is not clean
        {tier::statements, "<<FIND<1><2>:x:FIND",
         "{<<FIND<1><2>:x:FIND | scope=<1> body=x} !9 unexpected `<L>` line marker; expected `:` (body fence) or "
         "body content or close tag `:OPsuffix`"},
        {tier::statements, "<<FIND[a]<1>(b)<2>:x:FIND",
         "{<<FIND[a]<1>(b)<2>:x:FIND | sig=[a] tgt=(b) scope=<1> body=x} !15 unexpected `<L>` line marker; "
         "expected `:` (body fence) or body content or close tag `:OPsuffix`"},
        // two stray tokens: no deletion, the rule fails (the Oxford list is ANTLR's mismatch text)
        {tier::statements, "<<FIND<1><2><3>:x:FIND",
         "{<<FIND<1><2><3>:x:FIND | scope=<1>} !9 unexpected `<L>` line marker; expected `:` (body fence), body "
         "content, or close tag `:OPsuffix`"},
        // single-token insertion: WORK's branch tag is missing but `]` fits after it
        {tier::statements, "<<WORK[](x):42:WORK",
         "{<<WORK[](x):42:WORK | sig=[] tgt=(x) body=42} !7 expected tag; got `]` (signal slot closer)"},
        // a failed statement skips to what may follow it; the next statement parses clean
        {tier::statements, "<<READ(a)(b):READ<<READ(c)::READ",
         "{<<READ(a)(b):READ | tgt=(a)} {<<READ(c)::READ | clean tgt=(c)} !9 unexpected `(` (target slot opener); "
         "expected `:` (body fence), body content, or close tag `:OPsuffix`"},
        // one report per error run: the third target is skipped without a second error
        {tier::statements, "<<READ(a)(b)(c)::READ",
         "{<<READ(a)(b)(c)::READ | tgt=(a)} !9 unexpected `(` (target slot opener); expected `:` (body fence), "
         "body content, or close tag `:OPsuffix`"},
        // end of input inside a slot
        {tier::statements, "<<READ(a",
         "{<<READ(a | tgt=(a} !8 unexpected end of input; expected target content or `)` (target slot closer)"},
        // text between statements is not the statements tier's (the blanks after a one-colon close
        // belong to the close): reported after the statements
        {tier::statements, "<<READ(a)::READ junk <<READ(b)::READ",
         "{<<READ(a)::READ | clean tgt=(a)} {<<READ(b)::READ | clean tgt=(b)} !16 unexpected text between statements; "
         "expected open tag `<<OPsuffix`"},
    };
    check_rows(std::begin(rows), std::end(rows));
}

namespace {

// The strategy over a hand-made token list: each character one token (see kind_of).
class strategy_probe : public error_strategy {
public:
    explicit strategy_probe(std::string_view kinds, bool finished = true) {
        for (std::size_t i = 0; i < kinds.size(); ++i) {
            token t;
            t.kind = kind_of(kinds[i]);
            t.begin = static_cast<std::uint32_t>(i);
            t.end = t.begin + 1;
            toks_.push_back(t);
        }
        if (finished) {
            token eof;
            eof.begin = eof.end = static_cast<std::uint32_t>(kinds.size());
            toks_.push_back(eof);
        }
        attach(toks_, finished);
    }
    static tok kind_of(char c) {
        switch (c) {
            case '[': return tok::lbrack;
            case ']': return tok::rbrack;
            case '(': return tok::lparen;
            case ')': return tok::rparen;
            case ':': return tok::colon;
            case 'c': return tok::close_tag;
            case 't': return tok::tag;
            case 'b': return tok::body_text;
            default: return tok::text;
        }
    }
    [[nodiscard]] std::size_t errors() const { return tree().errors.size(); }
    [[nodiscard]] syntax_error::shape last_shape() const { return tree().errors.back().kind; }
    using error_strategy::follow_;

private:
    token_vector toks_;
};

}  // namespace

TEST_CASE("error strategy: match", "[statement_parser][error_strategy]") {
    SECTION("the expected token is consumed") {
        strategy_probe s("]");
        CHECK(s.match(recovery_point::signal_close, sym(tok::rbrack), bit(k_eps)));
        CHECK(s.index() == 1);
        CHECK(s.errors() == 0);
    }
    SECTION("single-token deletion: one stray token, then the expected one") {
        strategy_probe s("t]");
        CHECK(s.match(recovery_point::signal_close, sym(tok::rbrack), bit(k_eps)));
        CHECK(s.index() == 2);
        REQUIRE(s.errors() == 1);
        CHECK(s.last_shape() == syntax_error::shape::unexpected);
        CHECK(!s.recovering());  // the deletion ends the error condition
    }
    SECTION("single-token insertion: the token after fits, nothing is consumed") {
        strategy_probe s("c");
        CHECK(s.match(recovery_point::target_close, sym(tok::rparen), bit(tok::close_tag)));
        CHECK(s.index() == 0);
        REQUIRE(s.errors() == 1);
        CHECK(s.last_shape() == syntax_error::shape::missing);
        CHECK(s.recovering());
    }
    SECTION("neither: the rule fails, reports once and skips to the follow sets") {
        strategy_probe s("ttt(b");
        error_strategy::rule_scope outer(s, bit(tok::lparen));
        CHECK(!s.match(recovery_point::signal_close, sym(tok::rbrack), bit(k_eps)));
        CHECK(s.errors() == 0);  // failing reports nothing yet
        s.report_and_recover();
        CHECK(s.errors() == 1);
        CHECK(s.last_shape() == syntax_error::shape::unexpected_oxford);
        CHECK(s.index() == 3);  // at `(`, the first token of the recovery set
        // recovering: a second failure is not reported
        CHECK(!s.match(recovery_point::target_close, sym(tok::rparen), bit(tok::tag)));
        s.report_and_recover();
        CHECK(s.errors() == 1);
        CHECK(s.index() == 3);
    }
}

TEST_CASE("error strategy: recovery always moves", "[statement_parser][error_strategy]") {
    // The same failure at the same token and recovery point consumes one token first.
    strategy_probe s("tt");
    CHECK(!s.match_set(recovery_point::signal_item, bit(tok::rbrack)));
    s.report_and_note();
    CHECK(s.index() == 0);
    CHECK(!s.match_set(recovery_point::signal_item, bit(tok::rbrack)));
    s.report_and_note();
    CHECK(s.index() == 1);
    // at another point the first failure there does not consume
    CHECK(!s.match_set(recovery_point::op_close, bit(tok::rbrack)));
    s.report_and_note();
    CHECK(s.index() == 1);
}

TEST_CASE("error strategy: sync", "[statement_parser][error_strategy]") {
    SECTION("a token that fits, or a rule that may end, is no error") {
        strategy_probe s("t");
        CHECK(s.sync(recovery_point::signal_item, bit(tok::tag), sync_kind::loop_entry));
        CHECK(s.sync(recovery_point::signal_item, bit(tok::rbrack) | bit(k_eps), sync_kind::loop_entry));
        CHECK(s.errors() == 0);
    }
    SECTION("loop back: the stray tokens are reported once and skipped") {
        strategy_probe s("bbt]");
        CHECK(s.sync(recovery_point::signal_item_back, bit(tok::tag) | bit(tok::rbrack), sync_kind::loop_back));
        CHECK(s.index() == 2);
        CHECK(s.errors() == 1);
    }
    SECTION("block start: single-token deletion, else failure") {
        strategy_probe s("bt");
        CHECK(s.sync(recovery_point::op_slots, bit(tok::tag), sync_kind::block_start));
        CHECK(s.index() == 1);
        strategy_probe f("bb");
        CHECK(!f.sync(recovery_point::op_slots, bit(tok::tag), sync_kind::block_start));
        CHECK(f.index() == 0);
    }
    SECTION("expected() adds the follow sets where the rule may end") {
        strategy_probe s("");
        error_strategy::rule_scope outer(s, bit(tok::close_tag));
        CHECK(s.expected(bit(tok::tag)) == bit(tok::tag));
        CHECK(s.expected(bit(tok::tag) | bit(k_eps)) == (bit(tok::tag) | bit(tok::close_tag)));
        CHECK(s.recovery_set() == bit(tok::close_tag));
    }
}

TEST_CASE("cursor: past the tokens of an unfinished stream it is starved", "[statement_parser][token_cursor]") {
    strategy_probe s("t", false);
    CHECK(s.la() == sym(tok::tag));
    CHECK(!s.take_starved());
    CHECK(s.la(2) == sym(tok::eof));
    CHECK(s.take_starved());
    CHECK(!s.take_starved());  // taking clears it
    s.consume();
    s.consume();  // past the end: stays put
    CHECK(s.index() == 1);
}

namespace {

send_alt predict(std::string_view in, std::size_t& died) {
    static lex_output lexed;  // the cursor reads it by reference
    lexed = lex(in, 64);
    token_cursor cursor;
    cursor.attach(lexed.tokens, true);
    return predict_send(cursor, died);
}

}  // namespace

TEST_CASE("SEND prediction: mid or terminal", "[statement_parser][send_prediction]") {
    std::size_t died = 0;
    CHECK(predict("<<SEND[200]:x:SEND", died) == send_alt::terminal);
    CHECK(predict("<<SEND[3]:x:SEND", died) == send_alt::mid);
    CHECK(predict("<<SEND(a)[200]:x:SEND", died) == send_alt::terminal);
    CHECK(predict("<<SEND(a):x:SEND", died) == send_alt::mid);  // no disposition: not terminal
    CHECK(predict("<<SEND[]:x:SEND", died) == send_alt::mid);   // an empty integer signal
    // a scope is the terminal SEND's, and only after its disposition
    CHECK(predict("<<SEND[200]<1>:x:SEND", died) == send_alt::terminal);
    CHECK(predict("<<SEND<1>:x:SEND", died) == send_alt::none);
    CHECK(died == 1);
}

TEST_CASE("streamed token by token, the tree is the one-shot tree", "[statement_parser][stream]") {
    const row inputs[] = {
        {tier::parse, "<<PLAN:p:PLAN text <<SEND[3]:a:SEND <<FIND(x):y:FIND <<SEND[200]:d:SEND tail", ""},
        {tier::parse, "<<PLAN:p:PLAN <<SEND<1>:x:SEND <<SEND[200]:d:SEND", ""},
        {tier::statements, "<<KILL[x][y]:KILL<<READ(a)]:READ<<READ(a:x:READ<<WORK::WORK", ""},
        {tier::log, "<<TURN:<<PLAN:p:PLAN <<SEND[200]:d:SEND:TURN<<TURN:x:TURN", ""},
    };
    for (const row& r : inputs) {
        INFO("input: " << r.in);
        const lex_output lexed = lex(r.in, 64);
        const std::string want = dump(r.in, lexed.tokens, parse_syntax(lexed, r.t));
        stream_syntax s(r.t);
        token_vector fed;
        for (std::size_t i = 0; i + 1 < lexed.tokens.size(); ++i) {
            fed.push_back(lexed.tokens[i]);
            s.advance(fed, false);
            CHECK(s.settled() <= fed.size());
        }
        fed.push_back(lexed.tokens.back());
        s.advance(fed, true);
        CHECK(dump(r.in, lexed.tokens, s.tree()) == want);
    }
}
