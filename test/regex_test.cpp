// SPDX-License-Identifier: MIT
// The ECMAScript regex validator: verdicts and messages as `new RegExp(pattern, flags)` gives
// them in Node 20 (every table row was checked against it), in legacy (Annex B), u and v
// modes; flag checking; the matcher-level message with its quoted, elided body; the split of
// `/pattern/flags`; the depth and size limits; and that nothing past the input view is read.
#include <catch2/catch_test_macros.hpp>

#include <string>
#include <initializer_list>
#include <string_view>

#include "plurnk/plurnk.hpp"

using namespace plurnk;
using namespace std::string_view_literals;

namespace {

struct valid_row {
    std::string_view pattern;
    std::string_view flags;
};

struct invalid_row {
    std::string_view pattern;
    std::string_view flags;
    std::string_view message;  // V8's text after "Invalid regular expression: /…/…: "
};

std::string v8_message(std::string_view pattern, std::string_view flags, std::string_view what) {
    return "Invalid regular expression: /" + std::string(pattern) + "/" + std::string(flags) +
           ": " + std::string(what);
}

}  // namespace

TEST_CASE("regex: patterns V8 accepts", "[regex]") {
    const valid_row rows[] = {
        {"", ""},
        {"abc", ""},
        {"a|b|", ""},
        {"^a$", "m"},
        {"a.b", "s"},
        {"a*b+c?d{2}e{2,}f{2,5}", "g"},
        {"a*?b+?c??d{2}?", "y"},
        {"(a)(?:b)(?=c)(?!d)(?<=e)(?<!f)", "d"},
        {"(?<year>\\d{4})-\\k<year>", ""},
        {"(?<a>x)|(?<b>y)\\k<a>", "u"},
        {"\\1(a)", ""},
        {"(a)\\1", "u"},
        {"\\k<a>(?<a>)", ""},
        {"(?<a>\\k<a>)", ""},
        {"\\k", ""},
        {"\\k<a", ""},
        {"(?<$_\xC3\xA9\xF0\x9D\x92\x9C>x)", ""},
        {"(?<\\u{1d49c}>x)", ""},
        {"(?<\\ud835\\udc9c>x)", "u"},
        {"(?<a\\u0062>x)\\k<ab>", ""},
        {"\\8\\9", ""},
        {"\\00\\07\\377", ""},
        {"\\0", "u"},
        {"\\cA\\cz", ""},
        {"\\c1\\c", ""},
        {"[\\c1\\c_]", ""},
        {"\\x4\\u004\\xZ", ""},
        {"\\x41\\u0041\\u{61}", "u"},
        {"\\u{10FFFF}\\uD83D\\uDE00", "u"},
        {"\\/\\.\\*", "u"},
        {"\\q\\e\\y", ""},
        {"{", ""},
        {"}{1,", ""},
        {"]", ""},
        {"a{,5}", ""},
        {"x{99999999999}", ""},
        {"(?=a)*", ""},
        {"(?!a){2}", ""},
        {"[]", ""},
        {"[^]", ""},
        {"[a-z0-9_]", ""},
        {"[\\d-z]", ""},
        {"[\\w-]", "u"},
        {"[-a-]", ""},
        {"[\\b\\-]", "u"},
        {"[\xF0\x9F\x98\x80-\xF0\x9F\x98\x82]", "u"},
        {"\\p{L}\\P{Lu}\\p{Script=Greek}\\p{sc=Latn}\\p{scx=Hira}\\p{gc=Nd}", "u"},
        {"\\p{Any}\\p{ASCII}\\p{Assigned}\\p{Alphabetic}\\p{White_Space}\\p{space}", "u"},
        {"\\p{Script=Sidetic}\\p{sc=Garay}", "u"},
        {"\\p{L}", ""},
        {"\\p{RGI_Emoji}[\\p{Basic_Emoji}]", "v"},
        {"[\\p{L}--\\p{Ll}]", "v"},
        {"[\\p{L}&&\\p{Ll}&&[a-z]]", "v"},
        {"[[a-z]--[aeiou]]", "v"},
        {"[\\q{abc|d|}x]", "v"},
        {"[^\\q{a|b}]", "v"},
        {"[^\\p{RGI_Emoji}&&a]", "v"},
        {"[\\-\\&\\!]", "v"},
        {"[a&b]", "v"},
        // V8 truncates each code point of a property name to a byte: U+014C reads as `L`.
        {"\\p{\xC5\x8C}", "u"},
    };
    for (const auto& row : rows) {
        INFO("pattern /" << row.pattern << "/" << row.flags);
        const result<void> v = validate_regex(row.pattern, row.flags);
        CHECK(v.ok());
    }
}

