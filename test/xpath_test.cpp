// SPDX-License-Identifier: MIT
// The XPath 1.0 validator: verdicts and messages as the npm `xpath` package's parse() gives
// them (every row below was checked against that library), the matcher-level message, the
// nesting limit, and that nothing past the input view is read.
#include <catch2/catch_test_macros.hpp>

#include <string>
#include <string_view>

#include "plurnk/plurnk.hpp"
#include "stack_probe.hpp"

using namespace plurnk;
using namespace std::string_view_literals;

TEST_CASE("xpath: valid expressions", "[xpath]") {
    const std::string_view rows[] = {
        // BEHAVIOUR §5 examples
        "//user[@role='admin']",
        "//book[price>10 and @lang='en']/title",
        "//h1/text()",
        // location paths, axes, node tests
        "/",
        "/a",
        "//a",
        "a/b//c",
        ".",
        "..",
        "./a/../b",
        "@id",
        "//@*",
        "child::a",
        "descendant-or-self::node()/child::b",
        "ancestor::*",
        "ancestor-or-self::a",
        "attribute::href",
        "following-sibling::b",
        "preceding-sibling::b",
        "following::x",
        "preceding::x",
        "parent::node()",
        "self::a",
        "namespace::*",
        "foo::a",  // any name before `::` parses as an axis
        "ns:a",
        "ns:*",
        "//ns:a/ancestor::*",
        "comment()",
        "text()",
        "node()",
        "processing-instruction()",
        "processing-instruction('x')",
        "processing-instruction( \"x\" )",
        "a.b-c_d",
        "_u",
        "\xC3\xA9l\xC3\xA9ment",  // élément
        // predicates, filters, functions, variables
        "a[1][@b]",
        "a[b[c[d]]]",
        "(//a)[1]",
        "(a|b)/c",
        "$x",
        "$ ns:v",
        "$x[1]/a//b",
        "count(//a)",
        "f()",
        "ns:f(1, 'a', b)",
        "concat('a', \"b\", 1.5, .5, 10)",
        "contains(text(), 'x')",
        "and(1)",  // a function may be named `and` where an operand is expected
        "and",     // at the start `and` is a name test
        "a | /",
        // operators and precedence
        "1 + 2 * 3 - 4 div 5 mod 6",
        "a or b and c = d != e < f > g <= h >= i",
        "-1",
        "- - -a",
        "a|b|c",
        "-a | b",
        "a*b",
        "* * *",
        "a and and and b",  // `and` after `and` is a name
        "2*3",
        "1-2",
        // whitespace and the NUL sentinel
        " \t\r\n//a \n",
        "//a\0~~~"sv,  // a NUL where a token would start ends the input
        "//child::a | //a[@b='c']",
    };
    for (std::string_view in : rows) {
        CAPTURE(in);
        const result<void> v = validate_xpath(in);
        CHECK(v.ok());
        CHECK(check_xpath_matcher(in).ok());
    }
}

TEST_CASE("xpath: invalid expressions and the reference's messages", "[xpath]") {
    struct row {
        std::string_view in;
        std::string_view message;
        std::size_t offset;
    };
    const row rows[] = {
        // BEHAVIOUR §5 examples
        {"//book[unterminated", "XPath parse error", 19},
        {"//**/foo{bar}", "Unexpected character {", 8},
        {"// TODO: add error handling", "Unexpected character :", 7},
        {"// foo {bar}", "Unexpected character {", 7},
        // lexical errors
        {"", "XPath expression unspecified.", 0},
        {"a ~ b", "Unexpected character ~", 2},
        {"a: b", "Unexpected character :", 1},
        {"ns:a:b", "Unexpected character :", 4},
        {"a ! b", "Unexpected character !", 2},
        {"a#b", "Unexpected character #", 1},
        {"a\\b", "Unexpected character \\", 1},
        {"//\xC2\xA9", "Unexpected character \xC2\xA9", 2},
        {"//\xFF", "Unexpected character \xEF\xBF\xBD", 2},  // invalid UTF-8 reads as U+FFFD
        {"//\xF0\x9F\x98\x80", "Unexpected character \xED\xA0\xBD", 2},  // high surrogate of U+1F600
        {"//a['x", "Unterminated string literal: 'x\0"sv, 4},
        {"\"", "Unterminated string literal: \"\0"sv, 0},
        {"'a\0b"sv, "Unterminated string literal: 'a\0b\0"sv, 0},
        // a lexical error anywhere wins over an earlier syntax error
        {"//a[ ] ~", "Unexpected character ~", 7},
        {"] 'x", "Unterminated string literal: 'x\0"sv, 2},
        // syntax errors
        {" ", "XPath parse error", 1},
        {"//", "XPath parse error", 2},
        {"//a[", "XPath parse error", 4},
        {"//a[@b='c'", "XPath parse error", 10},
        {"//a[@]", "XPath parse error", 5},
        {"//a]", "XPath parse error", 3},
        {"a/", "XPath parse error", 2},
        {"a//", "XPath parse error", 3},
        {"()", "XPath parse error", 1},
        {"f(a,)", "XPath parse error", 4},
        {"f(a, *)", "XPath parse error", 5},  // `*` after `,` is the multiply operator
        {"$and", "XPath parse error", 1},     // `and` after `$` is the operator
        {"$*", "XPath parse error", 1},
        {"$f()", "XPath parse error", 1},
        {"count (a)", "XPath parse error", 6},  // a function name must touch its `(`
        {"node ()", "XPath parse error", 5},
        {"child ::a", "XPath parse error", 6},
        {"processing-instruction( )", "XPath parse error", 24},
        {"processing-instruction(x)", "XPath parse error", 23},
        {"text(1)", "XPath parse error", 5},
        {".[1]", "XPath parse error", 1},
        {"..[1]", "XPath parse error", 2},
        {"@.", "XPath parse error", 1},
        {"child::@a", "XPath parse error", 7},
        {"1.", "XPath parse error", 1},
        {"a b", "XPath parse error", 2},
        {"a and", "XPath parse error", 5},
        {"- ", "XPath parse error", 2},
        {"a |", "XPath parse error", 3},
        {"a and or b", "XPath parse error", 9},  // `or` after `and` is a name; `b` is extra
    };
    for (const row& r : rows) {
        CAPTURE(r.in);
        const result<void> v = validate_xpath(r.in);
        CHECK_FALSE(v.ok());
        CHECK(v.problem().message == r.message);
        CHECK(v.problem().offset == r.offset);
        const result<void> m = check_xpath_matcher(r.in);
        REQUIRE_FALSE(m.ok());
        CHECK(m.problem().offset == r.offset);
        CHECK(m.problem().message == std::string("pattern leads with `//` but is not a valid xpath selector - ") +
                        std::string(r.message));
    }
}

