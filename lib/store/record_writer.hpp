// SPDX-License-Identifier: MIT
// Items to records (private header): the one writer of a statement's records (record_writer),
// which the result builder and item_list::push_back() call.
// Strings inside the input being parsed become input references (no copy); every other string,
// and every list, is copied into the arena.
#pragma once

#include <array>
#include <cassert>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "store/result_store.hpp"

namespace plurnk::detail {

class string_sink {
public:
    explicit string_sink(arena& a) noexcept : a_(a) {}
    // Strings inside `live` (the input from absolute offset `begin` on) are referred to, not copied.
    void set_live(std::string_view live, std::uint64_t begin) noexcept {
        live_ = live;
        live_begin_ = begin;
    }
    [[nodiscard]] sref put(std::string_view s) {
        if (s.empty()) return {};
        // Inside the live input: its offset there (wrapping past the end when it starts before).
        const std::uintptr_t at =
            reinterpret_cast<std::uintptr_t>(s.data()) - reinterpret_cast<std::uintptr_t>(live_.data());
        if (at <= live_.size() && s.size() <= live_.size() - at) return sref::input(live_begin_ + at, s.size());
        return copy(s);
    }
    // Where `s` (inside the live input) will stay put for the result: the result's own input when
    // it already holds those bytes (parse()), else a copy in the arena.
    [[nodiscard]] const char* stable(std::string_view s) {
        if (input_ != nullptr) {
            const auto p = reinterpret_cast<std::uintptr_t>(s.data());
            const auto lo = reinterpret_cast<std::uintptr_t>(live_.data());
            const std::uint64_t abs = live_begin_ + (p - lo);
            if (abs + s.size() <= input_->end()) return input_->at(abs);
        }
        const std::string_view c = a_.copy(s);
        return c.empty() ? "" : c.data();
    }
    [[nodiscard]] std::string_view live() const noexcept { return live_; }
    void set_input(const input_text* in) noexcept { input_ = in; }

    // Always into the arena.
    [[nodiscard]] sref copy(std::string_view s) {
        if (s.empty()) return {};
        return sref::arena(a_.copy(s).data(), s.size());
    }
    [[nodiscard]] arena& strings() noexcept { return a_; }

private:
    arena& a_;
    const input_text* input_ = nullptr;
    std::string_view live_;
    std::uint64_t live_begin_ = 0;
};

// The only code that writes a stmt_rec (and its extras and URL records in the arena): a
// statement's fields, one call each. begin() first; then any of the signal's, the target's, the
// scope's and the body's calls, each at most once and in the order they are declared here (the
// signal's tags, text and number, the marks, then the body: the packed extras' order, in which
// they are written as they arrive); finish() completes the record. Strings inside
// the sink's live input become input references, the rest arena copies (string_sink). The span's
// begin and the position go to the item record (item_record()).
//
// The record is written where it is kept (`slot`, a default stmt_rec: record_log's
// stmts().emplace_back()), not returned and copied there; the slot must stay put until finish().
// A writer lives on the stack for one statement, and begin() is its first call. What it zeroes
// per statement is the record (40 bytes) and a few flags, not the extras (written only where
// they are present): a struct that every statement zeroes must stay under 128 bytes
// (result_store.hpp), or g++ zeroes it with `rep stos`, which costs more to start than the rest
// of the encoding.
class record_writer {
public:
    record_writer(string_sink& sink, stmt_rec& slot) noexcept : sink_(sink), r_(slot) {}

    // A statement of `op` with the suffix after its op name, whose span ends at `end`.
    void begin(plurnk::op op, std::string_view suffix, std::size_t end) noexcept {
        r_.end = offset32(end);
        r_.op = op;
        suffix_ = sink_.put(suffix);
        if (suffix_.n != 0) mask_ = x_suffix;
    }

    // The signal: its kind, then what it holds (tags, a number or a text).
    void signal(plurnk::signal::kind_t kind) noexcept { r_.signal_kind = static_cast<std::uint8_t>(kind) & 0x3FU; }
    // Tags as any views: one block of text when they lie in the live input in order (what the
    // parser gives), else a copy of each, back to back.
    void tags(const tag_list& t);
    // Tags as pieces of one block of the live input: `refs` are offsets from its start. At most
    // k_inline_array references go into the packed block (from where they are until finish());
    // more are copied into the arena.
    void tags(std::string_view block, std::span<const tag_list::ref> refs) {
        if (refs.empty()) return;
        put_tags(sink_.stable(block), refs.size() > k_inline_array ? far_copy(refs) : refs.data(), refs.size());
    }
    void signal_text(std::string_view s) {
        if (s.empty()) return;
        field(x_signal_text, sink_.put(s));
    }
    void number(double v) noexcept {
        if (v == 0 && !std::signbit(v)) return;
        field(x_number, v);
    }

