// SPDX-License-Identifier: MIT
// Table-driven tests for plurnk::parse_url, the WHATWG URL parser (no base URL). Each expected
// row was taken from Node 20's global `URL` (ada 2.9), the reference implementation's parser:
// {input, href, hostname, port, pathname, search, hash}, or a failure row.
#include <catch2/catch_test_macros.hpp>

#include <string>
#include <string_view>

#include "plurnk/plurnk.hpp"

namespace {

struct url_case {
    std::string_view input;
    bool ok;
    std::string_view href, hostname, port, pathname, search, hash;
};

constexpr url_case k_fail(std::string_view input) { return {input, false, {}, {}, {}, {}, {}, {}}; }

const url_case k_cases[] = {
    // Special schemes: lowercasing, default ports, dot segments, userinfo encoding.
    {"HTTP://EXAMPLE.COM:80/a/../b?x#y", true, "http://example.com/b?x#y", "example.com", "", "/b", "?x", "#y"},
    {"http://user:pa ss@h/", true, "http://user:pa%20ss@h/", "h", "", "/", "", ""},
    {"https://h:443/", true, "https://h/", "h", "", "/", "", ""},
    {"https://h:0443/", true, "https://h/", "h", "", "/", "", ""},
    {"http://[::1]:8080/", true, "http://[::1]:8080/", "[::1]", "8080", "/", "", ""},
    {"http:/\\\\h//p", true, "http://h//p", "h", "", "//p", "", ""},
    {"http://@h/", true, "http://h/", "h", "", "/", "", ""},
    k_fail("http://h@/"),
    k_fail("http://h:65536/"),
    k_fail("http://exa mple/"),
    k_fail("no-scheme"),
    k_fail("1http://h/"),
    // IPv4: hex, octal, shortened forms, trailing dot, overflow.
    {"http://0x7f.1/", true, "http://127.0.0.1/", "127.0.0.1", "", "/", "", ""},
    {"http://0300.0250.0.1/", true, "http://192.168.0.1/", "192.168.0.1", "", "/", "", ""},
    {"http://4294967295/", true, "http://255.255.255.255/", "255.255.255.255", "", "/", "", ""},
    {"http://1.2.3.4./", true, "http://1.2.3.4/", "1.2.3.4", "", "/", "", ""},
    k_fail("http://4294967296/"),
    k_fail("http://1.2.3.4.5/"),
    k_fail("http://1.2.3.09/"),
    k_fail("http://a.09/"),
    // IPv6: compression, embedded IPv4, serialization.
    {"http://[1:0:0:0:0:0:0:1]/", true, "http://[1::1]/", "[1::1]", "", "/", "", ""},
    {"http://[::ffff:192.168.0.1]/", true, "http://[::ffff:c0a8:1]/", "[::ffff:c0a8:1]", "", "/", "", ""},
    {"http://[0:0:0:0:1:0:0:0]/", true, "http://[::1:0:0:0]/", "[::1:0:0:0]", "", "/", "", ""},
    k_fail("http://[1::2::3]/"),
    k_fail("http://[::1/"),
    // IDNA / UTS #46.
    {"http://bücher.example/", true, "http://xn--bcher-kva.example/", "xn--bcher-kva.example", "", "/", "", ""},
    {"http://xn--bcher-kva.example/", true, "http://xn--bcher-kva.example/", "xn--bcher-kva.example", "", "/", "", ""},
    {"http://faß.de/", true, "http://xn--fa-hia.de/", "xn--fa-hia.de", "", "/", "", ""},
    {"http://Ⅷ.com/", true, "http://viii.com/", "viii.com", "", "/", "", ""},
    {"http://a\xC2\xAD" "b/", true, "http://ab/", "ab", "", "/", "", ""},
    {"http://%41.com/", true, "http://a.com/", "a.com", "", "/", "", ""},
    {"http://\xD9\xA3/", true, "http://xn--cib/", "xn--cib", "", "/", "", ""},
    {"http://xn--a-/", true, "http://xn--a-/", "xn--a-", "", "/", "", ""},
    // RFC 3492 §7.1 samples, full-width mapping, NFC composition (Hangul jamo, e + U+0301).
    {"http://他们为什么不说中文/", true, "http://xn--ihqwcrb4cv8a8dqg056pqjye/", "xn--ihqwcrb4cv8a8dqg056pqjye", "", "/", "", ""},
    {"http://ليهمابتكلموشعربي؟/", true, "http://xn--egbpdaj6bu4bxfgehfvwxn/", "xn--egbpdaj6bu4bxfgehfvwxn", "", "/", "", ""},
    {"http://Pročprostěnemluvíčesky/", true, "http://xn--proprostnemluvesky-uyb24dma41a/",
     "xn--proprostnemluvesky-uyb24dma41a", "", "/", "", ""},
    {"http://ドメイン名例/", true, "http://xn--eckwd4c7cu47r2wf/", "xn--eckwd4c7cu47r2wf", "", "/", "", ""},
    {"http://Ｅｘａｍｐｌｅ．ｃｏｍ/", true, "http://example.com/", "example.com", "", "/", "", ""},
    {"http://\xE1\x84\x80\xE1\x85\xA1\xE1\x86\xA8.com/", true, "http://xn--p39a.com/", "xn--p39a.com", "", "/", "", ""},
    {"http://e\xCC\x81\xCC\x81.com/", true, "http://xn--9ca68h.com/", "xn--9ca68h.com", "", "/", "", ""},
    k_fail("http://xn--/"),
    k_fail("http://xn--a/"),
    k_fail("http://%C2%AD/"),
    k_fail("http://%zz/"),
    k_fail("http://\xD7\x90" "a/"),  // bidi: an RTL label may not end in L
    k_fail("http://a\xE2\x80\x8C" "b/"),  // ZWNJ without joining context
    // file: drive letters, localhost, host-less paths.
    {"file:///C|/x/../..", true, "file:///C:/", "", "", "/C:/", "", ""},
    {"file://localhost/etc", true, "file:///etc", "", "", "/etc", "", ""},
    {"file:c:\\\\x", true, "file:///c://x", "", "", "/c://x", "", ""},
    {"file:///a:b/..", true, "file:///a:b/", "", "", "/a:b/", "", ""},
    // Non-special schemes: opaque hosts, opaque paths, the `/.` guard.
    {"sc://ä/x?y#z", true, "sc://%C3%A4/x?y#z", "%C3%A4", "", "/x", "?y", "#z"},
    {"sc:opaque path?q", true, "sc:opaque path?q", "", "", "opaque path", "?q", ""},
    {"javascript:alert(1)", true, "javascript:alert(1)", "", "", "alert(1)", "", ""},
    {"non-spec:/.//p", true, "non-spec:/.//p", "", "", "//p", "", ""},
    {"foo://", true, "foo://", "", "", "", "", ""},
    {"x:///..", true, "x://", "", "", "", "", ""},
    k_fail("sc://a b/"),
    // Percent-encode sets (ada 2.9 leaves `^` in paths).
    {"foo://h/a^b`{}", true, "foo://h/a^b%60%7B%7D", "h", "", "/a^b%60%7B%7D", "", ""},
    {"http://h/?a'b", true, "http://h/?a%27b", "h", "", "/", "?a%27b", ""},
    {"foo://h/?a'b", true, "foo://h/?a'b", "h", "", "/", "?a'b", ""},
    {"http://h/#a b`", true, "http://h/#a%20b%60", "h", "", "/", "", "#a%20b%60"},
    // Trimming and tab/newline removal; ada's verbatim-path shortcut.
    {"  http://h/\t\n a \x01", true, "http://h/%20a", "h", "", "/%20a", "", ""},
    {"http://a/b/.x/../c", true, "http://a/b/.x/../c", "a", "", "/b/.x/../c", "", ""},
};

}  // namespace

