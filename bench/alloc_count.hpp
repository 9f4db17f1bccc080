// SPDX-License-Identifier: MIT
// Allocation counting for the benchmark binaries: alloc_count.cpp replaces the global operator
// new/delete of the program it is linked into, so every heap allocation made by the library
// (std::string, std::vector, ...) is counted. Single-threaded use only (the benchmarks are).
#pragma once

#include <cstddef>

namespace plurnk::bench {

struct alloc_stats {
    std::size_t count = 0;  // calls to operator new (any form)
    std::size_t bytes = 0;  // bytes requested by them
};

// Totals since the program started.
[[nodiscard]] alloc_stats allocations() noexcept;

}  // namespace plurnk::bench
