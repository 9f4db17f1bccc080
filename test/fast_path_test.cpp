// SPDX-License-Identifier: MIT
// Tests for the targets' fast path (lib/url/fast_path.hpp): a table of targets it must take
// (local paths and simple URLs), a table it must leave to the full parser, and, for those and
// for every target-like `(...)` text of the conformance vectors, the differential check of
// lib/url/fast_path_check.hpp: parse_path and parse_url agree with their full routes on every
// field; and the result builder's encoding of a fast-path target straight from its components
// reads back as the projected parsed_path does.
#include <catch2/catch_test_macros.hpp>

#include <cstddef>
#include <fstream>
#include <set>
#include <string>
#include <string_view>

#include "builder/fast_target.hpp"
#include "plurnk/plurnk.hpp"
#include "record_readback.hpp"
#include "url/fast_path.hpp"
#include "url/fast_path_check.hpp"

namespace {

using plurnk::url_detail::url_parts;

// Decoded targets the fast path reads itself.
constexpr std::string_view k_fast_local[] = {
    "notes.md", "src/**/*.ts", "./", "a\\(b\\)c.md", "mailto:x@y", "HTTPS:/a/b?", "1http://x",
    "docs/{a,b}.md#x?y", "C:\\\\dir\\\\f.txt", "http:/x", "-http://x", " https://h/",
};
constexpr std::string_view k_fast_url[] = {
    "worker:///x", "worker://peer-4", "worker://peer-4/notes/http-client.md", "log:///1/7/7",
    "known://entries/foo", "worker://", "worker:////x", "worker://h/a/", "worker://h?", "worker://h#",
    "worker://a.b_c~d-e/p", "worker://1.2.3.4/x", "node://example.com:0/x", "web+demo.x-y://h/p",
    "s3://bucket/key:with@marks!$&'()*+,;=", "foo://h/p#a?b", "foo://h/p#a?b#c?d", "foo://h#?",
    "http://example.com:8080/a/b?q#f", "https://example.com", "https://h:443/", "http://h:80",
    "ws://a.b-c.d/", "wss://h:444/", "ftp://h:21/", "http://h?x", "http://h#f", "https://h//x",
    "https://example.com/x?", "https://h/p?a=1&a=2#", "https://h/p?q=a%20b#f%20%zz",
    "https://en.wikipedia.org/wiki/Igor_Smirnov_\\(politician\\)", "https://h/.x/..y/...",
    "https://-a-.b-/", "http://h:65535/", "https://h/A/B?C#D",
    // Scheme lengths about the special schemes' 2 to 5 bytes, special or not.
    "a://h", "w://h", "ws://h", "wss://h", "ftp://h", "htt://h", "http://h", "ftps://h", "https://h",
    "httpx://h", "https1://h", "webdav://h/p",
    // Default ports vanish for their own scheme only; a non-special scheme keeps every port.
    "ws://h:443", "wss://h:80", "ftp://h:80", "http://h:443", "https://h:80", "httpx://h:80",
    "http://h:0/", "worker://h:0", "worker://h:65535", "worker://h:80/x",
    // %-escapes after the path; hosts that are neither IPv4 nor punycode.
    "https://h?%zz", "https://h/p?%2e#%2e", "worker://h#%", "http://a.b1/", "http://a1/",
    "http://xn-a.b/", "http://axn--b.c/",
    // Empty segments, and dots that make no dot segment.
    "worker://h//", "https://h/a//b/", "worker://h///", "https://h/a.", "https://h/.a/", "https://h/a/..b",
    "worker://h/a./b", "https://h/.../x", "https://h/x.?.", "https://h/x#/./",
};
// Targets it must decline: the full parser would change them, or might.
constexpr std::string_view k_declined[] = {
    "HTTPS://example.com/", "Worker://h/", "https://EXAMPLE.com/", "worker://Peer/",
    "https://user:pw@example.com/", "worker://user@h/", "https://example.com/a/./b", "log:///..",
    "worker://h/a/..", "worker://h/.", "https://h/%7Euser", "https://h/%2e/", "https://h/a b",
    "https://h/a\tb", "https://h/a\nb", "https://h/ ", "http://b\xC3\xBC" "cher.example/",
    "https://h/\xC3\xA4", "http://[::1]/", "worker://[::1]/", "http://127.0.0.1/", "http://0x7f.1/",
    "http://a.1/", "http://a.0x1/", "http://xn--bcher-kva.example/", "http://a.xn--p1ai/",
    "https://h/p {A: 1}", "worker://h/{x}", "http:///h", "http://\\\\h", "http://h\\\\x",
    "worker://h/a\\\\b", "file:///tmp/x", "file://h/x", "https://h:/", "https://h:080/",
    "https://h:00/", "https://h:65536/", "https://h:123456/", "https://h:8a/", "worker://:80/",
    "https://h/p?it's", "https://h/p\"", "https://h/<p>", "https://h/`", "worker://h/^",
    "https://h/p#`", "https://h?\"", "http://a..b/", "http://a./", "http://.a/", "http://h%41/",
    "https://", "https://?x", "https://#x", "worker://h:1/%", "worker://h/a|b", "worker://h/[x]",
    "worker://h!/", "http://h_/", "https://h/\x7F", "https://h/\x01",
    // The special schemes' prefixes and `file` in any length.
    "FTP://h", "Ws://h", "fiLe://h", "file://", "File:///x",
    // Ports one past each bound; a port with no digits or a sign.
    "worker://h:65536", "http://h:", "http://h:+1", "worker://h:-1", "ws://h:0443",
    // %-escapes in the path (`%2e` is a dot); IPv4 and IPv6 hosts of every form the fast path sees.
    "https://h/%2e%2e/", "worker://h/a%2Fb", "worker://h/%", "http://1.2.3.4/", "http://h.1/",
    "http://h.09/", "http://h.0x/", "http://1a/", "http://[::1]:8080/", "worker://[::1]/x", "http://xn--/", "http://a.xn--b/",
    // Dot segments first, last, before a query or a fragment, doubled.
    "https://h/./a", "https://h/a/./", "worker://h/.", "worker://h/a/../b", "https://h/..?q",
    "https://h/.#f", "http://h/a/..#", "worker://h//..", "worker://h/a/.././b",
};

bool took_fast(std::string_view raw, url_parts& parts) {
    std::string text;
    plurnk::url_detail::decode_target_escapes(raw, text);
    return plurnk::url_detail::parse_target_fast(text, parts);
}

// Every `(...)` of a vector's input, balanced as the lexer balances a target (escapes skipped,
// a newline ends it): more texts than the targets, which only widens the check.
void add_parenthesized(std::string_view in, std::set<std::string>& out) {
    for (std::size_t open = in.find('('); open != std::string_view::npos; open = in.find('(', open + 1)) {
        int depth = 0;
        for (std::size_t i = open + 1; i < in.size() && in[i] != '\n' && in[i] != '\r'; ++i) {
            if (in[i] == '\\') {
                ++i;
            } else if (in[i] == '(') {
                ++depth;
            } else if (in[i] == ')' && depth-- == 0) {
                out.emplace(in.substr(open + 1, i - open - 1));
                break;
            }
        }
    }
}

// The records of a READ whose target the fast path read from `text`, written as the result
// builder writes them (write_fast_target()).
plurnk::detail::stmt_rec fast_target_record(std::string_view text, const url_parts& parts,
                                            plurnk::detail::string_sink& sink) {
    plurnk::detail::stmt_rec rec;
    plurnk::detail::record_writer w(sink, rec);
    w.begin(plurnk::op::READ, {}, 0);
    plurnk::detail::write_fast_target(w, sink, text, parts);
    w.finish();
    return rec;
}

// The result builder stores a fast-path target straight from its components
// (write_fast_target()): "" when that reads back as the projected parsed_path does,
// the text both inside the input (a reference) and outside it (a copy in the arena).
std::string encoded_disagreement(std::string_view raw) {
    std::string text;
    plurnk::url_detail::decode_target_escapes(raw, text);
    url_parts parts;
    if (!plurnk::url_detail::parse_target_fast(text, parts)) return {};
    plurnk::statement projected;
    projected.op = plurnk::op::READ;
    projected.target = plurnk::url_detail::project_fast(text, parts);
    return plurnk_test::readback_disagreement(text, projected,
                                              [&](plurnk::detail::record_writer& w, plurnk::detail::string_sink& sink) {
                                                  plurnk::detail::write_fast_target(w, sink, text, parts);
                                              });
}

}  // namespace

