// SPDX-License-Identifier: MIT
// This thread's work counts (see work_counter.hpp).
#include "base/work_counter.hpp"

namespace plurnk::detail {

work_counts& work() noexcept {
    thread_local work_counts counts;
    return counts;
}

}  // namespace plurnk::detail
