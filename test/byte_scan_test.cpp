// SPDX-License-Identifier: MIT
// The bulk byte searches (lib/base/byte_scan.hpp) against their one-byte-at-a-time definitions:
// every start and end of random texts dense in the searched bytes, at every alignment of the
// 16-, 32- and 64-byte steps, and the texts made of the searched bytes alone.
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <random>
#include <string>
#include <vector>

#include "base/byte_scan.hpp"
#include "base/fast_paths.hpp"
#include "lex/lexer.hpp"

namespace {

namespace bs = plurnk::detail::byte_scan;

std::vector<std::size_t> each_bulk(const std::string& s, std::size_t from, std::size_t to, char c) {
    std::vector<std::size_t> out;
    bs::each(s, from, to, c, [&](std::size_t i) { out.push_back(i); });
    return out;
}
std::vector<std::size_t> each_plain(const std::string& s, std::size_t from, std::size_t to, char c) {
    std::vector<std::size_t> out;
    bs::each_plain(s, from, to, c, [&](std::size_t i) { out.push_back(i); });
    return out;
}

// Text of `n` bytes, each drawn from `alphabet`.
std::string random_text(std::mt19937& rng, std::size_t n, const std::string& alphabet) {
    std::string s(n, ' ');
    for (char& c : s) c = alphabet[rng() % alphabet.size()];
    return s;
}

}  // namespace

TEST_CASE("byte_scan: each(), count() and last() agree with their plain forms at every start and end", "[byte_scan]") {
    std::mt19937 rng(33);
    std::size_t checks = 0;
    for (const std::string alphabet : {"\nab", "\nabcdefghijklmnopqrstuvwxyz0123456789", "\n", "a", "\n\x8a\xff\x0a"}) {
        for (const std::size_t n : {0, 1, 15, 16, 17, 63, 64, 65, 130, 200}) {
            const std::string s = random_text(rng, n, alphabet);
            for (std::size_t from = 0; from <= n; ++from) {
                for (std::size_t to = from; to <= n; ++to) {
                    INFO("alphabet size " << alphabet.size() << ", length " << n << ", [" << from << ", " << to << ")");
                    REQUIRE(each_bulk(s, from, to, '\n') == each_plain(s, from, to, '\n'));
                    REQUIRE(bs::count(s, from, to, '\n') == bs::count_plain(s, from, to, '\n'));
                    REQUIRE(bs::last(s, from, to, '\n') == bs::last_plain(s, from, to, '\n'));
                    ++checks;
                }
            }
            for (std::size_t at = 0; at + 64 <= n; ++at) REQUIRE(bs::mask64(s.data() + at, '\n') == bs::mask64_plain(s.data() + at, '\n'));
        }
    }
    // A byte with the high bit set (a signed char).
    const std::string hi = random_text(rng, 300, "\xe9\xc3x");
    for (std::size_t from = 0; from < 100; ++from) REQUIRE(each_bulk(hi, from, hi.size(), '\xe9') == each_plain(hi, from, hi.size(), '\xe9'));
    CHECK(checks > 20000);
}

