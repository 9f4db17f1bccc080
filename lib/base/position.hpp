// SPDX-License-Identifier: MIT
// Byte offset -> (line, column) for one input. Lines are 1-based and advance on '\n' only;
// columns are 0-based code points (each invalid UTF-8 byte counts as one). Only the queries'
// offsets get a line number: no table of line starts. A cursor (the furthest query: its offset,
// line, line start and column) moves forward by counting the line ends in between in bulk
// (byte_scan: 16 bytes a compare where the target has SSE2; a step of up to 64 bytes, a
// statement's length, as the bits of one word), and the column is counted from the cursor or
// from the last line end passed, so a forward sweep costs each byte once. As it moves, the cursor leaves its line (and
// line start, when known without a search) at every k_block-th byte: a few bytes of table per
// k_block of input, nothing per line. A query behind the cursor counts from the block it falls
// in: at most k_block bytes for the line. Its column is counted from a query a little before it on
// its line (diagnostics of different kinds come in interleaved sequences), the line's start or
// a mark (see `mark`), so that going back and forth on a long line does not cost the line each.
// Private header.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "plurnk/ast.hpp"
#include "base/byte_scan.hpp"
#include "base/pod_vector.hpp"
#include "base/utf8.hpp"
#include "base/work_counter.hpp"

namespace plurnk::detail {

class position_map {
public:
    // `counted`: its counting goes to the work counter (work_counter.hpp). The result builder's
    // map is counted; a map over one item (the near-miss advisories') is part of that item's
    // processing, which a stream's draft that settles an open item pays again, as a checkpoint's
    // O(retained()) allows.
    explicit position_map(std::string_view s, bool counted = false) : s_(s), counted_(counted) {}

    // Back to as constructed over no input (`counted` kept), the tables' room kept.
    void reset() noexcept {
        s_ = {};
        cur_ = cursor{};
        blocks_.clear();
        for (query& q : last_) q = query{};
        head_ = 0;
        marks_.clear();
        marked_to_ = 0;
        marked_col_ = 0;
        line_base_ = 0;
        col_base_ = 0;
    }
    // The same state (the input compared by its bytes): a state's equality, for the tests.
    friend bool operator==(const position_map&, const position_map&) = default;

    // Points the map at the same input grown (or moved): what was computed stays valid.
    void rebind(std::string_view s) noexcept { s_ = s; }

    // The input's first `cut` bytes are being dropped (the push parser releasing settled input):
    // later offsets count from the cut, and positions stay those of the whole input. `cut` must
    // not fall inside a UTF-8 sequence. The map forgets its view until the next rebind().
    void release(std::size_t cut) {
        const position p = at(cut);
        line_base_ = p.line - 1;
        col_base_ = p.column;
        s_ = {};
        cur_ = cursor{};
        blocks_.clear();
        marks_.clear();
        marked_to_ = 0;
        marked_col_ = 0;
        for (query& q : last_) q = query{};
        head_ = 0;
    }

    // Inline: the builder's query, at the start of the next statement on a line of its own (a
    // step forward that ends at a line end, within a block), costs a bulk count of the new bytes'
    // line ends (a statement's length or less: the 64 bytes that end there as the bits of a word)
    // and the cursor's move, with no call.
    position at(std::size_t offset) {
        const std::size_t from = cur_.offset;
        if (offset > from && offset <= s_.size() && s_[offset - 1] == '\n' &&
            (from ^ offset) < k_block) {  // (within one block: none to leave)
            if (const std::size_t base = offset - 64; offset - from <= 64 && offset >= 64) {
                cur_.line += bit_count(byte_scan::mask64(s_.data() + base, '\n') & (~std::uint64_t{0} << (from - base)));
            } else {
                cur_.line += byte_scan::count(s_, from, offset, '\n');
            }
            cur_.line_start = offset;
            cur_.offset = offset;
            cur_.col = 0;
            return remember(cur_.line, offset, 0);
        }
        return at_far(offset);
    }
    [[gnu::noinline]] position at_far(std::size_t offset) {
        if (offset > s_.size()) offset = s_.size();
        return offset >= cur_.offset ? ahead(offset) : behind(offset);
    }

