// SPDX-License-Identifier: MIT
// canonical_json: JSON.stringify(JSON.parse(raw)) in one pass over the text, without building
// values (the scalar readers of json_scan.hpp), and in time linear in the text however deep its
// objects nest and however JavaScript reorders their members: array-index keys
// ("0".."4294967294", canonical form) first in ascending numeric order, then the others in
// insertion order; a repeated key keeps its first place and takes the last value. An object of
// more than 16 members goes through a json_document instead (json_document.cpp orders each
// object's members when it closes).
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "plurnk/json.hpp"
#include "base/work_counter.hpp"
#include "json_scan.hpp"
#include "json_tape.hpp"

namespace plurnk {

namespace {

using tape::array_index;
using tape::k_not_index;

// The one-pass writer.
class direct_writer : public detail::json_scanner {
public:
    using json_scanner::json_scanner;

    // JSON.stringify(JSON.parse(text)) written straight to `out`, without building values: the
    // same grammar and scalar readers as parse_document(), with the containers kept as a stack of
    // brackets and the open objects' keys in one buffer. Each value's text is written as it comes
    // (what JSON.stringify writes as it is in the text, held as a span of the text: put_text()).
    // An object whose members JavaScript lists in another order (an array-index key after a key
    // that is not a smaller index) or merges (a repeated key) is written in the text's order all
    // the same, and described by a record when it closes (add_record()); at the end,
    // write_ordered() writes the output in JavaScript's order, however deep such objects nest,
    // from the text itself when all of it was held. It returns false (`out` to be discarded) on invalid text, and (gave_up()) on an object
    // of more than k_direct_members members, whose repeats this pass does not look for, or a text
    // past the 32-bit offsets of its records: canonical_json() then takes the document path, but
    // only for such an object: text this pass found invalid, parse_document() would too.
    bool write_direct(std::string& out) {
        direct_buffers* bp = &buffers();
        asm("" : "+r"(bp));  // the address once: GCC would call __tls_get_addr at every use
        direct_buffers& b = *bp;
        struct lent {  // what a large text grew is given back on every return
            direct_buffers& b;
            ~lent() { b.trim(); }
        } guard{b};
        std::vector<char>& open = b.open;  // '[' or '{' per open container
        direct_frame f;  // the innermost open object
        for (;;) {
            skip_ws();
            if (pos_ >= text_.size()) return false;
            const auto c = static_cast<unsigned char>(text_[pos_]);
            if (c == '[' || c == '{') {
                put_text(out, pos_, pos_ + 1);
                ++pos_;
                skip_ws();
                if (accept(c == '[' ? ']' : '}')) {
                    put_text(out, pos_ - 1, pos_);
                } else {
                    open.push_back(static_cast<char>(c));
                    if (c == '{' && (!open_object(written(out) - 1, f, b) || !direct_member_key(out, f, b))) return false;
                    continue;
                }
            } else if (!write_scalar(out, c, b.scalar)) {
                return false;
            }
            // A value is complete: what follows it, closing containers as they end.
            for (;;) {
                if (open.empty()) {
                    skip_ws();
                    if (pos_ != text_.size()) return false;
                    finish(out, b);
                    return true;
                }
                const char top = open.back();
                skip_ws();
                if (pos_ >= text_.size()) return false;
                const char d = text_[pos_++];
                if (d == ',') {
                    put_text(out, pos_ - 1, pos_);
                    if (top == '{') {
                        skip_ws();
                        if (!direct_member_key(out, f, b)) return false;
                    }
                    break;
                }
                if (d != (top == '{' ? '}' : ']')) return false;
                put_text(out, pos_ - 1, pos_);
                if (top == '{' && !close_object(written(out), f, b)) return false;
                open.pop_back();
            }
        }
    }