// `depth` opens, "1", `depth` closes.
static std::string nest(std::size_t depth, std::string_view open, std::string_view close) {
    std::string s;
    for (std::size_t i = 0; i < depth; ++i) s += open;
    s += "1";
    for (std::size_t i = 0; i < depth; ++i) s += close;
    return s;
}

TEST_CASE("xpath: nesting is capped by a named limit", "[xpath]") {
    CHECK(validate_xpath(nest(256, "(", ")")).ok());
    CHECK(validate_xpath(nest(256, "a[", "]")).ok());
    CHECK(validate_xpath(nest(256, "f(", ")")).ok());
    const result<void> v = validate_xpath(nest(257, "(", ")"));
    CHECK_FALSE(v.ok());
    CHECK(v.problem().message == "XPath expression nested too deeply");
    CHECK(v.problem().offset == 257);
    const result<void> w = validate_xpath(nest(100000, "a[", "]"));
    CHECK_FALSE(w.ok());
    // unary minus and binary chains are loops, not recursion
    CHECK(validate_xpath(std::string(100000, '-') + "1").ok());
    std::string chain = "1";
    for (int i = 0; i < 100000; ++i) chain += " + a/b";
    CHECK(validate_xpath(chain).ok());
}

// Nested to the limit, an expression took about 25 KiB of call stack at -O2 (a hundred bytes a
// level) and more under ASan; parentheses, predicates and arguments now wait on a heap stack
// (doc/limits.md, "Stack"). In a thread with a 64 KiB stack, nesting to the limit and past it
// must use no more stack than nesting once.
TEST_CASE("xpath: nesting to the limit needs no more stack than nesting once", "[xpath][stack]") {
    const std::pair<std::string_view, std::string_view> shapes[] = {
        {"(", ")"}, {"a[", "]"}, {"f(", ")"}, {"f(1,", ")"}, {"(a)[", "]"}, {"f(a[(-", ")])"}, {"1 or (", ")"},
        {"a/b[c//d[", "]]"},
    };
    const auto stack_of = [](const std::string& x, std::string& verdict) {
        return plurnk::test::run_on_stack([&] {
                   const result<void> v = validate_xpath(x);
                   verdict = v.ok() ? "ok" : v.problem().message;
               }).high_water;
    };
    for (const auto& [open, close] : shapes) {
        std::string once;
        const std::size_t base = stack_of(nest(1, open, close), once);
        for (const std::size_t n : {std::size_t{256}, std::size_t{257}, std::size_t{100000}}) {
            CAPTURE(open, n);
            const std::string x = nest(n, open, close);
            std::string verdict;
            const std::size_t used = stack_of(x, verdict);
            const result<void> want = validate_xpath(x);
            CHECK(verdict == (want.ok() ? "ok" : want.problem().message));
            CHECK(used <= base + 512);
        }
    }
}

TEST_CASE("xpath: never reads past the input view", "[xpath]") {
    const std::string buffer = "//a['x']/b:c(";
    CHECK(validate_xpath(std::string_view(buffer).substr(0, 6)).problem().message ==
          "Unterminated string literal: 'x\0"sv);
    CHECK(validate_xpath(std::string_view(buffer).substr(0, 8)).ok());
    CHECK(validate_xpath(std::string_view(buffer).substr(0, 10)).ok());   // `//a['x']/b`
    CHECK(validate_xpath(std::string_view(buffer).substr(0, 11)).problem().message ==
          "Unexpected character :");                                    // `b:` then nothing
    CHECK(validate_xpath(std::string_view(buffer).substr(0, 12)).ok());   // `b:c`, not `b:c(`
    const std::string dots = "1..";
    CHECK(validate_xpath(std::string_view(dots).substr(0, 1)).ok());
    const std::string utf8 = "a\xC3\xA9";
    CHECK(validate_xpath(std::string_view(utf8).substr(0, 2)).problem().message ==
          "Unexpected character \xEF\xBF\xBD");  // a truncated sequence is invalid UTF-8
}
