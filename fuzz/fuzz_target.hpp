// SPDX-License-Identifier: MIT
// The libFuzzer glue shared by the fuzz targets: the input as a string_view and an abort() with
// the broken invariant's text when a check fails (libFuzzer then saves the crash input).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "invariants.hpp"

namespace plurnk::fuzz {

inline std::string_view as_view(const std::uint8_t* data, std::size_t size) noexcept {
    return {reinterpret_cast<const char*>(data), size};
}

inline void require(const std::string& broken) {
    if (broken.empty()) return;
    std::fprintf(stderr, "plurnk fuzz: invariant broken: %s\n", broken.c_str());
    std::abort();
}

}  // namespace plurnk::fuzz