    // The target: decoded text (a local or a regex path), a URL, or a URL the targets' fast path
    // read (a path_ref that local_ref(), sliced_ref() or url_ref() made).
    void target(const parsed_path& p) { set_target(encode_path(p)); }
    void target(const path_ref& p) noexcept { set_target(p); }

    // A fast path's target or COPY/MOVE destination, stored for target() or body_selection(): a
    // local path's text; a URL as pieces of its text (`text`, at most 65,535 bytes), packed from
    // them where the record keeps it (no sliced_url made aside and copied into the block), `has`
    // naming the optional fields present, only hostname, port, query and fragment (url_has), an
    // absent one's piece not read (pack_url's layout); or field by field (whose fields the caller
    // put in the sink; raw is set here).
    [[nodiscard]] path_ref local_ref(std::string_view text) {
        return path_ref{sink_.put(text), parsed_path::kind_t::local};
    }
    [[nodiscard]] path_ref sliced_ref(std::string_view text, std::uint8_t has, url_slice scheme, url_slice pathname,
                                      url_slice hostname, std::uint32_t port, url_slice query, url_slice fragment) {
        assert((has & ~(url_hostname | url_port | url_query | url_fragment)) == 0);
        const sref raw = sink_.put(text);
        auto* p = static_cast<unsigned char*>(sink_.strings().allocate(k_url_size<sliced_url>[has], 1));
        p[0] = static_cast<std::uint8_t>(has | url_sliced);
        unsigned char* w = p + 1;
        const auto put = [&w](const auto& f) {
            std::memcpy(w, &f, sizeof f);
            w += sizeof f;
        };
        put(raw);
        put(scheme);
        put(pathname);
        if ((has & url_hostname) != 0) put(hostname);
        if ((has & url_port) != 0) put(port);
        if ((has & url_query) != 0) put(query);
        if ((has & url_fragment) != 0) put(fragment);
        return path_ref{sref::arena(p, 0), parsed_path::kind_t::url};
    }
    [[nodiscard]] path_ref url_ref(std::string_view text, url_rec fields) {
        fields.raw = sink_.put(text);
        return path_ref{sref::arena(pack_url(fields, sink_.strings()), 0), parsed_path::kind_t::url};
    }

    // The scope's marks. At most k_inline_array are copied into the packed block (from where they
    // are until finish()); more are referred to where they are when `stable` (in the arena for
    // good: a long scope the builder read there), else copied into the arena.
    void marks(std::span<const double> m, bool stable = false) {
        r_.bits |= has_marker;
        if (m.empty()) return;
        const auto n = static_cast<std::uint32_t>(m.size());
        if (n > k_inline_array) {
            field(x_marks_far, n, stable ? m.data() : far_copy(m));
            return;
        }
        field(x_marks, n);
        marks_ = m.data();
        mark_count_ = static_cast<std::uint8_t>(n);
    }

    // The body: text, a SEND body (with its JSON form), a matcher, or a COPY/MOVE selection.
    void body_text(std::string_view raw) {
        r_.body = body_tag::text;
        r_.body_raw = sink_.put(raw);
    }
    void body_send(std::string_view raw, const std::optional<std::string_view>& json) {
        r_.body = body_tag::send;
        r_.body_raw = sink_.put(raw);
        if (!json) return;
        r_.bits |= has_json;
        if (json->empty()) return;
        field(x_json, sink_.put(*json));
    }
    void body_matcher(plurnk::dialect d, std::string_view raw, std::string_view pattern, std::string_view flags) {
        r_.body = body_tag::matcher;
        r_.body_raw = sink_.put(raw);
        r_.bits |= static_cast<std::uint8_t>(static_cast<unsigned>(d) << k_dialect_shift);
        if (!pattern.empty()) field(x_pattern, sink_.put(pattern));
        if (!flags.empty()) field(x_flags, sink_.put(flags));
    }
    void body_selection(const parsed_path& dest, const std::optional<line_marker>& marker) {
        body_selection(encode_path(dest), marker.has_value(), marker ? marker->marks : std::span<const double>());
    }
    // A destination stored as a path_ref (local_ref(), sliced_ref(), url_ref()), with a scope
    // (`marked`) of `marks` or without one.
    void body_selection(const path_ref& dest, bool marked, std::span<const double> marks);

