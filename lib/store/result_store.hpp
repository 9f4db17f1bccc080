// SPDX-License-Identifier: MIT
// The storage behind a parse_result (private header): compact records, one per item, and the
// text they refer to. An item is 17 bytes (a 16-byte item_rec and a kind byte); a statement adds
// a 40-byte stmt_rec and, when it has a suffix, a signal, a scope or a structured body, its
// extras packed in the arena (a URL target's fields too); a diagnostic adds nothing when its
// item_rec can hold its message's index and its span's length (diag_aux), else a 12-byte
// diag_rec, and shares its message and class (a diag_message in the message table) with every
// equal one. (The static_asserts below hold the sizes.)
// Strings are `sref`s: an input slice by absolute offset (resolved through the input pieces) or
// arena bytes by address. Items are made on access (decode()), as views of this storage.
//
// Text lives in two places. The input: one piece for parse() (the caller's bytes when borrowed,
// else a copy), and for the push parser the released input appended piece by piece, then the
// rest at finish(). The arena: decoded text (escaped targets, URL parts, canonical JSON,
// messages), tag and header lists and scope marks, in chunks that never move. Both are shared by
// copies: a stream checkpoint shares every full chunk and piece and writes its own from then on,
// so copying costs O(pieces + chunks), not O(history).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "plurnk/ast.hpp"
#include "base/pod_vector.hpp"

namespace plurnk::detail {

// A string held by a store.
#pragma pack(push, 4)
struct sref {
    static constexpr std::uint64_t k_arena = std::uint64_t{1} << 63;
    std::uint64_t v = 0;  // k_arena set: the arena address in the low bits; else an input offset
    std::uint32_t n = 0;  // length in bytes

    [[nodiscard]] bool in_arena() const noexcept { return (v & k_arena) != 0; }
    [[nodiscard]] const char* address() const noexcept {
        return reinterpret_cast<const char*>(static_cast<std::uintptr_t>(v & ~k_arena));
    }
    static sref input(std::size_t offset, std::size_t len) noexcept {
        return sref{static_cast<std::uint64_t>(offset), static_cast<std::uint32_t>(len)};
    }
    static sref arena(const void* p, std::size_t len) noexcept {
        return sref{static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p)) | k_arena,
                    static_cast<std::uint32_t>(len)};
    }
};
#pragma pack(pop)
static_assert(sizeof(sref) == 12);

// What an item is. A parsed text item is the input under its span; one built by hand keeps its
// text in a record of its own (text_rec).
enum class item_kind : std::uint8_t { statement = 0, diagnostic = 1, text = 2, text_owned = 3 };

// One item: its span and position. For a parsed text item `aux` is the span's end; for a
// diagnostic, see diag_aux; otherwise it is the index of its record (stmt_rec or text_rec),
// which holds the span's end.
struct item_rec {
    std::uint32_t begin = 0;
    std::uint32_t aux = 0;
    std::uint32_t line = 0;
    std::uint32_t column = 0;
};

enum class body_tag : std::uint8_t { none, text, matcher, send, selection };

// A path: local (its decoded text) or a URL (a packed url_rec in the arena).
#pragma pack(push, 4)
struct path_ref {
    sref s;           // local, regex: the text; url: the packed url_rec (address, n = 0)
    parsed_path::kind_t kind = parsed_path::kind_t::local;
};

// A piece of a URL's raw text: its fields when they all are such pieces (sliced_url).
struct url_slice {
    std::uint16_t begin = 0;
    std::uint16_t len = 0;
};

// A URL's fields. In the arena it is packed (pack_url): its `has` byte, then raw, scheme and
// pathname, then only the fields `has` says are present, back to back. In a url_rec every text
// field is an sref (a URL with a host takes 49 bytes); in a sliced_url, whose `has` carries
// url_sliced, every field but raw is a piece of raw (at most 65,535 bytes long), as the
// targets' fast path reads them (25 bytes).
template <class Text>
struct url_fields {
    sref raw;
    Text scheme, username, password, hostname, pathname, query, fragment;
    std::uint32_t port = 0;
    std::uint8_t has = 0;  // which optionals are present (url_has)
    const header* headers = nullptr;
    std::uint32_t header_count = 0;
};
using url_rec = url_fields<sref>;
using sliced_url = url_fields<url_slice>;

