// SPDX-License-Identifier: MIT
// A target the URL fast path read, to records (see fast_target.hpp).
#include "builder/fast_target.hpp"

#include <cstdint>
#include <type_traits>

namespace plurnk::detail {

namespace {

// The fields of a URL the targets' fast path read, as encode_path(url_detail::project_fast(...))
// would store them (project_fast's empty-to-absent rules and its reading of the query off a
// fragment included); `piece(part)` makes a text field of text[part.begin, part.end). The parts
// go straight to the fields, each once: a sliced_url takes a piece of every part (an absent one
// is an empty piece that `has` leaves out of the packed form), a url_rec only of those present
// (its sref may copy into the arena).
template <class Fields, class Piece>
Fields fast_url_fields(const url_detail::url_parts& u, std::string_view text, Piece&& piece) {
    constexpr bool sliced = std::is_same_v<Fields, sliced_url>;
    const bool hostname = u.hostname.end > u.hostname.begin;
    const bool fragment = u.fragment.present && u.fragment.end > u.fragment.begin;
    Fields rec;
    rec.scheme = piece(u.scheme);
    rec.pathname = piece(u.pathname);
    if (sliced || hostname) rec.hostname = piece(u.hostname);
    if (sliced || fragment) rec.fragment = piece(u.fragment);
    rec.port = u.port_value;  // 0 without a port
    std::uint8_t has = (hostname ? url_hostname : 0) | (u.has_port ? url_port : 0) | (fragment ? url_fragment : 0);
    if (u.query.present) {
        rec.query = piece(u.query);
        has |= url_query;
    } else if (u.fragment.present) {
        const std::string_view f = u.fragment.of(text);
        if (const std::size_t q = f.find('?'); q != std::string_view::npos) {
            const std::size_t end = f.find('#', q + 1);
            rec.query = piece(url_detail::text_part{u.fragment.begin + q + 1,
                                                    end == std::string_view::npos ? u.fragment.end : u.fragment.begin + end, true});
            has |= url_query;
        }
    }
    rec.has = has;
    return rec;
}

// A text too long for 16-bit offsets: its fields as srefs. Out of line, so that the common case
// keeps a small frame.
[[gnu::noinline]] void write_long_url(record_writer& w, string_sink& sink, std::string_view text, const url_detail::url_parts& u) {
    w.target_url(text, fast_url_fields<url_rec>(u, text, [&](const url_detail::text_part& p) { return sink.put(p.of(text)); }));
}

}  // namespace

void write_fast_url(record_writer& w, string_sink& sink, std::string_view text, const url_detail::url_parts& u) {
    if (text.size() > UINT16_MAX) {
        write_long_url(w, sink, text, u);
        return;
    }
    w.target_sliced(text, fast_url_fields<sliced_url>(u, text, [](const url_detail::text_part& p) {
                        return url_slice{static_cast<std::uint16_t>(p.begin), static_cast<std::uint16_t>(p.end - p.begin)};
                    }));
}

}  // namespace plurnk::detail