    // A query at or past the cursor: the cursor moves there.
    position ahead(std::size_t offset) {
        std::size_t from = cur_.offset;
        std::uint32_t col = cur_.col;
        move_cursor(offset);
        if (cur_.line_start > from) {  // a line end passed: counted from the line's start
            from = cur_.line_start;
            col = 0;
        }
        // Far into a line from where the count can start (a copy of a stream asking far past what
        // the original asked, which placed the marks before it was copied): from the nearest mark
        // there is, so that such queries do not cost the line each.
        if (offset - from > k_mark_gap && !marks_.empty() && marks_.back().offset > from) from_mark(offset, from, col);
        col += count_code_points(from, offset);
        cur_.col = col;
        return remember(cur_.line, offset, col);
    }

    // A query behind the cursor.
    [[gnu::noinline]] position behind(std::size_t offset) {
        // A little past one of the last few on its line: counted from the newest such one.
        for (std::size_t n = 0; n < k_queries; ++n) {
            const query& q = last_[(head_ + k_queries - n) % k_queries];
            if (q.line != k_no_line && offset >= q.offset && offset - q.offset <= k_mark_gap &&
                (offset == q.offset || std::memchr(s_.data() + q.offset, '\n', offset - q.offset) == nullptr)) {
                return remember(q.line, offset, q.col + count_code_points(q.offset, offset));
            }
        }
        // The line from the block the offset falls in (the cursor passed it).
        const std::size_t block = offset / k_block;
        std::size_t last = k_none;
        const std::size_t line = line_at_block(block) + count_line_ends(block * k_block, offset, last);
        std::size_t from = last != k_none ? last + 1 : line_start_at_block(block);
        std::uint32_t col = 0;
        for (const query& q : last_) {  // the nearest earlier query on its line
            if (q.line == line && q.offset <= offset && q.offset > from) {
                from = q.offset;
                col = q.col;
            }
        }
        if (offset - from > k_mark_gap) {
            // Far into a line (one going back on a long line, which hostile input makes for every
            // error): counted from the nearest mark.
            mark_through(offset);
            from_mark(offset, from, col);
        }
        return remember(line, offset, col + count_code_points(from, offset));
    }

    // Places the marks (see `mark`) through `offset`: done as queries need them, and by a stream
    // before it is copied, so that the copy does not count again what the original has.
    void mark_through(std::size_t offset) {
        // Not into the last 3 bytes: a stream's input may end inside a UTF-8 sequence, which
        // counted now (each byte one, as invalid) would count otherwise once it is complete. A
        // sequence that starts before a mark's target ends within 3 bytes after it, so every
        // one counted here is whole.
        const std::size_t whole = s_.size() >= 3 ? s_.size() - 3 : 0;
        if (offset > whole) offset = whole;
        while (marked_to_ + k_mark_gap <= offset) {
            const std::size_t target = marked_to_ + k_mark_gap;
            std::size_t last = k_none;
            if (count_line_ends(marked_to_, target, last) != 0) {  // a line starts after the last, at column 0
                marked_to_ = last + 1;
                marked_col_ = 0;
                continue;
            }
            std::size_t end = 0;
            marked_col_ += count_code_points(marked_to_, target, end);
            marked_to_ = end;
            marks_.push_back(mark{static_cast<std::uint32_t>(end), marked_col_});
        }
    }

    // Code points in [from, to), each byte outside a well-formed sequence counting one.
    std::uint32_t count_code_points(std::size_t from, std::size_t to) const noexcept {
        std::size_t end = 0;
        return count_code_points(from, to, end);
    }
    // The same, and where the count stopped: `to`, or past it when a sequence straddles it.
    std::uint32_t count_code_points(std::size_t from, std::size_t to, std::size_t& end) const noexcept {
        std::uint32_t n = 0;
        std::size_t i = from;
        while (i < to) {
            if (i + 8 <= to) {
                // Eight ASCII bytes are eight code points.
                std::uint64_t w;
                std::memcpy(&w, s_.data() + i, 8);
                if ((w & 0x8080808080808080ULL) == 0) {
                    i += 8;
                    n += 8;
                    continue;
                }
            }
            const auto b = static_cast<unsigned char>(s_[i]);
            if (b < 0x80) {
                ++i;
                ++n;
                continue;
            }
            const std::size_t len = utf8_sequence_length(s_, i);
            i += len == 0 ? 1 : len;
            ++n;
        }
        end = i;
        if (counted_) count_position_bytes(i - from);
        return n;
    }

private:
    static constexpr std::size_t k_mark_gap = 64;
    static constexpr std::size_t k_block = 512;  // (a power of 2: at(); a run of count_fixed)
    static constexpr std::uint32_t k_unknown = static_cast<std::uint32_t>(-1);
    static constexpr std::size_t k_none = static_cast<std::size_t>(-1);
    static constexpr std::size_t k_no_line = static_cast<std::size_t>(-1);