    // A scalar (pos_ at its first byte, `c`) for write_direct(); `scalar` is room for a string
    // read with its escapes.
    bool write_scalar(std::string& out, unsigned char c, std::string& scalar) {
        if (c == '"') {
            const std::size_t end = skip_plain(pos_ + 1);
            if (end < text_.size() && text_[end] == '"') {  // written as it is
                put_text(out, pos_, end + 1);
                pos_ = end + 1;
                return true;
            }
            scalar.clear();
            if (!parse_string(scalar)) return false;
            flush(out);
            append_json_value_string(out, scalar);
            return true;
        }
        if (c == 't' || c == 'f' || c == 'n') {
            if (!parse_word(c == 't' ? "true" : c == 'f' ? "false" : "null")) return false;
            put_text(out, pos_ - (c == 'f' ? 5 : 4), pos_);
            return true;
        }
        const std::size_t start = pos_;
        double number = 0;
        if (!parse_number(number)) return false;
        if (plain_integer_ && (number != 0 || c != '-')) {  // written as it is (but -0)
            put_text(out, start, pos_);
        } else {
            flush(out);
            append_js_number(out, number);
        }
        return true;
    }

    // Whether write_direct() returned false for an object it cannot write in order, not for
    // invalid text.
    bool gave_up() const noexcept { return gave_up_; }

private:
    static constexpr std::size_t k_direct_members = 16;
    static constexpr std::uint32_t k_none = UINT32_MAX;
    static constexpr unsigned k_reorder = 0x40;  // in an object's state byte, beside its count

    // A stack of bytes written through a pointer to room made ahead (a std::string's appends of
    // a byte or two cost more than what this pass does with them).
    struct byte_stack {
        char* data = nullptr;
        std::size_t size = 0, capacity = 0;

        byte_stack() = default;
        byte_stack(const byte_stack&) = delete;
        byte_stack& operator=(const byte_stack&) = delete;
        ~byte_stack() { std::free(data); }
        // Room for `n` more bytes at data + size.
        char* room(std::size_t n) {
            if (capacity - size < n) grow(n);
            return data + size;
        }
        void grow(std::size_t n) {
            const std::size_t want = std::max({capacity * 2, size + n, std::size_t{256}});
            void* p = std::realloc(data, want);
            if (p == nullptr) throw std::bad_alloc();
            data = static_cast<char*>(p);
            capacity = want;
        }
        void end_at(const char* p) noexcept { size = static_cast<std::size_t>(p - data); }
        void release() noexcept {
            std::free(data);
            data = nullptr;
            size = capacity = 0;
        }
    };

    // write_direct()'s working storage, kept by the thread between calls: canonical_json() runs
    // once per SEND body, and allocating these afresh each time cost a few hundred instructions
    // per body. What a large body grew is given back.
    struct direct_buffers {
        std::vector<char> open;
        // The open objects, innermost last, read from the end. Each object: where its '{' is in
        // `out` and the bytes of records there were then, each over the enclosing object's, and
        // where that one's mark is, under this entry's start (varints written low part first with the first byte marked 0x80, so
        // that they read from their end), its state byte (its member count | k_reorder), and a
        // 0 byte (its mark). Then each member: its key's bytes, where its text starts in `out`
        // and the records then, over the object's, and its key's length + 1.
        byte_stack keys;
        std::string scalar;
        // A record per object to reorder, made when it closes (add_record() gives the layout),
        // so each one's descendants come before it.
        byte_stack records;
        // write_ordered()'s open records, and how many members of each it wrote.
        std::vector<std::uint32_t> writing;
        std::vector<std::uint8_t> written;

        void trim() {
            constexpr std::size_t k_keep = 4096;
            open.clear();
            keys.size = records.size = 0;
            writing.clear();
            written.clear();
            if (open.capacity() > k_keep) std::vector<char>().swap(open);
            if (keys.capacity > k_keep) keys.release();
            if (scalar.capacity() > k_keep) std::string().swap(scalar);
            if (records.capacity > k_keep) records.release();
            if (writing.capacity() > k_keep) std::vector<std::uint32_t>().swap(writing);
            if (written.capacity() > k_keep) std::vector<std::uint8_t>().swap(written);
        }
    };
    static direct_buffers& buffers() {
        thread_local direct_buffers b;
        return b;
    }

    // The innermost open object, as write_direct() keeps it at hand (its entry in the key
    // buffer gives the enclosing object's back when it closes).
    struct direct_frame {
        std::uint32_t mark = 0;     // its mark's place in the key buffer (0: no object is open)
        std::uint32_t start = 0;    // where its '{' is in `out`
        std::uint32_t records = 0;  // the bytes of records made before it opened
    };

