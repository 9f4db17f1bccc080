// SPDX-License-Identifier: MIT
// The JSON surfaces' work bounds as tested invariants (issue 36's rows 7 and 8), counted by
// lib/work_counter.hpp, not timed, so the tests are exact: the work canonical_json does on SEND
// bodies JavaScript reorders (json_bytes: bytes read, written, copied or moved) stays within a
// constant times the body, at 64 KB and 256 KB alike, for objects keyed by array indexes nested a
// level per member; and the values uniqueItems compares (values_compared) stay within a constant
// per item. Built only when the work counter is compiled in (see test/meson.build).
#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <string>
#include <string_view>

#include "plurnk/json.hpp"
#include "base/work_counter.hpp"
#ifdef PLURNK_HAVE_WIRE
#include "plurnk/wire.hpp"
#endif

namespace {

using plurnk::detail::work;

// A body nested `open`/`close` per level to about `size` bytes around a 1 (what
// bench/bench_hostile_surfaces.cpp measures), and what canonical_json must make of it.
struct nested {
    const char* name;
    std::string_view open, close;          // one level of the body
    std::string_view open_out, close_out;  // the same level as JSON.stringify writes it
};

constexpr nested k_nested[] = {
    {"index_objects", "{\"0\":", "}", "{\"0\":", "}"},
    {"index_objects_in_arrays", "[{\"0\":", "}]", "[{\"0\":", "}]"},
    {"index_keys_reversed", "{\"1\":1,\"0\":", "}", "{\"0\":", ",\"1\":1}"},
    {"named_objects", "{\"a\":", "}", "{\"a\":", "}"},  // the baseline: nothing to reorder
};

std::string repeat(std::string_view s, std::size_t n) {
    std::string out;
    out.reserve(s.size() * n);
    for (std::size_t i = 0; i < n; ++i) out += s;
    return out;
}

// The JSON work per byte canonical_json does on the shape at about `size` bytes.
double work_per_byte(const nested& s, std::size_t size) {
    const std::size_t levels = size / (s.open.size() + s.close.size());
    const std::string body = repeat(s.open, levels) + "1" + repeat(s.close, levels);
    const std::uint64_t before = work().json_bytes;
    const auto out = plurnk::canonical_json(body);
    const std::uint64_t done = work().json_bytes - before;
    REQUIRE(out);
    REQUIRE(done >= body.size());  // the counter is compiled in and counts
    CHECK(*out == repeat(s.open_out, levels) + "1" + repeat(s.close_out, levels));
    return static_cast<double>(done) / static_cast<double>(body.size());
}

}  // namespace

TEST_CASE("canonical_json is linear on objects JavaScript reorders, nested a level per member", "[json_surfaces]") {
    for (const nested& s : k_nested) {
        const double small = work_per_byte(s, 64 << 10);
        const double large = work_per_byte(s, 256 << 10);
        INFO(s.name << ": " << small << " and " << large << " bytes of work per byte");
        CHECK(large <= 8.0);
        CHECK(large <= small * 1.25);
    }
}

#ifdef PLURNK_HAVE_WIRE
TEST_CASE("uniqueItems compares a constant number of values per item", "[json_surfaces]") {
    // EntryReadResult's tags: distinct strings, one string again and again, and large equal objects
    // (the items fail "type": string, but uniqueItems checks every item all the same).
    const auto tags = [](int shape, int n) {
        std::string t = "[";
        for (int i = 0; i < n; ++i) {
            if (i) t += ',';
            if (shape == 0) t += "\"t" + std::to_string(i) + "\"";
            else if (shape == 1) t += "\"t\"";
            else t += "{\"a\":[1,2,{\"b\":null}],\"c\":\"d\",\"e\":" + std::to_string(i % 2) + "}";
        }
        return t + "]";
    };
    for (int shape = 0; shape < 3; ++shape) {
        double per_item[2] = {0, 0};
        for (int size = 0; size < 2; ++size) {
            const int n = size == 0 ? 2000 : 8000;
            const std::string instance =
                R"({"status":200,"entry":{"entryId":1,"target":"t","channels":{},"tags":)" + tags(shape, n) + "}}";
            const std::uint64_t before = work().values_compared;
            const auto r = plurnk::wire::validate_json(plurnk::wire::contract::entry_read_result, instance);
            per_item[size] = static_cast<double>(work().values_compared - before) / n;
            CHECK(r.valid == (shape == 0));
        }
        INFO("shape " << shape << ": " << per_item[0] << " and " << per_item[1] << " values compared per item");
        CHECK(per_item[1] <= 16.0);
        CHECK(per_item[1] <= per_item[0] * 1.25 + 0.01);
    }
}
#endif
