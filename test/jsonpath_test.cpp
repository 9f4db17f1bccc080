// SPDX-License-Identifier: MIT
// Table-driven tests for the JSONPath validator (lib/jsonpath). Every expected message below was
// produced by the reference itself, json-p3 2.3.1 `new JSONPathEnvironment().compile(expr)`, and
// the tables lean on the reference's quirks as much as on RFC 9535 (`$[1:2 3]` is a slice,
// `$.a ` fails on a TOKEN_ERROR, `0.5` is not a number literal, `$.` cannot back up).
#include <catch2/catch_test_macros.hpp>

#include <string>
#include <string_view>

#include "plurnk/plurnk.hpp"
#include "plurnk/validate.hpp"
#include "stack_probe.hpp"

namespace {

struct bad_case {
    std::string_view input;
    std::string_view message;
};

// Queries json-p3 compiles.
constexpr std::string_view k_valid[] = {
    "$",
    "$.greeting",
    "$..book[*].price",
    "$[?@.role==\"admin\"]",
    "$[?(@.role==\"admin\")]",
    "$..*[::-1]",
    "$[?@.a==1 || !@.b]['a','b'][?length(@.x) > 2]",
    "$['a','b',0,-1,1:3,::2,*]",
    "$[1:2 3]",
    "$ .a",
    "$.a[0] ['b']",
    "$[?@.a == @.b == @.c]",
    "$[?count(@.*) > 1 && value(@..x) == 'y']",
    "$[?match(@.name, '[a-z]+') && search(@.desc, \"x\")]",
    "$[?!1]",
    "$[?@.a == -0.5e+3]",
    "$['\\u00e9\\ud83d\\ude00']",
    "$.日本",
    "$[9007199254740991]",
    "$[-9007199254740991:9007199254740991:1]",
    "$[?@.a==1,?@.b==2]",
    "$[?@.a==1\n]",
    "$[?search(@.a, \"a.b\") || match($.x, @.y)]",
    "$[?value(@..a) == length(\"abc\")]",
    "$[?@.a != null && @.b <= false]",
    "$..a..b[*]..[0]",
    "$[?(!(@.a)) && (@.b || @.c)]",
    "$[?@[?@.x] && $[?@.y]]",
};

// Queries json-p3 refuses, with its message (context suffix included).
// `$😀`: the reference quotes the lone high surrogate it stops at; UTF-8 has no form for one,
// so it is written as U+FFFD here.
constexpr bad_case k_invalid[] = {
    {"$[?count(@.a,)]",
     "result of count()  must be compared ('$[?count(':3)"},
    {"$HOME",
     "expected '.', '..' or a bracketed selection, found 'H' ('$HOME':1)"},
    {"$.users[",
     "unclosed bracketed selection ('$.users[':8)"},
    {"$[(",
     "unexpected token '(' in bracketed selection ('$[(':2)"},
    {"$[?@.x ==]",
     "unexpected end of expression ('[?@.x ==]':9)"},
    {"['a'[?@.a",
     "expected '$', found '[' ('['a'[?@.a':0)"},
    {"$[01]",
     "leading zero in index selector ('$[01]':2)"},
    {"$[-0]",
     "leading zero in index selector ('$[-0]':2)"},
    {"$[?match(",
     "unclosed bracketed selection ('$[?match(':9)"},
    {"$[?match(@.a)]",
     "match() takes 2 arguments, 1 given ('$[?match(':3)"},
    {"$[?foo(@.a)]",
     "no such function 'foo' ('$[?foo(@.':3)"},
    {"$[?length(@.*) == 1]",
     "length() argument 0 must be of ValueType ('gth(@.*) ':10)"},
    {"$[?count(1) == 1]",
     "count() argument 0 must be of NodesType ('unt(1) ==':9)"},
    {"$[?value(@.a)]",
     "result of value()  must be compared ('$[?value(':3)"},
    {"$[?length(@.a)]",
     "result of length()  must be compared ('$[?length':3)"},
    {"$[?match(@.a, 'x') == true]",
     "result of match() is not comparable ('$[?match(':3)"},
    {"$[?@.* == 1]",
     "non-singular query is not comparable ('$[?@.* ==':3)"},
    {"$[?@..a == 1]",
     "non-singular query is not comparable ('$[?@..a =':3)"},
    {"$[?@[0:1] == 1]",
     "non-singular query is not comparable ('$[?@[0:1]':3)"},
    {"$[?1]",
     "filter expression literals (1) must be compared ('$[?1]':3)"},
    {"$[?'it''s']",
     "filter expression literals ('it') must be compared ('$[?'it''s':4)"},
    {"$[?\"a\\tb\"]",
     "filter expression literals ('a\\tb') must be compared ('$[?\"a\\tb\"':4)"},
    {"$[?1.50]",
     "filter expression literals (1.5) must be compared ('$[?1.50]':3)"},
    {"$[?1e400]",
     "filter expression literals (Infinity) must be compared ('$[?1e400]':3)"},
    {"$[?0.5 == 1]",
     "invalid number literal '0.5' ('$[?0.5 ==':3)"},
    {"$[?1.-5 == 1]",
     "invalid number literal '1.-5' ('$[?1.-5 =':3)"},
    {"$[?1. == 1]",
     "a fractional digit is required after a decimal point ('[?1. == 1':5)"},
    {"$[?@.a = 1]",
     "unexpected filter selector token '=' ('?@.a = 1]':7)"},
    {"$[?@.a && 1]",
     "filter expression literals (1) must be compared ('@.a && 1]':10)"},
    {"$[?true || @.a]",
     "filter expression literals (true) must be compared ('$[?true |':3)"},
    {"$[?()]",
     "empty paren expression ('$[?()]':3)"},
    {"$[?(@.a @.b)]",
     "expected an expression, found '@' ('@.a @.b)]':8)"},
    {"$[?@.a \"",
     "unclosed string starting at index 8 ('$[?@.a \"':8)"},
    {"$[?(@.a]",
     "unbalanced brackets ('$[?(@.a]':7)"},
    {"$[?@.a)]",
     "unbalanced brackets ('$[?@.a)]':6)"},
    {"$[9007199254740992]",
     "index out of range ('$[9007199':2)"},
    {"$[0:9007199254740992]",
     "index out of range ('$[0:90071':2)"},
    {"$[]",
     "empty bracketed segment ('$[]':1)"},
    {"$[1,]",
     "unexpected trailing comma ('$[1,]':4)"},
    {"$[1 2]",
     "expected token 'TOKEN_COMMA', found 'TOKEN_INDEX' ('$[1 2]':4)"},
    {"$['a' 'b']",
     "expected token 'TOKEN_COMMA', found 'TOKEN_SINGLE_QUOTE_STRING' ('['a' 'b']':7)"},
    {"$.",
     "can't backup beyond start ('$.':2)"},
    {"$..",
     "bald descendant segment ('$..':3)"},
    {"$. a",
     "unexpected whitespace after dot ('$. a':3)"},
    {"$.a ",
     "unexpected token 'TOKEN_ERROR' ('$.a ':4)"},
    {"$..[",
     "unclosed bracketed selection ('$..[':4)"},
    {"$..'a'",
     "unexpected descendent selection token ''' ('$..'a'':3)"},
    {"$.1",
     "unexpected shorthand selector '1' ('$.1':2)"},
    {"$[\"\\x\"]",
     "invalid escape ('$[\"\\x\"]':4)"},
    {"$['\\\"']",
     "invalid escape ('$['\\\"']':4)"},
    {"$[\"\\u12\"]",
     "incomplete escape sequence at index 3 ('$[\"\\u12\"]':3)"},
    {"$[\"\\uZZZZ\"]",
     "invalid \\uXXXX escape sequence ('$[\"\\uZZZZ':3)"},
    {"$[\"\\udc00\"]",
     "unexpected low surrogate codepoint at index 3 ('$[\"\\udc00':3)"},
    {"$[\"\\ud800\"]",
     "incomplete escape sequence at index 3 ('$[\"\\ud800':3)"},
    {"$[\"\\ud800\\u0041\"]",
     "unexpected codepoint at index 9 ('$[\"\\ud800':3)"},
    {"$[\"\\u001f\"]",
     "invalid character ('$[\"\\u001f':3)"},
    {"$[\"abc",
     "unclosed string starting at index 3 ('$[\"abc':6)"},
    {"$[?#]",
     "unexpected filter selector token '#' ('$[?#]':3)"},
    {"$.a~",
     "expected '.', '..' or a bracketed selection, found '~' ('$.a~':3)"},
    {"$[?nullable(@)]",
     "filter expression literals (null) must be compared ('$[?nullab':3)"},
    {"$[?foo]",
     "unexpected filter selector token 'f' ('$[?foo]':6)"},
    {"$[?@.a==1]]",
     "expected '.', '..' or a bracketed selection, found ']' ('?@.a==1]]':10)"},
    {"$)",
     "expected '.', '..' or a bracketed selection, found ')' ('$)':1)"},
    {" $",
     "expected '$', found ' ' (' $':0)"},
    {"$[\"a\nb\"]",
     "invalid character ('$[\"a\nb\"]':3)"},
    {"$.é[",
     "unclosed bracketed selection ('$.é[':4)"},
    {"$😀",
     "expected '.', '..' or a bracketed selection, found '�' ('$😀':1)"},
    {"$.日本 x",
     "expected '.', '..' or a bracketed selection, found 'x' ('$.日本 x':5)"},
    {"$[?@.a==\"日本\"]x",
     "expected '.', '..' or a bracketed selection, found 'x' ('a==\"日本\"]x':13)"},
    {"$.a\t",
     "unexpected token 'TOKEN_ERROR' ('$.a\t':4)"},
};

}  // namespace