TEST_CASE("regex: patterns V8 refuses, with its message", "[regex]") {
    const invalid_row rows[] = {
        {"(ab", "", "Unterminated group"},
        {"ab)", "", "Unmatched ')'"},
        {"a\\", "", "\\ at end of pattern"},
        {"\\p{Nope}", "u", "Invalid property name"},
        {"[\\p{Nope}]", "u", "Invalid property name in character class"},
        {"\\p{RGI_Emoji}", "u", "Invalid property name"},
        {"\\P{RGI_Emoji}", "v", "Invalid property name"},
        {"\\p{sc=Hrkt}", "u", "Invalid property name"},
        {"\\p{Lu=Lu}", "u", "Invalid property name"},
        {"\\p{L", "u", "Invalid property name"},
        {"\\e", "u", "Invalid escape"},
        {"\\-", "u", "Invalid escape"},
        {"\\8", "u", "Invalid escape"},
        {"\\08", "u", "Invalid decimal escape"},
        {"\\c1", "u", "Invalid Unicode escape"},
        {"\\x4", "u", "Invalid escape"},
        {"\\u{110000}", "u", "Invalid Unicode escape"},
        {"\\u12", "u", "Invalid Unicode escape"},
        {"*a", "", "Nothing to repeat"},
        {"a**", "", "Nothing to repeat"},
        {"^*", "", "Nothing to repeat"},
        {"\\b+", "", "Nothing to repeat"},
        {"a|?", "", "Nothing to repeat"},
        {"{1}", "", "Nothing to repeat"},
        {"a{1}{2}", "", "Nothing to repeat"},
        {"{", "u", "Lone quantifier brackets"},
        {"}", "u", "Lone quantifier brackets"},
        {"]", "u", "Lone quantifier brackets"},
        {"a{1", "u", "Incomplete quantifier"},
        {"a{,5}", "u", "Incomplete quantifier"},
        {"x{2,1}", "", "numbers out of order in {} quantifier"},
        {"x{99999999999,5}", "", "numbers out of order in {} quantifier"},
        {"(?<=a)?", "", "Invalid quantifier"},
        {"(?=a)?", "u", "Invalid quantifier"},
        {"(?i:a)", "", "Invalid group"},
        {"(?-i:a)", "", "Invalid group"},
        {"(?", "", "Invalid group"},
        {"(?<", "", "Invalid capture group name"},
        {"(?<1a>x)", "", "Invalid capture group name"},
        {"(?<a-b>x)", "", "Invalid capture group name"},
        {"(?<a", "", "Invalid capture group name"},
        {"(?<a>x)(?<a>y)", "", "Duplicate capture group name"},
        {"(?<a>x)|(?<a>y)", "", "Duplicate capture group name"},
        {"(?<a>x)\\k", "", "Invalid named reference"},
        {"\\k<b>", "u", "Invalid named capture referenced"},
        {"(?<a>x)\\k<b>", "", "Invalid named capture referenced"},
        {"[\\1]", "u", "Invalid class escape"},
        {"[\\00]", "u", "Invalid class escape"},
        {"[z-a]", "", "Range out of order in character class"},
        {"[\\d-a]", "u", "Invalid character class"},
        {"[a-\\d]", "u", "Invalid character class"},
        {"[a", "", "Unterminated character class"},
        {"[a-", "u", "Unterminated character class"},
        {"[\\k](?<a>)", "", "Invalid escape"},
        {"[\\k]", "u", "Invalid escape"},
        {"[\\c-a]", "", "Range out of order in character class"},
        {"[\xF0\x9F\x98\x80-a]", "", "Range out of order in character class"},
        {"[(]", "v", "Invalid character in character class"},
        {"[a-]", "v", "Invalid character in character class"},
        {"[-a]", "v", "Invalid character in character class"},
        {"[a-z-q]", "v", "Invalid character class"},
        {"[a--b&&c]", "v", "Invalid set operation in character class"},
        {"[a&&&b]", "v", "Invalid character in character class"},
        {"[ab--c]", "v", "Invalid set operation in character class"},
        {"[a!!]", "v", "Invalid set operation in character class"},
        {"[\\q{abc]", "v", "Invalid character in character class"},
        {"[\\q{abc", "v", "Unterminated character class"},
        {"\\q{a}", "v", "Invalid escape"},
        {"[\\q{\\d}]", "v", "Invalid escape"},
        {"[a-\\q{b}]", "v", "Invalid character class"},
        {"[^\\q{ab}]", "v", "Negated character class may contain strings"},
        {"[^\\q{}]", "v", "Negated character class may contain strings"},
        {"[^\\p{RGI_Emoji}]", "v", "Negated character class may contain strings"},
        {"[^\\p{RGI_Emoji}--a]", "v", "Negated character class may contain strings"},
        {"[\\y]", "v", "Invalid escape"},
        {"\\&", "v", "Invalid escape"},
        {"[[a]", "v", "Unterminated character class"},
        // The capture pre-scan lets classes nest only with v: here it counts the `(` with u.
        {"\\1[[a](]", "v", "Invalid escape"},
        {"\\1[[a](]", "u", "Lone quantifier brackets"},
        {"[^]\\k<[1[a[b]]--9\\k$(?<a\\u0062>", "", "Invalid capture group name"},
        // With u a surrogate pair is one character (U+1D49C, above `a`).
        {"[\xF0\x9D\x92\x9C-a]", "u", "Range out of order in character class"},
        {"(?<a>(?<a>x))", "", "Duplicate capture group name"},
    };
    for (const auto& row : rows) {
        INFO("pattern /" << row.pattern << "/" << row.flags);
        const result<void> v = validate_regex(row.pattern, row.flags);
        CHECK_FALSE(v.ok());
        CHECK(v.problem().message == v8_message(row.pattern, row.flags, row.message));
    }
}

