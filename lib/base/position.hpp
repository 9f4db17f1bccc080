// SPDX-License-Identifier: MIT
// Byte offset -> (line, column) for one input. Lines are 1-based and advance on '\n' only;
// columns are 0-based code points (each invalid UTF-8 byte counts as one). Queries that move
// forward on the same line cost only the bytes in between (from the last query, or from one of
// the last few when sequences of queries interleave), so a sweep over a document is linear; a
// query a few lines past the last one steps there instead of binary-searching the line table.
// The line table is filled as queries need it, a stretch at a time, by a bulk search for the
// line ends (byte_scan.hpp): no call per line.
// Private header.
#pragma once

#include <algorithm>
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
        starts_.clear();
        starts_.push_back(0);
        marks_.clear();
        marked_to_ = 0;
        marked_col_ = 0;
        scanned_ = 0;
        for (query& q : last_) q = query{};
        head_ = 0;
    }

    position at(std::size_t offset) {
        // The common query: a little past the last one, before the end of its line as far as it
        // was known then. Counted from it, as below.
        const query& q = last_[head_];
        if (offset >= q.offset && offset - q.offset <= k_mark_gap && offset < q.bound && offset <= s_.size()) {
            return remember(q.line, offset, q.col + count_code_points(q.offset, offset));
        }
        return at_far(offset);
    }

    // at() for any other query.
    [[gnu::noinline]] position at_far(std::size_t offset) {
        if (offset > s_.size()) offset = s_.size();
        // A little past one of the last few (diagnostics of different kinds come in interleaved
        // sequences, each moving forward, on one line): counted from the newest such one. Looked
        // for only on the last query's line, as far as it is known, where such sequences are.
        for (std::size_t n = 1; n < k_queries && offset < last_[head_].bound; ++n) {
            const query& q = last_[(head_ + k_queries - n) % k_queries];
            if (offset >= q.offset && offset - q.offset <= k_mark_gap && offset < q.bound) {
                return remember(q.line, offset, q.col + count_code_points(q.offset, offset));
            }
        }
        ensure_lines_through(offset);
        // Index of the line containing offset: last line start <= offset.
        const std::size_t cached_line = last_[head_].line;
        std::size_t lo = 0, hi = starts_.size();
        if (cached_line < starts_.size() && starts_[cached_line] <= offset) {
            // Queries mostly move forward a line or two: step before searching.
            lo = cached_line;
            for (int step = 0; step < k_forward_steps && lo + 1 < hi && starts_[lo + 1] <= offset; ++step) ++lo;
        }
        if (lo + 1 < hi && starts_[lo + 1] <= offset) {
            while (hi - lo > 1) {
                const std::size_t mid = (lo + hi) / 2;
                if (starts_[mid] <= offset) lo = mid; else hi = mid;
            }
        }
        std::size_t from = starts_[lo];
        std::uint32_t col = 0;
        if (const query& q = last_[head_]; q.bound > 0 && q.line == lo && q.offset <= offset) {
            from = q.offset;  // the last query, before it on its line
            col = q.col;
        }
        if (offset - from > k_mark_gap) {
            // Far into a line from the line's start or the last queries (one going back on a long
            // line, which hostile input makes for every error, or a copy of a stream asking far
            // past what the original asked): count from the nearest mark, so that such queries
            // do not cost the line each.
            mark_through(offset);
            const mark* m = std::upper_bound(marks_.begin(), marks_.end(), offset,
                                             [](std::size_t o, const mark& k) { return o < k.offset; });
            if (m != marks_.begin() && std::prev(m)->offset > from) {
                from = std::prev(m)->offset;
                col = std::prev(m)->col;
            }
        }
        return remember(lo, offset, col + count_code_points(from, offset));
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
            const void* nl = std::memchr(s_.data() + marked_to_, '\n', target - marked_to_);
            if (nl != nullptr) {  // a line starts after it, at column 0
                marked_to_ = static_cast<std::size_t>(static_cast<const char*>(nl) - s_.data()) + 1;
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
    static constexpr int k_forward_steps = 4;
    static constexpr std::size_t k_first_lines = 64;
    static constexpr std::size_t k_mark_gap = 64;
    static constexpr std::size_t k_scan_ahead = 1024;

    position remember(std::size_t line, std::size_t offset, std::uint32_t col) {
        head_ = (head_ + 1) % k_queries;
        last_[head_] = query{line, offset, line + 1 < starts_.size() ? starts_[line + 1] : scanned_, col};
        return position{static_cast<std::uint32_t>(line_base_ + line + 1), col + (line == 0 ? col_base_ : 0)};
    }

    // A place where a column count can start (the count from its line's start lands there) and
    // the column there, about every k_mark_gap bytes of the input up to marked_to_.
    struct mark {
        std::uint32_t offset;
        std::uint32_t col;
    };

    void ensure_lines_through(std::size_t offset) {
        if (starts_.empty()) {
            starts_.reserve(k_first_lines);  // one block for a short input, not a doubling series
            starts_.push_back(0);
        }
        if (scanned_ > offset || scanned_ >= s_.size()) return;
        // Every line end through the offset and a stretch past it (so that the next queries,
        // a little further on, find their line known), in one bulk pass: no stop per line.
        const std::size_t to = std::min(s_.size(), offset + k_scan_ahead);
        byte_scan::each(s_, scanned_, to, '\n', [this](std::size_t k) { starts_.push_back(static_cast<std::uint32_t>(k + 1)); });
        scanned_ = to;
    }

    std::string_view s_;
    pod_vector<std::uint32_t> starts_;  // (offsets of one input fit 32 bits, as tokens' do)
    std::size_t scanned_ = 0;
    // A query answered: its line (index into starts_), offset and column from the line's start.
    struct query {
        std::size_t line = static_cast<std::size_t>(-1);
        std::size_t offset = 0;
        std::size_t bound = 0;  // no line starts after offset before this (0: no query)
        std::uint32_t col = 0;
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