    // The key buffer's varints, read from their end.
    static char* put_varint(char* p, std::uint32_t v) noexcept {
        *p++ = static_cast<char>((v & 0x7F) | 0x80);
        for (v >>= 7; v != 0; v >>= 7) *p++ = static_cast<char>(v & 0x7F);
        return p;
    }
    static std::uint32_t varint_before(const char* data, std::size_t& at) noexcept {
        std::uint32_t v = 0;
        for (;;) {
            const auto c = static_cast<unsigned char>(data[--at]);
            v = (v << 7) | (c & 0x7F);
            if (c >= 0x80) return v;
        }
    }

    // A member in the key buffer, read from its end.
    struct member_entry {  // no initializers: add_record() keeps 16 of them
        const char* key_at;
        std::uint32_t key_size, start, records;  // start and records over the object's
        std::string_view key() const noexcept { return {key_at, key_size}; }
    };
    // Steps back over the member that ends at `at`; false at the object's mark.
    static bool member_before(const char* data, std::size_t& at, member_entry& m) noexcept {
        if (data[at - 1] == '\0') return false;
        const std::uint32_t len = varint_before(data, at) - 1;
        m.records = varint_before(data, at);
        m.start = varint_before(data, at);
        at -= len;
        m.key_at = data + at;
        m.key_size = len;
        return true;
    }

    // Opens an object whose '{' is at `start` in `out` (its first member comes next).
    bool open_object(std::size_t start, direct_frame& f, direct_buffers& b) {
        if (start >= k_none || b.records.size >= k_none || b.keys.size >= k_none - 32) return give_up();
        const auto records = static_cast<std::uint32_t>(b.records.size);
        const auto entry = static_cast<std::uint32_t>(b.keys.size);
        char* p = b.keys.room(20);
        p = put_varint(p, static_cast<std::uint32_t>(start) - f.start);
        p = put_varint(p, records - f.records);
        p = put_varint(p, entry - f.mark);
        *p++ = '\0';  // the state byte: no member yet
        *p++ = '\0';  // the mark
        b.keys.end_at(p);
        f = {static_cast<std::uint32_t>(b.keys.size - 1), static_cast<std::uint32_t>(start), records};
        return true;
    }

    // A member key and its ':' for write_direct(); false when the key is invalid, or (setting
    // gave_up_) the member is one too many or starts past the records' reach. Marks the object
    // for a record when JavaScript would not list the member after the earlier ones: a repeat
    // of one, or an array index after a key that is not a smaller index.
    bool direct_member_key(std::string& out, direct_frame& f, direct_buffers& b) {
        byte_stack& keys = b.keys;
        unsigned state = static_cast<unsigned char>(keys.data[f.mark - 1]);
        const unsigned count = state & 31;
        if (count == k_direct_members || written(out) >= k_none || b.records.size >= k_none) return give_up();
        const std::size_t before = keys.size;  // where the key's bytes go
        const std::size_t text_start = pos_;
        const std::size_t end = pos_ < text_.size() && text_[pos_] == '"' ? skip_plain(pos_ + 1) : pos_;
        const bool plain = end > pos_ && end < text_.size() && text_[end] == '"';
        if (plain) {  // the common key: its bytes are its text's
            const std::size_t len = end - pos_ - 1;
            copy_bytes(keys.room(len), text_.data() + pos_ + 1, len);
            keys.size += len;
            pos_ = end + 1;
        } else {
            b.scalar.clear();
            if (!parse_string(b.scalar)) return false;
            std::memcpy(keys.room(b.scalar.size()), b.scalar.data(), b.scalar.size());
            keys.size += b.scalar.size();
        }
        const std::string_view key(keys.data + before, keys.size - before);
        if ((state & k_reorder) == 0 && count > 0) {
            member_entry m{};
            std::size_t at = before;
            member_before(keys.data, at, m);
            const std::uint64_t index = array_index(key);
            if (index != k_not_index) {
                // After a smaller index it is in order (and repeats none: the earlier keys are
                // smaller indexes); after any other key, not.
                if (array_index(m.key()) >= index) state |= k_reorder;
            } else {
                do {
                    if (m.key() == key) {
                        state |= k_reorder;  // a repeat
                        break;
                    }
                } while (member_before(keys.data, at, m));
            }
        }
        skip_ws();
        if (!accept(':')) return false;
        // Where the member starts in `out`, the records then, and the key's length, after its
        // bytes.
        char* p = keys.room(20);
        p = put_varint(p, static_cast<std::uint32_t>(written(out)) - f.start);
        p = put_varint(p, static_cast<std::uint32_t>(b.records.size) - f.records);
        p = put_varint(p, static_cast<std::uint32_t>(keys.size - before + 1));
        keys.end_at(p);
        keys.data[f.mark - 1] = static_cast<char>(state + 1);
        if (plain) {  // "key" and ':' as they are
            put_text(out, text_start, end + 1);
            put_text(out, pos_ - 1, pos_);
        } else {
            flush(out);
            append_json_value_string(out, b.scalar);
            put_text(out, pos_ - 1, pos_);
        }
        return true;
    }