// What a statement has beyond op, suffix, target and body text. In the arena it is packed: a
// 16-bit mask of the fields present, then those fields, back to back, then (8-byte aligned) the
// scope marks and the tags' references when there are at most k_inline_array of each, so that a
// statement's extras are one block (pack_extras); absent for a plain statement. Longer arrays
// stay where the builder made them in the arena, and the packed form points at them.
struct stmt_extras {
    const char* tag_base = nullptr;          // signal::kind_t::tags: the tags' text
    const tag_list::ref* tags = nullptr;     // ... each an offset from tag_base and a length
    std::uint32_t tag_count = 0;
    sref signal_text;                        // signal::kind_t::text
    double number = 0;                       // signal::kind_t::number
    const double* marks = nullptr;           // lineMarker
    std::uint32_t mark_count = 0;
    sref pattern, flags;                     // regex matcher
    sref json;                               // SEND body JSON
    path_ref dest;                           // COPY/MOVE destination
    const double* dest_marks = nullptr;
    std::uint32_t dest_mark_count = 0;
};
inline constexpr std::size_t k_inline_array = 16;
// Every statement decoded zeroes one (unpack_extras): keep it under the size at which g++ zeroes
// with `rep stos`.
static_assert(sizeof(stmt_extras) < 128);

// The fields a packed stmt_extras holds (its mask), in packing order, the suffix last. x_tags and
// x_marks: the references or the marks follow the fields (inline); x_tags_far and x_marks_far: the
// fields hold a pointer to them.
enum extras_field : std::uint16_t {
    x_tags = 1, x_signal_text = 2, x_number = 4, x_marks = 8, x_pattern = 16, x_flags = 32, x_json = 64,
    x_dest = 128, x_dest_marks = 256, x_suffix = 512, x_tags_far = 1024, x_marks_far = 2048,
};
// The most bytes the fields of a packed stmt_extras take, the suffix apart (far tags and marks).
inline constexpr std::size_t k_extras_fields_max =
    sizeof(stmt_extras::tag_base) + sizeof(stmt_extras::tag_count) + sizeof(stmt_extras::tags) +
    sizeof(stmt_extras::signal_text) + sizeof(stmt_extras::number) + sizeof(stmt_extras::mark_count) +
    sizeof(stmt_extras::marks) + sizeof(stmt_extras::pattern) + sizeof(stmt_extras::flags) + sizeof(stmt_extras::json) +
    sizeof(path_ref::s) + sizeof(path_ref::kind) + sizeof(stmt_extras::dest_marks) + sizeof(stmt_extras::dest_mark_count);
static_assert(k_extras_fields_max < 256);

// 40 bytes: a statement-dense result holds one per 60 input bytes or so.
struct stmt_rec {
    std::uint32_t end = 0;  // span end
    plurnk::op op = plurnk::op::PLAN;
    std::uint8_t signal_kind : 6 = 0;  // signal::kind_t
    std::uint8_t target_kind : 2 = 0;  // parsed_path::kind_t (path_ref::kind)
    body_tag body = body_tag::none;
    std::uint8_t bits = 0;  // stmt_bits, and the dialect in bits 5-7
    sref target;            // has_target: path_ref::s
    sref body_raw;
    const unsigned char* extras = nullptr;  // packed stmt_extras (the suffix among them), or none
};
static_assert(sizeof(stmt_rec) == 40);

// A diagnostic's message and class, one entry of a result's message table, shared by every
// diagnostic that shows them. The text is arena text with its length in the 4 bytes before it
// (lstring), itself shared by every equal message.
struct diag_message {
    const char* message = nullptr;
    std::uint8_t id = 0;               // message_id
    std::uint8_t source_severity = 0;  // source << 4 | severity