TEST_CASE("regex: flags", "[regex]") {
    const std::string_view good[] = {"", "d", "g", "i", "m", "s", "u", "v", "y", "dgimsuy", "dgimsvy"};
    for (const auto flags : good) {
        INFO("flags " << flags);
        CHECK(validate_regex("a", flags).ok());
    }
    const std::string_view bad[] = {"uv", "gg", "ii", "q", "I", "hosts", "g ", "gimsuydv", "\xC3\xA9"};
    for (const auto flags : bad) {
        INFO("flags " << flags);
        const result<void> v = validate_regex("a", flags);
        CHECK_FALSE(v.ok());
        CHECK(v.problem().message == "Invalid flags supplied to RegExp constructor '" + std::string(flags) + "'");
    }
    // Flag errors win over pattern errors; the message lists accepted flags in V8's order.
    CHECK(validate_regex("(", "q").problem().message == "Invalid flags supplied to RegExp constructor 'q'");
    CHECK(validate_regex("(", "ymg").problem().message == "Invalid regular expression: /(/gmy: Unterminated group");
}

TEST_CASE("regex: error offsets point into the pattern", "[regex]") {
    CHECK(validate_regex("ab)", "").problem().offset == 2);
    CHECK(validate_regex("\xC3\xA9)", "").problem().offset == 2);  // bytes, not code units
    CHECK(validate_regex("a**", "").problem().offset == 2);
}

