// SPDX-License-Identifier: MIT
// The result storage (see result_store.hpp): the arena and the input pieces, records to items
// (decode) and items to records (encode, for items built by hand), and the public item_list and
// AST equality on top of them.
#include "store/result_store.hpp"

#include <algorithm>
#include <array>
#include <iterator>
#include <cstring>
#include <new>
#include <stdexcept>

#include "grammar/hash_regex.hpp"
#include "plurnk/parse.hpp"

namespace plurnk::detail {

// ---- arena --------------------------------------------------------------------------------------

// A new chunk: the larger of what is asked and the bytes held so far (so chunks double while
// small), from 1 KB up to 64 KB; a larger request gets a chunk of its own size. Chunks stay where
// the allocator reuses freed memory: a stream copied for a checkpoint starts a chunk of its own,
// and with megabyte chunks each copy after a long history wrote into fresh pages, faulted in one
// by one (bench_stream's BM_feed_after: 64 KB fed after 16 MB cost 1.5x the same after 1 KB on a
// machine with costly page faults; 0.97x with 64 KB chunks).
namespace {

// The allocator of a shared_ptr's block that leaves `extra` bytes after it (16-byte aligned) and
// says where they start: an arena chunk, its link and its bytes in one allocation.
template <class T>
struct with_bytes_after {
    using value_type = T;
    std::size_t extra;
    char** bytes;  // where allocate() puts the address of the bytes
    with_bytes_after(std::size_t e, char** b) noexcept : extra(e), bytes(b) {}
    template <class U>
    explicit with_bytes_after(const with_bytes_after<U>& o) noexcept : extra(o.extra), bytes(o.bytes) {}
    static std::size_t head(std::size_t n) noexcept { return (n * sizeof(T) + 15) & ~std::size_t{15}; }
    T* allocate(std::size_t n) {
        char* p = static_cast<char*>(::operator new(head(n) + extra));
        *bytes = p + head(n);
        return reinterpret_cast<T*>(p);
    }
    void deallocate(T* p, std::size_t n) noexcept { ::operator delete(p, head(n) + extra); }
    template <class U>
    bool operator==(const with_bytes_after<U>& o) const noexcept {
        return extra == o.extra;
    }
};

}  // namespace

void* arena::grow(std::size_t n, std::size_t align) {
    constexpr std::size_t k_min = 1024, k_max = std::size_t{64} << 10;
    // (Room for the block's counts and link comes off the bytes, so that the block is about what
    // the bytes alone were: a 1 KB one is still one the allocator keeps at hand.)
    constexpr std::size_t k_link = 64;
    const std::size_t size = std::max(n + align, std::clamp(total_, k_min, k_max) - k_link);
    char* bytes = nullptr;
    auto c = std::allocate_shared<chunk>(with_bytes_after<chunk>(size, &bytes));
    c->prev = std::move(head_);
    head_ = std::move(c);
    total_ += size;
    ++chunks_;
    cur_ = bytes;
    left_ = size;
    return allocate(n, align);
}

// ---- input pieces -------------------------------------------------------------------------------

void input_text::clear() noexcept {
    has_first_ = false;
    first_ = piece{};
    more_.clear();
    owned_first_ = owned_block{};
    owned_more_.clear();
}

void input_text::add_piece(const piece& p) {
    if (has_first_) {
        more_.push_back(p);
    } else {
        first_ = p;
        has_first_ = true;
    }
}

void input_text::add_owned(owned_block b) {
    if (owned_first_.data) {
        owned_more_.push_back(std::move(b));
    } else {
        owned_first_ = std::move(b);
    }
}

void input_text::set_copied(std::string_view in) {
    clear();
    if (in.empty()) {
        add_piece(piece{0, {}});
        return;
    }
    // A plain block (a std::string would zero it first), with its reference count in it.
    std::shared_ptr<char[]> block = std::make_shared_for_overwrite<char[]>(in.size());
    std::memcpy(block.get(), in.data(), in.size());
    add_piece(piece{0, std::string_view(block.get(), in.size())});
    add_owned(owned_block{std::move(block), in.size(), 1});
}

void input_text::append_copy(std::uint64_t begin, std::string_view bytes) {
    if (bytes.empty()) return;
    const std::string_view copy = copies_.copy(bytes);
    // Bytes that land right after the last piece, in the same chunk, extend it.
    if (has_first_) {
        piece& last = more_.empty() ? first_ : more_.back();
        if (last.begin + last.bytes.size() == begin && last.bytes.data() + last.bytes.size() == copy.data()) {
            last.bytes = std::string_view(last.bytes.data(), last.bytes.size() + copy.size());
            return;
        }
    }
    add_piece(piece{begin, copy});
}

void input_text::append_owned(std::uint64_t begin, std::unique_ptr<char[]> block, std::size_t size,
                              std::size_t capacity) {
    if (size == 0) return;
    std::shared_ptr<const char[]> data(std::move(block));
    add_piece(piece{begin, std::string_view(data.get(), size)});
    add_owned(owned_block{std::move(data), capacity, 2});
}

std::size_t input_text::bytes() const noexcept {
    std::size_t n = copies_.capacity() + more_.capacity() * sizeof(piece) + owned_first_.capacity;
    for (const auto& b : owned_more_) n += b.capacity;
    return n;
}

std::size_t input_text::blocks() const noexcept {
    std::size_t n = copies_.chunks() + (more_.capacity() > 0 ? 1 : 0) + (owned_more_.capacity() > 0 ? 1 : 0) +
                    owned_first_.blocks;
    for (const auto& b : owned_more_) n += b.blocks;
    return n;
}

const char* input_text::find(std::uint64_t offset) const noexcept {
    if (more_.empty() || offset < more_.front().begin) {
        return has_first_ && offset >= first_.begin ? first_.bytes.data() + (offset - first_.begin) : nullptr;
    }
    // The last piece starting at or before offset.
    auto it = std::upper_bound(more_.begin(), more_.end(), offset,
                               [](std::uint64_t o, const piece& p) { return o < p.begin; });
    --it;
    return it->bytes.data() + (offset - it->begin);
}

// ---- packed extras ------------------------------------------------------------------------------

namespace {

// Reads the fields in mask order, each with memcpy (the packed form has no alignment). The
// suffix and the inline arrays come after these. (The record writer writes them in this order.)
template <class X, class Op>
void each_field(std::uint16_t mask, X& x, Op&& op) {
    if ((mask & (x_tags | x_tags_far)) != 0) {
        op(x.tag_base);
        op(x.tag_count);
    }
    if ((mask & x_tags_far) != 0) op(x.tags);
    if ((mask & x_signal_text) != 0) op(x.signal_text);
    if ((mask & x_number) != 0) op(x.number);
    if ((mask & (x_marks | x_marks_far)) != 0) op(x.mark_count);
    if ((mask & x_marks_far) != 0) op(x.marks);
    if ((mask & x_pattern) != 0) op(x.pattern);
    if ((mask & x_flags) != 0) op(x.flags);
    if ((mask & x_json) != 0) op(x.json);
    if ((mask & x_dest) != 0) {
        op(x.dest.s);
        op(x.dest.kind);
    }
    if ((mask & x_dest_marks) != 0) {
        op(x.dest_marks);
        op(x.dest_mark_count);
    }
}

// Where the inline arrays start in a packed block whose fields end at `end` (the block is then
// 8-byte aligned).
constexpr std::size_t inline_arrays_at(std::size_t end) noexcept { return (end + 7) & ~std::size_t{7}; }

}  // namespace

stmt_extras unpack_extras(const unsigned char* p, sref* suffix) noexcept {
    stmt_extras x;
    if (p == nullptr) return x;
    std::uint16_t mask = 0;
    std::memcpy(&mask, p, sizeof mask);
    const unsigned char* r = p + sizeof mask;
    each_field(mask, x, [&r](auto& f) {
        std::memcpy(&f, r, sizeof f);
        r += sizeof f;
    });
    if ((mask & x_suffix) != 0) {
        if (suffix != nullptr) std::memcpy(suffix, r, sizeof *suffix);
        r += sizeof(sref);
    }
    const std::size_t mark_bytes = (mask & x_marks) != 0 ? x.mark_count * sizeof(double) : 0;
    const unsigned char* arrays = p + inline_arrays_at(static_cast<std::size_t>(r - p));
    if (mark_bytes != 0) x.marks = reinterpret_cast<const double*>(arrays);
    if ((mask & x_tags) != 0) x.tags = reinterpret_cast<const tag_list::ref*>(arrays + mark_bytes);
    return x;
}

// ---- records to items ---------------------------------------------------------------------------

namespace {

// The fields of a packed URL after raw, in each_url_field's order, each text field resolved by
// `resolve`.
template <class Text, class Resolve>
void read_url_fields(const unsigned char* r, std::uint8_t has, Resolve&& resolve, parsed_path& out) {
    const auto read = [&r](auto& field) {
        std::memcpy(&field, r, sizeof field);
        r += sizeof field;
    };
    const auto text = [&read, &resolve] {
        Text f;
        read(f);
        return resolve(f);
    };
    out.scheme = text();
    out.pathname = text();
    if ((has & url_username) != 0) out.username = text();
    if ((has & url_password) != 0) out.password = text();
    if ((has & url_hostname) != 0) out.hostname = text();
    if ((has & url_port) != 0) {
        std::uint32_t port = 0;
        read(port);
        out.port = port;
    }
    if ((has & url_query) != 0) out.query = text();
    if ((has & url_fragment) != 0) out.fragment = text();
    if ((has & url_headers) != 0) {
        const header* headers = nullptr;
        std::uint32_t count = 0;
        read(headers);
        read(count);
        out.headers = std::span<const header>(headers, count);
    }
}

parsed_path decode_path(const path_ref& p, const text_resolver& t) {
    parsed_path out;
    if (p.kind != parsed_path::kind_t::url) {
        out.raw = t.str(p.s);
        if (p.kind == parsed_path::kind_t::regex) {  // its pattern and flags are pieces of raw
            const hash_split sp = split_hash_regex(out.raw);
            out.kind = p.kind;
            out.pattern = sp.pattern;
            out.flags = sp.flags;
        }
        return out;
    }
    // The packed URL (pack_url): its has byte, raw, then the rest.
    const auto* r = reinterpret_cast<const unsigned char*>(p.s.address());
    const std::uint8_t has = r[0];
    sref raw;
    std::memcpy(&raw, r + 1, sizeof raw);
    out.kind = parsed_path::kind_t::url;
    out.raw = t.str(raw);
    r += 1 + sizeof raw;
    if ((has & url_sliced) != 0) {
        const std::string_view text = out.raw;
        read_url_fields<url_slice>(r, has, [text](url_slice s) { return text.substr(s.begin, s.len); }, out);
    } else {
        read_url_fields<sref>(r, has, [&t](sref s) { return t.str(s); }, out);
    }
    return out;
}

}  // namespace

statement decode_statement(const item_rec& r, const stmt_rec& s, const text_resolver& t) {
    statement st;
    st.op = s.op;
    st.position = position{r.line, r.column};
    st.span = byte_span{r.begin, s.end};
    st.signal.kind = static_cast<signal::kind_t>(s.signal_kind);
    // A statement whose extras are all defaults stores none (nullptr); unpacking that gives the
    // defaults, so every field below reads the same either way.
    sref suffix;
    const stmt_extras x = unpack_extras(s.extras, &suffix);
    st.suffix = t.str(suffix);
    st.signal.tags = tag_list(x.tag_base, x.tags, x.tag_count);
    st.signal.number = x.number;
    st.signal.text = t.str(x.signal_text);
    if ((s.bits & has_marker) != 0) st.marker = line_marker{std::span<const double>(x.marks, x.mark_count)};
    if ((s.bits & has_target) != 0) st.target = decode_path(path_ref{s.target, static_cast<parsed_path::kind_t>(s.target_kind)}, t);
    switch (s.body) {
        case body_tag::none: break;
        case body_tag::text: st.body = t.str(s.body_raw); break;
        case body_tag::matcher: {
            matcher_body m;
            m.dialect = static_cast<dialect>(s.bits >> k_dialect_shift);
            m.raw = t.str(s.body_raw);
            m.pattern = t.str(x.pattern);
            m.flags = t.str(x.flags);
            st.body = m;
            break;
        }
        case body_tag::send: {
            send_body b;
            b.raw = t.str(s.body_raw);
            if ((s.bits & has_json) != 0) b.json = t.str(x.json);
            st.body = b;
            break;
        }
        case body_tag::selection: {
            resource_selection sel;
            sel.target = decode_path(x.dest, t);
            if ((s.bits & has_dest_marker) != 0) {
                sel.marker = line_marker{std::span<const double>(x.dest_marks, x.dest_mark_count)};
            }
            st.body = sel;
            break;
        }
    }
    return st;
}

diagnostic decode_diagnostic(const item_rec& r, const diag_rec* diags, const diag_message* messages) {
    const diag_aux d = diag_aux::of(r, diags);
    const diag_message& m = messages[d.message];
    return diagnostic{position{r.line, r.column}, m.source(), m.severity(), m.text(), m.message_id(),
                      byte_span{r.begin, static_cast<std::size_t>(d.end)}};
}

text_item decode_text(const item_rec& r, const text_resolver& t) {
    return text_item{t.str(sref::input(r.begin, r.aux - r.begin)), position{r.line, r.column},
                     byte_span{r.begin, r.aux}};
}

item result_store::decode(std::size_t i) const {
    const item_rec& r = items[i];
    const text_resolver t = resolver();
    switch (kinds[i]) {
        case item_kind::statement: return decode_statement(r, stmts[r.aux], t);
        case item_kind::diagnostic: return decode_diagnostic(r, diags.data(), messages.data());
        case item_kind::text: return decode_text(r, t);
        case item_kind::text_owned: break;
    }
    const text_rec& x = texts[r.aux];
    return text_item{t.str(x.text), position{r.line, r.column}, byte_span{r.begin, static_cast<std::size_t>(x.end)}};
}

}  // namespace plurnk::detail
