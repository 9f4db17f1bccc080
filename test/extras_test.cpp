// SPDX-License-Identifier: MIT
// A statement's packed extras (lib/store/result_store.hpp): what record_writer writes as the
// fields arrive reads back through unpack_extras, field by field, for every combination of the
// fields a statement can have (tags inline or far, signal text, number, marks inline, far or far
// and kept where they are, a matcher's pattern and flags, a SEND body's JSON, a selection's
// destination and its marks, the suffix), and the block has the documented layout: the mask, the
// fields in mask order, the suffix, then, 8-byte aligned, the inline marks and tags' references.
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "store/record_writer.hpp"

namespace {

using namespace plurnk::detail;
using plurnk::line_marker;
using plurnk::tag_list;

// What one statement writes: each part present or not (and how).
struct combo {
    int tags = 0;    // 0 none, 1 inline (3), 2 far (20)
    bool text = false;
    bool number = false;
    int marks = 0;   // 0 none, 1 inline (2), 2 far copied (20), 3 far kept (20, stable)
    int body = 0;    // 0 text, 1 matcher, 2 SEND, 3 selection
    int body_parts = 0;  // matcher: bit 0 pattern, bit 1 flags; SEND: bit 0 JSON; selection: bit 0 dest, bit 1 its marks
    bool suffix = false;
};

// The documented packed size of each field (the mask's order), the suffix, and the alignment.
std::size_t fields_size(const combo& c) {
    std::size_t n = 0;
    if (c.tags != 0) n += 8 + 4 + (c.tags == 2 ? 8 : 0);
    if (c.text) n += sizeof(sref);
    if (c.number) n += 8;
    if (c.marks != 0) n += 4 + (c.marks >= 2 ? 8 : 0);
    if (c.body == 1) n += ((c.body_parts & 1) != 0 ? sizeof(sref) : 0) + ((c.body_parts & 2) != 0 ? sizeof(sref) : 0);
    if (c.body == 2 && (c.body_parts & 1) != 0) n += sizeof(sref);
    if (c.body == 3) n += ((c.body_parts & 1) != 0 ? sizeof(sref) + 1 : 0) + ((c.body_parts & 2) != 0 ? 8 + 4 : 0);
    return n;
}

std::string_view text_of(const sref& s, std::string_view input) {
    if (s.n == 0) return {};
    return s.in_arena() ? std::string_view(s.address(), s.n) : input.substr(s.v, s.n);
}

}  // namespace

