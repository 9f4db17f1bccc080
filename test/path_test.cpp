// SPDX-License-Identifier: MIT
// Table-driven tests for target paths (SPEC §5, BEHAVIOUR §3.4): parse_path,
// parse_resource_selection, glob detection, worker names, plus the 2000 `-url-` conformance
// vectors, each of which is `<<READ(target)::READ` whose expected item is the target's
// ParsedPath or its visitor error.
#include <algorithm>
#include <catch2/catch_test_macros.hpp>

#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "plurnk/plurnk.hpp"

namespace {

using plurnk::parsed_path;

struct local_case {
    std::string_view raw;
    std::string_view decoded;
};

const local_case k_local[] = {
    {"notes.md", "notes.md"},
    {"a\\(b\\)c.md", "a(b)c.md"},
    {"path\\\\\\\\back.md", "path\\\\back.md"},
    {"src/\\*.ts", "src/\\*.ts"},
    {"mailto:x@y", "mailto:x@y"},
    {"HTTPS:/a/b?", "HTTPS:/a/b?"},
    {"docs/{a,b}.md#x?y", "docs/{a,b}.md#x?y"},
    {"1http://x", "1http://x"},
    {"C:\\\\dir\\\\f.txt", "C:\\dir\\f.txt"},
};

struct url_case {
    std::string_view raw;
    std::string_view scheme;
    std::optional<std::string_view> username, password, hostname;
    std::optional<std::uint32_t> port;
    std::string_view pathname;
    std::optional<std::string_view> query, fragment;
};

const url_case k_urls[] = {
    {"worker:///x", "worker", {}, {}, {}, {}, "/x", {}, {}},
    {"known://entries/foo", "known", {}, {}, "entries", {}, "/foo", {}, {}},
    {"HTTPS://EXAMPLE.COM:443/A/./b/../c", "https", {}, {}, "example.com", {}, "/A/c", {}, {}},
    {"https://user:pw@example.com:8080/p", "https", "user", "pw", "example.com", 8080, "/p", {}, {}},
    {"https://example.com/x?", "https", {}, {}, "example.com", {}, "/x", "", {}},
    {"https://h/p?a=1&a=2#", "https", {}, {}, "h", {}, "/p", "a=1&a=2", {}},
    {"https://h/p#c%20d", "https", {}, {}, "h", {}, "/p", {}, "c%20d"},
    {"log:///..?#a b", "log", {}, {}, {}, {}, "", "", "a%20b"},
    {"https://en.wikipedia.org/wiki/Igor_Smirnov_(politician)", "https", {}, {}, "en.wikipedia.org", {},
     "/wiki/Igor_Smirnov_(politician)", {}, {}},
    {"https://example.com/%7Euser/\\(x\\)", "https", {}, {}, "example.com", {}, "/%7Euser/(x)", {}, {}},
    {"sh://bücher.example/?ä=ü", "sh", {}, {}, "b%C3%BCcher.example", {}, "/", "%C3%A4=%C3%BC", {}},
    {"http://bücher.example/", "http", {}, {}, "xn--bcher-kva.example", {}, "/", {}, {}},
    {"ftp://h:21/", "ftp", {}, {}, "h", {}, "/", {}, {}},
    {"foo://h/p#a?b", "foo", {}, {}, "h", {}, "/p", "b", "a?b"},  // query from the href's first `?` (BEHAVIOUR §3.4)
    {"node://user@example.com:0/x", "node", "user", {}, "example.com", 0, "/x", {}, {}},
};

struct error_case {
    std::string_view raw;
    std::string_view message;
};

const error_case k_errors[] = {
    {"https://a b/", "invalid URI in path"},
    {"ftp://h:99999/", "invalid URI in path"},
    {"http://[::1/", "invalid URI in path"},
    {"https://h/p {A: 1} {B: 2}", "invalid request metadata: expected a `{name: value}` block"},
    {"https://h/p {A: 1}}", "invalid request metadata: expected a `{name: value}` block"},
    {"log:///1/2/{3", "invalid request metadata: unclosed `{name: value}` block"},
    {"https://h/p {A 1}", "invalid request metadata: missing `:` separator"},
    {"https://h/p {: v}", "invalid request metadata: empty name"},
    {"https://h/p { \t: v}", "invalid request metadata: empty name"},
    // Metadata is checked before the URL.
    {"mailto://[1:2::3:0 {: v}", "invalid request metadata: empty name"},
};

}  // namespace

