// SPDX-License-Identifier: MIT
// The push parser's input buffer (private header; stream.cpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string_view>
#include <utility>

#include "plurnk/stream.hpp"

namespace plurnk::detail {

// The input held: bytes that grow at the end and drop a settled prefix. Not a std::string, whose
// append is a call into the standard library: a feed of a token's few bytes is most of what a
// stream does, and here it is one bounds check (the room and the input limit together) and a
// few moves, inline.
class input_buffer {
public:
    input_buffer() = default;
    input_buffer(const input_buffer& o) { *this = o; }
    input_buffer& operator=(const input_buffer& o) {
        if (this != &o) {
            size_ = 0;
            if (o.size_ > cap_) {
                data_ = std::make_unique_for_overwrite<char[]>(o.size_);
                cap_ = o.size_;
            }
            if (o.size_ != 0) std::memcpy(data_.get(), o.data_.get(), o.size_);
            size_ = o.size_;
            set_limit(o.limit_);
        }
        return *this;
    }
    input_buffer(input_buffer&& o) noexcept
        : data_(std::move(o.data_)), size_(std::exchange(o.size_, 0)), cap_(std::exchange(o.cap_, 0)),
          limit_(std::exchange(o.limit_, 0)), end_(std::exchange(o.end_, 0)) {}
    input_buffer& operator=(input_buffer&& o) noexcept {
        data_ = std::move(o.data_);
        size_ = std::exchange(o.size_, 0);
        cap_ = std::exchange(o.cap_, 0);
        limit_ = std::exchange(o.limit_, 0);
        end_ = std::exchange(o.end_, 0);
        return *this;
    }
    ~input_buffer() = default;

    [[nodiscard]] std::string_view view() const noexcept { return {data_.get(), size_}; }
    [[nodiscard]] std::size_t size() const noexcept { return size_; }

    // Whether n more bytes fit without growing.
    [[nodiscard]] bool fits(std::size_t n) const noexcept { return n <= cap_ - size_; }
    // The most the buffer may hold (the input limit less what was released); at least size().
    void set_limit(std::size_t limit) noexcept {
        limit_ = limit;
        end_ = std::min(cap_, limit_);
    }
    // Whether n more bytes fit without growing and within the limit; how many fit within it.
    [[nodiscard]] bool fits_within_limit(std::size_t n) const noexcept { return n <= end_ - size_; }
    [[nodiscard]] std::size_t room_within_limit() const noexcept { return limit_ - size_; }
    void append(std::string_view s) {
        if (!fits(s.size())) grow(s.size());
        append_fitting(s);
    }
    // The same for bytes that fit.
    void append_fitting(std::string_view s) noexcept {
        if (s.size() > 16) {
            std::memcpy(data_.get() + size_, s.data(), s.size());
        } else {
            copy_short(data_.get() + size_, s.data(), s.size());
        }
        size_ += s.size();
    }
    // The same for 1 to 16 bytes that fit (a feed of a token's bytes): two overlapping moves, no
    // call. Returns the bytes held, known before the moves (which may alias the buffer's fields:
    // read after them, they would be loaded again).
    std::string_view append_few(std::string_view s) noexcept {
        const std::size_t n = s.size(), at = size_;
        char* const base = data_.get();
        char* const d = base + at;
        size_ = at + n;
        if (n < 4) {
            d[0] = s[0];
            if (n > 1) std::memcpy(d + n - 2, s.data() + n - 2, 2);
        } else if (n < 8) {
            std::memcpy(d, s.data(), 4);
            std::memcpy(d + n - 4, s.data() + n - 4, 4);
        } else {
            std::memcpy(d, s.data(), 8);
            std::memcpy(d + n - 8, s.data() + n - 8, 8);
        }
        return {base, at + n};
    }
    // Hands the block over (with the bytes held and its capacity); the buffer is left empty.
    struct taken {
        std::unique_ptr<char[]> block;
        std::size_t size = 0;
        std::size_t capacity = 0;
    };
    taken take() noexcept {
        end_ = 0;
        limit_ = 0;
        return taken{std::move(data_), std::exchange(size_, 0), std::exchange(cap_, 0)};
    }
    [[nodiscard]] std::size_t capacity() const noexcept { return cap_; }
    // Empty, with the block and no limit, as constructed but for the room (a stream's reset).
    void clear() noexcept {
        size_ = 0;
        set_limit(0);
    }
    // The same bytes and limit (the room is not compared).
    friend bool operator==(const input_buffer& a, const input_buffer& b) noexcept {
        return a.view() == b.view() && a.limit_ == b.limit_;
    }
    // Drops the first n bytes (the limit counts from the new first byte).
    void erase_front(std::size_t n) noexcept {
        std::memmove(data_.get(), data_.get() + n, size_ - n);
        size_ -= n;
        set_limit(limit_ - n);
    }

    // Room for `more` bytes past size_, at least doubling (appends stay amortized O(1) a byte).
    [[gnu::noinline]] void grow(std::size_t more) {
        const std::size_t cap = std::max({size_ + more, 2 * cap_, k_first_room});
        auto d = std::make_unique_for_overwrite<char[]>(cap);
        if (size_ != 0) std::memcpy(d.get(), data_.get(), size_);
        data_ = std::move(d);
        cap_ = cap;
        end_ = std::min(cap_, limit_);
    }

private:
    // memcpy() of n <= 16 bytes, as two overlapping fixed-size moves.
    static void copy_short(char* d, const char* s, std::size_t n) noexcept {
        if (n >= 8) {
            std::memcpy(d, s, 8);
            std::memcpy(d + n - 8, s + n - 8, 8);
        } else if (n >= 4) {
            std::memcpy(d, s, 4);
            std::memcpy(d + n - 4, s + n - 4, 4);
        } else if (n != 0) {
            d[0] = s[0];
            if (n > 1) {
                d[1] = s[1];
                d[n - 1] = s[n - 1];
            }
        }
    }

    // The first room: what is held before a release can happen (the default release threshold),
    // so that a stream of small feeds does not grow it from a few bytes by doubling.
    static constexpr std::size_t k_first_room = stream_parser::k_default_release_threshold;

    std::unique_ptr<char[]> data_;
    std::size_t size_ = 0;
    std::size_t cap_ = 0;
    std::size_t limit_ = 0;  // set_limit()
    std::size_t end_ = 0;    // min(cap_, limit_): what fits_within_limit() measures the room to
};

}  // namespace plurnk::detail