TEST_CASE("fast path: local paths and simple URLs take it", "[fast_path]") {
    for (std::string_view raw : k_fast_local) {
        INFO(raw);
        url_parts parts;
        REQUIRE(took_fast(raw, parts));
        CHECK(parts.kind == url_parts::kind_t::local);
        CHECK(plurnk::url_detail::fast_path_disagreement(raw).empty());
    }
    for (std::string_view raw : k_fast_url) {
        INFO(raw);
        url_parts parts;
        REQUIRE(took_fast(raw, parts));
        CHECK(parts.kind == url_parts::kind_t::url);
        CHECK(plurnk::url_detail::fast_path_disagreement(raw) == "");
        CHECK(encoded_disagreement(raw) == "");
    }
}

// A URL the fast path read is stored as pieces of its text (url_sliced) when the text fits 16-bit
// offsets, else field by field; both read back as the projected parsed_path.
TEST_CASE("fast path: a URL's record, sliced or field by field", "[fast_path]") {
    for (const std::size_t n : {std::size_t{10}, std::size_t{65500}, std::size_t{70000}}) {
        const std::string raw = "https://example.com:8443/" + std::string(n, 'a') + "?q=1#top";
        INFO(raw.size());
        CHECK(encoded_disagreement(raw) == "");
        url_parts parts;
        REQUIRE(plurnk::url_detail::parse_target_fast(raw, parts));
        plurnk::detail::arena strings;
        plurnk::detail::string_sink sink(strings);
        sink.set_live(raw, 0);
        const plurnk::detail::stmt_rec rec = fast_target_record(raw, parts, sink);
        REQUIRE(rec.target_kind == 1);
        const auto has = *reinterpret_cast<const unsigned char*>(rec.target.address());
        CHECK(((has & plurnk::detail::url_sliced) != 0) == (raw.size() <= UINT16_MAX));
    }
}

