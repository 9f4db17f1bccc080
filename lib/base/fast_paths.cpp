// SPDX-License-Identifier: MIT
// This thread's fast-path switches (see fast_paths.hpp).
#include "base/fast_paths.hpp"

namespace plurnk::detail {

fast_paths& thread_fast_paths() noexcept {
    thread_local fast_paths switches;
    return switches;
}

}  // namespace plurnk::detail