    static diag_message make(plurnk::source src, plurnk::severity sev, plurnk::message_id id,
                             const char* message) noexcept {
        return diag_message{message, static_cast<std::uint8_t>(id),
                            static_cast<std::uint8_t>(static_cast<unsigned>(src) << 4 | static_cast<unsigned>(sev))};
    }
    [[nodiscard]] plurnk::source source() const noexcept { return static_cast<plurnk::source>(source_severity >> 4); }
    [[nodiscard]] plurnk::severity severity() const noexcept {
        return static_cast<plurnk::severity>(source_severity & 15);
    }
    [[nodiscard]] plurnk::message_id message_id() const noexcept { return static_cast<plurnk::message_id>(id); }
    friend bool operator==(const diag_message&, const diag_message&) = default;
    [[nodiscard]] std::string_view text() const noexcept {
        if (message == nullptr) return {};
        std::uint32_t n = 0;
        std::memcpy(&n, message - 4, 4);
        return {message, n};
    }
};
static_assert(sizeof(diag_message) == 12);
static_assert(k_message_count <= 256);

// 12 bytes: a diagnostic whose item record cannot hold it (diag_aux).
struct diag_rec {
    std::uint32_t message = 0;  // its index in the message table
    std::uint32_t end_lo = 0;   // span end: the input-limit error's can pass 4 GiB
    std::uint32_t end_hi = 0;

    [[nodiscard]] std::uint64_t end() const noexcept { return std::uint64_t{end_hi} << 32 | end_lo; }
};
static_assert(sizeof(diag_rec) == 12);

struct text_rec {
    std::uint64_t end = 0;
    sref text;
};
#pragma pack(pop)

// A diagnostic's item record. With k_inline set, `aux` holds its message's index (below
// k_inline_messages) and its span's length (up to k_inline_length): an error-dense input's
// diagnostics take 17 bytes each, no record of their own. Otherwise `aux` is the index of its
// diag_rec.
struct diag_aux {
    static constexpr std::uint32_t k_inline = std::uint32_t{1} << 31;
    static constexpr unsigned k_length_bits = 12;
    static constexpr std::uint32_t k_inline_length = (std::uint32_t{1} << k_length_bits) - 1;
    static constexpr std::uint32_t k_inline_messages = std::uint32_t{1} << (31 - k_length_bits);

    std::uint32_t message = 0;
    std::uint64_t end = 0;

    // The aux of a diagnostic of `message` over [begin, end), when it fits.
    [[nodiscard]] static bool fits(std::uint32_t message, std::uint64_t begin, std::uint64_t end) noexcept {
        return message < k_inline_messages && begin <= end && end <= UINT32_MAX && end - begin <= k_inline_length;
    }
    [[nodiscard]] static std::uint32_t pack(std::uint32_t message, std::uint64_t begin, std::uint64_t end) noexcept {
        return k_inline | message << k_length_bits | static_cast<std::uint32_t>(end - begin);
    }
    // The message and span end of the diagnostic of item record `r` (`diags`: its diag_recs).
    [[nodiscard]] static diag_aux of(const item_rec& r, const diag_rec* diags) noexcept {
        if ((r.aux & k_inline) == 0) return diag_aux{diags[r.aux].message, diags[r.aux].end()};
        return diag_aux{(r.aux & ~k_inline) >> k_length_bits, std::uint64_t{r.begin} + (r.aux & k_inline_length)};
    }
};

enum url_has : std::uint8_t {
    url_username = 1, url_password = 2, url_hostname = 4, url_port = 8, url_query = 16, url_fragment = 32,
    url_headers = 64, url_sliced = 128,
};
enum stmt_bits : std::uint8_t {
    has_target = 1, has_marker = 2, has_json = 4, has_dest = 8, has_dest_marker = 16,
};
inline constexpr int k_dialect_shift = 5;

