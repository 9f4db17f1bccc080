// SPDX-License-Identifier: MIT
// position_map (lib/position.hpp): line and column of a byte offset, whatever order the queries
// come in. Hostile input asks for positions back and forth on one long line (an error per few
// bytes, reported in recording order); those must give the columns counted from the line's start
// and must not cost the line each.
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "base/position.hpp"
#include "base/utf8.hpp"
#include "base/work_counter.hpp"

namespace {

using plurnk::detail::position_map;

// The offsets a count from each line's start lands on (a column is defined there), with their
// line and column, walked the slow way.
struct place {
    std::size_t offset;
    std::uint32_t line, column;
};
std::vector<place> places(const std::string& s) {
    std::vector<place> out;
    std::uint32_t line = 1, col = 0;
    for (std::size_t i = 0; i <= s.size();) {
        out.push_back(place{i, line, col});
        if (i == s.size()) break;
        if (s[i] == '\n') {
            ++i;
            ++line;
            col = 0;
            continue;
        }
        const std::size_t len = static_cast<unsigned char>(s[i]) < 0x80 ? 1 : plurnk::detail::utf8_sequence_length(s, i);
        i += len == 0 ? 1 : len;
        ++col;
    }
    return out;
}

// Text of ASCII, two- to four-byte characters, invalid bytes and a newline now and then.
std::string random_text(std::mt19937& rng, std::size_t n, bool newlines) {
    static const char* const pieces[] = {"a", "b", " ", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x92\xA9", "\xC3", "\xA9",
                                         "\xFF", "\xE2\x82", "<<", ":"};
    std::uniform_int_distribution<std::size_t> pick(0, std::size(pieces) - 1), nl(0, 400);
    std::string s;
    while (s.size() < n) {
        if (newlines && nl(rng) == 0) s += '\n';
        s += pieces[pick(rng)];
    }
    return s;
}

}  // namespace

TEST_CASE("position_map: every query order gives the columns counted from the line's start", "[position]") {
    std::mt19937 rng(20261203);
    for (const bool newlines : {false, true}) {
        for (const std::size_t size : {std::size_t{100}, std::size_t{3000}, std::size_t{40000}}) {
            const std::string s = random_text(rng, size, newlines);
            const std::vector<place> want = places(s);
            position_map m(s);
            std::uniform_int_distribution<std::size_t> any(0, want.size() - 1);
            std::size_t k = 0;
            for (int q = 0; q < 4000; ++q) {
                // Forward a little, back a little, or anywhere.
                const int how = static_cast<int>(rng() % 3);
                if (how == 0) k = std::min(want.size() - 1, k + rng() % 8);
                else if (how == 1) k = k >= 40 ? k - rng() % 40 : 0;
                else k = any(rng);
                const plurnk::position p = m.at(want[k].offset);
                INFO("size " << size << ", newlines " << newlines << ", offset " << want[k].offset);
                REQUIRE(p.line == want[k].line);
                REQUIRE(p.column == want[k].column);
            }
        }
    }
}

TEST_CASE("position_map: going back on a long line does not count the line again", "[position]") {
    // 1 MB on one line, queried at every error-like step forward and then a little back: before
    // the marks, each step back counted from the line's start (17 s for 1 MB of a fuzz input).
    std::string s;
    while (s.size() < (1u << 20)) s += "ab\xC3\xA9 ";
    position_map m(s);
    std::uint64_t sum = 0;
    for (std::size_t i = 100; i + 5 < s.size(); i += 5) {
        sum += m.at(i).column;
        sum += m.at(i - 5).column;  // back one character group
    }
    // The columns themselves: five bytes are four code points.
    CHECK(m.at(s.size() - s.size() % 5).column == (s.size() - s.size() % 5) / 5 * 4);
    CHECK(sum > 0);
}