TEST_CASE("regex: split_regex", "[regex]") {
    struct row {
        std::string_view body;
        bool closed;
        std::string_view pattern;
        std::string_view flags;
    };
    const row rows[] = {
        {"/abc/", true, "abc", ""},
        {"/abc/gi", true, "abc", "gi"},
        {"/a\\/b/", true, "a\\/b", ""},
        {"/[/]x/", true, "[/]x", ""},
        {"/[\\]/]/", true, "[\\]/]", ""},
        {"/a/b/c", true, "a", "b/c"},
        {"//", true, "", ""},
        {"/", false, "", ""},
        {"/[/", false, "", ""},
        {"/a\\/", false, "", ""},
        {"/unclosed-regex", false, "", ""},
    };
    for (const auto& r : rows) {
        INFO("body " << r.body);
        const regex_split s = split_regex(r.body);
        CHECK(s.closed == r.closed);
        CHECK(s.pattern == r.pattern);
        CHECK(s.flags == r.flags);
    }
}

TEST_CASE("regex: matcher messages", "[regex]") {
    CHECK(check_regex_matcher("/retry(Count|Delay)|backoff/i").ok());
    CHECK(check_regex_matcher("/[\\p{L}--\\p{Ll}]?[\\b]/dgimsvy").ok());
    CHECK(check_regex_matcher("/unclosed-regex").problem().message ==
          "regex matcher must use `/pattern/flags`; this matcher has no closing `/`: `/unclosed-regex`");
    CHECK(check_regex_matcher("/(abc/").problem().message ==
          "pattern leads with `/` but is not a valid `/pattern/flags` regex - Invalid regular "
          "expression: /(abc/: Unterminated group: `/(abc/`");
    CHECK(check_regex_matcher("/etc/hosts").problem().message ==
          "pattern leads with `/` but is not a valid `/pattern/flags` regex - Invalid flags supplied "
          "to RegExp constructor 'hosts' - use only ECMAScript flags after the closing `/`; escape a "
          "literal `/` inside the pattern as `\\/`: `/etc/hosts`");
    // A newline is quoted as it is.
    CHECK(check_regex_matcher("/\\p{Nope}\n/u").problem().message ==
          "pattern leads with `/` but is not a valid `/pattern/flags` regex - Invalid regular "
          "expression: /\\p{Nope}\n/u: Invalid property name: `/\\p{Nope}\n/u`");
}

// The concatenation of `parts`: `"literal" + std::string(...)` trips g++ 12's -O3 -Wrestrict.
static std::string cat(std::initializer_list<std::string_view> parts) {
    std::string s;
    for (const std::string_view p : parts) s += p;
    return s;
}

TEST_CASE("regex: matcher offsets point into the body", "[regex]") {
    CHECK(check_regex_matcher("/unclosed-regex").problem().offset == 15);  // where `/` was due
    CHECK(check_regex_matcher("/ab)/").problem().offset == 3);             // the pattern's offset + 1
    CHECK(check_regex_matcher("/etc/hosts").problem().offset == 5);        // the flags
    CHECK(check_regex_matcher("/a/q").problem().offset == 3);
}

TEST_CASE("regex: the quoted body is cut after 80 UTF-16 code units", "[regex]") {
    const std::string exactly_80 = cat({"/", std::string(76, 'a'), "(/u"});  // 80 units
    CHECK(check_regex_matcher(exactly_80).problem().message.ends_with(cat({": `", exactly_80, "`"})));

    const std::string long_body = cat({"/", std::string(100, 'a'), "(/"});
    CHECK(check_regex_matcher(long_body).problem().message.ends_with(
        cat({": `/", std::string(79, 'a'), "\xE2\x80\xA6`"})));

    // U+1D49C counts as two units: 76 + 2 + 2 = 80 units fit, the rest is cut.
    const std::string astral = cat({"/", std::string(75, 'a'), "\xF0\x9D\x92\x9C\xF0\x9D\x92\x9C(x/"});
    CHECK(check_regex_matcher(astral).problem().message.ends_with(
        cat({": `/", std::string(75, 'a'), "\xF0\x9D\x92\x9C\xF0\x9D\x92\x9C\xE2\x80\xA6`"})));
    // A cut through a pair: JavaScript's slice keeps the lone lead surrogate, which UTF-8 cannot
    // hold; the message has one U+FFFD in its place and stays valid UTF-8 (DIVERGENCES.md).
    const std::string split_pair = cat({"/", std::string(78, 'a'), "\xF0\x9D\x92\x9C(x/"});
    const std::string message = check_regex_matcher(split_pair).problem().message;
    CHECK(message.ends_with(cat({": `/", std::string(78, 'a'), "\xEF\xBF\xBD\xE2\x80\xA6`"})));
    CHECK(plurnk::first_invalid_utf8(message) == std::string::npos);
}

