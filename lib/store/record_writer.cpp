// SPDX-License-Identifier: MIT
// Items to records (see record_writer.hpp).
#include "store/record_writer.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <variant>

namespace plurnk::detail {

namespace {

// Offsets are stored in 32 bits. A parse never exceeds them (its input is cut at
// parse_options::k_max_input_bytes); an item built by hand with a larger offset keeps 4 GiB - 1.
std::uint32_t offset32(std::size_t v) {
    return v > UINT32_MAX ? UINT32_MAX : static_cast<std::uint32_t>(v);
}

template <class T>
const T* copy_array(string_sink& sink, std::span<const T> v) {
    if (v.empty()) return nullptr;
    if (v.data() == sink.stable_array()) return v.data();
    arena& a = sink.strings();
    T* out = a.make_array<T>(v.size());
    std::copy(v.begin(), v.end(), out);
    return out;
}

path_ref encode_path(const parsed_path& p, string_sink& sink) {
    path_ref r;
    if (p.kind != parsed_path::kind_t::url) {  // a regex path's pattern and flags are decoded from raw
        r.s = sink.put(p.raw);
        r.kind = p.kind;
        return r;
    }
    arena& a = sink.strings();
    url_rec u;
    u.raw = sink.put(p.raw);
    u.scheme = sink.put(p.scheme);
    const auto put_opt = [&](const std::optional<std::string_view>& v, sref& out, std::uint8_t bit) {
        if (!v) return;
        out = sink.put(*v);
        u.has |= bit;
    };
    put_opt(p.username, u.username, url_username);
    put_opt(p.password, u.password, url_password);
    put_opt(p.hostname, u.hostname, url_hostname);
    if (p.port) {
        u.port = *p.port;
        u.has |= url_port;
    }
    u.pathname = sink.put(p.pathname);
    put_opt(p.query, u.query, url_query);
    put_opt(p.fragment, u.fragment, url_fragment);
    if (p.headers) {
        u.has |= url_headers;
        header* h = p.headers->empty() ? nullptr : a.make_array<header>(p.headers->size());
        for (std::size_t i = 0; i < p.headers->size(); ++i) {
            h[i] = header{a.copy((*p.headers)[i].name), a.copy((*p.headers)[i].value)};
        }
        u.headers = h;
        u.header_count = static_cast<std::uint32_t>(p.headers->size());
    }
    r.s = sref::arena(pack_url(u, a), 0);
    r.kind = parsed_path::kind_t::url;
    return r;
}

}  // namespace

item_rec item_record(position p, byte_span span) {
    return item_rec{offset32(span.begin), 0, p.line, p.column};
}

stmt_rec encode_statement(const statement& st, string_sink& sink, const path_ref* target) {
    arena& a = sink.strings();
    stmt_rec r;
    r.end = offset32(st.span.end);
    r.op = st.op;
    r.signal_kind = static_cast<std::uint8_t>(st.signal.kind) & 0x3FU;
    if (target != nullptr || st.target) {
        const path_ref p = target != nullptr ? *target : encode_path(*st.target, sink);
        r.target = p.s;
        r.target_kind = static_cast<std::uint8_t>(p.kind) & 3U;
        r.bits |= has_target;
    }
    stmt_extras x;
    const sref suffix = sink.put(st.suffix);
    bool extras = suffix.n != 0;
    bool tags_far = false, marks_far = false;
    std::array<tag_list::ref, k_inline_array> inline_refs;
    if (!st.signal.tags.empty()) {
        const tag_list& t = st.signal.tags;
        // One block of text for all the tags: the input from the first to the last when they
        // lie in it in order (what the parser gives), else a copy of each, back to back.
        // At most k_inline_array references go into the packed block; more stay in the arena.
        tags_far = t.size() > k_inline_array;
        tag_list::ref* refs = tags_far ? a.make_array<tag_list::ref>(t.size()) : inline_refs.data();
        const std::string_view first = t.front(), last = t.back();
        const std::string_view live = sink.live();
        const auto in_live = [&](std::string_view v) {
            return !live.empty() && v.data() >= live.data() && v.data() + v.size() <= live.data() + live.size();
        };
        bool ordered = in_live(first) && in_live(last) && last.data() >= first.data();
        for (std::size_t i = 1; ordered && i < t.size(); ++i) ordered = t[i].data() >= t[i - 1].data() + t[i - 1].size();
        const char* base = nullptr;
        if (ordered) {
            const std::string_view block(first.data(), static_cast<std::size_t>(last.data() + last.size() - first.data()));
            base = sink.stable(block);
            for (std::size_t i = 0; i < t.size(); ++i) {
                refs[i] = tag_list::ref{static_cast<std::uint32_t>(t[i].data() - first.data()),
                                        static_cast<std::uint32_t>(t[i].size())};
            }
        } else {
            std::size_t total = 0;
            for (const std::string_view v : t) total += v.size();
            char* block = static_cast<char*>(a.allocate(total + 1, 1));
            std::size_t at = 0;
            for (std::size_t i = 0; i < t.size(); ++i) {
                if (!t[i].empty()) std::memcpy(block + at, t[i].data(), t[i].size());
                refs[i] = tag_list::ref{static_cast<std::uint32_t>(at), static_cast<std::uint32_t>(t[i].size())};
                at += t[i].size();
            }
            block[at] = '\0';
            base = block;
        }
        x.tag_base = base;
        x.tags = refs;
        x.tag_count = static_cast<std::uint32_t>(t.size());
        extras = true;
    }
    if (!st.signal.text.empty()) {
        x.signal_text = sink.put(st.signal.text);
        extras = true;
    }
    if (st.signal.number != 0 || std::signbit(st.signal.number)) {
        x.number = st.signal.number;
        extras = true;
    }
    if (st.marker) {
        // At most k_inline_array marks are copied into the packed block; more are referred to
        // where the builder made them, or copied into the arena.
        const std::span<const double> marks = st.marker->marks;
        marks_far = marks.size() > k_inline_array;
        x.marks = marks_far ? copy_array(sink, marks) : (marks.empty() ? nullptr : marks.data());
        x.mark_count = static_cast<std::uint32_t>(marks.size());
        r.bits |= has_marker;
        extras = true;
    }
    switch (st.body.index()) {
        case 0: r.body = body_tag::none; break;
        case 1:
            r.body = body_tag::text;
            r.body_raw = sink.put(std::get<std::string_view>(st.body));
            break;
        case 2: {
            const auto& m = std::get<matcher_body>(st.body);
            r.body = body_tag::matcher;
            r.body_raw = sink.put(m.raw);
            r.bits |= static_cast<std::uint8_t>(static_cast<unsigned>(m.dialect) << k_dialect_shift);
            if (!m.pattern.empty() || !m.flags.empty()) {
                x.pattern = sink.put(m.pattern);
                x.flags = sink.put(m.flags);
                extras = true;
            }
            break;
        }
        case 3: {
            const auto& b = std::get<send_body>(st.body);
            r.body = body_tag::send;
            r.body_raw = sink.put(b.raw);
            if (b.json) {
                x.json = sink.put(*b.json);
                r.bits |= has_json;
                extras = true;
            }
            break;
        }
        default: {
            const auto& sel = std::get<resource_selection>(st.body);
            r.body = body_tag::selection;
            x.dest = encode_path(sel.target, sink);
            r.bits |= has_dest;
            if (sel.marker) {
                x.dest_marks = copy_array(sink, sel.marker->marks);
                x.dest_mark_count = static_cast<std::uint32_t>(sel.marker->marks.size());
                r.bits |= has_dest_marker;
            }
            extras = true;
            break;
        }
    }
    if (extras) r.extras = pack_extras(x, suffix, a, marks_far, tags_far);
    return r;
}

void result_store::append(const item& it) {
    string_sink sink(strings);
    std::visit(
        [&](const auto& v) {
            using T = std::decay_t<decltype(v)>;
            item_rec rec = item_record(v.position, v.span);
            if constexpr (std::is_same_v<T, statement>) {
                rec.aux = static_cast<std::uint32_t>(stmts.size());
                stmts.push_back(encode_statement(v, sink));
                kinds.push_back(item_kind::statement);
            } else if constexpr (std::is_same_v<T, diagnostic>) {
                rec.aux = static_cast<std::uint32_t>(diags.size());
                diags.push_back(diag_rec::make(v.span.end, v.source, v.severity, v.id, strings.lstring(v.message)));
                kinds.push_back(item_kind::diagnostic);
            } else {
                rec.aux = static_cast<std::uint32_t>(texts.size());
                texts.push_back(text_rec{v.span.end, sink.copy(v.text)});
                kinds.push_back(item_kind::text_owned);
            }
            items.push_back(rec);
        },
        it);
}

}  // namespace plurnk::detail