TEST_CASE("extras: every combination of fields round-trips through the packed block", "[extras]") {
    const std::string input = "<<FIND[a,bb,ccc]:sfx pattern flags {\"j\":1} dest/path tags-block-of-twenty-tags-";
    const std::string_view in(input);
    std::vector<tag_list::ref> few = {{0, 1}, {2, 2}, {5, 3}};
    std::vector<tag_list::ref> many;
    for (std::uint32_t i = 0; i < 20; ++i) many.push_back({i, 1});
    const std::vector<double> two = {1, 40};
    std::vector<double> twenty;
    for (int i = 0; i < 20; ++i) twenty.push_back(i * 1.5);
    const std::vector<double> dest_marks = {-1, 3};
    std::size_t combos = 0;
    for (int tags = 0; tags < 3; ++tags)
    for (const bool text : {false, true})
    for (const bool number : {false, true})
    for (int marks = 0; marks < 4; ++marks)
    for (int body = 0; body < 4; ++body)
    for (int parts = 0; parts < (body == 0 ? 1 : body == 2 ? 3 : 4); ++parts)
    for (const bool suffix : {false, true}) {
        INFO("tags " << tags << ", text " << text << ", number " << number << ", marks " << marks << ", body " << body
                     << ", parts " << parts << ", suffix " << suffix);
        arena a;
        string_sink sink(a);
        sink.set_live(in, 0);
        stmt_rec rec;
        record_writer w(sink, rec);
        w.begin(plurnk::op::FIND, suffix ? in.substr(17, 3) : std::string_view{}, in.size());
        const std::string_view block = tags == 2 ? in.substr(53, 20) : in.substr(7, 8);
        const std::vector<tag_list::ref>& refs = tags == 2 ? many : few;
        if (tags != 0) w.tags(block, refs);
        if (text) w.signal_text(in.substr(2, 4));
        if (number) w.number(-2.5);
        // The far marks kept where they are must be in the arena for good (as the builder's are).
        auto* kept = a.make_array<double>(twenty.size());
        std::copy(twenty.begin(), twenty.end(), kept);
        if (marks == 1) w.marks(two);
        if (marks == 2) w.marks(twenty);
        if (marks == 3) w.marks(std::span<const double>(kept, twenty.size()), true);
        plurnk::parsed_path dest;
        dest.raw = in.substr(43, 9);
        const line_marker lm{dest_marks};
        switch (body) {
            case 0: w.body_text(in.substr(17, 10)); break;
            case 1: w.body_matcher(plurnk::dialect::regex, in.substr(21, 13), (parts & 1) != 0 ? in.substr(21, 7) : "",
                                   (parts & 2) != 0 ? in.substr(29, 5) : ""); break;
            case 2: w.body_send(in.substr(35, 7), parts == 0 ? std::nullopt : std::optional<std::string_view>(parts == 1 ? in.substr(35, 7) : "")); break;
            default:
                if ((parts & 1) == 0) dest.raw = {};
                w.body_selection(dest, (parts & 2) != 0 ? std::optional<line_marker>(lm) : std::nullopt);
                break;
        }
        w.finish();
        const bool json = body == 2 && parts == 1;
        const std::size_t fields = fields_size(combo{tags, text, number, marks, body, body == 2 ? (json ? 1 : 0) : parts, suffix});
        if (fields == 0 && !suffix) {
            CHECK(rec.extras == nullptr);  // a plain statement has none
            continue;
        }
        REQUIRE(rec.extras != nullptr);
        sref sfx;
        const stmt_extras x = unpack_extras(rec.extras, &sfx);
        std::uint16_t mask = 0;
        std::memcpy(&mask, rec.extras, sizeof mask);
        CHECK(((mask & x_suffix) != 0) == suffix);
        if (suffix) CHECK(text_of(sfx, in) == "sfx");
        if (tags != 0) {
            REQUIRE(x.tag_count == refs.size());
            CHECK(std::string_view(x.tag_base, block.size()) == block);
            for (std::size_t i = 0; i < refs.size(); ++i) {
                CHECK(x.tags[i].offset == refs[i].offset);
                CHECK(x.tags[i].length == refs[i].length);
            }
            CHECK(x.tags != refs.data());  // inline: copied into the block; far: into the arena
        } else {
            CHECK(x.tag_count == 0);
        }
        CHECK(text_of(x.signal_text, in) == (text ? in.substr(2, 4) : ""));
        CHECK(x.number == (number ? -2.5 : 0.0));
        const std::vector<double>& want_marks = marks == 0 ? std::vector<double>{} : marks == 1 ? two : twenty;
        REQUIRE(x.mark_count == want_marks.size());
        for (std::size_t i = 0; i < want_marks.size(); ++i) CHECK(x.marks[i] == want_marks[i]);
        if (marks == 3) CHECK(x.marks == kept);
        if (marks == 2) CHECK(x.marks != twenty.data());
        CHECK(text_of(x.pattern, in) == (body == 1 && (parts & 1) != 0 ? "pattern" : ""));
        CHECK(text_of(x.flags, in) == (body == 1 && (parts & 2) != 0 ? "flags" : ""));
        CHECK(text_of(x.json, in) == (json ? in.substr(35, 7) : ""));
        CHECK(text_of(x.dest.s, in) == (body == 3 && (parts & 1) != 0 ? "dest/path" : ""));
        REQUIRE(x.dest_mark_count == (body == 3 && (parts & 2) != 0 ? 2U : 0U));
        for (std::size_t i = 0; i < x.dest_mark_count; ++i) CHECK(x.dest_marks[i] == dest_marks[i]);
        // The layout: the inline arrays start at the first 8-byte boundary after the mask, the
        // fields and the suffix, the marks first.
        const std::size_t arrays = (2 + fields + (suffix ? sizeof(sref) : 0) + 7) & ~std::size_t{7};
        if (marks == 1) CHECK(reinterpret_cast<const unsigned char*>(x.marks) == rec.extras + arrays);
        if (tags == 1) {
            CHECK(reinterpret_cast<const unsigned char*>(x.tags) ==
                  rec.extras + arrays + (marks == 1 ? two.size() * sizeof(double) : 0));
        }
        ++combos;
    }
    CHECK(combos > 500);
}