    // Closes the innermost open object, whose '}' ends `out` at `end`: its record when it has
    // one, then the enclosing object's frame back from its entry. False (setting gave_up_) when
    // the record would not fit.
    bool close_object(std::size_t end, direct_frame& f, direct_buffers& b) {
        byte_stack& keys = b.keys;
        if ((static_cast<unsigned char>(keys.data[f.mark - 1]) & k_reorder) != 0 && !add_record(end, f, b)) {
            return give_up();
        }
        std::size_t at = f.mark - 1;  // the state byte
        const std::uint32_t mark = varint_before(keys.data, at);
        const std::uint32_t records = varint_before(keys.data, at);
        const std::uint32_t start = varint_before(keys.data, at);
        keys.size = at;
        f = {static_cast<std::uint32_t>(at) - mark, f.start - start, f.records - records};
        return true;
    }

    // memcpy(to, from, n), inline for the few bytes a key or a member's piece usually has.
    static void copy_bytes(char* to, const char* from, std::size_t n) noexcept {
        if (n > 16) {
            std::memcpy(to, from, n);
        } else if (n >= 8) {  // two words, overlapping
            std::memcpy(to, from, 8);
            std::memcpy(to + n - 8, from + n - 8, 8);
        } else if (n >= 4) {
            std::memcpy(to, from, 4);
            std::memcpy(to + n - 4, from + n - 4, 4);
        } else {
            for (std::size_t i = 0; i < n; ++i) to[i] = from[i];
        }
    }
    static std::uint32_t load32(const char* p) noexcept {
        std::uint32_t v = 0;
        std::memcpy(&v, p, 4);
        return v;
    }
    static char* store32(char* p, std::uint32_t v) noexcept {
        std::memcpy(p, &v, 4);
        return p + 4;
    }

