// SPDX-License-Identifier: MIT
// What the two drivers share (see pipeline.hpp).
#include "pipeline/pipeline.hpp"

#include <string>

#include "grammar/messages.hpp"

namespace plurnk::detail {

// The last item of a result whose input went past max_input_bytes: where parsing stopped and how
// much was left out.
void append_input_limit_error(parse_result& r, position end, std::uint64_t parsed, std::uint64_t total) {
    const std::string t = std::to_string(total), p = std::to_string(parsed);
    const std::string m = format_message(message_id::input_limit, {{"total", t}, {"parsed", p}});
    r.items.push_back(diagnostic{end, source::lexer, severity::error, m, message_id::input_limit,
                                 byte_span{static_cast<std::size_t>(parsed), static_cast<std::size_t>(total)}});
}

}  // namespace plurnk::detail
