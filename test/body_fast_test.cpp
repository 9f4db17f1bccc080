// SPDX-License-Identifier: MIT
// Tests for the bodies' quick readings (lib/body_fast.hpp): tables of bodies each must take and
// of bodies it must leave to the full route, and, for those, for every short text over the regex
// and XPath subsets' alphabets and for the texts of every conformance vector that could be a
// matcher or a COPY/MOVE selection, the differential check: whatever a quick reading takes, the
// full route (check_regex_matcher and split_regex, check_xpath_matcher, check_jsonpath_matcher,
// parse_resource_selection) accepts with the same parts.
#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <cstddef>
#include <fstream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "builder/body_fast.hpp"
#include "builder/fast_target.hpp"
#include "plurnk/plurnk.hpp"
#include "record_readback.hpp"

namespace {

using plurnk::detail::jsonpath_matcher_fast;
using plurnk::detail::regex_matcher_fast;
using plurnk::detail::selection_fast;

// "" when the quick reading of `body` agrees with the full route (or declines), else what differs.
std::string regex_disagreement(std::string_view body) {
    std::string_view pattern, flags;
    if (!regex_matcher_fast(body, pattern, flags)) return {};
    if (!plurnk::check_regex_matcher(body)) return "taken, but the full validator rejects it";
    const plurnk::regex_split sp = plurnk::split_regex(body);
    if (!sp.closed || sp.pattern != pattern || sp.flags != flags) return "taken with other parts than split_regex's";
    return {};
}

std::string xpath_disagreement(std::string_view body) {
    if (!plurnk::detail::xpath_matcher_fast(body)) return {};
    if (!plurnk::check_xpath_matcher(body)) return "taken, but the full validator rejects it";
    return {};
}

std::string jsonpath_disagreement(std::string_view body) {
    if (!jsonpath_matcher_fast(body)) return {};
    if (!plurnk::check_jsonpath_matcher(body)) return "taken, but the full validator rejects it";
    return {};
}

std::string selection_disagreement(std::string_view body) {
    std::vector<double> marks;
    plurnk::resource_selection fast;
    if (!selection_fast(body, marks, fast)) return {};
    const auto full = plurnk::parse_resource_selection(body);
    if (!full) return "taken, but the full route rejects it";
    if (!full.value()) return "taken, but the full route gives no selection";
    const plurnk::resource_selection& sel = *full.value();
    if (!(sel.target == fast.target)) return "taken with another target";
    if (sel.marker.has_value() != fast.marker.has_value()) return "taken with(out) a marker the full route lacks (has)";
    if (sel.marker && !(*sel.marker == *fast.marker)) return "taken with other marks";
    // Signs of zero too: operator== on doubles does not see them.
    for (std::size_t i = 0; sel.marker && i < sel.marker->marks.size(); ++i) {
        if (std::signbit(sel.marker->marks[i]) != std::signbit(fast.marker->marks[i])) return "a mark's sign differs";
    }
    return {};
}

// The records of a COPY whose body selection_fast() read, written as the result builder writes
// them (write_fast_selection(), from the destination's parts): "" when they read back as the
// records of the projected selection (encode_statement()) do, the body both inside the input (a
// reference) and outside it (a copy in the arena), or when the quick reading declines.
std::string selection_record_disagreement(std::string_view body) {
    std::vector<double> marks;
    plurnk::detail::fast_selection fast;
    if (!selection_fast(body, marks, fast)) return {};
    plurnk::statement projected;
    projected.op = plurnk::op::COPY;
    plurnk::resource_selection& sel = projected.body.emplace<plurnk::resource_selection>();
    std::vector<double> projected_marks;
    if (!selection_fast(body, projected_marks, sel)) return "the projection declines what the parts reading takes";
    return plurnk_test::readback_disagreement(
        body, projected, [&](plurnk::detail::record_writer& w, plurnk::detail::string_sink& sink) {
            plurnk::detail::write_fast_selection(w, sink, fast.text, fast.parts, fast.marked, marks);
        });
}

bool takes_regex(std::string_view body) {
    std::string_view p, f;
    return regex_matcher_fast(body, p, f);
}
bool takes_selection(std::string_view body) {
    std::vector<double> marks;
    plurnk::resource_selection out;
    return selection_fast(body, marks, out);
}

constexpr std::string_view k_regex_taken[] = {
    "/handler1|worker_1/i", "/retry/", "/a b-c/gimsuy", "//", "/|/", "/x/dgimsuy", "/x/v", "/TODO|FIXME/",
    "/retry(Count|Delay)|backoff/i", "/a.b/", "/a+/", "/(a)/", "/^a$/", "/a*?/", "/(a(b)c)*d+?e?\?/u", "/()/",
    "/(|)/v", "/.*/s", "/^/", "/$|^/",
};
constexpr std::string_view k_regex_declined[] = {
    "/[a]/", "/a\\/b/", "/x/uv", "/x/gg", "/x/q", "/x", "/x/ ", "/\xC3\xA4/", "/a{2}/", "/x/i/", "/(/",
    "/)/", "/*/", "/a**/", "/a*?\?/", "/(*)/", "/|*/", "/^*/", "/(?:a)/", "/(a/", "/a)/",
};
constexpr std::string_view k_xpath_taken[] = {
    "//client[@id='4']/timeout", "//client[@retry='true']/timeout", "/a", "//a/b//c", "//a[1][@x]",
    "//a[@x!=\"y z\"]", "//a[b='1.5-x']", "/_a9[@b_c]",
};
constexpr std::string_view k_xpath_declined[] = {
    "//and", "//a[text()]", "//*", "//a/..", "//a[@x = 'y']", "//a[0]", "//a[01]", "//a[b]", "//a[@x='y\"]",
    "//a/", "//a[", "//a[@x='y'", "//-a", "//a-b", "//a[@x=y]", "//a[1234567890]", "//a:b", "a",
};
constexpr std::string_view k_jsonpath_taken[] = {
    "$", "$.items[?@.id==2].name", "$.a.b", "$.*", "$[*]", "$[0]", "$[-1]", "$['a b']", "$.a[12].b",
    "$[?@.x]", "$[?@]", "$[?@.a!=1]", "$[?@.a<=-3]", "$[?@.a>'x']", "$[?@.a<1]", "$[?@.a>=0]",
    "$[?@['k'][0]==null]", "$[?@.f==true]", "$[?@.f==false]", "$._x9",
};
constexpr std::string_view k_jsonpath_declined[] = {
    "$.true", "$.null", "$[01]", "$[-0]", "$[1234567890]", "$[?@.*==1]", "$[?@[*]]", "$[?@.a==@.b]",
    "$[?@.a == 1]", "$ .a", "$.a ", "$..a", "$[1:2]", "$[0,1]", "$[?length(@)>1]", "$['a\\'b']",
    "$[\"a\"]", "$.\xC3\xA4", "$[?@.a=1]", "$[?@.a==1.5]", "$[?!@.a]", "$[?@.a&&@.b]", "$.", "$[",
    "$[?@.a==tru]", "$x", "$.*.true*", "$.true*", "$.null[0]", "$[?@.false==1]",
};
constexpr std::string_view k_selection_taken[] = {
    "worker:///dst5.md<-1>", "worker:///dst5.md", "src/a.ts<1,2>", "src/a.ts<1, 2>", "a<1-5>", "a<0--5>",
    "a<-0>", "http://example.com:8080/a/b?q#f<3>", "a.md<123456789012345>",
};
constexpr std::string_view k_selection_declined[] = {
    "", "<1>", "a<1.5>", "a<1234567890123456>", "a<x>", "a<>", "a<1,,2>", "a\\(b\\)<1>", "a>",
    "https://user:pw@h/<1>", "HTTP://h/",
};

// Bodies of the conformance vectors' inputs: from every `/` and `$`, each text up to a later
// `:`, line end or the end (at most 200 bytes); from every `:`, the text up to each of the next
// three `:` (a selection's URL holds one); every `(...)` with a few scopes after it.
void add_candidates(std::string_view in, std::set<std::string>& matchers, std::set<std::string>& selections) {
    constexpr std::size_t k_max = 200;
    for (std::size_t b = 0; b < in.size(); ++b) {
        const char c = in[b];
        if (c == '/' || c == '$') {
            for (std::size_t e = b + 1; e <= in.size() && e - b <= k_max; ++e) {
                if (e == in.size() || in[e] == ':' || in[e] == '\n') {
                    matchers.emplace(in.substr(b, e - b));
                    if (e == in.size() || in[e] == '\n') break;
                }
            }
        } else if (c == ':') {
            int colons = 0;
            for (std::size_t e = b + 1; e < in.size() && e - b <= k_max && colons < 3; ++e) {
                if (in[e] == ':') {
                    selections.emplace(in.substr(b + 1, e - b - 1));
                    ++colons;
                }
            }
        } else if (c == '(') {
            const std::size_t close = in.find(')', b);
            if (close != std::string_view::npos && close - b <= k_max) {
                const std::string t(in.substr(b + 1, close - b - 1));
                for (const char* scope : {"", "<1>", "<1,2>", "<-1>", "<0--5>", "<1.5>", "<2, 3>"}) {
                    selections.emplace(t + scope);
                }
            }
        }
    }
}

}  // namespace

