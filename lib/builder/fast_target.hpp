// SPDX-License-Identifier: MIT
// A target the URL fast path read, to records (private header): the one place where the result
// builder turns lib/url's components (url_parts) into the store's URL fields (sliced_url, or
// url_rec for a long text), so that the store knows nothing of lib/url.
#pragma once

#include <string_view>

#include "store/record_writer.hpp"
#include "url/fast_path.hpp"

namespace plurnk::detail {

// Writes the target the targets' fast path read (lib/url/fast_path.hpp) from `text` as `u`, as
// the writer would store url_detail::project_fast()'s parsed_path.
void write_fast_target(record_writer& w, string_sink& sink, std::string_view text, const url_detail::url_parts& u);

}  // namespace plurnk::detail