TEST_CASE("parse_path: empty input is no path", "[path]") {
    const auto r = plurnk::parse_path("");
    REQUIRE(r.ok());
    CHECK_FALSE(r.value().has_value());
}

TEST_CASE("parse_path: local paths", "[path]") {
    for (const auto& c : k_local) {
        CAPTURE(c.raw);
        const auto r = plurnk::parse_path(c.raw);
        REQUIRE(r.ok());
        REQUIRE(r.value());
        CHECK(r.value()->kind == parsed_path::kind_t::local);
        CHECK(r.value()->raw == c.decoded);
    }
}

TEST_CASE("parse_path: URL decomposition", "[path]") {
    for (const auto& c : k_urls) {
        CAPTURE(c.raw);
        const auto r = plurnk::parse_path(c.raw);
        REQUIRE(r.ok());
        REQUIRE(r.value());
        const auto& p = *r.value();
        CHECK(p.kind == parsed_path::kind_t::url);
        CHECK(p.scheme == c.scheme);
        CHECK(p.username == c.username);
        CHECK(p.password == c.password);
        CHECK(p.hostname == c.hostname);
        CHECK(p.port == c.port);
        CHECK(p.pathname == c.pathname);
        CHECK(p.query == c.query);
        CHECK(p.fragment == c.fragment);
        CHECK_FALSE(p.headers);
    }
}

TEST_CASE("parse_path: request metadata blocks", "[path]") {
    const auto r = plurnk::parse_path("https://api.example.com/v1/items {Authorization: Bearer t}{X-Trace: a:b }{k: }");
    REQUIRE(r.ok());
    REQUIRE(r.value());
    const auto& p = *r.value();
    CHECK(p.raw == "https://api.example.com/v1/items {Authorization: Bearer t}{X-Trace: a:b }{k: }");
    CHECK(p.pathname == "/v1/items");
    REQUIRE(p.headers);
    const std::vector<std::pair<std::string, std::string>> want = {
        {"Authorization", "Bearer t"}, {"X-Trace", "a:b"}, {"k", ""}};
    REQUIRE(p.headers->size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        CHECK((*p.headers)[i].name == want[i].first);
        CHECK((*p.headers)[i].value == want[i].second);
    }
    // Braces stay literal in local paths.
    const auto local = plurnk::parse_path("docs/{a: b}");
    REQUIRE(local.ok());
    REQUIRE(local.value());
    CHECK(local.value()->kind == parsed_path::kind_t::local);
}

TEST_CASE("parse_path: errors", "[path]") {
    for (const auto& c : k_errors) {
        CAPTURE(c.raw);
        const auto r = plurnk::parse_path(c.raw);
        REQUIRE_FALSE(r.ok());
        CHECK(r.problem().message == c.message);
        CHECK(r.problem().offset == 0);
    }
}

TEST_CASE("parse_resource_selection", "[path]") {
    struct sel_case {
        std::string_view raw;
        bool has_selection;
        std::string_view target_raw;
        std::vector<double> marks;  // empty: no marker
    };
    const sel_case cases[] = {
        {"known:///archive#notes<1,3,1,3>", true, "known:///archive#notes", {1, 3, 1, 3}},
        {"docs/{a,b}.md<-1>", true, "docs/{a,b}.md", {-1}},
        {"a.md<1-5>", true, "a.md", {1, 5}},
        {"a.md<0--5>", true, "a.md", {0, -5}},
        {"a.md<1, -1>", true, "a.md", {1, -1}},
        {"a.md<0.7,11,20>", true, "a.md", {0.7, 11, 20}},
        {"a.md<1,  2>", true, "a.md<1,  2>", {}},
        {"a.md<a>", true, "a.md<a>", {}},
        {"a.md<>", true, "a.md<>", {}},
        {"notes.md", true, "notes.md", {}},
        {"<2,3>", false, "", {}},
        {"", false, "", {}},
    };
    for (const auto& c : cases) {
        CAPTURE(c.raw);
        const auto r = plurnk::parse_resource_selection(c.raw);
        REQUIRE(r.ok());
        const std::optional<plurnk::selection_value>& sel = r.value();
        REQUIRE(sel.has_value() == c.has_selection);
        if (!sel) continue;
        CHECK(sel->target.raw == c.target_raw);
        if (c.marks.empty()) {
            CHECK_FALSE(sel->marker);
        } else {
            REQUIRE(sel->marker);
            CHECK(std::ranges::equal(sel->marker->marks, c.marks));
        }
    }
    const auto bad = plurnk::parse_resource_selection("https://h/x {A 1}<2,3>");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.problem().message == "invalid request metadata: missing `:` separator");
    const auto url = plurnk::parse_resource_selection("known:///archive#notes<1,3,1,3>");
    REQUIRE(url.ok());
    REQUIRE(url.value());
    CHECK(url.value()->target.fragment == std::optional<std::string_view>("notes"));
}