TEST_CASE("byte_scan: pair() and pair_near() find the first byte followed by the other, or by the end", "[byte_scan]") {
    std::mt19937 rng(34);
    std::size_t checks = 0;
    // ':' then 'E', as a body's close tag `:EDIT`: many ':' not followed by 'E', 'E' not after
    // ':', runs of ':', and texts of ':' alone (the last ':' is the answer: the end follows it).
    for (const std::string alphabet : {":Ex", ":x", "::::E", ":", "E", "x", ":Eabcdefghijklmnopqrstuvwxyz"}) {
        for (const std::size_t n : {0, 1, 2, 16, 17, 18, 32, 33, 34, 48, 49, 64, 65, 100, 257}) {
            for (int round = 0; round < 4; ++round) {
                const std::string s = random_text(rng, n, alphabet);
                for (std::size_t from = 0; from <= n; ++from) {
                    INFO("text " << s << ", from " << from);
                    REQUIRE(bs::pair(s, from, ':', 'E') == bs::pair_plain(s, from, ':', 'E'));
                    REQUIRE(bs::pair_near(s, from, ':', 'E') == bs::pair_plain(s, from, ':', 'E'));
                    REQUIRE(bs::pair_calls(s, from, ':', 'E') == bs::pair_plain(s, from, ':', 'E'));
#if defined(__SSE2__)
                    REQUIRE(bs::pair_bulk(s, from, ':', 'E') == bs::pair_plain(s, from, ':', 'E'));
#endif
                    ++checks;
                }
            }
        }
    }
    // The one match at each place of a long text, and at each place counted from each start.
    for (std::size_t at = 0; at < 100; ++at) {
        std::string s(100, ':');
        s[at] = 'E';  // ':' followed by 'E' only at at - 1 (or the last ':' when at is 0)
        for (std::size_t from = 0; from < 100; ++from) {
            INFO("E at " << at << ", from " << from);
            REQUIRE(bs::pair(s, from, ':', 'E') == bs::pair_plain(s, from, ':', 'E'));
            REQUIRE(bs::pair_near(s, from, ':', 'E') == bs::pair_plain(s, from, ':', 'E'));
#if defined(__SSE2__)
            REQUIRE(bs::pair_bulk(s, from, ':', 'E') == bs::pair_plain(s, from, ':', 'E'));
#endif
        }
    }
    // A second byte with the high bit set (a negative char).
    for (std::size_t n : {40, 100}) {
        const std::string s = random_text(rng, n, ":\xe9\xc3x");
        for (std::size_t from = 0; from <= n; ++from) {
            REQUIRE(bs::pair_near(s, from, ':', '\xe9') == bs::pair_plain(s, from, ':', '\xe9'));
            REQUIRE(bs::pair(s, from, ':', '\xe9') == bs::pair_plain(s, from, ':', '\xe9'));
        }
    }
    const std::string colons(1000, ':');
    CHECK(bs::pair(colons, 0, ':', 'E') == 999);
    CHECK(bs::pair(colons, 1000, ':', 'E') == 1000);
    CHECK(bs::pair(std::string(1000, 'x'), 0, ':', 'E') == 1000);
    CHECK(bs::pair_near(colons, 0, ':', 'E') == 999);
    CHECK(bs::pair_near(std::string(1000, 'x'), 0, ':', 'E') == 1000);
    CHECK(checks > 10000);
}

TEST_CASE("byte_scan: prefix() matches as much of a literal as prefix_plain(), at every place, length and split", "[byte_scan]") {
    std::mt19937 rng(36);
    std::size_t checks = 0, whole = 0;
    // Literals of 1 to 10 bytes (the word compare takes 4 to 8) over texts made of their own
    // bytes and one other, so that whole matches, a difference at every place (first word, last
    // word, the bytes both words share) and a text that ends inside the literal all occur.
    for (std::size_t len = 1; len <= 10; ++len) {
        const std::string lit = random_text(rng, len, "EDIT");
        for (const std::size_t n : {0, 1, 3, 4, 5, 8, 9, 12, 40}) {
            for (int round = 0; round < 16; ++round) {
                std::string s = random_text(rng, n, "EDITx");
                // Plant the literal (or most of it) somewhere, so whole matches are common.
                if (n > 0) {
                    const std::size_t at = rng() % n;
                    for (std::size_t i = 0; i < len && at + i < n; ++i) s[at + i] = lit[i];
                    if (round % 4 == 1) s[at + rng() % std::min(len, n - at)] = 'x';
                }
                for (std::size_t k = 0; k <= n + 1; ++k) {
                    for (std::size_t from = 0; from <= std::min(len, 2UL); ++from) {
                        const std::size_t want = bs::prefix_plain(s, k, lit, from);
                        INFO("text " << s << ", literal " << lit << ", at " << k << ", from " << from);
                        REQUIRE(bs::prefix(s, k, lit, from) == want);
                        whole += want == len ? 1 : 0;
                        ++checks;
                    }
                }
            }
        }
    }
    static_assert(bs::prefix("<<EDITx", 2, "EDITx") == 5 && bs::prefix("<<EDIT", 2, "EDITx") == 4);
    CHECK(whole > 1000);
    CHECK(checks > 20000);
}

