// SPDX-License-Identifier: MIT
// How many heap blocks a parse result owns: strings past the small-string buffer, non-empty
// vectors, boxed paths. bench_parse subtracts it from the allocations counted during a parse, which
// leaves the transient ones (validator and URL-parser scratch, growth of internal vectors): the
// part issue 6 wants at zero.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <variant>

#include "plurnk/ast.hpp"

namespace plurnk::bench {

namespace owned_detail {
// A std::string owns a block when its text outgrew the object (libstdc++: 15 bytes).
inline std::size_t blocks(const std::string& s) { return s.capacity() > std::string().capacity() ? 1 : 0; }
inline std::size_t blocks(const std::optional<std::string>& s) { return s ? blocks(*s) : 0; }
inline std::size_t blocks(const std::optional<line_marker>& m) { return m && m->marks.capacity() > 0 ? 1 : 0; }
inline std::size_t blocks(const boxed<parsed_path>& b) {
    if (!b) return 0;
    const parsed_path& p = *b;
    std::size_t n = 1 + blocks(p.raw) + blocks(p.scheme) + blocks(p.username) + blocks(p.password) +
                    blocks(p.hostname) + blocks(p.pathname) + blocks(p.query) + blocks(p.fragment);
    if (p.headers) {
        n += p.headers->capacity() > 0 ? 1 : 0;
        for (const auto& [k, v] : *p.headers) n += blocks(k) + blocks(v);
    }
    return n;
}
inline std::size_t blocks(const statement& s) {
    std::size_t n = blocks(s.suffix) + blocks(s.signal.text) + blocks(s.target) + blocks(s.marker);
    n += s.signal.tags.capacity() > 0 ? 1 : 0;
    for (const auto& t : s.signal.tags) n += blocks(t);
    if (const auto* b = std::get_if<std::string>(&s.body)) n += blocks(*b);
    if (const auto* m = std::get_if<matcher_body>(&s.body)) n += blocks(m->raw) + blocks(m->pattern) + blocks(m->flags);
    if (const auto* b = std::get_if<send_body>(&s.body)) n += blocks(b->raw) + blocks(b->json);
    if (const auto* r = std::get_if<resource_selection>(&s.body)) n += blocks(r->target) + blocks(r->marker);
    return n;
}
}  // namespace owned_detail

inline std::size_t owned_allocations(const parse_result& r) {
    using namespace owned_detail;
    std::size_t n = r.items.capacity() > 0 ? 1 : 0;
    for (const item& it : r.items) {
        if (const auto* s = std::get_if<statement>(&it)) n += blocks(*s);
        if (const auto* d = std::get_if<diagnostic>(&it)) n += blocks(d->message);
        if (const auto* t = std::get_if<text_item>(&it)) n += blocks(t->text);
    }
    if (r.tail) n += blocks(r.tail->reason);
    return n;
}

}  // namespace plurnk::bench
