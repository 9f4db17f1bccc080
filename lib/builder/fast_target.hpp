// SPDX-License-Identifier: MIT
// A target the URL fast path read, to records (private header): the one place where the result
// builder turns lib/url's components (url_parts) into the store's URL records, so that the
// store knows nothing of lib/url.
#pragma once

#include <string_view>

#include "store/record_writer.hpp"
#include "store/result_store.hpp"
#include "url/fast_path.hpp"

namespace plurnk::detail {

// A target the targets' fast path read (lib/url/fast_path.hpp): its text and components, not yet
// projected onto a parsed_path.
struct fast_target {
    std::string_view text;
    const url_detail::url_parts* parts = nullptr;
};

// Its records, as encode_statement() would store url_detail::project_fast()'s parsed_path.
path_ref encode_fast_target(const fast_target& t, string_sink& sink);

// encode_statement() with the fast path's target `target` as the statement's target (its own
// `target` is empty).
inline stmt_rec encode_statement(const statement& st, string_sink& sink, const fast_target* target) {
    if (target == nullptr) return encode_statement(st, sink);
    const path_ref p = encode_fast_target(*target, sink);
    return encode_statement(st, sink, &p);
}

}  // namespace plurnk::detail