    // The record of the innermost open object, whose text ends at `end`. Its bytes in
    // b.records, at its place `self`, of fixed widths so that write_ordered() reads a field
    // where it is, as often as it needs:
    //   4 bytes  the outermost record opened when the records ended at `self` (so whose
    //            descendants, if any, begin here): this one, until an enclosing record replaces
    //            it; write_ordered() finds the next record of a text through it
    //   1 byte   n, its members in the text; 1 byte k, the members written
    //   (k + 1) / 2 bytes  the places in the text of the members to write, in order, 4 bits
    //            each, low first
    //   4 bytes each, n + 1 of them: where each member starts in `out` (the first after the
    //            '{'), and `end`
    //   4 bytes each, n of them: per member, the first of the records in it that no other
    //            record in it encloses (k_none: none)
    // A repeated key's first member is written with the text of its last (the same key, the
    // last value); its other members are not written.
    bool add_record(std::size_t end, const direct_frame& f, direct_buffers& b) {
        byte_stack& r = b.records;
        if (end >= k_none || r.size >= k_none - 1024) return false;
        member_entry m[k_direct_members];
        std::size_t n = 0;
        for (std::size_t at = b.keys.size; member_before(b.keys.data, at, m[n]);) ++n;
        std::reverse(m, m + n);
        std::uint32_t start[k_direct_members + 1], first[k_direct_members + 1], index[k_direct_members];
        std::uint8_t text_of[k_direct_members];  // per first member with its key, its last
        constexpr std::uint8_t k_repeat = k_direct_members;  // a repeat: not written
        for (std::size_t i = 0; i < n; ++i) {
            start[i] = f.start + m[i].start;
            first[i] = f.records + m[i].records;
            index[i] = static_cast<std::uint32_t>(std::min<std::uint64_t>(array_index(m[i].key()), k_none));
            text_of[i] = static_cast<std::uint8_t>(i);
            for (std::size_t j = 0; j < i; ++j) {
                if (text_of[j] == k_repeat || m[j].key() != m[i].key()) continue;
                text_of[j] = static_cast<std::uint8_t>(i);
                text_of[i] = k_repeat;
                break;
            }
        }
        const auto self = static_cast<std::uint32_t>(r.size);
        start[n] = static_cast<std::uint32_t>(end);
        first[n] = self;
        // Array indexes ascending (by insertion: at most 16), then the other keys as they came.
        std::uint8_t order[k_direct_members];
        std::size_t k = 0;
        for (std::size_t i = 0; i < n; ++i) {
            if (text_of[i] == k_repeat || index[i] == k_none) continue;
            std::size_t j = k++;
            for (; j > 0 && index[order[j - 1]] > index[i]; --j) order[j] = order[j - 1];
            order[j] = static_cast<std::uint8_t>(i);
        }
        for (std::size_t i = 0; i < n; ++i) {
            if (text_of[i] != k_repeat && index[i] == k_none) order[k++] = static_cast<std::uint8_t>(i);
        }
        char* p = r.room(6 + k_direct_members / 2 + 4 * (2 * k_direct_members + 1));
        p = store32(p, self);
        *p++ = static_cast<char>(n);
        *p++ = static_cast<char>(k);
        for (std::size_t j = 0; j < k; j += 2) {
            *p++ = static_cast<char>(text_of[order[j]] | (j + 1 < k ? text_of[order[j + 1]] << 4 : 0));
        }
        for (std::size_t i = 0; i <= n; ++i) p = store32(p, start[i]);
        for (std::size_t i = 0; i < n; ++i) p = store32(p, first[i] < first[i + 1] ? load32(r.data + first[i]) : k_none);
        r.end_at(p);
        std::memcpy(r.data + f.records, &self, 4);
        detail::count_json_bytes(n);
        return true;
    }

    // A record where it is (add_record()).
    struct record {
        const char* at = nullptr;  // its bytes
        std::uint32_t self = 0, n = 0, k = 0;
        const char* starts = nullptr;

        void read(const char* r, std::uint32_t at_record) noexcept {
            self = at_record;
            at = r + self;
            n = static_cast<unsigned char>(at[4]);
            k = static_cast<unsigned char>(at[5]);
            starts = at + 6 + (k + 1) / 2;
        }
        // The place in the text of the member written j-th.
        std::uint32_t place(std::uint32_t j) const noexcept {
            return (static_cast<unsigned char>(at[6 + j / 2]) >> (4 * (j & 1))) & 15;
        }
        // Where member i starts (i == n: where the record's text ends).
        std::uint32_t start(std::uint32_t i) const noexcept { return load32(starts + 4 * i); }
        std::uint32_t top(std::uint32_t i) const noexcept { return load32(starts + 4 * (n + 1 + i)); }
        std::uint32_t size() const noexcept { return static_cast<std::uint32_t>(starts - at) + 4 * (2 * n + 1); }
    };
    // Where the text of the record at `self` starts (its '{').
    static std::size_t text_start(const char* r, std::uint32_t self) noexcept {
        const char* at = r + self;
        return load32(at + 6 + (static_cast<unsigned char>(at[5]) + 1) / 2) - 1;
    }
    static std::uint32_t outermost_at(const char* r, std::uint32_t at) noexcept { return load32(r + at); }