TEST_CASE("regex: limits", "[regex]") {
    // Groups are kept on an explicit stack, as in V8: any depth is fine.
    std::string groups;
    for (int i = 0; i < 100000; ++i) groups += "(?:";
    groups += std::string(100000, ')');
    CHECK(validate_regex(groups, "u").ok());

    // V8 allows 32767 capture groups.
    std::string captures;
    for (int i = 0; i < 32767; ++i) captures += "()";
    CHECK(validate_regex(captures, "").ok());
    CHECK(validate_regex(captures + "()", "").problem().message.ends_with(": Too many captures"));

    // v-mode classes recurse; V8 runs out of stack past about 6268 levels.
    const std::string shallow = std::string(6000, '[') + std::string(6000, ']');
    CHECK(validate_regex(shallow, "v").ok());
    const std::string deep = std::string(100000, '[') + std::string(100000, ']');
    CHECK(validate_regex(deep, "v").problem().message.ends_with("/v: Maximum call stack size exceeded"));
    // Without v a `[` inside a class is a literal.
    CHECK(validate_regex(deep, "u").problem().message.ends_with("/u: Lone quantifier brackets"));
}

TEST_CASE("regex: nothing past the input view is read", "[regex]") {
    const std::string_view buffer = "[a]\\u{41}\\p{L}(?<n>x)\\k<n>";
    CHECK(validate_regex(buffer.substr(0, 2), "").problem().message ==
          "Invalid regular expression: /[a/: Unterminated character class");
    CHECK(validate_regex(buffer.substr(3, 4), "u").problem().message ==
          "Invalid regular expression: /\\u{4/u: Invalid Unicode escape");
    CHECK(validate_regex(buffer.substr(9, 4), "u").problem().message ==
          "Invalid regular expression: /\\p{L/u: Invalid property name");
    CHECK(validate_regex(buffer.substr(14, 11), "").problem().message ==
          "Invalid regular expression: /(?<n>x)\\k<n/: Invalid capture group name");
}

// SERVICE.md S4, S5: the service dialect's `#pattern#flags` matcher. The split knows escapes but
// no classes; the pattern goes to the engine as written; the two messages are 1.4.0's with `#`.
TEST_CASE("regex: the service dialect's #pattern#flags matcher", "[regex]") {
    CHECK(check_hash_regex_matcher("#budget overflow|budget exceeded#i").ok());
    CHECK(check_hash_regex_matcher("##").ok());                 // an empty regex
    CHECK(check_hash_regex_matcher("#a\\#b#").ok());            // `\#` stays, valid without u/v
    CHECK(check_hash_regex_matcher("#a\\#b#u").problem().message ==
          "pattern leads with `#` but is not a valid `#pattern#flags` regex - Invalid regular expression: "
          "/a\\#b/u: Invalid escape: `#a\\#b#u`");
    CHECK(check_hash_regex_matcher("#[#]#").problem().message ==  // pattern `[`, flags `]#`
          "pattern leads with `#` but is not a valid `#pattern#flags` regex - Invalid flags supplied to RegExp "
          "constructor ']#' - use only ECMAScript flags after the closing `#`; escape a literal `#` inside the "
          "pattern as `\\#`: `#[#]#`");
    CHECK(check_hash_regex_matcher("# TODO").problem().message ==
          "regex matcher must use `#pattern#flags`; this matcher has no closing `#`: `# TODO`");
    CHECK(check_hash_regex_matcher("not a hash").ok());  // only `#` bodies are this matcher's
}