TEST_CASE("byte_scan: first_of() finds the first byte of the set, at every start", "[byte_scan]") {
    std::mt19937 rng(35);
    std::size_t checks = 0;
    // The target text's stops (scan::target), dense or rare, and a set with a high-bit byte.
    constexpr std::array<char, 6> set = {'\\', '(', ')', '\r', '\n', '<'};
    for (const std::string alphabet : {"\\()\r\n<ab", "abcdefghijklmnopqrstuvwxyz/.:)", "x", ")", "\n\xe9<"}) {
        for (const std::size_t n : {0, 1, 15, 16, 17, 31, 32, 33, 47, 48, 49, 100}) {
            for (int round = 0; round < 4; ++round) {
                const std::string s = random_text(rng, n, alphabet);
                for (std::size_t from = 0; from <= n; ++from) {
                    INFO("text " << s << ", from " << from);
                    REQUIRE(bs::first_of(s, from, set) == bs::first_of_plain(s, from, set));
                    ++checks;
                }
            }
        }
    }
    // The one stop at each place of a text, from each start.
    for (std::size_t at = 0; at < 70; ++at) {
        std::string s(70, 'a');
        s[at] = ')';
        for (std::size_t from = 0; from <= 70; ++from) {
            INFO(") at " << at << ", from " << from);
            REQUIRE(bs::first_of(s, from, set) == (from <= at ? at : 70));
        }
    }
    constexpr std::array<char, 2> hi = {'\xe9', 'q'};
    const std::string h = random_text(rng, 300, "\xe9\xc3xq");
    for (std::size_t from = 0; from < 100; ++from) REQUIRE(bs::first_of(h, from, hi) == bs::first_of_plain(h, from, hi));
    CHECK(checks > 8000);
}

// holds() (the fast target reader's search of a local path for a backslash) against
// holds_plain() at every length up to 40 and every place of one byte, or none: in a buffer with
// that byte on both sides of the view, so that a byte read outside it would be seen.
TEST_CASE("byte_scan: holds() finds one byte at every length and place, reading none outside", "[byte_scan]") {
    for (std::size_t n = 0; n <= 40; ++n) {
        for (std::size_t at = 0; at <= n; ++at) {  // at == n: none
            std::string buf(n + 32, '\\');
            for (std::size_t k = 0; k < n; ++k) buf[16 + k] = k == at ? '\\' : 'a';
            const std::string_view s = std::string_view(buf).substr(16, n);
            INFO(n << " bytes, the byte at " << at);
            REQUIRE(bs::holds_plain(s, '\\') == (at < n));
            REQUIRE(bs::holds(s, '\\') == (at < n));
        }
    }
}

// --- the body's close tag, as the lexer finds it with pair() ---------------------------------

namespace {

using plurnk::detail::tok;

// The body_text and close_tag tokens of the first statement of `in`, as "[b,e) [c,d)", lexed
// with the whole-statement reader on or off, one-shot (chunks empty) or fed in the given chunk
// lengths, deferring or not.
std::string body_and_close(std::string_view in, bool fast, const std::vector<std::size_t>& chunks, bool defer) {
    const plurnk::detail::fast_paths_scope s({.lexer = fast});
    plurnk::detail::stream_lexer lx(64);
    lx.set_deferral(defer);
    std::size_t upto = 0;
    for (const std::size_t c : chunks) {
        upto = std::min(in.size(), upto + c);
        lx.advance(in.substr(0, upto), false);
    }
    lx.advance(in, true);
    std::string out;
    for (const plurnk::detail::token& t : lx.output().tokens) {
        if (t.kind == tok::body_text || t.kind == tok::close_tag) {
            out += '[';
            ((out += std::to_string(t.begin)) += ',') += std::to_string(t.end) + ") ";
            if (t.kind == tok::close_tag) break;
        }
    }
    return out;
}

}  // namespace

