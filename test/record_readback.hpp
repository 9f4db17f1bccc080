// SPDX-License-Identifier: MIT
// The differential of the fast paths' record writing (fast_path_test, body_fast_test): the records
// a fast path writes straight from its parts against those encode_statement() writes for the
// value the parts project to, each read back with decode_statement().
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "plurnk/plurnk.hpp"
#include "store/record_writer.hpp"
#include "store/result_store.hpp"

namespace plurnk_test {

// "" when the records `write(w, sink)` writes after begin() (a statement of `expected.op`, whose
// strings are pieces of `text`) read back as encode_statement(expected)'s do, with the same record
// bits, `text` both inside the input (a reference) and outside it (a copy in the arena); else
// what differs.
template <class Write>
std::string readback_disagreement(std::string_view text, const plurnk::statement& expected, Write write) {
    for (const bool live : {true, false}) {
        plurnk::detail::arena strings;
        plurnk::detail::input_text input;
        input.set_borrowed(text);
        plurnk::detail::string_sink sink(strings);
        if (live) sink.set_live(text, 0);
        const plurnk::detail::stmt_rec a = plurnk::detail::encode_statement(expected, sink);
        plurnk::detail::stmt_rec b;
        plurnk::detail::record_writer w(sink, b);
        w.begin(expected.op, {}, 0);
        write(w, sink);
        w.finish();
        const plurnk::detail::text_resolver t{&input, UINT64_MAX, {}};
        const plurnk::detail::item_rec r{};
        const plurnk::statement da = plurnk::detail::decode_statement(r, a, t);
        const plurnk::statement db = plurnk::detail::decode_statement(r, b, t);
        if (!(da == db))
            return live ? "written from the parts, it reads back otherwise (input)"
                        : "written from the parts, it reads back otherwise (arena)";
        if (a.bits != b.bits || a.target_kind != b.target_kind || a.body != b.body) return "its record bits differ";
    }
    return {};
}

}  // namespace plurnk_test
