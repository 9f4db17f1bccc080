// SPDX-License-Identifier: MIT
// The inputs of the conformance vectors (test/conformance/parser.jsonl, then own.jsonl), for
// the tests that run a check over every one of them. Returns how many vectors it read. And the
// benchmarks' inputs (bench/data), which some tests read too.
#pragma once

#include <catch2/catch_test_macros.hpp>

#include <cstddef>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <string>

#include "plurnk/json.hpp"

namespace plurnk::test {

// Calls fn(vector, input) for each vector: the parsed JSON line and its "input" string.
// `files`: the vector files under test/ (default: parser.jsonl, then own.jsonl).
template <class Fn>
std::size_t for_each_vector(Fn&& fn,
                            std::initializer_list<const char*> files = {"/conformance/parser.jsonl", "/conformance/own.jsonl"}) {
    std::size_t vectors = 0;
    for (const char* file : files) {
        std::ifstream f(std::string(PLURNK_TEST_SOURCE_DIR) + file, std::ios::binary);
        REQUIRE(f);
        std::string line;
        while (std::getline(f, line)) {
            const auto v = plurnk::parse_json(line);
            REQUIRE(v);
            const plurnk::json_value* input = v->find("input");
            REQUIRE(input != nullptr);
            ++vectors;
            fn(*v, input->string);
        }
    }
    return vectors;
}

// The whole of bench/data/`name` (e.g. "turn-2k.txt").
inline std::string bench_data(const char* name) {
    std::ifstream f(std::string(PLURNK_TEST_SOURCE_DIR) + "/../bench/data/" + name, std::ios::binary);
    REQUIRE(f);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

}  // namespace plurnk::test