TEST_CASE("body fast: regex matchers", "[body_fast]") {
    for (std::string_view b : k_regex_taken) {
        INFO(b);
        CHECK(takes_regex(b));
        CHECK(regex_disagreement(b) == "");
    }
    for (std::string_view b : k_regex_declined) {
        INFO(b);
        CHECK_FALSE(takes_regex(b));
    }
    std::string_view p, f;
    REQUIRE(regex_matcher_fast("/handler1|worker_1/i", p, f));
    CHECK(p == "handler1|worker_1");
    CHECK(f == "i");
}

TEST_CASE("body fast: every short pattern over the regex subset's alphabet", "[body_fast]") {
    // All patterns of up to five characters over the bytes that steer the reading (and one that
    // stops it), with no flags, u and v: each one the reader takes, the full validator accepts.
    constexpr std::string_view k_alphabet = "a|()*+?.^$[";
    std::size_t taken = 0, failures = 0;
    std::string pattern;
    const auto visit = [&](const auto& self, std::size_t len) -> void {
        for (const char* flags : {"", "u", "v"}) {
            const std::string body = "/" + pattern + "/" + flags;
            if (const std::string d = regex_disagreement(body); !d.empty()) {
                ++failures;
                UNSCOPED_INFO(body << ": " << d);
            }
            taken += takes_regex(body) ? 1 : 0;
        }
        if (len == 5) return;
        for (const char c : k_alphabet) {
            pattern.push_back(c);
            self(self, len + 1);
            pattern.pop_back();
        }
    };
    visit(visit, 0);
    INFO(taken << " taken");
    CHECK(failures == 0);
    CHECK(taken > 10000);
}