TEST_CASE("position_map: marks placed over a prefix agree with the whole input", "[position]") {
    // A stream places marks through what it holds before it is copied, and what it holds may end
    // inside a UTF-8 sequence: counted then, the cut sequence's bytes would count one each. At
    // every cut of random text, marks placed over the prefix, then the map rebound to the whole
    // input, give the columns counted from the line's start (fuzz_client found an off-by-one).
    std::mt19937 rng(7);
    for (int round = 0; round < 20; ++round) {
        const std::string s = random_text(rng, 700, false);
        const std::vector<place> want = places(s);
        for (std::size_t cut = 60; cut < s.size(); cut += 7) {
            const std::string prefix = s.substr(0, cut);
            for (std::size_t k = 0; k < want.size(); k += 23) {
                position_map m(prefix);
                m.mark_through(cut);
                m.rebind(s);
                const place& p = want[k];  // the first query: far ones count from a mark
                INFO("round " << round << ", cut " << cut << ", offset " << p.offset);
                const plurnk::position got = m.at(p.offset);
                CHECK(got.line == p.line);
                CHECK(got.column == p.column);
            }
        }
    }
}

TEST_CASE("position_map: a growing input counts the lines of every feed", "[position]") {
    // The line table is filled in bulk, a stretch past each query at a time, and a stream's map is
    // rebound to its grown input after each feed: lines that end before, at and after a feed's
    // end, at every place of the bulk steps, dense or far apart, must all count; a CR (alone or
    // before a LF) is a column, not a line end.
    static const char* const pieces[] = {"a", "\n", "\r\n", "\r", "\xC3\xA9", "::", "\n\n", "bcdefghijklmnopqrstuvwxyz"};
    std::mt19937 rng(33);
    std::size_t queries = 0;
    for (int round = 0; round < 24; ++round) {
        std::string s;
        const std::size_t spread = round % 3 == 0 ? 2 : round % 3 == 1 ? std::size(pieces) : 40;
        while (s.size() < 400) {
            const std::size_t k = rng() % spread;
            s += pieces[k < std::size(pieces) ? k : std::size(pieces) - 1];
        }
        const std::vector<place> want = places(s);
        for (const std::size_t chunk : {1, 2, 3, 5, 16, 17, 63, 64, 65, 200}) {
            position_map m{std::string_view{}};
            std::size_t next = 0;  // the first place not asked yet
            for (std::size_t len = 0; len < s.size();) {
                len = std::min(s.size(), len + chunk);
                m.rebind(std::string_view(s.data(), len));
                // Every place the feed brought (a forward sweep, as the builder asks), then one
                // anywhere before.
                for (; next < want.size() && want[next].offset <= len; ++next) {
                    INFO("round " << round << ", chunks of " << chunk << ", offset " << want[next].offset);
                    const plurnk::position p = m.at(want[next].offset);
                    REQUIRE(p.line == want[next].line);
                    REQUIRE(p.column == want[next].column);
                    ++queries;
                }
                const place& back = want[rng() % next];
                INFO("round " << round << ", chunks of " << chunk << ", back to " << back.offset);
                const plurnk::position p = m.at(back.offset);
                REQUIRE(p.line == back.line);
                REQUIRE(p.column == back.column);
            }
        }
    }
    CHECK(queries > 50000);
}

TEST_CASE("position_map: the first query far into an input counts every line before it", "[position]") {
    // One query, no sweep: the table is filled from the start through the query in one go.
    std::mt19937 rng(34);
    for (int round = 0; round < 200; ++round) {
        std::string s;
        const std::size_t n = 1 + rng() % 600;
        while (s.size() < n) s += (rng() % 4 == 0) ? '\n' : (rng() % 3 == 0 ? '\r' : 'x');
        const std::vector<place> want = places(s);
        const place& q = want[rng() % want.size()];
        position_map m(s);
        INFO("length " << n << ", offset " << q.offset);
        const plurnk::position p = m.at(q.offset);
        REQUIRE(p.line == q.line);
        REQUIRE(p.column == q.column);
    }
}