    void finish() {
        if (mask_ != 0) {
            r_.extras = pack_extras(mask_, std::span<const unsigned char>(fields_, used_), suffix_,
                                    std::span<const double>(marks_, (mask_ & x_marks) != 0 ? mark_count_ : 0),
                                    std::span<const tag_list::ref>(refs_, (mask_ & x_tags) != 0 ? ref_count_ : 0),
                                    sink_.strings());
        }
    }

    // Offsets are stored in 32 bits. A parse never exceeds them (its input is cut at
    // parse_options::k_max_input_bytes); an item built by hand with a larger offset keeps 4 GiB - 1.
    static std::uint32_t offset32(std::size_t v) noexcept {
        return v > UINT32_MAX ? UINT32_MAX : static_cast<std::uint32_t>(v);
    }

private:
    path_ref encode_path(const parsed_path& p);
    // A copy of a long array in the arena.
    const tag_list::ref* far_copy(std::span<const tag_list::ref> v);
    const double* far_copy(std::span<const double> v);
    void set_target(const path_ref& p) noexcept {
        r_.target = p.s;
        r_.target_kind = static_cast<std::uint8_t>(p.kind) & 3U;
        r_.bits |= has_target;
    }

    // The packed extras' fields (extras_field; the suffix apart) are written in packing order as
    // they arrive: mask_ names them, used_ bytes of fields_ hold them.
    template <class... F>
    void field(std::uint16_t bit, const F&... f) noexcept {
        assert(in_order(bit));
        mask_ |= bit;
        ((std::memcpy(fields_ + used_, &f, sizeof f), used_ += sizeof f), ...);
    }
    void put_tags(const char* base, const tag_list::ref* refs, std::size_t n) noexcept {
        const auto count = static_cast<std::uint32_t>(n);
        if (n > k_inline_array) {
            field(x_tags_far, base, count, refs);
            return;
        }
        field(x_tags, base, count);
        refs_ = refs;
        ref_count_ = static_cast<std::uint8_t>(n);
    }
    // Packing order: the far arrays' fields go where the inline ones' would.
    bool in_order(std::uint16_t bit) const noexcept {
        const auto rank = [](unsigned m) {
            return (m & 0x1FFU) | ((m & x_tags_far) != 0 ? unsigned{x_tags} : 0U) |
                   ((m & x_marks_far) != 0 ? unsigned{x_marks} : 0U);
        };
        return rank(mask_ & ~unsigned{x_suffix}) < rank(bit);
    }

    string_sink& sink_;
    stmt_rec& r_;
    sref suffix_;

    // The extras (fields_ is not zeroed per statement: only what mask_ names is read).
    std::uint16_t mask_ = 0;  // the fields written (extras_field), and the suffix
    std::uint8_t used_ = 0;   // bytes of fields_
    std::uint8_t mark_count_ = 0;  // the inline marks (mask_ has x_marks), until finish()
    std::uint8_t ref_count_ = 0;   // the inline tags' references (x_tags), until finish()
    const double* marks_ = nullptr;
    const tag_list::ref* refs_ = nullptr;
    std::array<tag_list::ref, k_inline_array> inline_refs_;  // a few tags' references, until finish()
    unsigned char fields_[k_extras_fields_max];
};

// The records of a statement value (item_list::push_back, for an item built by hand), through a
// record_writer: its fields as they are, copied into the arena unless they view the live input.
[[nodiscard]] stmt_rec encode_statement(const statement& st, string_sink& sink);
// A body value's field call.
void write_body(record_writer& w, const plurnk::body& body);
inline item_rec item_record(position p, byte_span span) {
    return item_rec{record_writer::offset32(span.begin), 0, p.line, p.column};
}
// Appends an item built by hand (item_list::push_back) to `store`: its records, its strings copied
// into the arena.
void append_item(result_store& store, const item& it);

}  // namespace plurnk::detail