TEST_CASE("fast path: what the full parser would change is declined", "[fast_path]") {
    for (std::string_view raw : k_declined) {
        INFO(raw);
        url_parts parts;
        CHECK_FALSE(took_fast(raw, parts));
        CHECK(plurnk::url_detail::fast_path_disagreement(raw) == "");
    }
}

TEST_CASE("fast path: components as offsets into the text", "[fast_path]") {
    const std::string_view text = "http://example.com:8080/a/b?q#f";
    url_parts u;
    REQUIRE(plurnk::url_detail::parse_target_fast(text, u));
    CHECK(u.scheme.of(text) == "http");
    CHECK(u.hostname.of(text) == "example.com");
    CHECK(u.has_port);
    CHECK(u.port_value == 8080);
    CHECK(u.pathname.of(text) == "/a/b");
    CHECK(u.query.of(text) == "q");
    CHECK(u.fragment.of(text) == "f");
    // A special URL without a path: the record's "/" is a slash of `://`; the default port vanishes.
    const std::string_view bare = "https://h:443";
    REQUIRE(plurnk::url_detail::parse_target_fast(bare, u));
    CHECK(u.pathname.of(bare) == "/");
    CHECK_FALSE(u.has_port);
    CHECK_FALSE(u.query.present);
    CHECK_FALSE(u.fragment.present);
    const std::string_view empty_parts = "worker://?#";
    REQUIRE(plurnk::url_detail::parse_target_fast(empty_parts, u));
    CHECK(u.hostname.present);
    CHECK(u.hostname.of(empty_parts).empty());
    CHECK(u.pathname.of(empty_parts).empty());
    CHECK(u.query.present);
    CHECK(u.query.of(empty_parts).empty());
    CHECK(u.fragment.present);
    CHECK(u.fragment.of(empty_parts).empty());
}