// Bytes in chunks that never move: decoded text and the arrays statements point at.
class arena {
public:
    arena() = default;
    // A copy shares every chunk and never writes into them (its next allocation starts a chunk of
    // its own), so what either side allocates later is invisible to the other.
    arena(const arena& o) noexcept : head_(o.head_), total_(o.total_), chunks_(o.chunks_) {}
    arena& operator=(const arena& o) noexcept {
        head_ = o.head_;
        total_ = o.total_;
        chunks_ = o.chunks_;
        cur_ = nullptr;
        left_ = 0;
        return *this;
    }
    arena(arena&&) noexcept = default;
    arena& operator=(arena&&) noexcept = default;

    void* allocate(std::size_t n, std::size_t align) {
        const std::size_t pad = (align - (reinterpret_cast<std::uintptr_t>(cur_) & (align - 1))) & (align - 1);
        if (cur_ == nullptr || pad + n > left_) return grow(n, align);
        char* p = cur_ + pad;
        cur_ = p + n;
        left_ -= pad + n;
        return p;
    }
    // A copy of `s`, followed by a NUL (so the C API can hand it out as it is).
    std::string_view copy(std::string_view s) {
        if (s.empty()) return {};
        char* p = static_cast<char*>(allocate(s.size() + 1, 1));
        std::memcpy(p, s.data(), s.size());
        p[s.size()] = '\0';
        return {p, s.size()};
    }
    // A copy of `s` with its length in the 4 bytes before it and a NUL after (diag_rec::text).
    const char* lstring(std::string_view s) {
        char* p = static_cast<char*>(allocate(s.size() + 5, 4));
        const auto n = static_cast<std::uint32_t>(s.size());
        std::memcpy(p, &n, 4);
        if (!s.empty()) std::memcpy(p + 4, s.data(), s.size());
        p[4 + s.size()] = '\0';
        return p + 4;
    }
    template <class T>
    T* make_array(std::size_t n) {
        return static_cast<T*>(allocate(n * sizeof(T), alignof(T)));
    }
    // Back to as constructed: no chunk (they go, or stay with the copies and results sharing them).
    void clear() noexcept {
        head_.reset();
        cur_ = nullptr;
        left_ = total_ = chunks_ = 0;
    }
    // The same chunks and the same room in them: a state's equality, for the tests.
    friend bool operator==(const arena&, const arena&) = default;
    // Bytes and chunks held (memory accounting).
    [[nodiscard]] std::size_t capacity() const noexcept { return total_; }
    [[nodiscard]] std::size_t chunks() const noexcept { return chunks_; }

private:
    // Its bytes follow it in the same heap block (grow()).
    struct chunk {
        std::shared_ptr<chunk> prev;
        // Unlinks the chain one chunk at a time: a long history must not recurse.
        ~chunk() {
            std::shared_ptr<chunk> p = std::move(prev);
            while (p && p.use_count() == 1) {
                std::shared_ptr<chunk> next = std::move(p->prev);
                p = std::move(next);
            }
        }
    };
    void* grow(std::size_t n, std::size_t align);

    std::shared_ptr<chunk> head_;
    char* cur_ = nullptr;
    std::size_t left_ = 0;
    std::size_t total_ = 0;
    std::size_t chunks_ = 0;
};

// The input bytes items refer to, by absolute offset: pieces in offset order, each contiguous.
// The first piece and the first block it owns are held inline, so parse()'s input (one piece, a
// copy in one block that holds its reference count too) costs one allocation and is copied into
// the result with none; the push parser's later pieces and blocks go in vectors.
class input_text {
public:
    struct piece {
        std::uint64_t begin = 0;  // absolute offset of bytes[0]
        std::string_view bytes;
        friend bool operator==(const piece&, const piece&) = default;
    };
    // Back to as constructed: no input (the pieces' room kept).
    void reset() noexcept {
        clear();
        copies_.clear();
    }
    // The same pieces (their bytes compared), blocks and copies: a state's equality, for the tests.
    friend bool operator==(const input_text&, const input_text&) = default;
    // parse(): the whole input, borrowed (the caller keeps it) or owned.
    void set_borrowed(std::string_view in) {
        clear();
        add_piece(piece{0, in});
    }
    void set_copied(std::string_view in);
    // The push parser: `bytes` at absolute offset `begin` are released (copied here).
    void append_copy(std::uint64_t begin, std::string_view bytes);
    // The push parser's finish(): its buffer taken over, `size` bytes at absolute offset `begin`
    // in a block of `capacity` bytes (counted as held).
    void append_owned(std::uint64_t begin, std::unique_ptr<char[]> block, std::size_t size, std::size_t capacity);

