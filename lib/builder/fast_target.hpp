// SPDX-License-Identifier: MIT
// A target the URL fast path read, to records (private header): the one place where the result
// builder turns lib/url's components (url_parts) into the store's URL fields (sliced_url, or
// url_rec for a long text), so that the store knows nothing of lib/url.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "store/record_writer.hpp"
#include "url/fast_path.hpp"

namespace plurnk::detail {

// The packing both share (fast_url_ref), inline here for write_fast_url.
namespace fast_target_detail {

// The optional fields of a URL the targets' fast path read, as encode_path(url_detail::project_fast(...))
// would store them: project_fast's empty-to-absent rules, and its reading of the query off a
// fragment when the record has none. `has` names those present (url_has).
struct fast_url_options {
    std::uint8_t has = 0;
    url_detail::text_part query;
};

[[gnu::always_inline]] inline fast_url_options fast_url_options_of(const url_detail::url_parts& u,
                                                                   std::string_view text) {
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
                                        const url_detail::url_parts& u);

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

}  // namespace fast_target_detail

// A URL the targets' fast path read, its fields pieces of its text (record_writer::sliced_ref;
// an sref each when the text is too long for 16-bit offsets): the statement's target (inline in
// the result builder's build_statement: no call and no frame a URL target), or a COPY/MOVE
// destination with its scope's marks when it has a scope (`marked`; out of line).
inline void write_fast_url(record_writer& w, string_sink& sink, std::string_view text, const url_detail::url_parts& u) {
    w.target(fast_target_detail::fast_url_ref(w, sink, text, u));
}
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