namespace {

// Lines of every shape: LF, CRLF and lone CR (a column, not a line end), runs of empty lines,
// lines longer than a mark's gap and than a block of the map, and UTF-8 (valid and not).
std::string line_soup(std::mt19937& rng, std::size_t n) {
    static const char* const pieces[] = {"\n", "\r\n", "\r", "\n\n\n", "\r\r\n", "ab", "\xC3\xA9", "\xE2\x82\xAC", "\xFF", "<<:"};
    std::string s;
    while (s.size() < n) {
        const std::size_t k = rng() % 24;
        if (k < std::size(pieces)) {
            s += pieces[k];
        } else if (k < 22) {
            s.append(1 + rng() % 40, static_cast<char>('a' + k));
        } else {
            s.append(100 + rng() % 3000, 'x');  // a long line (past a mark's gap, past a block)
        }
    }
    return s;
}

}  // namespace

TEST_CASE("position_map: against a naive count, in every query order, fed and released", "[position]") {
    // The whole input's places (places(): lines counted at '\n' only, columns in code points from
    // the line's start) against a map over a stream's view of it: the view grows a feed at a
    // time, its settled front is released now and then (later offsets count from the cut,
    // positions stay the whole input's), and queries go forward a little or far, back a little
    // or far, or ask the same place again.
    std::mt19937 rng(20261206);
    std::size_t queries = 0;
    for (int round = 0; round < 12; ++round) {
        const std::string s = line_soup(rng, round < 6 ? 3000 : 60000);
        const std::vector<place> want = places(s);
        position_map m{std::string_view{}};
        std::size_t base = 0, len = 0;  // the view: s[base, len)
        std::size_t k = 0;              // the furthest place asked
        std::size_t first = 0;          // the first place in the view
        while (len < s.size()) {
            len = std::min(s.size(), len + 1 + rng() % (round % 2 == 0 ? 40 : 5000));
            m.rebind(std::string_view(s.data() + base, len - base));
            std::size_t last = first;  // the last place in the view
            while (last + 1 < want.size() && want[last + 1].offset <= len) ++last;
            for (int q = 0; q < 40; ++q) {
                // k moves as the builder's statement starts do, a little at a time, now and then
                // far; the other queries do not move it.
                std::size_t ask = k;
                switch (rng() % 8) {
                    case 0: case 1: case 2: k = std::min(last, k + 1 + rng() % 6); ask = k; break;
                    case 3: ask = k >= first + 8 ? k - rng() % 8 : first; break;
                    case 4: ask = first + rng() % (last - first + 1); break;
                    case 5: break;  // the same again
                    case 6: k = std::min(last, k + rng() % 2000); ask = k; break;
                    default: if (rng() % 4 == 0) { k = last; ask = k; } break;
                }
                k = std::clamp(k, first, last);
                ask = std::clamp(ask, first, last);
                const place& p = want[ask];
                INFO("round " << round << ", view [" << base << ", " << len << "), offset " << p.offset);
                const plurnk::position got = m.at(p.offset - base);
                REQUIRE(got.line == p.line);
                REQUIRE(got.column == p.column);
                ++queries;
            }
            if (rng() % 4 == 0) {
                // A stream about to be copied places its marks; the copy answers as the original.
                m.mark_through(len - base);
                position_map copy = m;
                const place& p = want[first + rng() % (last - first + 1)];
                const plurnk::position got = copy.at(p.offset - base);
                REQUIRE(got.line == p.line);
                REQUIRE(got.column == p.column);
            }
            if (rng() % 6 == 0) {
                // Release a settled front: up to a place (never inside a UTF-8 sequence).
                const std::size_t cut_place = first + rng() % (last - first + 1);
                m.release(want[cut_place].offset - base);
                base = want[cut_place].offset;
                first = cut_place;
                k = std::max(k, first);
                m.rebind(std::string_view(s.data() + base, len - base));
            }
        }
    }
    CHECK(queries > 10000);
}