TEST_CASE("jsonpath: queries json-p3 accepts", "[jsonpath]") {
    for (const std::string_view q : k_valid) {
        INFO("query: " << q);
        const plurnk::result<void> v = plurnk::validate_jsonpath(q);
        CHECK(v.ok());
        CHECK(plurnk::check_jsonpath_matcher(q).ok());
    }
}

TEST_CASE("jsonpath: queries json-p3 refuses, with its message", "[jsonpath]") {
    for (const bad_case& c : k_invalid) {
        INFO("query: " << c.input);
        const plurnk::result<void> v = plurnk::validate_jsonpath(c.input);
        CHECK_FALSE(v.ok());
        CHECK(v.problem().message == c.message);
        CHECK(v.problem().offset <= c.input.size());
    }
}

TEST_CASE("jsonpath: matcher message carries the visitor prefix", "[jsonpath]") {
    CHECK(plurnk::check_jsonpath_matcher("$.greeting").ok());
    CHECK(plurnk::check_jsonpath_matcher("$HOME").problem().message ==
          "pattern leads with `$` but is not a valid jsonpath - expected '.', '..' or a bracketed "
          "selection, found 'H' ('$HOME':1)");
    CHECK(plurnk::check_jsonpath_matcher("$[?match(@.a)]").problem().message ==
          "pattern leads with `$` but is not a valid jsonpath - match() takes 2 arguments, 1 given "
          "('$[?match(':3)");
}