    // A block's line (0-based, from the cut) and line start (see blocks_).
    struct block_start {
        std::uint32_t line;
        std::uint32_t line_start;
        friend bool operator==(const block_start&, const block_start&) = default;
    };

    position remember(std::size_t line, std::size_t offset, std::uint32_t col) {
        head_ = (head_ + 1) % k_queries;
        last_[head_] = query{line, offset, col};
        return position{static_cast<std::uint32_t>(line_base_ + line + 1), col + (line == 0 ? col_base_ : 0)};
    }

    // The cursor to `offset` (not behind it): the line ends in between counted, the line at
    // each k_block-th byte passed left in blocks_ (and the line start there, when no line ended
    // since the cursor's: found otherwise only if a query behind needs it).
    void move_cursor(std::size_t offset) {
        if (!step_cursor(offset)) move_far(offset);
    }
    [[gnu::noinline]] void move_far(std::size_t offset) {
        std::size_t k = cur_.offset;
        std::size_t n = 0;  // line ends in [cur_.offset, k)
        if (const std::size_t next = (k / k_block + 1) * k_block; next <= offset) {
            n += count_line_ends(k, next);
            leave_block(n);
            for (k = next; k + k_block <= offset; k += k_block) {
                n += count_block(k);
                leave_block(n);
            }
        }
        n += count_line_ends(k, offset);
        if (n != 0) {
            cur_.line += n;
            cur_.line_start = last_line_end(cur_.offset, offset) + 1;
        }
        cur_.offset = offset;
    }
    // The common move, a statement's length or so: the line ends in the 64 bytes that end at
    // `offset` as the bits of one word, those before the cursor cleared (and a block's start
    // passed on the way left with its line and line start, both known from the bits).
    bool step_cursor(std::size_t offset) noexcept {
        const std::size_t from = cur_.offset;
        if (offset == from) return true;
        if (offset - from > 64 || offset < 64) return false;
        const std::size_t base = offset - 64;
        const std::uint64_t m = byte_scan::mask64(s_.data() + base, '\n') & (~std::uint64_t{0} << (from - base));
        if (const std::size_t next = (from / k_block + 1) * k_block; next <= offset) {
            const std::uint64_t before = next - base == 64 ? m : m & ((std::uint64_t{1} << (next - base)) - 1);
            push_block(block_start{
                static_cast<std::uint32_t>(cur_.line + bit_count(before)),
                static_cast<std::uint32_t>(before != 0 ? base + 64 - static_cast<std::size_t>(std::countl_zero(before))
                                                       : cur_.line_start)});
        }
        if (m != 0) {
            cur_.line += bit_count(m);
            cur_.line_start = base + 64 - static_cast<std::size_t>(std::countl_zero(m));
        }
        cur_.offset = offset;
        return true;
    }
    static std::size_t bit_count(std::uint64_t m) noexcept {
        if ((m & (m - 1)) == 0) return m != 0 ? 1 : 0;  // (mostly: a line end in a statement's length)
#if defined(__POPCNT__)
        return static_cast<std::size_t>(std::popcount(m));
#else
        m = m - ((m >> 1) & 0x5555555555555555ULL);  // (without the instruction, no library call)
        m = (m & 0x3333333333333333ULL) + ((m >> 2) & 0x3333333333333333ULL);
        m = (m + (m >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return static_cast<std::size_t>((m * 0x0101010101010101ULL) >> 56);
#endif
    }
    void leave_block(std::size_t ends) {
        push_block(block_start{static_cast<std::uint32_t>(cur_.line + ends),
                               ends == 0 ? static_cast<std::uint32_t>(cur_.line_start) : k_unknown});
    }
    // The table's room, when it is full: for every block of the input the map has (one a k_block
    // bytes of it), so that a parse's one input makes one allocation and no copy, whatever lies
    // next to it on the heap; at least twice what it had, so that a stream's growing input makes
    // few; and at least 16 (128 bytes), so that a small input's few blocks take one. It is full
    // only when it holds every block of the input it had then, so it never holds more than 16
    // blocks or two a k_block bytes of the largest input the map had (16 bytes a 512).
    void push_block(const block_start& b) {
        if (blocks_.size() == blocks_.capacity()) reserve_blocks();
        blocks_.push_back(b);
    }
    [[gnu::noinline]] void reserve_blocks() {
        const std::size_t twice = blocks_.capacity() < 8 ? 16 : 2 * blocks_.capacity();
        blocks_.reserve(std::max(s_.size() / k_block, twice));
    }

    // The line (0-based, from the cut) and the line start at offset `block` * k_block, which the
    // cursor passed. A line start not known is found from the nearest block before it that has
    // one known or a line end, and left in every block on the way (each found once).
    std::size_t line_at_block(std::size_t block) const noexcept { return block == 0 ? 0 : blocks_[block - 1].line; }
    std::size_t line_start_at_block(std::size_t block) noexcept {
        std::size_t j = block;
        std::size_t start = 0;
        for (; j > 0; --j) {
            if (blocks_[j - 1].line_start != k_unknown) {
                start = blocks_[j - 1].line_start;
                break;
            }
            if (line_at_block(j) != line_at_block(j - 1)) {
                start = last_line_end((j - 1) * k_block, j * k_block) + 1;
                blocks_[j - 1].line_start = static_cast<std::uint32_t>(start);
                break;
            }
        }
        for (; j < block; ++j) blocks_[j].line_start = static_cast<std::uint32_t>(start);  // blocks j + 1 ... block
        return start;
    }

    // The '\n' in [from, to): how many, and where the last is (`last` left alone when none).
    std::size_t count_line_ends(std::size_t from, std::size_t to, std::size_t& last) const noexcept {
        const std::size_t n = count_line_ends(from, to);
        if (n != 0) last = last_line_end(from, to);
        return n;
    }

    // The '\n' in [from, to), in the k_block bytes from `from`, and the last one in [from, to),
    // which has one: bulk scans (byte_scan), 16 bytes a compare, that read no byte outside the view.
    std::size_t count_line_ends(std::size_t from, std::size_t to) const noexcept { return byte_scan::count(s_, from, to, '\n'); }
    std::size_t count_block(std::size_t from) const noexcept { return byte_scan::count_fixed<k_block>(s_.data() + from, '\n'); }
    std::size_t last_line_end(std::size_t from, std::size_t to) const noexcept { return byte_scan::last(s_, from, to, '\n'); }

    // A place where a column count can start (the count from its line's start lands there) and
    // the column there, about every k_mark_gap bytes of the input up to marked_to_.
    struct mark {
        std::uint32_t offset;
        std::uint32_t col;
        friend bool operator==(const mark&, const mark&) = default;
    };

    // The count to `offset` from the last mark before it instead, when that is past `from`.
    void from_mark(std::size_t offset, std::size_t& from, std::uint32_t& col) const {
        const mark* m = std::upper_bound(marks_.begin(), marks_.end(), offset,
                                         [](std::size_t o, const mark& k) { return o < k.offset; });
        if (m != marks_.begin() && std::prev(m)->offset > from) {
            from = std::prev(m)->offset;
            col = std::prev(m)->col;
        }
    }

    std::string_view s_;
    // The furthest query: its offset, its line (0-based, from the cut), where that line starts
    // and the column there.
    struct cursor {
        std::size_t offset = 0;
        std::size_t line = 0;
        std::size_t line_start = 0;
        std::uint32_t col = 0;
        friend bool operator==(const cursor&, const cursor&) = default;
    };
    cursor cur_;
    // The line and line start (k_unknown: not found yet) at offset (i + 1) * k_block, for each
    // such offset the cursor passed (offsets of one input fit 32 bits, as tokens' do).
    pod_vector<block_start> blocks_;
    // A query answered: its line, offset and column.
    struct query {
        std::size_t line = k_no_line;
        std::size_t offset = 0;
        std::uint32_t col = 0;
        friend bool operator==(const query&, const query&) = default;
    };
    static constexpr std::size_t k_queries = 4;
    query last_[k_queries];  // the last few, the newest at head_ (a ring)
    std::size_t head_ = 0;
    bool counted_ = false;
    pod_vector<mark> marks_;      // increasing offsets (see mark_through)
    std::size_t marked_to_ = 0;   // marks are made up to here (a place a count can start)
    std::uint32_t marked_col_ = 0;  // the column there
    std::uint32_t line_base_ = 0;  // lines and first-line columns before offset 0 (see release())
    std::uint32_t col_base_ = 0;
};

}  // namespace plurnk::detail