TEST_CASE("position_map: forward steps of every length over dense lines, then queries back", "[position]") {
    // The builder's sweep: one query per statement start, a few dozen bytes apart, over lines of
    // a few bytes (so that line ends fall just before the places where the map leaves a line
    // count for queries behind it), then queries back far enough to need those counts.
    std::string s;
    for (int i = 0; i < 6000; ++i) s += (i % 7 == 3) ? "\r\n" : (i % 3 == 2 ? "\n" : "a");
    const std::vector<place> want = places(s);
    for (std::size_t step = 1; step <= 80; ++step) {
        position_map m(s);
        for (std::size_t k = 0; k < want.size(); k += step) {
            const plurnk::position p = m.at(want[k].offset);
            REQUIRE(p.line == want[k].line);
            REQUIRE(p.column == want[k].column);
        }
        for (std::size_t j = step % 13; j < want.size(); j += 97) {
            INFO("steps of " << step << " places, back to " << want[j].offset);
            const plurnk::position p = m.at(want[j].offset);
            REQUIRE(p.line == want[j].line);
            REQUIRE(p.column == want[j].column);
        }
    }
}

TEST_CASE("position_map: queries back far into long lines cost a bounded count each", "[position]") {
    // One query per few places forward, each followed by one far back (into a 200 KB line, into
    // a run of short lines, anywhere): each counts its column from a mark or a line start near
    // it, so the bytes counted stay within a constant times the input and the queries.
    std::mt19937 rng(5);
    std::string s;
    while (s.size() < (1u << 20)) {
        s.append(rng() % 2 == 0 ? 200000 : 2000, 'y');
        for (int i = 0; i < 500; ++i) s += (i % 2 == 0) ? "\r\n" : "z\n";
    }
    const std::vector<place> want = places(s);
    position_map m(s, true);
    const std::uint64_t before = plurnk::detail::work().position_bytes;
    std::size_t asked = 0;
    std::uint64_t sum = 0;
    for (std::size_t k = 0; k < want.size(); k += 7) {
        sum += m.at(want[k].offset).column;
        const place& back = want[rng() % (k + 1)];
        const plurnk::position got = m.at(back.offset);
        REQUIRE(got.line == back.line);
        REQUIRE(got.column == back.column);
        asked += 2;
    }
    const std::uint64_t counted = plurnk::detail::work().position_bytes - before;
    INFO("counted " << counted << " bytes for " << asked << " queries over " << s.size());
    if (plurnk::detail::k_work_counter) CHECK(counted <= 4 * s.size() + 140 * asked);
    CHECK(sum > 0);
}

TEST_CASE("position_map: the builder's sweep from line start to line start, against a naive count", "[position]") {
    // The query at() answers inline: the next statement's start, just after a line end (and any
    // number of line ends before it: empty lines, a body's lines), within a block; up to 64 bytes
    // on as one word's bits, further as a bulk count. Lines of every length up to past 64 bytes,
    // with UTF-8 and invalid bytes, over many blocks; now and then a line start skipped (a longer
    // step), a query inside a line or back, which the sweep must not disturb.
    std::mt19937 rng(33);
    std::size_t inline_steps = 0;
    for (int round = 0; round < 20; ++round) {
        std::string s;
        while (s.size() < 20000) {
            s += random_text(rng, rng() % (round % 2 == 0 ? 70 : 20), false);
            s += '\n';
        }
        const std::vector<place> want = places(s);
        std::vector<std::size_t> starts;  // the places just after a line end
        for (std::size_t i = 0; i < want.size(); ++i) {
            if (want[i].offset != 0 && s[want[i].offset - 1] == '\n') starts.push_back(i);
        }
        position_map m(s);
        std::size_t prev = 0;
        for (const std::size_t i : starts) {
            if (rng() % 9 == 0) continue;  // skipped: the next step is longer
            const place& p = want[i];
            INFO("round " << round << ", line start " << p.offset);
            const plurnk::position got = m.at(p.offset);
            REQUIRE(got.line == p.line);
            REQUIRE(got.column == p.column);
            if ((p.offset ^ prev) < 512) ++inline_steps;
            prev = p.offset;
            if (rng() % 7 == 0) {
                const place& q = want[rng() % (i + 1)];  // behind (or at) the sweep
                const plurnk::position back = m.at(q.offset);
                REQUIRE(back.line == q.line);
                REQUIRE(back.column == q.column);
            }
        }
    }
    CHECK(inline_steps > 5000);
}