TEST_CASE("jsonpath: offsets are bytes into the input", "[jsonpath]") {
    // The message counts UTF-16 code units (5 here); the problem offset counts bytes.
    const plurnk::result<void> v = plurnk::validate_jsonpath("$.\xE6\x97\xA5\xE6\x9C\xAC x");
    REQUIRE_FALSE(v.ok());
    CHECK(v.problem().offset == 9);
    CHECK(plurnk::validate_jsonpath("$[01]").problem().offset == 2);
    CHECK(plurnk::validate_jsonpath("$.users[").problem().offset == 8);
    CHECK(plurnk::check_jsonpath_matcher("$.users[").problem().offset == 8);
}

TEST_CASE("jsonpath: never reads past the view", "[jsonpath]") {
    // Only the first four bytes belong to the query; the rest would close the bracket.
    const std::string buffer = "$.a[0]";
    const plurnk::result<void> v = plurnk::validate_jsonpath(std::string_view(buffer).substr(0, 4));
    CHECK_FALSE(v.ok());
    CHECK(v.problem().message == "unclosed bracketed selection ('$.a[':4)");
    CHECK(plurnk::validate_jsonpath(std::string_view(buffer).substr(0, 3)).ok());
}

TEST_CASE("jsonpath: empty input and ill-formed UTF-8", "[jsonpath]") {
    CHECK(plurnk::validate_jsonpath("").problem().message == "can't backup beyond start ('':0)");
    // Each ill-formed byte reads as U+FFFD, a name character.
    CHECK(plurnk::validate_jsonpath("$.a\xFF\xC3").ok());
    CHECK(plurnk::validate_jsonpath("$\xFF").problem().message ==
          "expected '.', '..' or a bracketed selection, found '\xEF\xBF\xBD' ('$\xEF\xBF\xBD':1)");
}

