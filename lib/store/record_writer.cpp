// SPDX-License-Identifier: MIT
// Items to records (see record_writer.hpp): the writer's larger field calls (tags, a URL, the
// scope's marks, a selection), and encode_statement(), which reads a statement value out to it.
#include "store/record_writer.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <variant>

namespace plurnk::detail {

namespace {

template <class T>
const T* copy_array(arena& a, std::span<const T> v) {
    if (v.empty()) return nullptr;
    T* out = a.make_array<T>(v.size());
    std::copy(v.begin(), v.end(), out);
    return out;
}

}  // namespace

path_ref record_writer::encode_path(const parsed_path& p) {
    string_sink& sink = sink_;
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

const tag_list::ref* record_writer::far_copy(std::span<const tag_list::ref> v) {
    return copy_array(sink_.strings(), v);
}

const double* record_writer::far_copy(std::span<const double> v) { return copy_array(sink_.strings(), v); }

void record_writer::tags(const tag_list& t) {
    if (t.empty()) return;
    arena& a = sink_.strings();
    const bool far = t.size() > k_inline_array;
    tag_list::ref* refs = far ? a.make_array<tag_list::ref>(t.size()) : inline_refs_.data();
    const std::string_view first = t.front(), last = t.back();
    const std::string_view live = sink_.live();
    const auto in_live = [&](std::string_view v) {
        return !live.empty() && v.data() >= live.data() && v.data() + v.size() <= live.data() + live.size();
    };
    bool ordered = in_live(first) && in_live(last) && last.data() >= first.data();
    for (std::size_t i = 1; ordered && i < t.size(); ++i) ordered = t[i].data() >= t[i - 1].data() + t[i - 1].size();
    const char* base = nullptr;
    if (ordered) {
        const std::string_view block(first.data(), static_cast<std::size_t>(last.data() + last.size() - first.data()));
        base = sink_.stable(block);
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
    put_tags(base, refs, t.size());
}

void record_writer::body_selection(const path_ref& dest, bool marked, std::span<const double> marks) {
    r_.body = body_tag::selection;
    r_.bits |= has_dest;
    if (dest.kind != parsed_path::kind_t::local || dest.s.n != 0) field(x_dest, dest.s, dest.kind);
    if (!marked) return;
    r_.bits |= has_dest_marker;
    if (marks.empty()) return;
    field(x_dest_marks, copy_array(sink_.strings(), marks), static_cast<std::uint32_t>(marks.size()));
}

void write_body(record_writer& w, const plurnk::body& body) {
    std::visit(
        [&w](const auto& b) {
            using B = std::decay_t<decltype(b)>;
            if constexpr (std::is_same_v<B, std::string_view>) {
                w.body_text(b);
            } else if constexpr (std::is_same_v<B, matcher_body>) {
                w.body_matcher(b.dialect, b.raw, b.pattern, b.flags);
            } else if constexpr (std::is_same_v<B, send_body>) {
                w.body_send(b.raw, b.json);
            } else if constexpr (std::is_same_v<B, resource_selection>) {
                w.body_selection(b.target, b.marker);
            }
        },
        body);
}

stmt_rec encode_statement(const statement& st, string_sink& sink) {
    stmt_rec r;
    record_writer w(sink, r);
    w.begin(st.op, st.suffix, st.span.end);
    w.signal(st.signal.kind);
    if (st.target) w.target(*st.target);
    w.tags(st.signal.tags);
    w.signal_text(st.signal.text);
    w.number(st.signal.number);
    if (st.marker) w.marks(st.marker->marks);
    write_body(w, st.body);
    w.finish();
    return r;
}

void append_item(result_store& store, const item& it) {
    string_sink sink(store.strings);
    std::visit(
        [&](const auto& v) {
            using T = std::decay_t<decltype(v)>;
            item_rec rec = item_record(v.position, v.span);
            if constexpr (std::is_same_v<T, statement>) {
                rec.aux = static_cast<std::uint32_t>(store.stmts.size());
                store.stmts.push_back(encode_statement(v, sink));
                store.kinds.push_back(item_kind::statement);
            } else if constexpr (std::is_same_v<T, diagnostic>) {
                rec.aux = static_cast<std::uint32_t>(store.diags.size());
                const auto end = static_cast<std::uint64_t>(v.span.end);
                store.diags.push_back(diag_rec{static_cast<std::uint32_t>(store.messages.size()),
                                               static_cast<std::uint32_t>(end), static_cast<std::uint32_t>(end >> 32)});
                store.messages.push_back(diag_message::make(v.source, v.severity, v.id, store.strings.lstring(v.message)));
                store.kinds.push_back(item_kind::diagnostic);
            } else {
                rec.aux = static_cast<std::uint32_t>(store.texts.size());
                store.texts.push_back(text_rec{v.span.end, sink.copy(v.text)});
                store.kinds.push_back(item_kind::text_owned);
            }
            store.items.push_back(rec);
        },
        it);
}

}  // namespace plurnk::detail
