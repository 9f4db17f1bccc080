// SPDX-License-Identifier: MIT
// A target the URL fast path read, to records (private header): the one place where the result
// builder turns lib/url's components (url_parts) into the store's URL fields (sliced_url, or
// url_rec for a long text), so that the store knows nothing of lib/url.
#pragma once

#include <span>
#include <string_view>

#include "store/record_writer.hpp"
#include "url/fast_path.hpp"

namespace plurnk::detail {

// A URL the targets' fast path read, its fields pieces of its text (record_writer::sliced_ref;
// an sref each when the text is too long for 16-bit offsets): the statement's target, or a
// COPY/MOVE destination with its scope's marks when it has a scope (`marked`).
void write_fast_url(record_writer& w, string_sink& sink, std::string_view text, const url_detail::url_parts& u);
void write_fast_dest_url(record_writer& w, string_sink& sink, std::string_view text, const url_detail::url_parts& u,
                         bool marked, std::span<const double> marks);

// What the targets' fast path read (lib/url/fast_path.hpp) from `text` as `u`, stored as the
// writer would store url_detail::project_fast()'s parsed_path: a local path's text where the
// builder calls it (record_writer::local_ref), a URL through write_fast_url() or
// write_fast_dest_url().

// The statement's target.
inline void write_fast_target(record_writer& w, string_sink& sink, std::string_view text,
                              const url_detail::url_parts& u) {
    if (u.kind == url_detail::url_parts::kind_t::local) {
        w.target(w.local_ref(text));
        return;
    }
    write_fast_url(w, sink, text, u);
}

// A COPY/MOVE body whose destination the targets' fast path read (selection_fast()).
inline void write_fast_selection(record_writer& w, string_sink& sink, std::string_view text,
                                 const url_detail::url_parts& u, bool marked, std::span<const double> marks) {
    if (u.kind == url_detail::url_parts::kind_t::local) {
        w.body_selection(w.local_ref(text), marked, marks);
        return;
    }
    write_fast_dest_url(w, sink, text, u, marked, marks);
}

}  // namespace plurnk::detail