TEST_CASE("byte_scan: the body's close is found past every ':' that starts no close, fed at every split",
          "[byte_scan]") {
    // Bodies of ':' alone, of ':' before every byte but the tag's first, and of near misses of the
    // tag (`:E`, `:EDIT` before a word character, `:EDITX`), shifted across the bulk search's
    // 16- and 32-byte steps; then `:EDITx` closes. The body and the close must be where they are,
    // one-shot and fed in chunks of 1 to 64 bytes and in two at every place (a close tag split
    // between two feeds, a ':' at the end of a feed), with the whole-statement reader on and off.
    const std::string open = "<<EDITx(a):";
    const std::string close = ":EDITx";
    const std::vector<std::string> noise = {
        std::string(70, ':'),
        ":a:b::c:::d:\n:\r\n:x:y:E:ED:EDI:EDIT:EDITy:EDITx_:EDITx1:EDITX::::::::::::::::::::::EDIT",
        "a:EDITxb :EDITxx \xc3\xa9:\xc3\xa9 :\t:EDITx9:EDITxA:" + std::string(40, 'z') + ":",
    };
    std::size_t runs = 0;
    for (const std::string& body0 : noise) {
        for (const std::size_t pad : {0, 1, 15, 16, 17, 31, 32, 33}) {
            const std::string body = std::string(pad, 'p') + body0;
            const std::string in = open + body + close + "\n<<READ(b)::READ\n";
            const std::size_t b = open.size(), c = b + body.size();
            std::string want = "[";
            want += std::to_string(b) + "," + std::to_string(c) + ") [" + std::to_string(c) + "," +
                    std::to_string(c + close.size()) + ") ";
            std::vector<std::vector<std::size_t>> feeds = {{}, {1}, {2}, {3}, {16}, {31}, {32}, {33}, {64}};
            for (std::vector<std::size_t>& f : feeds) {
                if (f.size() == 1) f.assign(in.size() / f[0] + 1, f[0]);
            }
            for (std::size_t cut = b; cut <= c + close.size() + 1; ++cut) feeds.push_back({cut});
            for (const std::vector<std::size_t>& f : feeds) {
                for (const bool fast : {true, false}) {
                    for (const bool defer : {true, false}) {
                        INFO("pad " << pad << ", body " << body0 << ", feeds " << f.size() << " first "
                                    << (f.empty() ? 0 : f[0]) << ", fast " << fast << ", defer " << defer);
                        REQUIRE(body_and_close(in, fast, f, defer) == want);
                        ++runs;
                    }
                }
            }
        }
    }
    CHECK(runs > 5000);
}

TEST_CASE("byte_scan: count(), last(), mask64() and count_fixed() past a run and with a high-bit byte", "[byte_scan]") {
    // The position table's line ends over more than a run (254 * 16 bytes: a lane's count must
    // not wrap), made of the byte alone or dense in it.
    std::mt19937 rng(36);
    for (const std::string alphabet : {"\n", "\nab"}) {
        const std::string s = random_text(rng, 3 * 254 * 16 + 77, alphabet);
        for (std::size_t from = 0; from < 40; ++from) {
            for (const std::size_t to : {s.size(), s.size() - 1, s.size() - 17, std::size_t{254 * 16}, std::size_t{254 * 16 + 1}}) {
                REQUIRE(bs::count(s, from, to, '\n') == bs::count_plain(s, from, to, '\n'));
                REQUIRE(bs::last(s, from, to, '\n') == bs::last_plain(s, from, to, '\n'));
            }
        }
        for (std::size_t at = 0; at + 512 <= s.size(); at += 61) {
            REQUIRE(bs::count_fixed<512>(s.data() + at, '\n') == bs::count_plain(s, at, at + 512, '\n'));
            REQUIRE(bs::count_fixed<64>(s.data() + at, '\n') == bs::count_plain(s, at, at + 64, '\n'));
        }
    }
    // A byte with the high bit set (a signed char), and none at all.
    const std::string hi = random_text(rng, 300, "\xe9\xc3x");
    for (std::size_t from = 0; from < 100; ++from) {
        REQUIRE(bs::count(hi, from, hi.size(), '\xe9') == bs::count_plain(hi, from, hi.size(), '\xe9'));
        REQUIRE(bs::last(hi, 0, hi.size() - from, '\xe9') == bs::last_plain(hi, 0, hi.size() - from, '\xe9'));
        REQUIRE(bs::mask64(hi.data() + from, '\xe9') == bs::mask64_plain(hi.data() + from, '\xe9'));
    }
    const std::string none(300, 'x');
    CHECK(bs::last(none, 3, 290, '\n') == 290);
    CHECK(bs::count(none, 0, 300, '\n') == 0);
}