TEST_CASE("jsonpath: nesting is bounded", "[jsonpath]") {
    const auto nested = [](std::size_t n) {
        return "$[?" + std::string(n, '(') + "@" + std::string(n, ')') + "]";
    };
    CHECK(plurnk::validate_jsonpath(nested(100)).ok());
    const plurnk::result<void> deep = plurnk::validate_jsonpath(nested(100000));
    CHECK_FALSE(deep.ok());
    CHECK(deep.problem().message == "Maximum call stack size exceeded");
    CHECK_FALSE(plurnk::validate_jsonpath("$[?" + std::string(100000, '!') + "@]").ok());
    std::string filters = "$";
    for (int i = 0; i < 50000; ++i) filters += "[?@";
    filters += std::string(50000, ']');
    CHECK_FALSE(plurnk::validate_jsonpath(filters).ok());
}

// Nested to the limit, a query once took about half a megabyte of call stack (a segfault in a
// 256 KiB thread); the productions now nest on a heap stack (doc/limits.md, "Stack"). Each shape
// runs at the deepest nesting that is not refused, one level past it and far past it, in a
// thread with a 64 KiB stack, and must use no more stack than the same shape nested once.
TEST_CASE("jsonpath: nesting to the limit needs no more stack than nesting once", "[jsonpath][stack]") {
    struct shape {
        std::string_view head, open, inner, close, tail;
    };
    constexpr shape shapes[] = {
        {"$[?", "length(", "@", ")", "]"},
        {"$[?", "match(@,", "'a'", ")", "]"},
        {"$[?", "count(", "@.a", ")", "==1]"},
        {"$[?", "(", "@", ")", "]"},
        {"$[?", "!", "@", "", "]"},
        {"$[?", "!(", "@", ")", "]"},
        {"$", "[?@", "", "]", ""},
        {"$", "..[?@", "", "]", ""},
        {"$[?", "@||@&&!(", "@", ")", "]"},
        {"$[?", "length(!(@[?", "@", "]))", "]"},
    };
    const auto query = [](const shape& s, std::size_t n) {
        std::string q(s.head);
        for (std::size_t i = 0; i < n; ++i) q += s.open;
        q += s.inner;
        for (std::size_t i = 0; i < n; ++i) q += s.close;
        return q + std::string(s.tail);
    };
    const auto too_deep = [](const std::string& q) {
        const plurnk::result<void> v = plurnk::validate_jsonpath(q);
        return !v.ok() && v.problem().message == "Maximum call stack size exceeded";
    };
    const auto stack_of = [](const std::string& q, std::string& verdict) {
        return plurnk::test::run_on_stack([&] {
                   const plurnk::result<void> v = plurnk::validate_jsonpath(q);
                   verdict = v.ok() ? "ok" : v.problem().message;
               }).high_water;
    };
    for (const shape& s : shapes) {
        std::size_t lo = 0, hi = 100000;  // lo is accepted as to depth, hi refused
        REQUIRE(too_deep(query(s, hi)));
        while (hi - lo > 1) {
            const std::size_t mid = lo + (hi - lo) / 2;
            (too_deep(query(s, mid)) ? hi : lo) = mid;
        }
        CAPTURE(s.open, lo);
        CHECK(lo >= 100);  // every shape nests a hundred deep or more before the limit
        std::string once;
        const std::size_t base = stack_of(query(s, 1), once);
        for (const std::size_t n : {lo, lo + 1, std::size_t{100000}}) {
            CAPTURE(n);
            const std::string q = query(s, n);
            std::string verdict;
            const std::size_t used = stack_of(q, verdict);
            const plurnk::result<void> want = plurnk::validate_jsonpath(q);
            CHECK(verdict == (want.ok() ? "ok" : want.problem().message));
            CHECK(used <= base + 512);
        }
    }
}

TEST_CASE("jsonpath: long flat queries", "[jsonpath]") {
    std::string q = "$";
    for (int i = 0; i < 100000; ++i) q += ".a";
    CHECK(plurnk::validate_jsonpath(q).ok());
    std::string names = "$[0";
    for (int i = 0; i < 100000; ++i) names += ",'x'";
    names += "]";
    CHECK(plurnk::validate_jsonpath(names).ok());
}
