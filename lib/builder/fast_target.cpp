// SPDX-License-Identifier: MIT
// A target the URL fast path read, to records (see fast_target.hpp).
#include "builder/fast_target.hpp"

#include <cstdint>

namespace plurnk::detail {

namespace {

// The optional fields of a URL the targets' fast path read, as encode_path(url_detail::project_fast(...))
// would store them: project_fast's empty-to-absent rules, and its reading of the query off a
// fragment when the record has none. `has` names those present (url_has).
struct fast_url_options {
    std::uint8_t has = 0;
    url_detail::text_part query;
};

[[gnu::always_inline]] inline fast_url_options fast_url_options_of(const url_detail::url_parts& u, std::string_view text) {
    const bool hostname = u.hostname.end > u.hostname.begin;
    const bool fragment = u.fragment.present && u.fragment.end > u.fragment.begin;
    fast_url_options o;
    o.has = static_cast<std::uint8_t>((hostname ? url_hostname : 0) | (u.has_port ? url_port : 0) | (fragment ? url_fragment : 0));
    if (u.query.present) {
        o.query = u.query;
        o.has |= url_query;
    } else if (u.fragment.present) {
        const std::string_view f = u.fragment.of(text);
        if (const std::size_t q = f.find('?'); q != std::string_view::npos) {
            const std::size_t end = f.find('#', q + 1);
            o.query = url_detail::text_part{u.fragment.begin + q + 1, end == std::string_view::npos ? u.fragment.end : u.fragment.begin + end, true};
            o.has |= url_query;
        }
    }
    return o;
}

// A text too long for 16-bit offsets: its fields as srefs (each copied into the arena unless
// it lies in the live input). Out of line, so that the common case keeps a small frame.
[[gnu::noinline]] path_ref long_url_ref(record_writer& w, string_sink& sink, std::string_view text,
                                        const url_detail::url_parts& u) {
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

// Every field a piece of the text (sliced_url), packed from the parts (record_writer::sliced_ref).
[[gnu::always_inline]] inline path_ref fast_url_ref(record_writer& w, string_sink& sink, std::string_view text,
                                                    const url_detail::url_parts& u) {
    if (text.size() > UINT16_MAX) return long_url_ref(w, sink, text, u);
    const auto slice = [](const url_detail::text_part& p) {
        return url_slice{static_cast<std::uint16_t>(p.begin), static_cast<std::uint16_t>(p.end - p.begin)};
    };
    const fast_url_options o = fast_url_options_of(u, text);
    return w.sliced_ref(text, o.has, slice(u.scheme), slice(u.pathname), slice(u.hostname), u.port_value,
                        slice(o.query), slice(u.fragment));
}

}  // namespace

// Out of line each, the path stored where the record keeps it.
void write_fast_url(record_writer& w, string_sink& sink, std::string_view text, const url_detail::url_parts& u) {
    w.target(fast_url_ref(w, sink, text, u));
}

void write_fast_dest_url(record_writer& w, string_sink& sink, std::string_view text, const url_detail::url_parts& u,
                         bool marked, std::span<const double> marks) {
    w.body_selection(fast_url_ref(w, sink, text, u), marked, marks);
}

}  // namespace plurnk::detail