TEST_CASE("body fast: XPath matchers", "[body_fast]") {
    for (std::string_view b : k_xpath_taken) {
        INFO(b);
        CHECK(plurnk::detail::xpath_matcher_fast(b));
        CHECK(xpath_disagreement(b) == "");
    }
    for (std::string_view b : k_xpath_declined) {
        INFO(b);
        CHECK_FALSE(plurnk::detail::xpath_matcher_fast(b));
    }
}

TEST_CASE("body fast: every short text over the XPath subset's alphabet", "[body_fast]") {
    // All texts of up to six characters after `//`, over the bytes that steer the reading.
    constexpr std::string_view k_alphabet = "/a[]@='1";
    std::size_t taken = 0, failures = 0;
    std::string body = "//";
    const auto visit = [&](const auto& self, std::size_t len) -> void {
        if (const std::string d = xpath_disagreement(body); !d.empty()) {
            ++failures;
            UNSCOPED_INFO(body << ": " << d);
        }
        taken += plurnk::detail::xpath_matcher_fast(body) ? 1 : 0;
        if (len == 6) return;
        for (const char c : k_alphabet) {
            body.push_back(c);
            self(self, len + 1);
            body.pop_back();
        }
    };
    visit(visit, 0);
    INFO(taken << " taken");
    CHECK(failures == 0);
    CHECK(taken > 100);
}