// parse_target_fast writes every field of a URL it takes (none is reset first): read after
// another target into the same url_parts, each URL's parts are those of a fresh read.
TEST_CASE("fast path: a url_parts reused from the target before", "[fast_path]") {
    const std::string_view seq[] = {
        "https://u:1/p?q#f", "worker://h", "http://example.com:8080/a/b?q#f", "https://h:443", "worker://?#",
        "src/a.md", "worker:///x", "foo://h/p#a?b", "ws://h:81", "https://h/a?", "log:///1/2", "https://h#",
    };
    url_parts reused;
    for (std::size_t r = 0; r < 2; ++r) {
        for (const std::string_view text : seq) {
            INFO(text);
            url_parts fresh;
            const bool took = plurnk::url_detail::parse_target_fast(text, fresh);
            REQUIRE(plurnk::url_detail::parse_target_fast(text, reused) == took);
            REQUIRE(reused.kind == fresh.kind);
            CHECK(plurnk::url_detail::project_fast(text, reused) == plurnk::url_detail::project_fast(text, fresh));
            if (fresh.kind != url_parts::kind_t::url) continue;
            plurnk::detail::arena strings;
            plurnk::detail::input_text input;
            input.set_borrowed(text);
            plurnk::detail::string_sink sink(strings);
            sink.set_live(text, 0);
            const plurnk::detail::text_resolver t{&input, UINT64_MAX, {}};
            const plurnk::detail::item_rec ir{};
            const plurnk::detail::stmt_rec a = fast_target_record(text, reused, sink);
            const plurnk::detail::stmt_rec b = fast_target_record(text, fresh, sink);
            CHECK(plurnk::detail::decode_statement(ir, a, t) == plurnk::detail::decode_statement(ir, b, t));
        }
    }
}

TEST_CASE("fast path: agrees with the full parser on the conformance targets", "[fast_path][conformance]") {
    std::set<std::string> targets;
    for (const char* name : {"/conformance/parser.jsonl", "/conformance/own.jsonl"}) {
        std::ifstream in(std::string(PLURNK_TEST_SOURCE_DIR) + name);
        REQUIRE(in);
        std::string line;
        while (std::getline(in, line)) {
            const auto v = plurnk::parse_json(line);
            REQUIRE(v);
            add_parenthesized(v->find("input")->string, targets);
        }
    }
    std::size_t fast_urls = 0;
    std::size_t urls = 0;
    std::size_t failures = 0;
    for (const std::string& raw : targets) {
        for (const std::string& d : {plurnk::url_detail::fast_path_disagreement(raw), encoded_disagreement(raw)}) {
            if (!d.empty()) {
                ++failures;
                UNSCOPED_INFO(raw << ": " << d);
            }
        }
        const auto p = plurnk::parse_path(raw);
        if (p.ok() && p.value() && p.value()->kind == plurnk::parsed_path::kind_t::url) {
            ++urls;
            url_parts parts;
            if (took_fast(raw, parts)) ++fast_urls;
        }
    }
    INFO(targets.size() << " targets, " << urls << " URLs, " << fast_urls << " of them on the fast path");
    CHECK(failures == 0);
    CHECK(targets.size() > 4000);
    CHECK(fast_urls > 0);
}