    // Writes to `out` (empty) the output [from, from + size), written in the text's order with
    // b.records made, in JavaScript's order, each byte copied once: a span of it is copied up to
    // the first record in it that no other record in it encloses, then that record's members in
    // its order (each a span of its own), then the rest of the span after the record, up to the
    // next.
    static void write_ordered(std::string& out, const char* from, std::size_t size, direct_buffers& b) {
        const char* r = b.records.data;
        const auto records = static_cast<std::uint32_t>(b.records.size);
        std::vector<std::uint32_t>& writing = b.writing;
        std::vector<std::uint8_t>& written = b.written;
        out.resize(size);
        char* p = out.data();
        const auto copy = [&p, from](std::size_t s, std::size_t e) {
            copy_bytes(p, from + s, e - s);
            p += e - s;
        };
        record rec;  // the innermost open record, read
        // The span [s, e) to copy, and x, the first record in it that no other record in it
        // encloses (or a record after it, or k_none).
        std::size_t s = 0, e = size;
        std::uint32_t x = outermost_at(r, 0);
        for (;;) {
            if (x != k_none && text_start(r, x) < e) {
                copy(s, text_start(r, x));
                *p++ = '{';
                writing.push_back(x);
                written.push_back(0);
                rec.read(r, x);
            } else {
                copy(s, e);
                if (writing.empty()) break;
            }
            // The innermost open record's next member, or its end.
            std::uint8_t& done = written.back();
            if (done < rec.k) {
                if (done > 0) *p++ = ',';
                const std::uint32_t i = rec.place(done++);
                s = rec.start(i);
                e = rec.start(i + 1) - 1;
                x = rec.top(i);
                continue;
            }
            *p++ = '}';
            s = rec.start(rec.n);
            const std::uint32_t next = rec.self + rec.size();
            writing.pop_back();
            written.pop_back();
            std::uint32_t limit = records;
            e = size;
            if (!writing.empty()) {  // the rest of the enclosing record's member
                rec.read(r, writing.back());
                e = rec.start(rec.place(written.back() - 1u) + 1) - 1;
                limit = rec.self;
            }
            x = next < limit ? outermost_at(r, next) : k_none;
        }
        out.resize(static_cast<std::size_t>(p - out.data()));
    }

    // What write_direct() writes that JSON.stringify writes as it is in the text, text_[a, b), is
    // held as one span of the text while such pieces meet (and each follows the one before:
    // nothing between them was skipped) and appended to `out` only when something else must be
    // written: a text already written as JSON.stringify writes it costs no copy here, and at
    // the end (finish()) is copied once, or once in JavaScript's order. written() is where the
    // output has got to.
    void put_text(std::string& out, std::size_t a, std::size_t b) {
        if (a != held_end_) {
            flush(out);
            held_start_ = a;
        }
        held_end_ = b;
    }
    void flush(std::string& out) {
        out.append(text_.data() + held_start_, held_end_ - held_start_);
        held_start_ = held_end_;
    }
    std::size_t written(const std::string& out) const noexcept { return out.size() + (held_end_ - held_start_); }
    // The output complete, in JavaScript's order.
    void finish(std::string& out, direct_buffers& b) {
        if (b.records.size == 0) {
            flush(out);
        } else if (out.empty()) {  // all of it held: ordered from the text
            write_ordered(out, text_.data() + held_start_, held_end_ - held_start_, b);
        } else {
            flush(out);
            std::string text_order;
            text_order.swap(out);
            detail::count_json_bytes(text_order.size());
            write_ordered(out, text_order.data(), text_order.size(), b);
        }
    }

    bool give_up() noexcept {
        gave_up_ = true;
        return false;
    }

    std::size_t held_start_ = 0, held_end_ = 0;  // the span of text_ write_direct() holds
    bool gave_up_ = false;
};

}  // namespace

std::optional<std::string> canonical_json(std::string_view raw) {
    {
        std::string out;
        out.reserve(raw.size());
        direct_writer direct(raw);
        const bool written = direct.write_direct(out);
        detail::count_json_bytes(raw.size() + out.size());  // read, and written once
        if (written) return out;
        // Invalid text: parse_document() would stop at the same byte.
        if (!direct.gave_up()) return std::nullopt;
    }
    const auto doc = json_document::parse(raw);
    if (!doc) return std::nullopt;
    std::string out;
    out.reserve(raw.size());
    append_json_value(out, doc->root());
    detail::count_json_bytes(out.size());
    return out;
}

}  // namespace plurnk