TEST_CASE("glob detection", "[path]") {
    struct glob_case {
        std::string_view path;
        std::optional<std::size_t> index;
    };
    const glob_case cases[] = {
        {"notes.md", {}},
        {"src/**/*.ts", 4},
        {"lang/??.json", 5},
        {"src/[ab]*.c", 4},
        {"src/[ab.c", {}},
        {"docs/{a,b}.md", 5},
        {"docs/{1..3}.md", 5},
        {"docs/{a}.md", {}},
        {"x/@(a|b).md", 2},
        {"x/!(a).md", 2},
        {"x/+(a).md", 2},
        {"x/a!b", {}},
        {"x/@(a", {}},
        {"a\\*b", 1},
        {"trailing\\", {}},
        {"x/{a,\\b}", 2},
        {"x/{{a,b}", 3},
        {"x/{a{b}}", {}},
        {"x/{a{b,c}}", 4},
        {"x/[\\]", 3},
        {"x/[]]", 2},
        {"x/[]", {}},
        {"x/[!]", {}},
        {"x/a@(b)", 3},
        {"x/((a))", {}},
        {"", {}},
    };
    for (const auto& c : cases) {
        CAPTURE(c.path);
        CHECK(plurnk::glob_magic_index(c.path) == c.index);
        CHECK(plurnk::has_glob(c.path) == c.index.has_value());
    }
}

TEST_CASE("worker names and reserved authorities", "[path]") {
    CHECK(plurnk::is_worker_name("recheck"));
    CHECK(plurnk::is_worker_name("capital-checker"));
    CHECK(plurnk::is_worker_name("a"));
    CHECK(plurnk::is_worker_name("self"));
    CHECK(plurnk::is_worker_name(std::string(63, 'a')));
    CHECK_FALSE(plurnk::is_worker_name(std::string(64, 'a')));
    CHECK_FALSE(plurnk::is_worker_name(""));
    CHECK_FALSE(plurnk::is_worker_name("Bad"));
    CHECK_FALSE(plurnk::is_worker_name("-a"));
    CHECK_FALSE(plurnk::is_worker_name("a-"));
    CHECK_FALSE(plurnk::is_worker_name("Bad_Name"));
    CHECK_FALSE(plurnk::is_worker_name("~"));
    CHECK(plurnk::is_reserved_authority("commons"));
    CHECK(plurnk::is_reserved_authority("plurnk"));
    CHECK_FALSE(plurnk::is_reserved_authority("recheck"));
}

// The `-url-` vectors: `<<READ(target)::READ`, expecting one statement whose target is the
// ParsedPath, or one visitor error. Rebuild that item around parse_path and compare the JSON.
TEST_CASE("conformance: url vectors", "[path][conformance]") {
    std::string file(__FILE__);
    file = file.substr(0, file.find_last_of("/\\") + 1) + "conformance/parser.jsonl";
    std::ifstream in(file);
    if (!in) SKIP("conformance file not found: " << file);
    std::string line;
    int total = 0;
    int passed = 0;
    while (std::getline(in, line)) {
        if (line.find("-url-") == std::string::npos) continue;
        const auto v = plurnk::parse_json(line);
        REQUIRE(v);
        const auto* id = v->find("id");
        if (id == nullptr || id->string.find("-url-") == std::string::npos) continue;
        const std::string& input = v->find("input")->string;
        const std::string target = input.substr(7, input.size() - 14);  // <<READ( ... )::READ
        const auto r = plurnk::parse_path(target);
        plurnk::parse_result pr;
        if (!r) {
            plurnk::diagnostic d;
            d.position = {1, 0};
            d.source = plurnk::source::visitor;
            d.message = r.problem().message;
            pr.items.emplace_back(d);
        } else {
            plurnk::statement s;
            s.op = plurnk::op::READ;
            s.target = r.value();
            s.position = {1, 0};
            pr.items.emplace_back(s);
        }
        ++total;
        const std::string got = plurnk::to_json(pr);
        const std::string want = plurnk::stringify_json(*v->find("expected"));
        if (got == want) {
            ++passed;
        } else {
            UNSCOPED_INFO(id->string << "\n  want " << want << "\n  got  " << got);
        }
    }
    CHECK(total == 2000);
    CHECK(passed == total);
}
