// SPDX-License-Identifier: MIT
// A target the URL fast path read, to records (private header): the one place where the result
// builder turns lib/url's components (url_parts) into the store's URL fields (sliced_url, or
// url_rec for a long text), so that the store knows nothing of lib/url.
#pragma once

#include <string_view>

#include "store/record_writer.hpp"
#include "url/fast_path.hpp"

namespace plurnk::detail {

// A URL the targets' fast path read, its fields pieces of its text (sliced_url; an sref each when
// the text is too long for 16-bit offsets).
void write_fast_url(record_writer& w, string_sink& sink, std::string_view text, const url_detail::url_parts& u);

// Writes the target the targets' fast path read (lib/url/fast_path.hpp) from `text` as `u`, as
// the writer would store url_detail::project_fast()'s parsed_path: a local path's text where the
// builder calls it, a URL through write_fast_url().
inline void write_fast_target(record_writer& w, string_sink& sink, std::string_view text,
                              const url_detail::url_parts& u) {
    if (u.kind == url_detail::url_parts::kind_t::local) {
        w.target_local(text);
        return;
    }
    write_fast_url(w, sink, text, u);
}

}  // namespace plurnk::detail
