// SPDX-License-Identifier: MIT
// The one decision of the grammar that needs more than one token of lookahead (private header):
// after a SEND opener inside a turn, is this a mid SEND or the terminal SEND? ANTLR's adaptive
// prediction walks both alternatives until one is left standing; so does predict_send().
#pragma once

#include <cstddef>
#include <cstdint>

#include "grammar/statement_shape.hpp"
#include "syntax/token_cursor.hpp"

namespace plurnk::detail {

enum class send_alt : std::uint8_t { mid, terminal, none };

// Walks both alternatives over the tokens after the SEND opener at the cursor, each by its row of
// `shapes` (grammar/statement_shape.hpp); returns the first one left standing alone, or none with
// `died_at` the token index where both died. In 1.4.0:
//   mid:      slots ([INT?] signal, target) in any order, then COLON? BODY* CLOSE
//   terminal: [DISP] required before a scope and before the body; target anywhere; then
//             COLON? BODY* CLOSE
send_alt predict_send(const token_cursor& in, std::size_t& died_at,
                      const statement_shapes& shapes = k_contracts_shapes);

}  // namespace plurnk::detail