TEST_CASE("body fast: every short sequence of the JSONPath subset's pieces", "[body_fast]") {
    // All sequences of up to five pieces after `$`: the punctuation that steers the reading, a
    // name, the words a name must not be, and the literals a comparison takes.
    constexpr std::string_view k_pieces[] = {".", "*", "[", "]", "?", "@", "'", "==", "<", "!", "0", "-1", "a", "true", "null"};
    std::size_t taken = 0, failures = 0;
    std::string body = "$";
    const auto visit = [&](const auto& self, std::size_t len) -> void {
        if (const std::string d = jsonpath_disagreement(body); !d.empty()) {
            ++failures;
            UNSCOPED_INFO(body << ": " << d);
        }
        taken += jsonpath_matcher_fast(body) ? 1 : 0;
        if (len == 5) return;
        for (const std::string_view piece : k_pieces) {
            body.append(piece);
            self(self, len + 1);
            body.resize(body.size() - piece.size());
        }
    };
    visit(visit, 0);
    INFO(taken << " taken");
    CHECK(failures == 0);
    CHECK(taken > 50);
}

TEST_CASE("body fast: JSONPath matchers", "[body_fast]") {
    for (std::string_view b : k_jsonpath_taken) {
        INFO(b);
        CHECK(jsonpath_matcher_fast(b));
        CHECK(jsonpath_disagreement(b) == "");
    }
    for (std::string_view b : k_jsonpath_declined) {
        INFO(b);
        CHECK_FALSE(jsonpath_matcher_fast(b));
    }
}

TEST_CASE("body fast: selections", "[body_fast]") {
    for (std::string_view b : k_selection_taken) {
        INFO(b);
        CHECK(takes_selection(b));
        CHECK(selection_disagreement(b) == "");
    }
    for (std::string_view b : k_selection_declined) {
        INFO(b);
        CHECK_FALSE(takes_selection(b));
        CHECK(selection_disagreement(b) == "");
    }
}

TEST_CASE("body fast: a selection's records, written from the destination's parts", "[body_fast]") {
    for (std::string_view b : k_selection_taken) {
        INFO(b);
        CHECK(selection_record_disagreement(b) == "");
    }
    // A URL too long for 16-bit offsets: its fields as references each.
    for (const std::string scope : {"", "<1-2>", "<7>"}) {
        const std::string b = "https://example.com/" + std::string(70000, 'a') + "?q=1#f" + scope;
        INFO(scope);
        CHECK(takes_selection(b));
        CHECK(selection_record_disagreement(b) == "");
    }
}

TEST_CASE("body fast: agrees with the full routes on the conformance texts", "[body_fast][conformance]") {
    std::set<std::string> matchers, selections;
    for (const char* name : {"/conformance/parser.jsonl", "/conformance/own.jsonl"}) {
        std::ifstream in(std::string(PLURNK_TEST_SOURCE_DIR) + name);
        REQUIRE(in);
        std::string line;
        while (std::getline(in, line)) {
            const auto v = plurnk::parse_json(line);
            REQUIRE(v);
            add_candidates(v->find("input")->string, matchers, selections);
        }
    }
    std::size_t failures = 0, regex_taken = 0, xpath_taken = 0, jsonpath_taken = 0, selection_taken = 0;
    for (const std::string& b : matchers) {
        for (const std::string& d : {regex_disagreement(b), xpath_disagreement(b), jsonpath_disagreement(b)}) {
            if (!d.empty()) {
                ++failures;
                UNSCOPED_INFO(b << ": " << d);
            }
        }
        regex_taken += takes_regex(b) ? 1 : 0;
        jsonpath_taken += jsonpath_matcher_fast(b) ? 1 : 0;
        xpath_taken += plurnk::detail::xpath_matcher_fast(b) ? 1 : 0;
    }
    for (const std::string& b : selections) {
        for (const std::string& d : {selection_disagreement(b), selection_record_disagreement(b)}) {
            if (!d.empty()) {
                ++failures;
                UNSCOPED_INFO(b << ": " << d);
            }
        }
        selection_taken += takes_selection(b) ? 1 : 0;
    }
    INFO(matchers.size() << " matcher texts (" << regex_taken << " regex, " << xpath_taken << " XPath, " << jsonpath_taken
                         << " JSONPath taken), "
                         << selections.size() << " selection texts (" << selection_taken << " taken)");
    CHECK(failures == 0);
    CHECK(regex_taken > 50);
    CHECK(xpath_taken > 10);
    CHECK(jsonpath_taken > 10);
    CHECK(selection_taken > 1000);
}