    [[nodiscard]] const char* at(std::uint64_t offset) const noexcept {
        if (more_.empty()) return first_.bytes.data() + (offset - first_.begin);
        return find(offset);
    }
    // Bytes and heap blocks held (memory accounting).
    [[nodiscard]] std::size_t bytes() const noexcept;
    [[nodiscard]] std::size_t blocks() const noexcept;
    [[nodiscard]] std::uint64_t end() const noexcept {
        if (!has_first_) return 0;
        const piece& l = more_.empty() ? first_ : more_.back();
        return l.begin + l.bytes.size();
    }

private:
    struct owned_block {
        std::shared_ptr<const char[]> data;
        std::size_t capacity = 0;
        std::size_t blocks = 0;  // heap blocks: 1 with its count, 2 when the count came apart
        friend bool operator==(const owned_block&, const owned_block&) = default;
    };
    void clear() noexcept;
    void add_piece(const piece& p);
    void add_owned(owned_block b);
    const char* find(std::uint64_t offset) const noexcept;

    bool has_first_ = false;
    piece first_;
    std::vector<piece> more_;  // the pieces after the first
    owned_block owned_first_;
    std::vector<owned_block> owned_more_;
    arena copies_;  // released stream input
};

// The packed form in `a` of the fields `mask` names (extras_field; x_suffix: a statement's
// suffix), `mask` 0 aside: `fields` are their bytes, already in packing order (what unpack_extras
// reads back into a stmt_extras, the record writer writes as they arrive); then the suffix; then,
// 8-byte aligned, the inline marks (x_marks) and the inline tags' references (x_tags), copied
// from where they are. (The suffix is kept apart from stmt_extras, which every statement decoded
// zeroes: at 128 bytes g++ zeroes it with `rep stos`, which costs more to start than the rest of
// the decoding.) Inline: the writer's finish() writes the block with no call but the arena's.
inline const unsigned char* pack_extras(std::uint16_t mask, std::span<const unsigned char> fields, sref suffix,
                                        std::span<const double> marks, std::span<const tag_list::ref> refs, arena& a) {
    const std::size_t n = fields.size();
    std::size_t size = sizeof mask + n + ((mask & x_suffix) != 0 ? sizeof suffix : 0);
    const std::size_t arrays = (size + 7) & ~std::size_t{7};
    const std::size_t array_bytes = marks.size_bytes() + refs.size_bytes();
    if (array_bytes != 0) size = arrays + array_bytes;
    auto* p = static_cast<unsigned char*>(a.allocate(size, array_bytes != 0 ? 8 : 1));
    std::memcpy(p, &mask, sizeof mask);
    unsigned char* w = p + sizeof mask;
    // (Every field takes 4 bytes or more: 8 at a time, the last 8 (or 4 and 4) overlapping.)
    const auto copy = [&](std::size_t at, auto word) {
        std::memcpy(&word, fields.data() + at, sizeof word);
        std::memcpy(w + at, &word, sizeof word);
    };
    if (n >= 8) {
        for (std::size_t i = 0; i + 8 < n; i += 8) copy(i, std::uint64_t{});
        copy(n - 8, std::uint64_t{});
    } else if (n != 0) {
        copy(0, std::uint32_t{});
        copy(n - 4, std::uint32_t{});
    }
    if ((mask & x_suffix) != 0) std::memcpy(w + n, &suffix, sizeof suffix);
    // (A few: element by element, no call.)
    auto* m = reinterpret_cast<double*>(p + arrays);
    for (std::size_t i = 0; i < marks.size(); ++i) m[i] = marks[i];
    auto* r = reinterpret_cast<tag_list::ref*>(p + arrays + marks.size_bytes());
    for (std::size_t i = 0; i < refs.size(); ++i) r[i] = refs[i];
    return p;
}
stmt_extras unpack_extras(const unsigned char* p, sref* suffix = nullptr) noexcept;
// A URL's fields in packed order (pack_url), the optional ones only when `has` says so. U is a
// url_fields, const or not.
template <class U, class Op>
constexpr void each_url_field(std::uint8_t has, U& u, Op&& op) {
    op(u.raw);
    op(u.scheme);
    op(u.pathname);
    if ((has & url_username) != 0) op(u.username);
    if ((has & url_password) != 0) op(u.password);
    if ((has & url_hostname) != 0) op(u.hostname);
    if ((has & url_port) != 0) op(u.port);
    if ((has & url_query) != 0) op(u.query);
    if ((has & url_fragment) != 0) op(u.fragment);
    if ((has & url_headers) != 0) {
        op(u.headers);
        op(u.header_count);
    }
}

