// SPDX-License-Identifier: MIT
// A target the URL fast path read, to records (see fast_target.hpp).
#include "builder/fast_target.hpp"

#include <cstdint>

namespace plurnk::detail {

namespace fast_target_detail {

// (Declared in the header, where it says why it is out of line.)
path_ref long_url_ref(record_writer& w, string_sink& sink, std::string_view text, const url_detail::url_parts& u) {
    const fast_url_options o = fast_url_options_of(u, text);
    const auto piece = [&](const url_detail::text_part& p) { return sink.put(p.of(text)); };
    url_rec rec;
    rec.scheme = piece(u.scheme);
    rec.pathname = piece(u.pathname);
    if ((o.has & url_hostname) != 0) rec.hostname = piece(u.hostname);
    rec.port = u.port_value;  // 0 without a port
    if ((o.has & url_query) != 0) rec.query = piece(o.query);
    if ((o.has & url_fragment) != 0) rec.fragment = piece(u.fragment);
    rec.has = o.has;
    return w.url_ref(text, rec);
}

}  // namespace fast_target_detail

// Out of line, the path stored where the record keeps it.
void write_fast_dest_url(record_writer& w, string_sink& sink, std::string_view text, const url_detail::url_parts& u,
                         bool marked, std::span<const double> marks) {
    w.body_selection(fast_target_detail::fast_url_ref(w, sink, text, u), marked, marks);
}

}  // namespace plurnk::detail