TEST_CASE("parse_url matches Node's URL", "[url]") {
    for (const auto& c : k_cases) {
        CAPTURE(c.input);
        const plurnk::result<plurnk::url_record> r = plurnk::parse_url(c.input);
        REQUIRE(r.ok() == c.ok);
        if (!r) {
            CHECK(r.problem().message == "Invalid URL");
            CHECK(r.problem().offset == 0);
            continue;
        }
        const plurnk::url_record* u = &r.value();
        CHECK(u->href == c.href);
        CHECK(u->hostname == c.hostname);
        CHECK(u->port == c.port);
        CHECK(u->pathname == c.pathname);
        CHECK(u->search == c.search);
        CHECK(u->hash == c.hash);
    }
}

TEST_CASE("parse_url splits userinfo and protocol", "[url]") {
    const plurnk::result<plurnk::url_record> r = plurnk::parse_url("GIT+SSH://a:b:c@host:22/x");
    REQUIRE(r);
    const plurnk::url_record* u = &r.value();
    CHECK(u->protocol == "git+ssh:");
    CHECK(u->username == "a");
    CHECK(u->password == "b%3Ac");
    CHECK(u->hostname == "host");
    CHECK(u->port == "22");
}

TEST_CASE("parse_url survives hostile input", "[url]") {
    // Ill-formed UTF-8, NULs and long runs must neither crash nor read past the view.
    const std::string_view bad("http://h/\xFF\xC0\x80\0x", 14);
    const plurnk::result<plurnk::url_record> r = plurnk::parse_url(bad);
    REQUIRE(r);
    const plurnk::url_record* u = &r.value();
    CHECK(u->pathname == "/%EF%BF%BD%EF%BF%BD%EF%BF%BD%00x");
    std::string long_host = "http://" + std::string(100000, 'a') + "\xC3\xA4/";
    CHECK(plurnk::parse_url(long_host).ok());
    CHECK_FALSE(plurnk::parse_url(std::string_view("http://[", 8)).ok());
    CHECK_FALSE(plurnk::parse_url("").ok());
}