// The packed size of a U by its `has` byte (the bits below url_sliced).
template <class U>
inline constexpr auto k_url_size = [] {
    std::array<std::uint8_t, 128> sizes{};
    for (unsigned has = 0; has < sizes.size(); ++has) {
        std::size_t size = 1;
        const U u;
        each_url_field(static_cast<std::uint8_t>(has), u, [&size](const auto& f) { size += sizeof f; });
        sizes[has] = static_cast<std::uint8_t>(size);
    }
    return sizes;
}();

// The packed form of `u` (a url_rec or a sliced_url) in `a` (decode_path reads it back). Inline:
// where the writer builds `u` field by field, g++ writes the fields straight into the block.
template <class U>
const unsigned char* pack_url(const U& u, arena& a) {
    auto* p = static_cast<unsigned char*>(a.allocate(k_url_size<U>[u.has & 127U], 1));
    p[0] = u.has;
    unsigned char* w = p + 1;
    each_url_field(u.has, u, [&w](const auto& f) {
        std::memcpy(w, &f, sizeof f);
        w += sizeof f;
    });
    return p;
}

// Resolves srefs: the arena by address, input offsets through the pieces, or (while a push
// parser builds) through its live buffer, which holds every offset from `live_begin` on.
struct text_resolver {
    const input_text* input = nullptr;
    std::uint64_t live_begin = UINT64_MAX;
    std::string_view live;

    [[nodiscard]] std::string_view str(const sref& s) const noexcept {
        if (s.n == 0) return {};
        if (s.in_arena()) return {s.address(), s.n};
        if (s.v >= live_begin) return {live.data() + (s.v - live_begin), s.n};
        return {input->at(s.v), s.n};
    }
};

// Items of records, as views (statement, diagnostic, text item).
statement decode_statement(const item_rec& r, const stmt_rec& s, const text_resolver& t);
diagnostic decode_diagnostic(const item_rec& r, const diag_rec* diags, const diag_message* messages);
text_item decode_text(const item_rec& r, const text_resolver& t);

// What parse_result::items holds.
class result_store {
public:
    pod_vector<item_rec> items;
    pod_vector<item_kind> kinds;
    pod_vector<stmt_rec> stmts;
    pod_vector<diag_rec> diags;
    pod_vector<diag_message> messages;  // the message table (diag_aux, diag_rec)
    pod_vector<text_rec> texts;  // text items built by hand
    input_text input;
    arena strings;

    [[nodiscard]] text_resolver resolver() const noexcept { return text_resolver{&input, UINT64_MAX, {}}; }
    [[nodiscard]] item decode(std::size_t i) const;
};


}  // namespace plurnk::detail
