// SPDX-License-Identifier: MIT
// How many heap blocks a parse result owns: its storage's vectors and chunks (item_list::storage())
// and the unparsed tail's reason. bench_parse subtracts it from the allocations counted during a parse, which
// leaves the transient ones (validator and URL-parser scratch, growth of internal vectors): the
// part issue 6 wants at zero.
#pragma once

#include <cstddef>
#include <string>

#include "plurnk/ast.hpp"

namespace plurnk::bench {

inline std::size_t owned_allocations(const parse_result& r) {
    const bool long_reason = r.tail && r.tail->reason.capacity() > std::string().capacity();
    return r.items.storage().blocks + (long_reason ? 1 : 0);
}

}  // namespace plurnk::bench
