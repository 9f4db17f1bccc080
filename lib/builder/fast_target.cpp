// SPDX-License-Identifier: MIT
// A target the URL fast path read, to records (see fast_target.hpp).
#include "builder/fast_target.hpp"

#include <cstdint>
#include <type_traits>

namespace plurnk::detail {

namespace {

// The fields of a URL the targets' fast path read, as encode_path(url_detail::project_fast(...))
// would store them (project_fast's empty-to-absent rules and its reading of the query off a
// fragment included); `piece(begin, end)` makes a text field of text[begin, end).
template <class Fields, class Piece>
Fields fast_url_fields(const url_detail::url_parts& u, std::string_view text, Piece&& piece) {
    Fields rec;
    rec.scheme = piece(u.scheme.begin, u.scheme.end);
    // An absent field is left out of the packed form by `has`: a slice of it is made all the
    // same (no branch), an sref is not (it may copy into the arena).
    constexpr bool sliced = std::is_same_v<Fields, sliced_url>;
    const auto non_empty = [&](const url_detail::text_part& part, auto& out, std::uint8_t bit) {
        const bool on = part.present && part.end > part.begin;
        if (sliced || on) out = piece(part.begin, part.end);
        rec.has |= on ? bit : 0;
    };
    non_empty(u.hostname, rec.hostname, url_hostname);
    if (u.has_port) {
        rec.port = u.port_value;
        rec.has |= url_port;
    }
    rec.pathname = piece(u.pathname.begin, u.pathname.end);
    if (u.query.present) {
        rec.query = piece(u.query.begin, u.query.end);
        rec.has |= url_query;
    } else if (u.fragment.present) {
        const std::string_view fragment = u.fragment.of(text);
        if (const std::size_t q = fragment.find('?'); q != std::string_view::npos) {
            const std::size_t end = fragment.find('#', q + 1);
            rec.query = piece(u.fragment.begin + q + 1, end == std::string_view::npos ? u.fragment.end : u.fragment.begin + end);
            rec.has |= url_query;
        }
    }
    non_empty(u.fragment, rec.fragment, url_fragment);
    return rec;
}

}  // namespace

void write_fast_url(record_writer& w, string_sink& sink, std::string_view text, const url_detail::url_parts& u) {
    if (text.size() <= UINT16_MAX) {
        w.target_sliced(text, fast_url_fields<sliced_url>(u, text, [](std::size_t b, std::size_t e) {
                            return url_slice{static_cast<std::uint16_t>(b), static_cast<std::uint16_t>(e - b)};
                        }));
    } else {
        w.target_url(text, fast_url_fields<url_rec>(u, text, [&](std::size_t b, std::size_t e) {
                         return sink.put(text.substr(b, e - b));
                     }));
    }
}

}  // namespace plurnk::detail
